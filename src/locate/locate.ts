import { debuglog } from 'node:util';
import type { Rect, RgbaImage } from '../common/types';
import { gapsAlong, latticeForest, squareRegions } from './outlines';
import { root } from '../common/unionfind';
import { sum } from '../common/stats';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { abs, ceil, floor, max, min, round } = Math;

// OpenCV is loaded lazily, once per process: its WASM start-up is slow and takes much memory.
type OpenCv = any;
let opencv: Promise<{ cv: OpenCv }> | null = null;
const trace = debuglog('mine-assist');

export class NoBoardError extends Error {}
/** Two boards of one cell size: an answer in itself, not a board missed. */
export class SeveralBoardsError extends NoBoardError {}

/** The board found in a screenshot: its region and the cell outlines that make up its lattice. */
export interface Located {
  region: Rect;
  /** Outlines of cells found (not every cell has one); all of one size, on one lattice. */
  boxes: Rect[];
  /** First estimates of the pitch (median gap between neighbouring outlines). */
  pitchX: number;
  pitchY: number;
  /** Outlines of a second board of the same cell size, out of step with this one; 0 when there is none. */
  another: number;
}

const MIN_SIDE = 6;
const MAX_SIDE = 130;
/** Outlines up to this many cells apart link into one lattice (cells without an outline lie between). */
const LINK = 5;
/**
 * A second lattice this large (and half the size of the first), out of step with it, is a second board: not
 * noise, and not a part of the same board cut off by a wide open area.
 */
const MIN_BOARD = 25;
/**
 * Two lattices are called two boards only when their cells are about square, as every Minesweeper draws them:
 * lines of monospaced text make lattices of oblong "cells" too.
 */
const SQUARE = 1.1;
/**
 * …and only when their outlines fill most of the pitch, as cells do: sprites drawn on cells (as in KMines' green
 * theme) make lattices of outlines that fill only part of it.
 */
const FILLED = 0.75;
/** How many common outline sizes are tried as the cell size. */
const CANDIDATE_SIDES = 4;

/**
 * Finds the board: the largest set of same-sized square outlines lying on one regular lattice. Outlines
 * come from several edge and threshold images, and each common outline size is tried as the cell size.
 */
export async function locate(image: RgbaImage, finder: OutlineFinder = 'own'): Promise<Located> {
  return (await locateAll(image, finder))[0];
}

/**
 * Where square outlines come from: 'own' finds the flat regions of a few binary images itself (fast, nothing to
 * load); 'opencv' traces contours of Canny edges and a threshold with OpenCV (slow to load, and large), for the
 * boards the first misses.
 */
export type OutlineFinder = 'own' | 'opencv';

/**
 * Every candidate board, one per common outline size, the largest lattice first. A pattern inside the
 * board (dotted cell borders, a textured background) can out-count the cells: the caller picks among
 * them by how well a skin fits.
 */
export async function locateAll(image: RgbaImage, finder: OutlineFinder = 'own'): Promise<Located[]> {
  const outlines =
    finder === 'opencv' ? await openCvFinder(image) : squareRegions(image, { minSide: MIN_SIDE, maxSide: MAX_SIDE });
  const found: Located[] = [];
  for (const side of commonSides(outlines)) {
    const boxes = dedupe(outlines, side);
    const pitchX = nearestGap(boxes, 'x', side);
    const pitchY = nearestGap(boxes, 'y', side);
    const [board = [], second = []] = lattices(boxes, pitchX, pitchY);
    trace(
      'locate: side %d: %d outlines, pitch %d×%d, lattice %d (next %d)',
      side,
      boxes.length,
      pitchX,
      pitchY,
      board.length,
      second.length,
    );
    const another =
      second.length >= MIN_BOARD &&
      second.length >= 0.5 * board.length &&
      !onLattice(board[0], second[0], pitchX, pitchY) &&
      apart(union(board), union(second)) &&
      max(pitchX, pitchY) <= SQUARE * min(pitchX, pitchY) &&
      side >= FILLED * min(pitchX, pitchY);
    if (board.length >= 6)
      found.push({ region: union(board), boxes: board, pitchX, pitchY, another: another ? second.length : 0 });
  }
  if (!found.length) throw new NoBoardError('no board found: no regular grid of cells in the image');
  found.sort((a, b) => b.boxes.length - a.boxes.length);
  if (found[0].another) {
    throw new SeveralBoardsError(
      `several boards in the image (${found[0].boxes.length} and ${found[0].another} cell outlines of one size): ` +
        'crop it to one',
    );
  }
  return found;
}

/**
 * Where OpenCV's outlines are found: in this thread unless told otherwise. A batch worker asks the main thread
 * (analyze/worker.ts), so that one OpenCV, which takes much memory, serves every worker.
 */
let openCvFinder: (image: RgbaImage) => Promise<Rect[]> = openCvOutlines;

export function findOpenCvOutlinesWith(finder: (image: RgbaImage) => Promise<Rect[]>): void {
  openCvFinder = finder;
}

/** The module object is a thenable that never settles, so it travels wrapped, never awaited itself. */
function loadOpenCv(): Promise<{ cv: OpenCv }> {
  opencv ??= new Promise((resolve) => {
    const cv = require('@techstark/opencv-js');
    if (cv.Mat) resolve({ cv });
    else cv.onRuntimeInitialized = () => resolve({ cv });
  });
  return opencv;
}

/** The square outlines OpenCV finds in the image: the contours of Canny edges, those thickened, and a threshold. */
export async function openCvOutlines(image: RgbaImage): Promise<Rect[]> {
  const { cv } = await loadOpenCv();
  const mats: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(m: T): T => (mats.push(m), m);
  try {
    const src = keep(cv.matFromArray(image.height, image.width, cv.CV_8UC4, image.data));
    const gray = keep(new cv.Mat());
    cv.cvtColor(src, gray, cv.COLOR_RGBA2GRAY);
    const edges = keep(new cv.Mat());
    cv.Canny(gray, edges, 20, 60);
    const thick = keep(new cv.Mat());
    cv.dilate(edges, thick, keep(cv.Mat.ones(3, 3, cv.CV_8U)));
    const binary = keep(new cv.Mat());
    cv.adaptiveThreshold(gray, binary, 255, cv.ADAPTIVE_THRESH_MEAN_C, cv.THRESH_BINARY, 15, 2);
    return [edges, thick, binary].flatMap((mask) => squaresIn(cv, mask));
  } finally {
    for (const m of mats) m.delete();
  }
}

function squaresIn(cv: OpenCv, mask: unknown): Rect[] {
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  try {
    cv.findContours(mask, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
    const found: Rect[] = [];
    for (let i = 0; i < contours.size(); i++) {
      const contour = contours.get(i);
      const r = cv.boundingRect(contour);
      const fill = cv.contourArea(contour) / max(1, r.width * r.height);
      contour.delete();
      if (isSquare(r) && fill >= 0.5) found.push({ left: r.x, top: r.y, width: r.width, height: r.height });
    }
    return found;
  } finally {
    contours.delete();
    hierarchy.delete();
  }
}

function isSquare(r: { width: number; height: number }): boolean {
  const ratio = r.width / r.height;
  return (
    r.width >= MIN_SIDE &&
    r.height >= MIN_SIDE &&
    r.width <= MAX_SIDE &&
    r.height <= MAX_SIDE &&
    ratio > 0.75 &&
    ratio < 1.33
  );
}

const sideOf = (b: Rect): number => (b.width + b.height) / 2;
const centerX = (b: Rect): number => b.left + b.width / 2;
const centerY = (b: Rect): number => b.top + b.height / 2;

/** The few side lengths shared by most outlines (each counting those within ±8% of it), most common first. */
export function commonSides(boxes: Rect[]): number[] {
  // each outline counts for a run of sides, summed from where runs start and end: a pass over the outlines, not one
  // per side (thousands of outlines on a large screenshot, 125 sides)
  const starts = new Array<number>(MAX_SIDE + 2).fill(0);
  for (const b of boxes) {
    const [from, to] = sidesNear(sideOf(b));
    if (from > to) continue;
    starts[from]++;
    starts[to + 1]--;
  }
  const counts: number[] = [];
  for (let side = MIN_SIDE, run = 0; side <= MAX_SIDE; side++) counts[side] = run += starts[side];
  const peaks: number[] = [];
  for (let side = MIN_SIDE; side <= MAX_SIDE; side++) {
    const isPeak =
      counts[side] >= 6 && counts[side] >= (counts[side - 1] ?? 0) && counts[side] > (counts[side + 1] ?? 0);
    if (isPeak) peaks.push(side);
  }
  return peaks.sort((a, b) => counts[b] - counts[a]).slice(0, CANDIDATE_SIDES);
}

/**
 * The sides from MIN_SIDE to MAX_SIDE within ±8 % (and half a pixel) of an outline's: from and to, empty when from
 * > to. Where the bounds' closed forms round a side off, the test itself moves them.
 */
function sidesNear(outline: number): [number, number] {
  const near = (side: number) => abs(outline - side) <= 0.08 * side + 0.5;
  let from = max(MIN_SIDE, ceil((outline - 0.5) / 1.08));
  let to = min(MAX_SIDE, floor((outline + 0.5) / 0.92));
  while (from > MIN_SIDE && near(from - 1)) from--;
  while (from <= to && !near(from)) from++;
  while (to < MAX_SIDE && near(to + 1)) to++;
  while (to >= from && !near(to)) to--;
  return [from, to];
}

/**
 * The outlines of about this side; nested contours (inner and outer edge of one cell) collapse to one outline
 * per cell.
 */
function dedupe(boxes: Rect[], side: number): Rect[] {
  const seen = new Map<number, Rect>();
  const q = max(2, side / 3);
  for (const b of boxes) {
    if (abs(sideOf(b) - side) > 0.12 * side + 1) continue;
    // the pair as one number, not a string: the decoder's pixel cap keeps either rounded centre under 2^26
    const key = round(centerX(b) / q) * 2 ** 26 + round(centerY(b) / q);
    if (!seen.has(key)) seen.set(key, b);
  }
  return [...seen.values()];
}

/**
 * Typical distance from an outline to its nearest neighbour along one axis: a first estimate of the pitch.
 * The mean of the gaps near the median, since a resized board alternates gaps (10, 11, 10, … for 10.5).
 */
function nearestGap(boxes: Rect[], axis: 'x' | 'y', side: number): number {
  // each outline's gap to the nearest after it along the axis, on about its line, where under 1.9 sides
  const gaps = gapsAlong(boxes, axis, side);
  if (!gaps.length) return side;
  gaps.sort();
  const median = gaps[gaps.length >> 1];
  const half = gapsNear(gaps, median / 2);
  const near = half.length >= HALF_GAPS * gaps.length ? half : gapsNear(gaps, median);
  return sum(near) / near.length;
}

/** The gaps within 20 % of g0. */
function gapsNear(gaps: Float64Array, g0: number): number[] {
  const near: number[] = [];
  for (let i = 0; i < gaps.length; i++) if (abs(gaps[i] - g0) <= 0.2 * g0) near.push(gaps[i]);
  return near;
}

/** The outlines' centres along one axis. */
export function centres(boxes: Rect[], axis: 'x' | 'y'): number[] {
  const along: number[] = [];
  for (const b of boxes) along.push(axis === 'x' ? centerX(b) : centerY(b));
  return along;
}

/**
 * When this share of the gaps is half the median gap, the pitch is that half: where only every other row
 * has outlines side by side (small cells, mostly open), the median spans two cells.
 */
const HALF_GAPS = 0.2;

/** Groups of outlines linked through neighbours that sit a whole number of pitches apart, largest first. */
function lattices(boxes: Rect[], pitchX: number, pitchY: number): Rect[][] {
  // each outline joined to those on its lattice up to LINK pitches away
  const parent = latticeForest(boxes, pitchX, pitchY, LINK);
  const groups = new Map<number, Rect[]>();
  for (let i = 0; i < boxes.length; i++) {
    const group = groups.get(root(parent, i));
    if (group) group.push(boxes[i]);
    else groups.set(root(parent, i), [boxes[i]]);
  }
  return [...groups.values()].sort(largestFirst);
}

const largestFirst = (a: unknown[], b: unknown[]): number => b.length - a.length;

function onLattice(a: Rect, b: Rect, pitchX: number, pitchY: number): boolean {
  const fx = (centerX(b) - centerX(a)) / pitchX;
  const fy = (centerY(b) - centerY(a)) / pitchY;
  return abs(fx - round(fx)) < 0.2 && abs(fy - round(fy)) < 0.2;
}

/**
 * Two lattices whose areas mostly overlap are one board whose pitch was estimated a little off (the error
 * adds up across a wide board), not two boards.
 */
function apart(a: Rect, b: Rect): boolean {
  const overlap = (p0: number, p1: number, q0: number, q1: number) => max(0, min(p1, q1) - max(p0, q0));
  const shared =
    overlap(a.left, a.left + a.width, b.left, b.left + b.width) *
    overlap(a.top, a.top + a.height, b.top, b.top + b.height);
  return shared <= 0.25 * min(a.width * a.height, b.width * b.height);
}

function union(boxes: Rect[]): Rect {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    left = min(left, b.left);
    top = min(top, b.top);
    right = max(right, b.left + b.width);
    bottom = max(bottom, b.top + b.height);
  }
  return { left, top, width: right - left, height: bottom - top };
}
