import { debuglog } from 'node:util';
import type { Analysis, Board, Coord, Deductions, FlagReport, Grid, Reading, RgbaImage, Skin } from './types';
import { decode } from './decode';
import { locate } from './locate';
import { fitGrid } from './grid';
import { classify } from './classify';
import { encode } from './encode';
import { solve } from './solve';
import { cellName, parseCellName } from './board';
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
    const grid = fitGrid(image, located);
    const { skin, readings } = await readCells(image, grid, options.skin);
    const board = boardFromReadings(grid, readings, options.mines ?? null);
    const analysis = analyzeBoard(board, file, options);
    return { image, analysis: { ...analysis, skin: skin.name, region: regionOf(grid), grid, readings, unreadable: unreadableOf(readings) } };
  } catch (err) {
    return { image, analysis: failed(file, err) };
  }
}

/** Board → deductions: the solver alone, for a text board or a board read from a screenshot. */
export function analyzeBoard(board: Board, file: string, options: AnalyzeOptions = {}): Analysis {
  const totalMines = options.mines ?? board.totalMines;
  const deductions = solve(encode(board, { totalMines, trustFlags: options.trustFlags ?? false }));
  return {
    file,
    status: deductions.status,
    skin: null,
    region: null,
    grid: null,
    board: { ...board, totalMines },
    readings: null,
    deductions,
    unreadable: [],
    flags: flagReport(board, deductions),
  };
}

export function failed(file: string, err: unknown): Analysis {
  const error = err instanceof Error ? err.message : String(err);
  return { file, status: 'error', error, skin: null, region: null, grid: null, board: null, readings: null, deductions: null, unreadable: [], flags: { proven: [], unproven: [], wrong: [] } };
}

const skinCache = new Map<string, Promise<Skin>>();

function cachedSkin(nameOrDir: string): Promise<Skin> {
  if (!skinCache.has(nameOrDir)) skinCache.set(nameOrDir, loadSkin(nameOrDir));
  return skinCache.get(nameOrDir) as Promise<Skin>;
}

/** With no skin named, every built-in skin reads the board and the closest fit (lowest mean distance) wins. */
async function readCells(image: RgbaImage, grid: Grid, skinName?: string): Promise<{ skin: Skin; readings: Reading[] }> {
  const names = skinName ? [skinName] : await builtinSkinNames();
  let best: { skin: Skin; readings: Reading[]; fit: number } | null = null;
  for (const name of names) {
    const skin = await cachedSkin(name);
    const readings = classify(image, grid, skin);
    const fit = readings.reduce((s, r) => s + r.distance, 0) / readings.length;
    trace('skin %s: mean distance %d', skin.name, fit.toFixed(2));
    if (!best || fit < best.fit) best = { skin, readings, fit };
  }
  if (!best) throw new Error('no skins available');
  return best;
}

function boardFromReadings(grid: Grid, readings: Reading[], totalMines: number | null): Board {
  const cells = Array.from({ length: grid.rows }, () => new Array<string>(grid.cols).fill('.'));
  for (const r of readings) cells[r.row][r.col] = r.cell;
  return { rows: grid.rows, cols: grid.cols, cells, totalMines };
}

function flagReport(board: Board, deductions: Deductions): FlagReport {
  const mines = new Set(deductions.mines);
  const safe = new Set(deductions.safe);
  const report: FlagReport = { proven: [], unproven: [], wrong: [] };
  board.cells.forEach((line, row) => line.forEach((cell, col) => {
    if (cell !== 'F') return;
    const name = cellName(row, col);
    (mines.has(name) ? report.proven : safe.has(name) ? report.wrong : report.unproven).push([row, col]);
  }));
  return report;
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
