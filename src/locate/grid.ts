import type { Grid, Rect, RgbaImage } from '../common/types';
import { gridLineStrength } from './gridlines';
import { latticeFit } from './outlines';
import { mean, median } from '../common/stats';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { abs, max, round } = Math;

export interface GridSeed {
  boxes: Rect[];
  pitchX: number;
  pitchY: number;
}

/**
 * Fits the cell grid: pitch and origin by least squares over the outline centres the locator found (from the
 * middle out, so a first pitch a few percent off never miscounts far cells; centres off the lattice dropped; in
 * the outlines' kernel), then grows the grid by whole rows and columns while the image shows grid lines beyond
 * it (large runs of hidden cells often have no outline of their own).
 */
export function fitGrid(image: RgbaImage, seed: GridSeed): Grid {
  const x = latticeFit(seed.boxes, 'x', seed.pitchX);
  const y = latticeFit(seed.boxes, 'y', seed.pitchY);
  const grid = snap({ rows: y.count, cols: x.count, left: x.origin, top: y.origin, pitchX: x.pitch, pitchY: y.pitch });
  const reference = interiorLines(image, grid);
  const shrunk = shrink(image, grid, reference);
  return grow(image, shrunk, shrunk === grid ? reference : interiorLines(image, shrunk));
}

/**
 * A fit within 0.01 px of a whole pitch is a screenshot at 100 %: snapping it to whole pixels keeps small
 * glyphs sharp instead of averaging each pixel with its neighbour. (Outline centres can stretch a fit by
 * ~0.25 %, about alike at every scale; such fits are left alone, so templates and cells stay comparable.)
 */
function snap(grid: Grid): Grid {
  const whole = (pitch: number) => abs(pitch - round(pitch)) < 0.01;
  return {
    ...grid,
    ...(whole(grid.pitchX) ? { pitchX: round(grid.pitchX), left: round(grid.left) } : {}),
    ...(whole(grid.pitchY) ? { pitchY: round(grid.pitchY), top: round(grid.top) } : {}),
  };
}

/**
 * Drops outer rows and columns in which fewer than half the cells pass (`passes[row × cols + col]`: e.g. match
 * a skin's template): strips of window or panel the grid grew into. `top`/`left` count the rows/cols dropped there.
 */
export function trimGrid(grid: Grid, passes: ArrayLike<boolean>): { grid: Grid; top: number; left: number } {
  let [r0, r1, c0, c1] = [0, grid.rows, 0, grid.cols];
  const { cols } = grid;
  for (let changed = true; changed && r1 - r0 > 1 && c1 - c0 > 1;) {
    changed = true;
    if (passShare(passes, r0 * cols + c0, 1, c1 - c0) < 0.5) r0++;
    else if (passShare(passes, (r1 - 1) * cols + c0, 1, c1 - c0) < 0.5) r1--;
    else if (passShare(passes, r0 * cols + c0, cols, r1 - r0) < 0.5) c0++;
    else if (passShare(passes, r0 * cols + c1 - 1, cols, r1 - r0) < 0.5) c1--;
    else changed = false;
  }
  return { grid: cropGrid(grid, r0, c0, r1 - r0, c1 - c0), top: r0, left: c0 };
}

/** The share of `count` cells that pass, from index `from` in steps of `step` (a row: 1; a column: cols). */
function passShare(passes: ArrayLike<boolean>, from: number, step: number, count: number): number {
  let passed = 0;
  for (let i = 0, at = from; i < count; i++, at += step) if (passes[at]) passed++;
  return passed / max(1, count);
}

/** The rows×cols part of the grid from cell (top, left). */
export function cropGrid(grid: Grid, top: number, left: number, rows: number, cols: number): Grid {
  const cropped: Grid = {
    ...grid,
    rows,
    cols,
    left: grid.lefts?.[left] ?? grid.left + left * grid.pitchX,
    top: grid.tops?.[top] ?? grid.top + top * grid.pitchY,
  };
  if (grid.lefts) cropped.lefts = grid.lefts.slice(left, left + cols);
  if (grid.tops) cropped.tops = grid.tops.slice(top, top + rows);
  return cropped;
}

type Side = 'left' | 'right' | 'top' | 'bottom';
const SIDES: Side[] = ['left', 'right', 'top', 'bottom'];

/**
 * Adds a row or column on a side while the grid lines across it continue. (Its outer line is no guide: a
 * board's edge often meets a frame of much the same colour.)
 */
function grow(image: RgbaImage, start: Grid, reference: LineReference): Grid {
  let grid = start;
  for (let changed = true; changed;) {
    changed = false;
    for (const side of SIDES) {
      const bigger = extend(grid, side);
      if (inside(image, bigger) && looksLikeBoard(image, bigger, side, reference, GROW_SHARE)) {
        grid = bigger;
        changed = true;
      }
    }
  }
  return grid;
}

/**
 * A strip is board when the lines across it reach, on average, this share of the interior lines' strength:
 * GROW_SHARE to add a strip, SHRINK_SHARE to keep one the outlines put there (a gap between them, so a
 * board's faint strips, like dotted lines between open cells, are kept while flat panels beside it are not).
 */
const GROW_SHARE = 0.4;
const SHRINK_SHARE = 0.15;
/**
 * And most lines across it must be there at all (a panel beside the board has a few strong edges, not a line per
 * cell).
 */
const PRESENT = 0.03;

/**
 * Drops outer rows and columns whose cross lines do not continue: outlines off the board that happen to sit on its
 * lattice.
 */
function shrink(image: RgbaImage, start: Grid, reference: LineReference): Grid {
  let grid = start;
  for (let changed = true; changed;) {
    changed = false;
    for (const side of SIDES) {
      if ((side === 'left' || side === 'right' ? grid.cols : grid.rows) <= 2) continue;
      if (!looksLikeBoard(image, grid, side, reference, SHRINK_SHARE)) {
        grid = reduce(grid, side);
        changed = true;
      }
    }
  }
  return grid;
}

function looksLikeBoard(image: RgbaImage, bigger: Grid, side: Side, reference: LineReference, share: number): boolean {
  const across: 'x' | 'y' = side === 'left' || side === 'right' ? 'y' : 'x';
  const strip = stripOf(bigger, side);
  const lines = across === 'x' ? strip.cols : strip.rows;
  const strengths: number[] = [];
  for (let k = 1; k < lines; k++) strengths.push(gridLineStrength(image, strip, across, k));
  let present = 0;
  for (const v of strengths) if (v >= PRESENT * reference[across]) present++;
  return mean(strengths) >= share * reference[across] && present >= 0.7 * strengths.length;
}

/** The one row or column a grown grid added on `side`, as a grid of its own. */
function stripOf(g: Grid, side: Side): Grid {
  if (side === 'left') return { ...g, cols: 1 };
  if (side === 'right') return { ...g, cols: 1, left: g.left + (g.cols - 1) * g.pitchX };
  if (side === 'top') return { ...g, rows: 1 };
  return { ...g, rows: 1, top: g.top + (g.rows - 1) * g.pitchY };
}

/** How strong the grid's own lines are (the median interior line), across each axis: what strips are judged by. */
interface LineReference {
  x: number;
  y: number;
}

function interiorLines(image: RgbaImage, grid: Grid): LineReference {
  return { x: interiorStrength(image, grid, 'x'), y: interiorStrength(image, grid, 'y') };
}

function interiorStrength(image: RgbaImage, grid: Grid, axis: 'x' | 'y'): number {
  const lines = axis === 'x' ? grid.cols : grid.rows;
  const strengths: number[] = [];
  for (let k = 1; k < lines; k++) strengths.push(gridLineStrength(image, grid, axis, k));
  return strengths.length ? median(strengths) : gridLineStrength(image, grid, axis, 0);
}

function reduce(g: Grid, side: Side): Grid {
  if (side === 'left') return { ...g, cols: g.cols - 1, left: g.left + g.pitchX };
  if (side === 'right') return { ...g, cols: g.cols - 1 };
  if (side === 'top') return { ...g, rows: g.rows - 1, top: g.top + g.pitchY };
  return { ...g, rows: g.rows - 1 };
}

function extend(g: Grid, side: Side): Grid {
  if (side === 'left') return { ...g, cols: g.cols + 1, left: g.left - g.pitchX };
  if (side === 'right') return { ...g, cols: g.cols + 1 };
  if (side === 'top') return { ...g, rows: g.rows + 1, top: g.top - g.pitchY };
  return { ...g, rows: g.rows + 1 };
}

function inside(image: RgbaImage, g: Grid): boolean {
  return (
    g.left >= -0.5 &&
    g.top >= -0.5 &&
    g.left + g.cols * g.pitchX <= image.width + 0.5 &&
    g.top + g.rows * g.pitchY <= image.height + 0.5
  );
}
