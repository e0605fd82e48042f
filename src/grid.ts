import type { Grid, Rect, RgbaImage } from './types';
import { gridLineStrength } from './gridlines';

export interface GridSeed {
  boxes: Rect[];
  pitchX: number;
  pitchY: number;
}

/**
 * Fits the cell grid: pitch and origin by least squares over the outline centres the locator found,
 * then grows the grid by whole rows and columns while the image shows grid lines beyond it
 * (large runs of hidden cells often have no outline of their own).
 */
export function fitGrid(image: RgbaImage, seed: GridSeed): Grid {
  const x = fitAxis(seed.boxes.map((b) => b.left + b.width / 2), seed.pitchX);
  const y = fitAxis(seed.boxes.map((b) => b.top + b.height / 2), seed.pitchY);
  const grid = { rows: y.count, cols: x.count, left: x.origin, top: y.origin, pitchX: x.pitch, pitchY: y.pitch };
  return grow(image, grid);
}

interface AxisFit {
  origin: number;
  pitch: number;
  count: number;
}

/** Centres c = origin + pitch * (k + 0.5) for whole k; outliers (off the lattice) are dropped between rounds. */
function fitAxis(centres: number[], pitchGuess: number): AxisFit {
  let pitch = pitchGuess;
  let origin = phase(centres, pitch) - pitch / 2;
  let points = centres;
  for (let round = 0; round < 3; round++) {
    const k = points.map((c) => Math.round((c - origin) / pitch - 0.5));
    ({ pitch, origin } = leastSquares(k, points));
    points = points.filter((c) => Math.abs(residual(c, origin, pitch)) < 0.25);
  }
  const k = points.map((c) => Math.round((c - origin) / pitch - 0.5));
  const kMin = Math.min(...k);
  return { origin: origin + kMin * pitch, pitch, count: Math.max(...k) - kMin + 1 };
}

/** Where, modulo the pitch, the centres sit (a circular mean, so wrap-around does not bias it). */
function phase(centres: number[], pitch: number): number {
  let sin = 0;
  let cos = 0;
  for (const c of centres) {
    sin += Math.sin((2 * Math.PI * c) / pitch);
    cos += Math.cos((2 * Math.PI * c) / pitch);
  }
  return (pitch * Math.atan2(sin, cos)) / (2 * Math.PI);
}

function residual(c: number, origin: number, pitch: number): number {
  const f = (c - origin) / pitch - 0.5;
  return f - Math.round(f);
}

function leastSquares(k: number[], v: number[]): { pitch: number; origin: number } {
  const n = k.length;
  const mk = k.reduce((a, b) => a + b, 0) / n;
  const mv = v.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (k[i] - mk) * (v[i] - mv);
    den += (k[i] - mk) ** 2;
  }
  const pitch = den > 0 ? num / den : 1;
  return { pitch, origin: mv - pitch * (mk + 0.5) };
}

type Side = 'left' | 'right' | 'top' | 'bottom';
const SIDES: Side[] = ['left', 'right', 'top', 'bottom'];

/** Adds a row or column on a side while its outer line is a grid line as strong as the interior ones. */
function grow(image: RgbaImage, start: Grid): Grid {
  let grid = start;
  const reference = { x: interiorStrength(image, grid, 'x'), y: interiorStrength(image, grid, 'y') };
  for (let changed = true; changed; ) {
    changed = false;
    for (const side of SIDES) {
      const bigger = extend(grid, side);
      if (!inside(image, bigger)) continue;
      const axis = side === 'left' || side === 'right' ? 'x' : 'y';
      const outer = side === 'left' || side === 'top' ? 0 : axis === 'x' ? bigger.cols : bigger.rows;
      if (gridLineStrength(image, bigger, axis, outer) >= 0.4 * reference[axis]) {
        grid = bigger;
        changed = true;
      }
    }
  }
  return grid;
}

function interiorStrength(image: RgbaImage, grid: Grid, axis: 'x' | 'y'): number {
  const lines = axis === 'x' ? grid.cols : grid.rows;
  const strengths: number[] = [];
  for (let k = 1; k < lines; k++) strengths.push(gridLineStrength(image, grid, axis, k));
  strengths.sort((a, b) => a - b);
  return strengths.length ? strengths[strengths.length >> 1] : gridLineStrength(image, grid, axis, 0);
}

function extend(g: Grid, side: Side): Grid {
  if (side === 'left') return { ...g, cols: g.cols + 1, left: g.left - g.pitchX };
  if (side === 'right') return { ...g, cols: g.cols + 1 };
  if (side === 'top') return { ...g, rows: g.rows + 1, top: g.top - g.pitchY };
  return { ...g, rows: g.rows + 1 };
}

function inside(image: RgbaImage, g: Grid): boolean {
  return g.left >= -0.5 && g.top >= -0.5
    && g.left + g.cols * g.pitchX <= image.width + 0.5 && g.top + g.rows * g.pitchY <= image.height + 0.5;
}
