import type { Coord, Grid, Reading, RgbaImage, Skin } from './types';
import { shiftGrid } from './pixels';
import { cellPatch, type Patch, templateDistances } from './patch';
import { prepareTemplates, type PreparedSkin, SLACK } from './templates';
import { exactReading } from './exact';

// Math's functions as module constants: under jest every lookup of the global Math costs ~100 ns.
const { max, min, sqrt } = Math;

/**
 * Reads every cell by nearest-template distance. Each template is compared at the smaller of its own size
 * and the cell's (both only ever shrink), so an upscaled screenshot, which lacks the fine texture of a
 * native large template, still meets its small template at that template's own detail. A best match that
 * is too far, or too close to the best match of another label, makes the cell unreadable: read as hidden,
 * and reported.
 */
export function classify(image: RgbaImage, grid: Grid, skin: Skin, options: ClassifyOptions = {}): Reading[] {
  const prepared = prepareTemplates(skin, grid);
  const cells = options.cells ?? allCells(grid);
  const search = options.search ?? true;
  const readings: Reading[] = [];
  for (const [row, col] of cells) readings.push(readCell(image, grid, prepared, skin, { search, row, col }));
  return readings;
}

export interface ClassifyOptions {
  /** Only these cells (default: all). */
  cells?: Coord[];
  /** Look one pixel around a cell whose match is not clear-cut (default: true). */
  search?: boolean;
}

/**
 * A match this close, and this far ahead of the runner-up, needs no search for a better-placed patch; nor
 * does one well within the limit (DECIDED_DISTANCE) that no other label comes near (DECIDED_RATIO): a count
 * drawn a fraction of a pixel off (a pitch of 18.04 px) fits its template less closely, but no shift of a
 * pixel brings another label's template nearer.
 */
const SURE_DISTANCE = 0.25;
const SURE_RATIO = 0.5;
const DECIDED_DISTANCE = 0.5;
const DECIDED_RATIO = 0.4;

function allCells(grid: Grid): Coord[] {
  const cells: Coord[] = [];
  for (let row = 0; row < grid.rows; row++) for (let col = 0; col < grid.cols; col++) cells.push([row, col]);
  return cells;
}

/**
 * Each label's nearest template; when the match is not clear-cut, the patch is also taken a step (a pixel,
 * more on a large pitch) off in each direction (a fitted grid drifts by a pixel across a board) and each
 * label keeps its closest.
 */
function readCell(image: RgbaImage, grid: Grid, prepared: PreparedSkin, skin: Skin, at: { search: boolean; row: number; col: number }): Reading {
  const { row, col } = at;
  const { groups, labels } = prepared;
  const onGrid = groups.length === 1 ? cellPatch(image, grid, row, col, skin.inset, groups[0].size, onGridBuffer(groups[0].size)) : undefined;
  const exact = onGrid && exactReading(prepared, onGrid, row, col);
  if (exact) return exact;
  const search = new CellSearch(image, grid, prepared, skin, row, col);
  search.measure(0, 0, onGrid);
  const { nearest, bySize } = search;
  if (at.search && !clearCut(nearest, skin)) {
    const step = min(grid.pitchX, grid.pitchY) / 20;
    for (const [dx, dy] of NEAR) search.measure(dx * step, dy * step);
    if (!clearCut(nearest, skin)) for (const [dx, dy] of NEAR) search.measure(dx * step / 2, dy * step / 2);
  }
  const [i, j] = nearest.firstTwo();
  const [best, first] = [labels[i], nearest.match[i] as Match];
  const [runnerUp, second] = j < 0 ? ['.', undefined] : [labels[j], nearest.match[j]];
  const runnerUpDistance = second?.distance ?? Infinity;
  const rivalIndex = prepared.sizeIndex.get(`${runnerUp}@${first.template.size}`);
  const rival = rivalIndex === undefined ? undefined : bySize.match[rivalIndex];
  const rescue = rival !== undefined && BLANK.has(runnerUp) && first.distance <= RESCUE_DISTANCE * skin.maxDistance && decisive(first, rival, skin);
  const close = first.distance > skin.maxRatio * runnerUpDistance && !rescue;
  const unreadable = first.distance > skin.maxDistance || close;
  return { row, col, cell: unreadable ? '.' : best, best, distance: first.distance, runnerUp, runnerUpDistance, unreadable };
}

/**
 * A cell's nearest templates so far: per label, and per label at each template size (for deciding close calls
 * within one size), as its patches (on the grid, then shifted) are measured. A class, not a closure per cell:
 * V8 keeps a closure's optimised code only while one of its closures lives, so it compiled that again after
 * nearly every full collection of a batch (~15 ms each).
 */
class CellSearch {
  readonly nearest: Nearest;
  readonly bySize: Nearest;
  private secondDistance = Infinity;

  constructor(
    private readonly image: RgbaImage,
    private readonly grid: Grid,
    private readonly prepared: PreparedSkin,
    private readonly skin: Skin,
    private readonly row: number,
    private readonly col: number,
  ) {
    this.nearest = new Nearest(prepared.labels.length);
    this.bySize = new Nearest(prepared.sizeIndex.size);
  }

  /**
   * The patch `dx`, `dy` off the cell (or `given`) against every template that could still change a reading.
   * Only the two nearest labels decide a reading, so with one size of templates a template matters only if it
   * comes closer than its label's nearest so far and than the second-nearest label; with several sizes, closer
   * than its label's nearest overall or at its size (a close call is decided within one size). Templates are
   * measured nearest-looking first (least coarse bound), so that these limits tighten early.
   */
  measure(dx: number, dy: number, given?: Patch): void {
    const { prepared, nearest, bySize } = this;
    const { groups } = prepared;
    for (let g = 0; g < groups.length; g++) {
      const { size, templates } = groups[g];
      const patch = given ?? cellPatch(this.image, shiftGrid(this.grid, dx, dy), this.row, this.col, this.skin.inset, size);
      const { bounds, order, within } = templateDistances(prepared, patch, g);
      for (let k = 0; k < order.length; k++) {
        const i = order[k];
        const t = templates[i];
        const own = nearest.distance[t.labelIndex];
        const limit = groups.length === 1 ? min(own, this.secondDistance) : max(own, bySize.distance[t.sizeIndex]);
        if (bounds[i] > limit + SLACK) continue;
        const distance = within(i, limit);
        if (distance < own) {
          nearest.set(t.labelIndex, { distance, cell: patch, template: t.patch });
          this.secondDistance = nearest.second();
        }
        if (distance < bySize.distance[t.sizeIndex]) bySize.set(t.sizeIndex, { distance, cell: patch, template: t.patch });
      }
    }
  }
}

const onGridBuffers = new Map<number, Float32Array>();

/**
 * Where each cell's patch on the grid is written: one buffer per size, reused from cell to cell (the patch is
 * done with once its cell is read; a reading keeps no patch), not a buffer outside V8's heap for every cell.
 */
function onGridBuffer(size: number): Float32Array {
  let buffer = onGridBuffers.get(size);
  if (!buffer) onGridBuffers.set(size, (buffer = new Float32Array(size * size * 3)));
  return buffer;
}

/** The nearest match of each of `n` things (labels, or labels at a size), in the order first matched. */
class Nearest {
  /** A plain array: a typed one this small still takes a buffer of its own outside V8's heap, per cell. */
  readonly distance: number[];
  readonly match: (Match | undefined)[];
  private readonly order: number[] = [];

  constructor(n: number) {
    this.distance = new Array<number>(n).fill(Infinity);
    this.match = new Array<Match | undefined>(n);
  }

  set(i: number, match: Match): void {
    if (!this.match[i]) this.order.push(i);
    this.match[i] = match;
    this.distance[i] = match.distance;
  }

  /** The second-smallest distance. */
  second(): number {
    let first = Infinity;
    let second = Infinity;
    for (let k = 0; k < this.order.length; k++) {
      const d = this.distance[this.order[k]];
      if (d < first) {
        second = first;
        first = d;
      } else if (d < second) second = d;
    }
    return second;
  }

  /** The nearest and the second-nearest matched, by index (ties in the order first matched; -1: none). */
  firstTwo(): [number, number] {
    let first = -1;
    let second = -1;
    for (let k = 0; k < this.order.length; k++) {
      const i = this.order[k];
      if (first < 0 || this.distance[i] < this.distance[first]) {
        second = first;
        first = i;
      } else if (second < 0 || this.distance[i] < this.distance[second]) second = i;
    }
    return [first, second];
  }
}

interface Match {
  distance: number;
  /** The cell's patch that gave the distance, and the template's. */
  cell: Patch;
  template: Patch;
}

/**
 * A glyph template and a blank one (a thin 1 and an open 0) are close overall, so a blurred or compressed
 * cell sits close to both. Where the two templates differ, though, the cell must clearly side with the
 * best: as much closer to it there as the skin asks of a whole cell. Only for a blank runner-up and a
 * best match that is close in itself (RESCUE_DISTANCE of the limit): a glyph the skin lacks (a 4 with no
 * 4 template) sits far from every template, and must stay unreadable.
 */
function decisive(best: Match, runnerUp: Match, skin: Skin): boolean {
  if (best.template.size !== runnerUp.template.size) return false;
  const a = best.template.rgb;
  const b = runnerUp.template.rgb;
  const cell = best.cell.rgb;
  let toBest = 0;
  let toRunnerUp = 0;
  let pixels = 0;
  // Squares as products and no destructuring: the same floats as `x ** 2`, for less work and garbage before V8
  // has compiled this (a fresh process reads a board's cells once).
  for (let i = 0; i < a.length; i += 3) {
    const red = a[i] - b[i];
    const green = a[i + 1] - b[i + 1];
    const blue = a[i + 2] - b[i + 2];
    if (red * red + green * green + blue * blue < APART) continue;
    pixels++;
    for (let c = i; c < i + 3; c++) {
      const near = cell[c] - a[c];
      const far = cell[c] - b[c];
      toBest += near * near;
      toRunnerUp += far * far;
    }
  }
  return pixels >= 3 && sqrt(toBest) <= skin.maxRatio * sqrt(toRunnerUp);
}

const BLANK = new Set(['0', '.']);
const RESCUE_DISTANCE = 0.35;

/** Template pixels this far apart (RMS per channel, 0-255) are where two templates differ. */
const DIFFERENT = 40;
/** The same as a summed square over the three channels. */
const APART = 3 * DIFFERENT * DIFFERENT;

/** Offsets tried around a cell whose match is not clear-cut, in steps (then half steps, if still not). */
const NEAR = [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [1, 1], [-1, 1], [1, -1]];

function clearCut(nearest: Nearest, skin: Skin): boolean {
  const [i, j] = nearest.firstTwo();
  const [best, runnerUp] = [nearest.distance[i], j < 0 ? Infinity : nearest.distance[j]];
  if (best <= SURE_DISTANCE * skin.maxDistance && best <= SURE_RATIO * runnerUp) return true;
  return best <= DECIDED_DISTANCE * skin.maxDistance && best <= DECIDED_RATIO * runnerUp;
}
