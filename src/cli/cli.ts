import '../speed/threadpool';
import * as fs from '../common/files';
import path from 'node:path';
import type Yargs from 'yargs';
import { ANALYZE_OPTIONS, type AnalyzeArgs, plainAnalyzeArgs } from './args';
import { expandInputs, holdFolders, interruptBatch, mostJobs, runBatch, FileResult, STDIN } from '../analyze/batch';
import { availableParallelism } from '../analyze/workers';
import { learn } from '../analyze/learn';
import { parseBoard } from '../common/board';
import { saveSkin } from '../skin/skin';
import { batchSummary, boardText, summaryLine, toJson } from '../output/report';
import { progressBar } from './progress';
import { explainCell } from '../output/explain';
import { type ExportFormat, exportBoard } from '../output/export';
import type { Coord } from '../common/types';

export const EXIT = { ok: 0, internal: 1, usage: 2, input: 3, interrupted: 130, terminated: 143 } as const;

/** An interrupted run ends within this many milliseconds, cleaned up or not. */
const INTERRUPT_MS = 3000;

/** The web page's server, loaded only for `serve`: node:http and what it brings are slow to load. */
const serveModule = (): typeof import('../serve/serve') => require('../serve/serve') as typeof import('../serve/serve');

class UsageError extends Error {}

/** `-` as yargs is given it (and given back): yargs drops a lone dash from the inputs (no file name holds a NUL). */
const YARGS_STDIN = '\0-';

const dash = (value: unknown): unknown => (value === YARGS_STDIN ? STDIN : value);

/** Runs the command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  outlivePipeReaders();
  try {
    const plain = plainAnalyzeArgs(argv);
    if (plain) return await analyzeCommand(plain);
    let code: number = EXIT.ok;
    await parser(argv, analyzeCommand, (c) => (code = c)).parseAsync();
    return code;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`mine-assist: ${err.message}\nTry 'mine-assist --help'.\n`);
      return EXIT.usage;
    }
    process.stderr.write(`mine-assist: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    return EXIT.internal;
  }
}

/**
 * A reader of stdout or stderr that goes away (`mine-assist shots/ | head -3`) ends what is printed, not the run:
 * every annotated PNG and summary.json is still written, and the exit code is the batch's.
 */
function outlivePipeReaders(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue;
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
}

/** yargs' reading of the command line; the analysis command's arguments go to `analyze`. */
export function parser(
  argv: string[],
  analyze: (args: AnalyzeArgs) => Promise<number>,
  setCode: (code: number) => void,
) {
  const yargs = require('yargs') as typeof Yargs;
  return (
    yargs(argv.map((arg) => (arg === STDIN ? YARGS_STDIN : arg)))
      .scriptName('mine-assist')
      // Every message of ours is English; yargs' own headings follow (the bundle carries no locale files).
      .locale('en')
      .usage(
        '$0 <image|dir|board.txt|->... [options]\n\n' +
          'Finds the Minesweeper board in each screenshot, reads every cell, proves which hidden cells are certainly ' +
          'mines or certainly safe, and writes <name>.annotated.png beside the input with them marked ' +
          '(red disc = mine, green check = safe, orange dashed frame = unreadable, ' +
          'blue ? = best guess when nothing is certainly safe, yellow frames = counts that contradict each other). ' +
          'A board text file (.txt) runs the solver alone.',
      )
      .command(
        '$0 <inputs..>',
        false,
        (y) =>
          y
            .positional('inputs', {
              type: 'string',
              array: true,
              demandOption: true,
              describe: 'screenshots, folders of screenshots, board text files, or - (a screenshot on standard input)',
            })
            .options(ANALYZE_OPTIONS),
        async (args) => {
          setCode(
            await analyze({
              ...args,
              inputs: (args.inputs as string[]).map(dash),
              output: dash(args.output),
            } as unknown as AnalyzeArgs),
          );
        },
      )
      .command(
        'learn <images..>',
        'build a skin from screenshots and their board texts',
        (y) =>
          y
            .positional('images', {
              type: 'string',
              array: true,
              demandOption: true,
              describe: 'screenshots of one game',
            })
            .option('board', {
              type: 'string',
              array: true,
              demandOption: true,
              describe: 'board text for each screenshot, in order',
            })
            .option('name', { type: 'string', demandOption: true, describe: 'the skin name' })
            .option('out', { type: 'string', describe: 'folder to write the skin to (default: ./<name>)' }),
        async (args) => {
          setCode(await learnCommand({ ...args, images: (args.images as string[]).map(dash) } as unknown as LearnArgs));
        },
      )
      .command(
        'serve',
        'a local web page: paste a screenshot, see the answer drawn on it',
        (y) =>
          y
            .option('port', {
              type: 'number',
              default: serveModule().DEFAULT_PORT,
              describe: 'port to listen on (0: any free port)',
            })
            .option('host', {
              type: 'string',
              default: '127.0.0.1',
              describe: 'address to listen on (loopback only, unless --allow-remote)',
            })
            .option('allow-remote', {
              type: 'boolean',
              default: false,
              describe: 'allow a non-loopback --host: anyone who can reach it can use the server',
            }),
        async (args) => {
          setCode(await serveModule().serveCommand(args));
        },
      )
      .example('$0 shot.png', 'writes shot.annotated.png')
      .example('$0 shots/ -o out/ --json', 'a whole folder, one JSON array')
      .example('xclip -sel c -t image/png -o | $0 -', 'the screenshot on the clipboard: writes stdin.annotated.png')
      .example('$0 board.txt --board', 'solve a text board (. hidden, 0-8 counts, F flag)')
      .example('$0 shot.png --mines 99 --probabilities', 'exact mine probabilities with the total, drawn as a heat map')
      .example('$0 shot.png --explain 3,7', 'why row 3, column 7 is certain (the counts that force it)')
      .example('$0 shot.png --export mine > shot.mine', 'continue in JSMinesweeper')
      .example('$0 learn shot.png --board shot.board.txt --name mygame --out skins/mygame', 'teach it a new skin')
      .epilogue(
        'Exit codes: 0 ok, 1 internal error, 2 usage, ' +
          '3 an input could not be analysed (not an image, no board found, inconsistent board); ' +
          'in a batch, 3 if any file failed while the others are still processed; ' +
          '130 interrupted (Ctrl-C), 143 terminated (SIGTERM): outputs already written stay whole, ' +
          'none is left half-written, no temp file is left.',
      )
      .strict()
      .help()
      .version()
      .fail((message, err) => {
        if (err) throw err;
        throw new UsageError(message);
      })
  );
}

async function analyzeCommand(args: AnalyzeArgs): Promise<number> {
  if (args.mines !== undefined && !(Number.isInteger(args.mines) && args.mines >= 0))
    throw new UsageError('--mines takes a whole number ≥ 0');
  if (args.jobs !== undefined && !(Number.isInteger(args.jobs) && args.jobs >= 1))
    throw new UsageError('--jobs takes a whole number ≥ 1');
  const files = await expandInputs(args.inputs, args.recursive);
  if (!files.length)
    throw new UsageError(
      'no input images found' +
        (!args.recursive && (await holdFolders(args.inputs)) ? ' (the folders in it are read with -r)' : ''),
    );
  const explain = args.explain === undefined ? undefined : parseCell(args.explain);
  if (args.jobs !== undefined && args.jobs > mostJobs() && files.length > mostJobs()) {
    process.stderr.write(
      `mine-assist: --jobs ${args.jobs}: ${mostJobs()} workers at most ` +
        `on this machine's ${availableParallelism()} CPU cores\n`,
    );
  }
  const options = {
    output: args.output,
    skin: args.skin,
    mines: args.mines,
    trustFlags: args.trustFlags,
    probabilities: args.probabilities,
    debug: args.debug,
    jobs: args.jobs,
    reasons: args.json || explain !== undefined,
  };
  const bar = files.length > 1 && process.stderr.isTTY ? progressBar(files.length, process.stderr) : null;
  // Ctrl-C (or a kill's SIGTERM) ends the run here, with 130 (143), once no thread writes and no temp file is left;
  // a second signal: at once
  const stop: { interrupted: Promise<void> | null } = { interrupted: null };
  const stopOn = (code: number, word: string) => () => {
    if (stop.interrupted) process.exit(code);
    bar?.stop();
    process.stderr.write(`mine-assist: ${word}\n`);
    setTimeout(() => process.exit(code), INTERRUPT_MS);
    stop.interrupted = interruptBatch().finally(() => process.exit(code));
  };
  const signals = { SIGINT: stopOn(EXIT.interrupted, 'interrupted'), SIGTERM: stopOn(EXIT.terminated, 'terminated') };
  for (const [signal, listener] of Object.entries(signals)) process.once(signal, listener);
  const results = await runBatch(files, options, (r) => {
    if (stop.interrupted) return;
    if (r.analysis.status === 'error') {
      const line = summaryLine(r.analysis, r.output, r.debug) + '\n';
      return bar ? bar.tick(line) : void process.stderr.write(line);
    }
    const text = args.json ? '' : resultText(r, { ...args, explain }, files.length > 1);
    if (bar && process.stdout.isTTY) return bar.tick(text);
    process.stdout.write(text);
    bar?.tick();
  });
  if (stop.interrupted) await stop.interrupted;
  // the batch is over: a signal now has its default effect (main may run again in this process, as tests do)
  for (const [signal, listener] of Object.entries(signals)) process.off(signal, listener);
  bar?.stop();
  if (args.json) {
    const json = results.map((r) => ({
      ...toJson(r.analysis, r.output),
      ...(r.debug ? { debug: r.debug } : {}),
      ...exported(r, args),
    }));
    process.stdout.write(
      JSON.stringify(args.inputs.length === 1 && json.length === 1 && !files[0].inFolder ? json[0] : json, null, 2) +
        '\n',
    );
  }
  if (files.length > 1) process.stderr.write(batchSummary(results) + '\n');
  return results.every((r) => r.analysis.status === 'ok') ? EXIT.ok : EXIT.input;
}

/** The summary line; or, when asked, the board, the export and the explanation, in that order. */
function resultText(r: FileResult, args: Omit<AnalyzeArgs, 'explain'> & { explain?: Coord }, several: boolean): string {
  const blocks = [
    args.board ? boardText(r.analysis) : '',
    exported(r, args).export ?? '',
    args.explain ? explainCell(r.analysis, args.explain) + '\n' : '',
  ].filter(Boolean);
  if (blocks.length === 0) return summaryLine(r.analysis, r.output, r.debug) + '\n';
  return (several ? `== ${r.analysis.file}\n` : '') + blocks.join('');
}

/** The --export text (its notes go to stderr); nothing without --export or a board. */
function exported(r: FileResult, args: { export?: ExportFormat; trustFlags: boolean }): { export?: string } {
  if (!args.export || !r.analysis.board) return {};
  const { text, notes } = exportBoard(r.analysis.board, args.export, args.trustFlags);
  for (const note of notes) process.stderr.write(`mine-assist: ${r.analysis.file}: ${note}\n`);
  return { export: text };
}

function parseCell(text: string): Coord {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(text);
  if (match === null) throw new UsageError(`--explain takes ROW,COL (numbers from 0), not '${text}'`);
  return [Number(match[1]), Number(match[2])];
}

interface LearnArgs {
  images: string[];
  board: string[];
  name: string;
  out?: string;
}

async function learnCommand(args: LearnArgs): Promise<number> {
  if (args.board.length !== args.images.length)
    throw new UsageError(
      `learn needs one --board per image (${args.images.length} images, ${args.board.length} boards)`,
    );
  try {
    const sources = await Promise.all(
      args.images.map(async (image, i) => ({ image, board: parseBoard(await fs.readFile(args.board[i], 'utf8')) })),
    );
    const skin = await learn(sources, args.name);
    const out = args.out ?? path.join('.', args.name);
    await saveSkin(skin, out);
    const framed = Object.keys(skin.frames ?? {}).length;
    process.stdout.write(
      `skin '${skin.name}': ${skin.templates.length} templates of ${skin.cellSize} px ` +
        `and its frame on ${framed} side${framed === 1 ? '' : 's'} written to ${out}\n`,
    );
    return EXIT.ok;
  } catch (err) {
    process.stderr.write(`mine-assist learn: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.input;
  }
}
