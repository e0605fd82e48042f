import type { Analysis, Board, Coord, CounterModel, Grid, Reading, Rect, RgbaImage } from '../common/types';
import { blurred, decode, isLossy } from '../image/decode';
import { type Located, type OutlineFinder, SeveralBoardsError, locateAll } from '../locate/locate';
import { fitGrid } from '../locate/grid';
import { gridEdges, scaleGrid, shrinkImage } from '../image/pixels';
import { analyzePosition, rereadings } from '../solve/position';
import { cellName, parseCellName } from '../common/board';
import { counterTotal, readCounter } from '../counter/counter';
import {
  givenSkin,
  MisplacedError,
  preloadSkins,
  readBoard,
  regionOf,
  type SkinChoice,
  type SkinReading,
} from '../read/read';
import { loadCounter } from '../skin/skin';
import { cutSides, type Side } from '../read/cut';
import { openSides } from '../read/open';
import { growAlongLattice } from '../read/lattice';
import { warmSolver } from '../solve/solve';
import { unframedSides, windowSides } from '../locate/frame';
import { mayBeFlags } from '../read/classify';
import { SKINLESS } from '../read/skinless';

export interface AnalyzeOptions {
  /**
   * A built-in skin name or a skin folder (or learn's skin in hand); all built-in skins are tried (best fit wins)
   * when absent.
   */
  skin?: SkinChoice;
  /** Total mines in the game, flags included; overrides a board header. */
  mines?: number | null;
  trustFlags?: boolean;
  /** Edges where the board may go on past the screenshot: their counts and any total are not used. */
  cutSides?: Side[];
  /** Sides of the grid beyond which cells read as board: the same. */
  openSides?: Side[];
  /** Sides where the image does not show the skin's frame (something covers the board there): the same. */
  coveredSides?: Side[];
  /** Find the counts that prove each certain cell (default true): for JSON, --explain and the page. */
  reasons?: boolean;
  /** Cells taken as hidden only because they could not be read: never marked (solve/position.ts). */
  unsure?: string[];
}

export interface ImageAnalysis {
  analysis: Analysis;
  /** The decoded screenshot, for drawing on; null when decoding failed. */
  image: RgbaImage | null;
}

/** Screenshot → board → deductions. Failures become an `error` result (with what was found), never a throw. */
export async function analyzeImage(
  input: string | Buffer,
  file: string,
  options: AnalyzeOptions = {},
): Promise<ImageAnalysis> {
  let image: RgbaImage | null = null;
  const found: Partial<Analysis> = {};
  try {
    const decoding = decode(input);
    preloadSkins(options.skin);
    warmSolver();
    image = await decoding;
    if (image.frames) found.frames = image.frames;
    return { image, analysis: (await analyzePixels(image, file, options, found, () => isLossy(input))).analysis };
  } catch (err) {
    const failure = failed(file, err);
    if (found.frames) failure.error += ` (${firstFrameOnly(found.frames)})`;
    return { image, analysis: { ...failure, ...found } };
  }
}

/**
 * Decoded pixels → the board read (skin, grid, readings) and its analysis. Throws when no board is read; `found`
 * then holds what was found. `lossy` says whether the pixels came from a lossy format (JPEG, WebP, AVIF).
 */
export async function analyzePixels(
  image: RgbaImage,
  file: string,
  options: AnalyzeOptions = {},
  found: Partial<Analysis> = {},
  lossy: () => Promise<boolean> = async () => false,
): Promise<{ read: SkinReading; analysis: Analysis }> {
  preloadSkins(options.skin);
  warmSolver();
  const read = await readScreenshot(image, options.skin, found, lossy);
  return { read, analysis: await analyzeRead(image, read, file, options, found) };
}

/**
 * A board read from a screenshot → the analysis: its sides (cut, open, covered), the mine counter, the solver.
 * `found` collects what is known so far (an error's result keeps it); a watch (serve/watch.ts) calls this with
 * cells read again where a frame changed (read/partial.ts). Throws when the board cannot be analysed.
 */
export async function analyzeRead(
  image: RgbaImage,
  { skin, readings, grid, fit }: SkinReading,
  file: string,
  options: AnalyzeOptions,
  found: Partial<Analysis> = {},
): Promise<Analysis> {
  Object.assign(found, {
    grid,
    region: regionOf(grid),
    readings,
    skin: skin.name,
    skinFit: fit,
    unreadable: unreadableOf(readings),
  });
  options = { ...options, unsure: found.unreadable?.map(([row, col]) => cellName(row, col)) };
  const cut = cutSides(image, grid, readings, windowSides(image, grid, skin));
  const open = sidesOpen(image, { skin, grid, readings }).filter((side) => !cut.includes(side));
  const covered = unframedSides(image, grid, skin).filter((side) => !cut.includes(side) && !open.includes(side));
  if (cut.length || open.length || covered.length)
    options = { ...options, mines: null, cutSides: cut, openSides: open, coveredSides: covered };
  const read = boardFromReadings(grid, readings, options.mines ?? null);
  const model =
    typeof options.skin === 'object' && givenSkin(options.skin)
      ? null
      : await cachedCounter(typeof options.skin === 'string' && options.skin !== 'none' ? options.skin : skin.name);
  const counter = model
    ? counterTotal(
        readCounter(image, grid, model),
        read,
        options.mines ?? null,
        mayBeFlags(image, grid, skin, readings),
        model.stopsAtZero,
      )
    : null;
  if (cut.length && counter?.used)
    Object.assign(counter, { used: false, note: `the board may go on past the image's ${cut.join(' and ')} edge` });
  const beyond = [...open, ...covered];
  if (beyond.length && counter?.used)
    Object.assign(counter, { used: false, note: `the board may go on past its ${beyond.join(' and ')} side` });
  const board = counter?.used ? { ...read, totalMines: counter.total } : read;
  let analysis = analyzeBoard(board, file, options);
  if (counter?.used && analysis.status === 'inconsistent' && analyzeBoard(read, file, options).status === 'ok') {
    Object.assign(counter, { used: false, note: `the board cannot hold ${counter.total} mines` });
    analysis = analyzeBoard(read, file, options);
  }
  const suggestions = analysis.conflict
    ? rereadings(analysis.board ?? board, readings, analysis.conflict, positionOptions(board, options))
    : [];
  const notes = found.frames ? [...analysis.notes, firstFrameOnly(found.frames)] : analysis.notes;
  return { ...analysis, ...found, counter, suggestions, notes };
}

const firstFrameOnly = (frames: number): string => `an animated image: only the first of its ${frames} frames was read`;

/**
 * The board located and read from outlines found without OpenCV; when that leaves cells unreadable, reads
 * part of a board (its lattice goes on past a side: read/open.ts) or finds no board that reads, also from
 * OpenCV's outlines, and the reading with more cells read is kept (then the closer fit). Each finder's grid is
 * a pixel off now and then where the other's is exact, and each finds some boards whole where the other finds
 * part. When neither reads a board (and neither found two), outlines are looked for once more on the screenshot
 * shrunk by half.
 */
async function readScreenshot(
  image: RgbaImage,
  skinName: SkinChoice,
  found: Partial<Analysis>,
  lossy: () => Promise<boolean>,
): Promise<SkinReading> {
  const own = await readFrom(image, skinName, found, 'own').catch((err: unknown) => err as Error);
  if (!(own instanceof Error) && own.readings.every((r) => !r.unreadable) && !sidesOpen(image, own).length) return own;
  const opencv = await readFrom(image, skinName, found, 'opencv').catch((err: unknown) => err as Error);
  if (opencv instanceof Error) {
    if (!(own instanceof Error)) return own;
    if (own instanceof SeveralBoardsError) throw own;
    if (opencv instanceof SeveralBoardsError) throw opencv;
    return readCoarse(image, skinName, found, opencv, await lossy()).catch(
      (err: unknown) => halfACellOver([own, opencv]) ?? Promise.reject(err),
    );
  }
  if (own instanceof Error) return opencv;
  return wider(own, opencv) ?? (score(own) > score(opencv) ? own : opencv);
}

/**
 * Of two skin-free readings of one lattice where one grid takes in the other, the larger: both read enough, and
 * its further rows or columns have the board's looks (read/bounds.ts), so one finder's grid stopped short.
 */
function wider(a: SkinReading, b: SkinReading): SkinReading | null {
  if (a.skin.name !== SKINLESS || b.skin.name !== SKINLESS) return null;
  if (a.grid.rows * a.grid.cols < b.grid.rows * b.grid.cols) [a, b] = [b, a];
  return a.grid.rows * a.grid.cols > b.grid.rows * b.grid.cols && takesIn(a.grid, b.grid) ? a : null;
}

/** Whether `outer` has about `inner`'s pitch and its cells lie on `outer`'s, within it. */
function takesIn(outer: Grid, inner: Grid): boolean {
  const [o, i] = [gridEdges(outer), gridEdges(inner)];
  const [qx, qy] = [outer.pitchX / 4, outer.pitchY / 4];
  const near = (p: number, q: number) => Math.abs(p - q) <= 0.02 * q;
  const onLattice = (d: number, pitch: number) => Math.abs(d / pitch - Math.round(d / pitch)) <= 0.25;
  return (
    near(inner.pitchX, outer.pitchX) &&
    near(inner.pitchY, outer.pitchY) &&
    onLattice(i.left - o.left, outer.pitchX) &&
    onLattice(i.top - o.top, outer.pitchY) &&
    i.left >= o.left - qx &&
    i.top >= o.top - qy &&
    i.right <= o.right + qx &&
    i.bottom <= o.bottom + qy
  );
}

/** The sides past which the board goes on (read/open.ts). */
const sidesOpen = (image: RgbaImage, { skin, grid, readings }: Pick<SkinReading, 'skin' | 'grid' | 'readings'>) =>
  openSides(image, grid, skin, readings);

const score = (read: SkinReading) =>
  read.readings.filter((r) => !r.unreadable).length - read.fit.meanDistance / (1 + read.fit.maxDistance);

/** The last resort: a grid the skin could not place, read again from half a cell over (the better of the finders'). */
function halfACellOver(errors: Error[]): SkinReading | null {
  const moved = errors
    .flatMap((err) => (err instanceof MisplacedError ? [err.halfACellOver()] : []))
    .filter((read) => read !== null);
  return moved.sort((a, b) => score(b) - score(a))[0] ?? null;
}

/**
 * Outlines looked for on the screenshot shrunk by half, and for a lossy format (JPEG, WebP, AVIF) then slightly
 * blurred and shrunk, then only blurred, the cells read at full size: a board of textured cells with no borders
 * (KMines' grass) scaled up, blurred, shows no outline of a whole cell, but shrunk back it does; saved lossily,
 * the blocks break the cells' faint outlines, and a blur of under a pixel joins them again. The first error stands
 * when none of these finds a board either.
 */
async function readCoarse(
  image: RgbaImage,
  skinName: SkinChoice,
  found: Partial<Analysis>,
  first: Error,
  lossy: boolean,
): Promise<SkinReading> {
  if (Math.min(image.width, image.height) < COARSE_MIN_SIDE) throw first;
  let soft: RgbaImage | null = null;
  const softened = async () => (soft ??= await blurred(image, LOSSY_BLUR));
  const views = [
    async () => ({ image: shrinkImage(image, 2), k: 2 }),
    ...(lossy
      ? [
          async () => ({ image: shrinkImage(await softened(), 2), k: 2 }),
          async () => ({ image: await softened(), k: 1 }),
        ]
      : []),
  ];
  for (const view of views) {
    const located = await view();
    for (const finder of ['own', 'opencv'] as const) {
      const read = await readFrom(image, skinName, found, finder, located).catch(() => null);
      if (read) return read;
    }
  }
  throw first;
}

/** Blur (Gaussian sigma, pixels) that joins outlines a lossy format's blocks broke, and no more. */
const LOSSY_BLUR = 0.8;

/** An image smaller than this (pixels, either side) is not looked at shrunk: its cells would be too small. */
const COARSE_MIN_SIDE = 400;

/**
 * Outlines found on `located` (the image, or the image shrunk by a whole factor `k`); the cells read on the image,
 * the grid then grown along the board's lattice where the outlines stopped short of it (read/lattice.ts).
 */
async function readFrom(
  image: RgbaImage,
  skinName: SkinChoice,
  found: Partial<Analysis>,
  finder: OutlineFinder,
  located = { image, k: 1 },
): Promise<SkinReading> {
  const candidates = await locateAll(located.image, finder);
  const up = located.k;
  const k = shrinkFactor(candidates, up);
  const view = k > 1 ? shrinkImage(image, k) : image;
  const boards = candidates.map((c) => ({
    grid: once(() => scaleGrid(fitGrid(located.image, c), up / k)),
    boxes: once(() => c.boxes.map((b) => scaleRect(b, up / k))),
  }));
  const atScale = (read: SkinReading): SkinReading => ({ ...read, grid: scaleGrid(read.grid, k) });
  const read = await readBoard(view, boards, skinName, found, k).then(
    (part) => growAlongLattice(view, part),
    (err: unknown) => {
      if (!(err instanceof MisplacedError)) throw err;
      throw new MisplacedError(err.message, () => {
        const moved = err.halfACellOver();
        return moved && atScale(moved);
      });
    },
  );
  return atScale(read);
}

/** A value made on first use, then kept: a candidate's grid is fitted only if a reader asks for it. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

const scaleRect = (r: Rect, k: number): Rect => ({
  left: r.left * k,
  top: r.top * k,
  width: r.width * k,
  height: r.height * k,
});

/** Board → deductions, probabilities, reasons (or the conflict): the solver alone, for any board. */
export function analyzeBoard(board: Board, file: string, options: AnalyzeOptions = {}): Analysis {
  const position = analyzePosition(board, positionOptions(board, options));
  return {
    file,
    status: position.deductions.status,
    skin: null,
    skinFit: null,
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
  return {
    totalMines: options.mines ?? board.totalMines,
    trustFlags: options.trustFlags ?? false,
    cutSides: options.cutSides,
    openSides: options.openSides,
    coveredSides: options.coveredSides,
    reasons: options.reasons,
    unsure: options.unsure,
  };
}

export function failed(file: string, err: unknown): Analysis {
  const error = err instanceof Error ? err.message : String(err);
  return {
    file,
    status: 'error',
    error,
    skin: null,
    skinFit: null,
    region: null,
    grid: null,
    board: null,
    readings: null,
    deductions: null,
    unreadable: [],
    flags: { proven: [], unproven: [], wrong: [], trusted: [] },
    probabilities: null,
    bestGuess: null,
    reasons: [],
    conflict: null,
    suggestions: [],
    notes: [],
  };
}

/**
 * Cells far larger than any template are read from the screenshot shrunk by a whole factor: the same
 * answer (templates are compared at their own size or less) for a fraction of the pixels.
 */
function shrinkFactor(candidates: Located[], up: number): number {
  const pitch = up * Math.min(...candidates.map((c) => Math.min(c.pitchX, c.pitchY)));
  return Math.max(1, Math.floor(pitch / LARGEST_USEFUL));
}

/** Cells are read at this size or more. */
const LARGEST_USEFUL = 40;

function boardFromReadings(grid: Grid, readings: Reading[], totalMines: number | null): Board {
  const cells = Array.from({ length: grid.rows }, () => new Array<string>(grid.cols).fill('.'));
  for (const r of readings) cells[r.row][r.col] = r.cell;
  return { rows: grid.rows, cols: grid.cols, cells, totalMines };
}

function unreadableOf(readings: Reading[]): Coord[] {
  return readings.filter((r) => r.unreadable).map((r) => [r.row, r.col]);
}

export const coordsOf = (names: string[]): Coord[] => names.map(parseCellName);

const counterCache = new Map<string, Promise<CounterModel | null>>();

function cachedCounter(nameOrDir: string): Promise<CounterModel | null> {
  if (!counterCache.has(nameOrDir)) counterCache.set(nameOrDir, loadCounter(nameOrDir));
  return counterCache.get(nameOrDir) as Promise<CounterModel | null>;
}
