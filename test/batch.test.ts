import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { FIXTURES, tempDir } from './helpers';

// Batches on worker threads run the built CLI (npm test builds dist/ first), as a user does.
const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../bin/mine-assist.js');

describe('--jobs: a batch on worker threads', () => {
  const tmp = tempDir();
  afterAll(tmp.cleanup);

  test('--jobs 2 gives the same results, in input order, as --jobs 1', async () => {
    const dir = path.join(tmp.dir, 'in');
    mkdirSync(dir);
    const games = ['xdemineur/s2-01', 'xbomb/s2-02', 'kmines/s2-01', 'xdemineur/s2-05', 'gnome-mines/s2-05', 'ace-minesweeper/s2-01'];
    games.forEach((g, i) => copyFileSync(path.join(FIXTURES, `${g}.png`), path.join(dir, `${i}-${g.split('/')[0]}.png`)));
    const results = async (jobs: number) => {
      const out = path.join(tmp.dir, `out${jobs}`);
      const { stdout } = await run(process.execPath, [BIN, dir, '--json', '--jobs', String(jobs), '-o', out], { maxBuffer: 1 << 26 });
      const json = JSON.parse(stdout) as { file: string; status: string; board: string[]; mines: number[][]; safe: number[][] }[];
      return { json: json.map(({ file, status, board, mines, safe }) => ({ file, status, board, mines, safe })), written: readdirSync(out).sort() };
    };
    const [one, two] = [await results(1), await results(2)];
    expect(two.json).toEqual(one.json);
    expect(one.json.map((r) => path.basename(r.file))).toEqual(readdirSync(dir).sort());
    expect(one.json.every((r) => r.status === 'ok')).toBe(true);
    expect(two.written).toEqual([...readdirSync(dir).sort().map((f) => f.replace('.png', '.annotated.png')), 'summary.json'].sort());
    const summary = JSON.parse(readFileSync(path.join(tmp.dir, 'out2', 'summary.json'), 'utf8'));
    expect(summary.totals).toEqual({ files: 6, ok: 6, inconsistent: 0, error: 0 });
  }, 120_000);

  test('--jobs 0 is a usage error', async () => {
    await expect(run(process.execPath, [BIN, FIXTURES, '--jobs', '0'])).rejects.toMatchObject({ code: 2 });
  });
});
