// How well a grid sits on a skin: each cell's distance to its nearest template.
import type { Coord, Grid, RgbaImage, Skin } from '../common/types';
import { CELLS_STOP, nearestCells } from '../image/patch';
import { sameGrid } from '../image/pixels';
import { prepareTemplates } from './templates';

/**
 * Each cell's distance to its nearest template, as `classify` without search gives it, for less: only
 * the nearest matters, so the nearest-looking template (by coarse views) is measured first, then only those
 * whose coarse distance, a lower bound, is under the nearest so far. How well a grid sits on a skin.
 */
export function nearestDistances(image: RgbaImage, grid: Grid, skin: Skin, cells: Coord[]): number[] {
  const known = measured(image, grid, skin, cells, undefined, CELLS_STOP.never, 0, 0).known;
  return cells.map((cell) => known[cell[0] * grid.cols + cell[1]]);
}

/**
 * The mean of `nearestDistances`, or Infinity as soon as the cells measured so far show that it cannot be
 * under `below`: a search that keeps only a better fit need not finish measuring a worse one. The cells are
 * measured in `order` (indices into `cells`; `worstFirst` tells a worse grid soonest) and summed in theirs.
 */
export function meanNearest(
  image: RgbaImage,
  grid: Grid,
  skin: Skin,
  cells: Coord[],
  below = Infinity,
  order?: readonly number[],
): number {
  const { known, stopped } = measured(image, grid, skin, cells, order, CELLS_STOP.sum, below * cells.length, 0);
  if (stopped) return Infinity;
  let sum = 0;
  for (let i = 0; i < cells.length; i++) sum += known[cells[i][0] * grid.cols + cells[i][1]];
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
export function medianNearest(
  image: RgbaImage,
  grid: Grid,
  skin: Skin,
  cells: Coord[],
  above = Infinity,
  order?: readonly number[],
): number {
  const enough = cells.length - Math.floor(cells.length / 2);
  const { known, stopped } = measured(image, grid, skin, cells, order, CELLS_STOP.over, above, enough);
  if (stopped) return Infinity;
  const distances = new Float64Array(cells.length);
  for (let i = 0; i < cells.length; i++) distances[i] = known[cells[i][0] * grid.cols + cells[i][1]];
  return distances.sort()[Math.floor(distances.length / 2)] ?? 0;
}

/**
 * Indices of `cells`, those that fit `grid` worst first (ties in their order): an order for measuring grids near
 * it.
 */
export function worstFirst(image: RgbaImage, grid: Grid, skin: Skin, cells: Coord[]): number[] {
  const distances = nearestDistances(image, grid, skin, cells);
  // a comparator's result as a small integer: a difference of distances is a double, boxed on each return
  return cells
    .map((_, i) => i)
    .sort((a, b) => (distances[b] > distances[a] ? 1 : distances[b] < distances[a] ? -1 : a - b));
}

/**
 * The cells measured (nearestCells, image/patch.ts) into the grid's distances known so far, per image and skin: the
 * searches that place a grid come back to the grids they measured (the grid just found better, measured whole to
 * order the next; the grid before and after a step that changed nothing).
 */
function measured(
  image: RgbaImage,
  grid: Grid,
  skin: Skin,
  cells: Coord[],
  order: readonly number[] | undefined,
  stop: number,
  limit: number,
  enough: number,
) {
  const known = knownOf(image, skin, grid);
  const stopped = nearestCells(
    image,
    grid,
    skin.inset,
    prepareTemplates(skin, grid),
    cells,
    known,
    order,
    stop,
    limit,
    enough,
  );
  return { known, stopped };
}

/** Each cell's distance on the grid (by row × cols + col), NaN until measured. */
function knownOf(image: RgbaImage, skin: Skin, grid: Grid): Float64Array {
  let bySkin = memo.get(image);
  if (!bySkin) memo.set(image, (bySkin = new WeakMap()));
  let grids = bySkin.get(skin);
  if (!grids) bySkin.set(skin, (grids = []));
  // the grids compared number by number (=== tells floats apart exactly, 0 and -0 aside, which place a cell alike);
  // a grid is never changed once made, so the one measured is kept as it is
  for (const entry of grids) if (sameGrid(entry.grid, grid)) return entry.known;
  const known = new Float64Array(grid.rows * grid.cols).fill(NaN);
  grids.push({ grid, known });
  return known;
}

const memo = new WeakMap<RgbaImage, WeakMap<Skin, { grid: Grid; known: Float64Array }[]>>();
