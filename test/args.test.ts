import { type AnalyzeArgs, plainAnalyzeArgs } from '../src/cli/args';
import { parser } from '../src/cli/cli';

const FIELDS: (keyof AnalyzeArgs)[] = [
  'inputs',
  'output',
  'skin',
  'mines',
  'json',
  'board',
  'trustFlags',
  'probabilities',
  'debug',
  'recursive',
  'jobs',
  'explain',
  'export',
];

/** What yargs hands the analysis command for `argv`, or the reason it does not. */
async function yargsReading(argv: string[]): Promise<Partial<AnalyzeArgs> | string> {
  let read: Partial<AnalyzeArgs> | string = 'not the analysis command';
  try {
    await parser(
      argv,
      async (args) => {
        read = Object.fromEntries(FIELDS.map((field) => [field, args[field]]));
        return 0;
      },
      () => {},
    ).parseAsync();
  } catch (err) {
    read = `yargs refused it: ${String(err)}`;
  }
  return read;
}

const plainReading = (argv: string[]): Partial<AnalyzeArgs> | undefined => {
  const args = plainAnalyzeArgs(argv);
  return args && Object.fromEntries(FIELDS.map((field) => [field, args[field]]));
};

/** Words of command lines: inputs, every option's spellings, values good and bad, and what only yargs reads. */
const WORDS = [
  'shot.png',
  'b.png',
  'dir/',
  'board.txt',
  'learn',
  'serve',
  '123',
  '0x10',
  '1e3',
  '2024-05-01.png',
  '',
  '-o',
  '--output',
  'out.png',
  '--skin',
  'win7',
  'none',
  '--mines',
  '99',
  '007',
  '0',
  'abc',
  '-5',
  '2.5',
  '--jobs',
  '2',
  '--json',
  '--board',
  '--trust-flags',
  '--trustFlags',
  '-r',
  '--recursive',
  '--debug',
  '--probabilities',
  '--explain',
  '3,7',
  '--export',
  'mine',
  'ascii',
  'bogus',
  'true',
  'false',
  '--no-json',
  '--mines=5',
  '-',
  '--',
  '--help',
  '-ro',
  '--version',
  '--bogus',
  '-O',
];

function randomLine(random: () => number): string[] {
  const length = Math.floor(random() * 7);
  return Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]);
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('the analysis command read without yargs', () => {
  test('plain command lines are read, as yargs reads them', async () => {
    const lines = [
      ['shot.png'],
      ['shot.png', '-o', 'out.png'],
      ['shot.png', '--skin', 'win7', '-o', 'out.png'],
      ['shots/', '-r', '--output', 'out/', '--json', '--jobs', '2'],
      ['a.png', 'b.png', '--mines', '99', '--probabilities', '--board', '--trust-flags', '--debug'],
      ['shot.png', '--explain', '3,7', '--export', 'mine'],
      ['--json', 'shot.png', '--recursive'],
      ['-'],
      ['a.png', '-', '-o', 'out/'],
    ];
    for (const argv of lines) {
      expect(plainReading(argv)).toBeDefined();
      expect(plainReading(argv)).toEqual(await yargsReading(argv));
    }
    expect(plainReading(['shot.png', '-o', 'out.png'])).toMatchObject({
      inputs: ['shot.png'],
      output: 'out.png',
      json: false,
      recursive: false,
    });
  });

  test('what yargs must read is left to it: other commands, help, other spellings, repeats, mistakes', () => {
    for (const argv of [
      [],
      ['learn', 'a.png'],
      ['serve'],
      ['--help'],
      ['--version'],
      ['shot.png', '--mines=5'],
      ['shot.png', '--no-json'],
      ['shot.png', '--trustFlags'],
      ['shot.png', '-o', 'a', '-o', 'b'],
      ['shot.png', '--mines', 'abc'],
      ['shot.png', '--mines', '-5'],
      ['shot.png', '--export', 'bogus'],
      ['shot.png', '-o'],
      ['shot.png', '--json', 'false'],
      ['shot.png', '-ro', 'x'],
      ['123'],
      ['--', 'a.png'],
    ]) {
      expect(plainReading(argv)).toBeUndefined();
    }
  });

  test('on 3000 random command lines, every one read without yargs is read as yargs reads it', async () => {
    const random = seeded(20261127);
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const argv = randomLine(random);
      const plain = plainReading(argv);
      if (plain === undefined) continue;
      read++;
      expect({ argv, read: plain }).toEqual({ argv, read: await yargsReading(argv) });
    }
    expect(read).toBeGreaterThan(100);
  });
});
