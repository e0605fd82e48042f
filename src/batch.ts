import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Analysis, Coord, RgbaImage } from './types';
import { AnalyzeOptions, analyzeBoard, analyzeImage, coordsOf, failed } from './analyze';
import { parseBoard, parseCellName } from './board';
import { type Marks, render, renderDebug, writeFileAtomic } from './render';
import { debugView } from './debug';
import { suggestionText } from './report';

export interface BatchOptions extends AnalyzeOptions {
  /** A file (one input) or a folder (several); default: `<name>.annotated.png` beside each input. */
  output?: string;
  /** Draw the mine probability of every uncertain hidden cell (a heat map). */
  probabilities?: boolean;
  /** Also write <name>.debug.png: region, grid, and per cell its reading and match margin. */
  debug?: boolean;
}

export interface FileResult {
  analysis: Analysis;
  /** The annotated PNG written, if any. */
  output: string | null;
  /** The --debug PNG written, if any. */
  debug: string | null;
}

const IMAGE = /\.(png|jpe?g|webp|gif|tiff?|avif)$/i;
const OURS = /\.(annotated|debug)\.png$/i;

/** Inputs as given, with each folder replaced by the images in it (sorted by name). */
export async function expandInputs(inputs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const stat = await fs.stat(input).catch(() => null);
    if (!stat?.isDirectory()) {
      files.push(input);
      continue;
    }
    const names = (await fs.readdir(input)).filter((n) => IMAGE.test(n) && !OURS.test(n)).sort();
    files.push(...names.map((n) => path.join(input, n)));
  }
  return files;
}

/** Analyses each file in turn, writing annotated images; a bad file becomes an error result, the rest go on. */
export async function runBatch(files: string[], options: BatchOptions, onResult?: (r: FileResult) => void): Promise<FileResult[]> {
  const results: FileResult[] = [];
  const toFolder = files.length > 1 || (options.output !== undefined && (await isFolderTarget(options.output)));
  if (toFolder && options.output !== undefined) await fs.mkdir(options.output, { recursive: true }).catch(() => undefined);
  for (const file of files) {
    const result = await runOne(file, files, options, toFolder);
    results.push(result);
    onResult?.(result);
  }
  return results;
}

async function runOne(file: string, all: string[], options: BatchOptions, toFolder: boolean): Promise<FileResult> {
  if (/\.txt$/i.test(file)) return { analysis: await analyzeTextBoard(file, options), output: null, debug: null };
  const { analysis, image } = await analyzeImage(file, file, options);
  const output = outputPath(file, options.output, toFolder);
  try {
    const debug = options.debug && image ? await writeDebug(image, analysis, debugPath(output), all) : null;
    if (!image || !analysis.grid || !analysis.deductions) return { analysis, output: null, debug };
    refuseInput(output, all);
    const png = await render(image, analysis.grid, marksOf(analysis, options.probabilities ?? false));
    await writeFileAtomic(output, png);
    return { analysis, output, debug };
  } catch (err) {
    return { analysis: { ...failed(file, err), board: analysis.board }, output: null, debug: null };
  }
}

/** The --debug picture, when a grid was found (even if reading it then failed); null otherwise. */
async function writeDebug(image: RgbaImage, analysis: Analysis, target: string, all: string[]): Promise<string | null> {
  const view = debugView(image, analysis);
  if (view === null) return null;
  refuseInput(target, all);
  await writeFileAtomic(target, await renderDebug(image, view));
  return target;
}

function refuseInput(target: string, inputs: string[]): void {
  if (inputs.some((input) => path.resolve(input) === path.resolve(target))) throw new Error(`refusing to overwrite the input ${target}`);
}

function marksOf(analysis: Analysis, heatMap: boolean): Marks {
  const d = analysis.deductions ?? { mines: [], safe: [] };
  const fix = analysis.suggestions.length ? ` (${suggestionText(analysis.suggestions[0])}?)` : '';
  const headline = analysis.status === 'inconsistent' ? `Inconsistent board: these counts cannot all hold${fix}` : undefined;
  const flagged = new Set(analysis.flags.proven.concat(analysis.flags.wrong).map(String));
  const fresh = (cells: string[]): Coord[] => coordsOf(cells).filter((c) => !flagged.has(String(c)));
  const { proven, unproven, wrong } = analysis.flags;
  const odds = (analysis.probabilities ?? []).flatMap(({ cell, p }) => (p === null ? [] : [{ cell: parseCellName(cell), p }]));
  const hidden = ([row, col]: Coord) => analysis.board?.cells[row][col] === '.' || analysis.board?.cells[row][col] === '?';
  const guess = analysis.bestGuess === null ? undefined : odds.find((o) => String(o.cell) === String(parseCellName(analysis.bestGuess as string)));
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
    heat: heatMap ? odds.filter(({ cell, p }) => p > 0 && p < 1 && hidden(cell)) : [],
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

function outputPath(file: string, output: string | undefined, toFolder: boolean): string {
  const name = path.basename(file).replace(/\.[^.]+$/, '') + '.annotated.png';
  if (output === undefined) return path.join(path.dirname(file), name);
  return toFolder ? path.join(output, name) : output;
}

async function isFolderTarget(output: string): Promise<boolean> {
  if (output.endsWith('/') || output.endsWith(path.sep)) return true;
  return fs.stat(output).then((s) => s.isDirectory(), () => false);
}
