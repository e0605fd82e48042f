import { debuglog } from 'node:util';
import type { Analysis, Board, Coord, Grid, Reading, RgbaImage, Skin } from './types';
import { decode } from './decode';
import { locate } from './locate';
import { fitGrid, trimGrid } from './grid';
import { classify } from './classify';
import { analyzePosition, rereadings } from './position';
import { neighbours, parseCellName } from './board';
import { builtinSkinNames, loadSkin } from './skin';

const trace = debuglog('mine-assist');

export interface AnalyzeOptions {
  /** A built-in skin name or a skin folder; all built-in skins are tried (best fit wins) when absent. */
  skin?: string;
  /** Total mines in the game, flags included; overrides a board header. */
  mines?: number | null;
  trustFlags?: boolean;
}

export interface ImageAnalysis {
  analysis: Analysis;
  /** The decoded screenshot, for drawing on; null when decoding failed. */
  image: RgbaImage | null;
}

/** Screenshot → board → deductions. Failures become an `error` result, never a throw. */
export async function analyzeImage(input: string | Buffer, file: string, options: AnalyzeOptions = {}): Promise<ImageAnalysis> {
  let image: RgbaImage | null = null;
  try {
    image = await decode(input);
    const located = await locate(image);
    const { skin, readings, grid } = await readCells(image, fitGrid(image, located), options.skin);
    const board = boardFromReadings(grid, readings, options.mines ?? null);
    const analysis = analyzeBoard(board, file, options);
    const suggestions = analysis.conflict ? rereadings(board, readings, analysis.conflict, positionOptions(board, options)) : [];
    return { image, analysis: { ...analysis, skin: skin.name, region: regionOf(grid), grid, readings, unreadable: unreadableOf(readings), suggestions } };
  } catch (err) {
    return { image, analysis: failed(file, err) };
  }
}

/** Board → deductions, probabilities, reasons (or the conflict): the solver alone, for any board. */
export function analyzeBoard(board: Board, file: string, options: AnalyzeOptions = {}): Analysis {
  const position = analyzePosition(board, positionOptions(board, options));
  return {
    file,
    status: position.deductions.status,
    skin: null,
    region: null,
    grid: null,
    board: { ...board, totalMines: positionOptions(board, options).totalMines },
    readings: null,
    unreadable: [],
    suggestions: [],
    ...position,
  };
}

function positionOptions(board: Board, options: AnalyzeOptions) {
  return { totalMines: options.mines ?? board.totalMines, trustFlags: options.trustFlags ?? false };
}

export function failed(file: string, err: unknown): Analysis {
  const error = err instanceof Error ? err.message : String(err);
  return {
    file, status: 'error', error, skin: null, region: null, grid: null, board: null, readings: null, deductions: null, unreadable: [],
    flags: { proven: [], unproven: [], wrong: [], trusted: [] }, probabilities: null, bestGuess: null, reasons: [], conflict: null, suggestions: [], notes: [],
  };
}

const skinCache = new Map<string, Promise<Skin>>();

function cachedSkin(nameOrDir: string): Promise<Skin> {
  if (!skinCache.has(nameOrDir)) skinCache.set(nameOrDir, loadSkin(nameOrDir));
  return skinCache.get(nameOrDir) as Promise<Skin>;
}

interface SkinReading {
  skin: Skin;
  readings: Reading[];
  grid: Grid;
  fit: number;
}

/**
 * With no skin named, every built-in skin reads the board and the closest fit (lowest mean distance) wins.
 * Outer rows and columns that mostly match none of a skin's templates are not board: they are trimmed.
 */
async function readCells(image: RgbaImage, found: Grid, skinName?: string): Promise<SkinReading> {
  const skin = skinName ? await cachedSkin(skinName) : await bestSkin(image, found);
  const fitted = alignToSkin(image, found, skin);
  const all = classify(image, fitted, skin);
  const { grid, top, left } = trimGrid(fitted, (row, col) => all[row * fitted.cols + col].distance <= 2 * skin.maxDistance);
  const readings = distrustLoneZeros(grid, all
    .filter((r) => r.row >= top && r.row < top + grid.rows && r.col >= left && r.col < left + grid.cols)
    .map((r) => ({ ...r, row: r.row - top, col: r.col - left })));
  const fit = readings.reduce((sum, r) => sum + r.distance, 0) / Math.max(1, readings.length);
  trace('skin %s: %d×%d, mean distance %s', skin.name, grid.rows, grid.cols, fit.toFixed(2));
  if (fit > POOR_FIT * skin.maxDistance) {
    throw new Error(`no skin fits this board (closest: ${skin.name}, mean distance ${fit.toFixed(1)}); teach it one with 'mine-assist learn'`);
  }
  return { skin, readings, grid, fit };
}

/**
 * A skin whose templates sit this far (as a share of its match limit) from the board's cells on average
 * is the wrong skin: reading with it could misread cells that still pass the per-cell tests.
 */
const POOR_FIT = 0.5;

/** The built-in skin whose templates sit closest to a spread sample of the board's cells. */
async function bestSkin(image: RgbaImage, grid: Grid): Promise<Skin> {
  const skins = await Promise.all((await builtinSkinNames()).map(cachedSkin));
  if (!skins.length) throw new Error('no skins available');
  const sample = sampleCells(grid, 64);
  const scored = skins.map((skin) => ({ skin, fit: mean(classify(image, grid, skin, { cells: sample, search: false }).map((r) => r.distance)) }));
  scored.forEach(({ skin, fit }) => trace('skin %s: sample mean distance %s', skin.name, fit.toFixed(2)));
  return scored.reduce((a, b) => (b.fit < a.fit ? b : a)).skin;
}

/**
 * Shifts the grid by up to two pixels each way to where a sample of cells sits closest to the skin's
 * templates: the fitted origin can be a pixel off, which matters on small cells.
 */
function alignToSkin(image: RgbaImage, grid: Grid, skin: Skin): Grid {
  const sample = sampleCells(grid, 64);
  let best = { grid, fit: Infinity };
  for (let dy = -2; dy <= 2; dy++) {
    for (let dx = -2; dx <= 2; dx++) {
      const shifted = { ...grid, left: grid.left + dx, top: grid.top + dy };
      const fit = mean(classify(image, shifted, skin, { cells: sample, search: false }).map((r) => r.distance));
      if (fit < best.fit - 1e-9 || (fit === best.fit && dx === 0 && dy === 0)) best = { grid: shifted, fit };
    }
  }
  return best.grid;
}

function sampleCells(grid: Grid, count: number): Coord[] {
  const total = grid.rows * grid.cols;
  const stride = Math.max(1, Math.floor(total / count));
  return Array.from({ length: Math.min(count, total) }, (_, i): Coord => {
    const at = (i * stride + (i % 7)) % total;
    return [Math.floor(at / grid.cols), at % grid.cols];
  });
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

function boardFromReadings(grid: Grid, readings: Reading[], totalMines: number | null): Board {
  const cells = Array.from({ length: grid.rows }, () => new Array<string>(grid.cols).fill('.'));
  for (const r of readings) cells[r.row][r.col] = r.cell;
  return { rows: grid.rows, cols: grid.cols, cells, totalMines };
}

/**
 * A game opens every neighbour of an open 0 by itself, so a 0 read next to a hidden or flagged cell is a
 * misreading (or not a cell at all): it becomes unreadable, which can only remove facts. Repeated, since
 * each such 0 turns hidden in turn.
 */
function distrustLoneZeros(grid: Grid, readings: Reading[]): Reading[] {
  const at = (row: number, col: number) => readings[row * grid.cols + col];
  const closed = (r: Reading) => r.cell === '.' || r.cell === 'F' || r.cell === '?';
  let out = readings.map((r) => ({ ...r }));
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of out) {
      if (r.cell !== '0') continue;
      const around = neighbours({ rows: grid.rows, cols: grid.cols, cells: [], totalMines: null }, r.row, r.col);
      if (around.some(([row, col]) => closed(at(row, col)))) {
        Object.assign(r, { cell: '.', unreadable: true });
        changed = true;
      }
    }
  }
  return out;
}

function unreadableOf(readings: Reading[]): Coord[] {
  return readings.filter((r) => r.unreadable).map((r) => [r.row, r.col]);
}

function regionOf(grid: Grid): Analysis['region'] {
  return {
    left: Math.round(grid.left),
    top: Math.round(grid.top),
    width: Math.round(grid.cols * grid.pitchX),
    height: Math.round(grid.rows * grid.pitchY),
  };
}

export const coordsOf = (names: string[]): Coord[] => names.map(parseCellName);
