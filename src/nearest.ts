// How well a grid sits on a skin: each cell's distance to its nearest template.
import type { Coord, Grid, RgbaImage, Skin } from './types';
import { cellLeft, cellTop } from './pixels';
import { nearestTemplate } from './patch';
import { prepareTemplates, type PreparedSkin } from './templates';

/**
 * Each cell's distance to its nearest template, as `classify` without search gives it, for less: only
 * the nearest matters, so the nearest-looking template (by coarse views) is measured first, then only those
 * whose coarse distance, a lower bound, is under the nearest so far. How well a grid sits on a skin.
 */
export function nearestDistances(image: RgbaImage, grid: Grid, skin: Skin, cells: Coord[]): number[] {
  const prepared = prepareTemplates(skin, grid);
  return cells.map(([row, col]) => nearestOf(image, grid, skin, prepared, row, col));
}

/**
 * The mean of `nearestDistances`, or Infinity as soon as the cells measured so far show that it cannot be
 * under `below`: a search that keeps only a better fit need not finish measuring a worse one. The cells are
 * measured in `order` (indices into `cells`; `worstFirst` tells a worse grid soonest) and summed in theirs.
 */
export function meanNearest(image: RgbaImage, grid: Grid, skin: Skin, cells: Coord[], below = Infinity, order?: readonly number[]): number {
  const prepared = prepareTemplates(skin, grid);
  const most = below * cells.length;
  const distances: number[] = [];
  let sum = 0;
  for (let k = 0; k < cells.length; k++) {
    const i = order ? order[k] : k;
    const [row, col] = cells[i];
    sum += distances[i] = nearestOf(image, grid, skin, prepared, row, col);
    if (sum >= most) return Infinity;
  }
  if (order) sum = distances.reduce((a, b) => a + b, 0);
  return sum / Math.max(1, cells.length);
}

/**
 * A mean measured only until it passes a bound stops past the bound by more than rounding: a bound this much above
 * the one a decision compares with makes the same decision.
 */
export const BEYOND_ROUNDING = 1 + 1e-9;

/**
 * The median of `nearestDistances`, or Infinity as soon as so many cells measure over `above` that the
 * median must too. Measured in `order`, as `meanNearest`.
 */
export function medianNearest(image: RgbaImage, grid: Grid, skin: Skin, cells: Coord[], above = Infinity, order?: readonly number[]): number {
  const prepared = prepareTemplates(skin, grid);
  const enough = cells.length - Math.floor(cells.length / 2);
  const distances: number[] = [];
  let over = 0;
  for (let k = 0; k < cells.length; k++) {
    const [row, col] = cells[order ? order[k] : k];
    const distance = nearestOf(image, grid, skin, prepared, row, col);
    if (distance > above && ++over >= enough) return Infinity;
    distances.push(distance);
  }
  return distances.sort((a, b) => a - b)[Math.floor(distances.length / 2)] ?? 0;
}

/** Indices of `cells`, those that fit `grid` worst first (ties in their order): an order for measuring grids near it. */
export function worstFirst(image: RgbaImage, grid: Grid, skin: Skin, cells: Coord[]): number[] {
  const distances = nearestDistances(image, grid, skin, cells);
  return cells.map((_, i) => i).sort((a, b) => distances[b] - distances[a] || a - b);
}

/**
 * One cell's distance, remembered per image and skin by the area it covers: the searches that place a grid
 * come back to the same places (a climb's neighbours, the grid before and after a step that changed nothing).
 */
function nearestOf(image: RgbaImage, grid: Grid, skin: Skin, prepared: PreparedSkin, row: number, col: number): number {
  const seen = memoOf(image, skin);
  const left = cellLeft(grid, col);
  const top = cellTop(grid, row);
  const known = seen.get(left, top, grid.pitchX, grid.pitchY);
  if (known !== undefined) return known;
  const distance = nearestTemplate(image, grid, row, col, skin.inset, prepared);
  seen.set(left, top, grid.pitchX, grid.pitchY, distance);
  return distance;
}

/**
 * Numbers by four numbers, exactly (nested maps: a string key made of the four costs more than the lookups it
 * replaces before V8 has compiled this code).
 */
class Areas {
  private readonly byPitch = new Map<number, Map<number, Map<number, Map<number, number>>>>();

  get(left: number, top: number, pitchX: number, pitchY: number): number | undefined {
    return this.byPitch.get(pitchX)?.get(pitchY)?.get(left)?.get(top);
  }

  set(left: number, top: number, pitchX: number, pitchY: number, value: number): void {
    const byPitchY = innerMap(this.byPitch, pitchX);
    innerMap(innerMap(byPitchY, pitchY), left).set(top, value);
  }
}

function innerMap<V>(map: Map<number, Map<number, V>>, key: number): Map<number, V> {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  return inner;
}

const memo = new WeakMap<RgbaImage, WeakMap<Skin, Areas>>();

function memoOf(image: RgbaImage, skin: Skin): Areas {
  let bySkin = memo.get(image);
  if (!bySkin) memo.set(image, (bySkin = new WeakMap()));
  let seen = bySkin.get(skin);
  if (!seen) bySkin.set(skin, (seen = new Areas()));
  return seen;
}
