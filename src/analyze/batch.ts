import * as fs from '../common/files';
import path from 'node:path';
import type { Analysis, Coord, Grid, RgbaImage } from '../common/types';
import { analyzeBoard, analyzeImage, coordsOf, failed } from './analyze';
import { parseBoard, parseCellName } from '../common/board';
import { type Marks, render, renderDebug, type RenderOptions, warmRender } from '../output/render';
import { cannot, removeOwnTemps, stopWriting, writeFileAtomic } from '../common/atomic';
import { debugView } from '../output/debug';
import { availableParallelism, runInWorkers, stopWorkers, workerScript } from './workers';
import { suggestionText } from '../output/report';
import { tuneForBatch } from '../speed/tuning';
import { READ_AT_ONCE } from '../image/decode';
import { now } from '../common/runtime';
import { writeTiles } from '../output/tilecache';
import type { BatchOptions, FileResult, Input, Job } from './job';

export type { BatchOptions, FileResult, Input, Job } from './job';

const IMAGE = /\.(png|jpe?g|webp|gif|tiff?|avif)$/i;
/** A board as text (the board text format): analysed, no picture written. */
const BOARD_TEXT = /\.txt$/i;
const OURS = /\.(annotated|debug)\.png$/i;

/** An input read from standard input: `mine-assist - < shot.png` (its annotated PNG: stdin.annotated.png). */
export const STDIN = '-';

/**
 * Inputs as given, with each folder replaced by the images in it (sorted by name; with `recursive`, its subfolders
 * too), and `-` by standard input's bytes.
 */
export async function expandInputs(inputs: string[], recursive = false): Promise<Input[]> {
  const files: Input[] = [];
  for (const input of inputs) {
    if (input === STDIN) {
      files.push({ file: STDIN, name: 'stdin.png', bytes: await readStdin() });
      continue;
    }
    const stat = await fs.stat(input).catch(() => null);
    if (stat?.isDirectory()) files.push(...(await imagesIn(input, '', recursive)));
    else files.push({ file: input, name: path.basename(input) });
  }
  return files;
}

async function imagesIn(root: string, below: string, recursive: boolean, seen = new Set<string>()): Promise<Input[]> {
  const dir = path.join(root, below);
  // a folder reached again through a link is read once (and a link to a folder above it is no endless loop)
  const real = await fs.realpath(dir);
  if (seen.has(real)) return [];
  seen.add(real);
  const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const found: Input[] = [];
  for (const entry of entries) {
    const name = path.join(below, entry.name);
    const kind = entry.isSymbolicLink()
      ? await linkedKind(path.join(root, name))
      : entry.isDirectory()
        ? 'folder'
        : entry.isFile()
          ? 'file'
          : 'other';
    if (kind === 'folder' && recursive) found.push(...(await imagesIn(root, name, true, seen)));
    else if ((kind === 'file' || kind === 'broken') && IMAGE.test(entry.name) && !OURS.test(entry.name))
      found.push({ file: path.join(root, name), name, inFolder: true });
  }
  return found;
}

/**
 * Standard input read to its end once (`-` given twice is the same image); refused past READ_AT_ONCE bytes, and
 * when it is a terminal (nothing piped in: the run would wait for a screenshot typed in).
 */
function readStdin(): Promise<Uint8Array | { refused: string }> {
  if (process.stdin.isTTY)
    return Promise.resolve({
      refused: 'standard input is a terminal: pipe a screenshot in (mine-assist - < shot.png)',
    });
  stdinRead ??= new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= READ_AT_ONCE) chunks.push(chunk);
    });
    process.stdin.on('end', () =>
      resolve(
        size <= READ_AT_ONCE
          ? Buffer.concat(chunks, size)
          : { refused: `standard input holds more than ${READ_AT_ONCE >> 20} MB` },
      ),
    );
    process.stdin.on('error', reject);
  });
  return stdinRead;
}

let stdinRead: Promise<Uint8Array | { refused: string }> | undefined;

/** Whether any of these folders holds a folder (read only with `recursive`). */
export async function holdFolders(inputs: string[]): Promise<boolean> {
  for (const input of inputs) {
    const entries = await fs.readdir(input, { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.isDirectory())) return true;
  }
  return false;
}

/** What a link leads to; a broken link named as an image is listed, so that the batch reports it. */
async function linkedKind(link: string): Promise<'folder' | 'file' | 'other' | 'broken'> {
  const target = await fs.stat(link).catch(() => null);
  return target === null ? 'broken' : target.isDirectory() ? 'folder' : target.isFile() ? 'file' : 'other';
}

/**
 * Analyses each file in turn, writing annotated images; a bad file becomes an error result, the rest go on.
 * With an output folder, `summary.json` there lists every file's outcome.
 */
export async function runBatch(
  inputs: Input[],
  options: BatchOptions,
  onResult?: (r: FileResult) => void,
): Promise<FileResult[]> {
  madeFolders.clear(); // a folder made by an earlier batch in this process may have gone since
  const toFolder =
    inputs.length > 1 ||
    inputs.some((input) => input.inFolder) ||
    (options.output !== undefined && (await isFolderTarget(options.output)));
  if (toFolder && options.output !== undefined)
    await fs.mkdir(options.output, { recursive: true }).catch(() => undefined);
  inputs = distinctOutputs(inputs, (input) => outputPath(input.file, input.name, options.output, toFolder));
  const summary = toFolder && options.output !== undefined ? path.join(options.output, 'summary.json') : null;
  const folders = new Set(
    inputs.map((input) => path.dirname(outputPath(input.file, input.name, options.output, toFolder))),
  );
  if (summary !== null) folders.add(path.dirname(summary));
  running = { inputs, finished: new Array(inputs.length), folders, summary };
  const job: Job = { all: inputs.map((i) => i.file), options, toFolder };
  const jobs = Math.min(
    options.jobs ?? (inputs.length >= WORTH_WORKERS ? availableParallelism() : 1),
    mostJobs(),
    inputs.length,
  );
  const inWorkers = jobs > 1 && workerScript() !== null;
  if (inputs.length >= WORTH_WORKERS) tuneForBatch(inWorkers);
  const results = inWorkers
    ? await runInWorkers(inputs, jobs, job, onResult, undefined, running.finished)
    : await runInTurn(inputs, job, onResult, running.finished);
  writeTiles();
  if (summary !== null) await writeSummary(summary, results);
  return results;
}

/**
 * The batch under way: its files' results as they finish, in any order; the folders it writes into (where an
 * interrupted run looks for the temp files it left); its summary.json, if it writes one.
 */
let running: {
  inputs: Input[];
  finished: (FileResult | undefined)[];
  folders: Set<string>;
  summary: string | null;
} | null = null;

/**
 * Stops the batch under way at once (Ctrl-C): no file is written from now on, the workers are stopped, and the temp
 * files of writes cut short are removed. The outputs already written stay, each whole, and its summary.json lists
 * them, and the files not finished as errors.
 */
export async function interruptBatch(): Promise<void> {
  const settled = stopWriting();
  await stopWorkers();
  await settled;
  // a file analysed in this thread is counted finished a few promise steps after its write: let them run
  await new Promise((resolve) => setImmediate(resolve));
  if (running === null) return;
  for (const dir of running.folders) removeOwnTemps(dir);
  const { inputs, finished, summary } = running;
  if (summary !== null)
    await writeSummary(
      summary,
      inputs.map((input, i) => finished[i] ?? unfinished(input)),
      true,
    );
}

const unfinished = (input: Input): FileResult => ({
  analysis: failed(input.file, 'not finished: the batch was interrupted'),
  output: null,
  debug: null,
  ms: 0,
});

/**
 * Starting workers is costly (each loads its modules, skins and solver, its code not yet compiled): by default,
 * fewer files than this run in this thread. From this many files on, V8 is also set for a batch (speed/tuning.ts).
 */
const WORTH_WORKERS = 8;

/**
 * The most workers a batch starts, whatever --jobs asks: each holds its own OpenCV, solver and skins in memory, and
 * past the cores they only take turns.
 */
export const mostJobs = (): number => JOBS_PER_CORE * availableParallelism();
const JOBS_PER_CORE = 4;

async function runInTurn(
  inputs: Input[],
  job: Job,
  onResult: ((r: FileResult) => void) | undefined,
  finished: (FileResult | undefined)[],
): Promise<FileResult[]> {
  for (const [i, input] of inputs.entries()) {
    finished[i] = await analyzeFile(input, job);
    onResult?.(finished[i] as FileResult);
  }
  return finished as FileResult[];
}

/** One file, start to finish: analysis, pictures written, time taken. Never throws. */
export async function analyzeFile(input: Input, job: Job): Promise<FileResult> {
  const started = now();
  const result = await runOne(input, job.all, job.options, job.toFolder);
  return { ...result, analysis: { ...result.analysis, readings: null }, ms: now() - started };
}

/** summary.json: per file its status, board size, certain cells, unreadable cells and time; then the totals. */
async function writeSummary(target: string, results: FileResult[], evenIfStopped = false): Promise<void> {
  const files = results.map(({ analysis: a, output, ms }) => ({
    file: a.file,
    status: a.status,
    ...(a.error ? { error: a.error } : {}),
    board: a.board ? `${a.board.rows}×${a.board.cols}` : null,
    mines: a.deductions?.mines.length ?? 0,
    safe: a.deductions?.safe.length ?? 0,
    unreadable: a.unreadable.length,
    output,
    ms: Math.round(ms),
  }));
  const count = (status: string) => files.filter((f) => f.status === status).length;
  const totals = { files: files.length, ok: count('ok'), inconsistent: count('inconsistent'), error: count('error') };
  await writeFileAtomic(target, JSON.stringify({ totals, files }, null, 2) + '\n', evenIfStopped).catch(
    () => undefined,
  );
}

async function runOne(
  { file, name, bytes }: Input,
  all: string[],
  options: BatchOptions,
  toFolder: boolean,
): Promise<FileResult> {
  if (BOARD_TEXT.test(file))
    return { analysis: await analyzeTextBoard(file, options), output: null, debug: null, ms: 0 };
  if (bytes && 'refused' in bytes) return { analysis: failed(file, bytes.refused), output: null, debug: null, ms: 0 };
  warmRender();
  const { analysis, image } = await analyzeImage(
    bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) : file,
    file,
    options,
  );
  const output = outputPath(file, name, options.output, toFolder);
  try {
    if (toFolder) await makeFolderOf(output);
    const debug = options.debug && image ? await writeDebug(image, analysis, debugPath(output), all) : null;
    if (!image || !analysis.grid || !analysis.deductions) return { analysis, output: null, debug, ms: 0 };
    refuseInput(output, all);
    await writeFileAtomic(
      output,
      await annotate(image, analysis.grid, analysis, options.probabilities ?? false, { consume: true }),
    );
    return { analysis, output, debug, ms: 0 };
  } catch (err) {
    return { analysis: { ...failed(file, err), board: analysis.board }, output: null, debug: null, ms: 0 };
  }
}

/**
 * The folder a file goes in, made once per thread rather than once per file. Should it be removed during the
 * batch, each file written into it after that fails with its own error.
 */
async function makeFolderOf(file: string): Promise<void> {
  const dir = path.dirname(file);
  if (madeFolders.has(dir)) return;
  await fs.mkdir(dir, { recursive: true }).catch((err: unknown) => Promise.reject(cannot('make the folder', dir, err)));
  madeFolders.add(dir);
}

const madeFolders = new Set<string>();

/** The --debug picture, when a grid was found (even if reading it then failed); null otherwise. */
async function writeDebug(image: RgbaImage, analysis: Analysis, target: string, all: string[]): Promise<string | null> {
  const view = debugView(image, analysis);
  if (view === null) return null;
  refuseInput(target, all);
  await writeFileAtomic(target, await renderDebug(image, view));
  return target;
}

/** The annotated PNG of an analysis that has a grid and deductions (what the CLI writes and `serve` shows). */
export function annotate(
  image: RgbaImage,
  grid: Grid,
  analysis: Analysis,
  heatMap: boolean,
  options: RenderOptions = {},
): Promise<Buffer> {
  return render(image, grid, marksOf(analysis, heatMap), options);
}

function refuseInput(target: string, inputs: string[]): void {
  let resolved = resolvedInputs.get(inputs);
  if (!resolved) resolvedInputs.set(inputs, (resolved = new Set(inputs.map((input) => path.resolve(input)))));
  if (resolved.has(path.resolve(target))) throw new Error(`refusing to overwrite the input ${target}`);
}

/** A batch's inputs, resolved once: each file checks its output against all of them. */
const resolvedInputs = new WeakMap<string[], Set<string>>();

function oddsOf(probabilities: NonNullable<Analysis['probabilities']>): { cell: Coord; p: number }[] {
  const odds: { cell: Coord; p: number }[] = [];
  for (const { cell, p } of probabilities) if (p !== null) odds.push({ cell: parseCellName(cell), p });
  return odds;
}

function marksOf(analysis: Analysis, heatMap: boolean): Marks {
  const d = analysis.deductions ?? { mines: [], safe: [] };
  const fix = analysis.suggestions.length ? ` (${suggestionText(analysis.suggestions[0])}?)` : '';
  const headline =
    analysis.status === 'inconsistent' ? `Inconsistent board: these counts cannot all hold${fix}` : undefined;
  const flagged = new Set(analysis.flags.proven.concat(analysis.flags.wrong).map(String));
  const fresh = (cells: string[]): Coord[] => coordsOf(cells).filter((c) => !flagged.has(String(c)));
  const { proven, unproven, wrong } = analysis.flags;
  const odds = oddsOf(analysis.probabilities ?? []);
  const unsure = new Set(analysis.unreadable.map(String));
  const hidden = ([row, col]: Coord) =>
    analysis.board?.cells[row][col] === '.' || analysis.board?.cells[row][col] === '?';
  const guess =
    analysis.bestGuess === null
      ? undefined
      : odds.find((o) => String(o.cell) === String(parseCellName(analysis.bestGuess as string)));
  return {
    mines: fresh(d.mines),
    safe: fresh(d.safe),
    unreadable: analysis.unreadable,
    provenFlags: proven,
    unprovenFlags: analysis.status === 'ok' ? unproven : [],
    wrongFlags: wrong,
    headline,
    conflict: coordsOf((analysis.conflict?.sources ?? []).filter((s) => s !== 'total')),
    bestGuess: guess ?? null,
    heat: heatMap ? odds.filter(({ cell, p }) => p > 0 && p < 1 && hidden(cell) && !unsure.has(String(cell))) : [],
    keepClear: analysis.counter?.box ?? null,
  };
}

async function analyzeTextBoard(file: string, options: BatchOptions): Promise<Analysis> {
  try {
    return analyzeBoard(parseBoard(await fs.readFile(file, 'utf8')), file, options);
  } catch (err) {
    return failed(file, err instanceof Error && 'code' in err ? `cannot read ${file}` : err);
  }
}

/** shot.annotated.png → shot.debug.png; out.png → out.debug.png. */
function debugPath(output: string): string {
  return output.replace(/(\.annotated)?\.png$/i, '') + '.debug.png';
}

/** Beside the input, or in the output folder under the input's name there (subfolders made as needed). */
function outputPath(file: string, name: string, output: string | undefined, toFolder: boolean): string {
  if (output === undefined) return path.join(path.dirname(file), annotated(path.basename(name)));
  return toFolder ? path.join(output, annotated(name)) : output;
}

const annotated = (name: string): string => stemOf(name) + '.annotated.png';
const stemOf = (name: string): string => name.replace(/\.[^./\\]+$/, '');

/**
 * Inputs whose annotated images would have one name (a.png and a.jpg side by side, s2-01.png in two folders
 * given): the later ones are named a-2, a-3, … instead, so that no output overwrites another. Names compared
 * without case, as a Mac's or Windows' disk does.
 */
function distinctOutputs(inputs: Input[], outputOf: (input: Input) => string): Input[] {
  const taken = new Set<string>();
  return inputs.map((input) => {
    if (BOARD_TEXT.test(input.file)) return input;
    const stem = stemOf(input.name);
    let named = input;
    // n inputs take at most n names: one of -2 to -(n + 1) is free
    for (let k = 2; k <= inputs.length + 1 && taken.has(outputOf(named).toLowerCase()); k++)
      named = { ...input, name: `${stem}-${k}${input.name.slice(stem.length)}` };
    taken.add(outputOf(named).toLowerCase());
    return named;
  });
}

async function isFolderTarget(output: string): Promise<boolean> {
  if (output.endsWith('/') || output.endsWith(path.sep)) return true;
  return fs.stat(output).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
