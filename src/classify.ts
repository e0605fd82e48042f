import type { Coord, Grid, Reading, RgbaImage, Skin } from './types';
import { shiftGrid } from './pixels';
import { cellPatch, matchOf, type Patch, TemplateSearch } from './patch';
import { prepareTemplates, type PreparedSkin } from './templates';
import { exactReading } from './exact';

// Math's functions as module constants: under jest every lookup of the global Math costs ~100 ns.
const { min, sqrt } = Math;

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
  const kernel = new TemplateSearch(image, prepared);
  const readings: Reading[] = [];
  for (const [row, col] of cells) readings.push(readCell(image, grid, prepared, skin, kernel, { search, row, col }));
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
function readCell(image: RgbaImage, grid: Grid, prepared: PreparedSkin, skin: Skin, kernel: TemplateSearch, at: { search: boolean; row: number; col: number }): Reading {
  const { row, col } = at;
  const { groups, labels } = prepared;
  const size = groups[0].size;
  // left in the kernel, where `measure(0, 0)` takes it unless the cell reads exactly (nothing else runs there between)
  const onGrid = groups.length === 1 ? kernel.patch(grid, row, col, skin.inset, size, onGridBuffer(size)) : undefined;
  const exact = onGrid && exactReading(prepared, onGrid, row, col);
  if (exact) return exact;
  const search = new CellSearch(kernel, image, grid, prepared, skin, row, col, onGrid);
  search.measure(0, 0);
  if (at.search && !search.clearCut()) {
    const step = min(grid.pitchX, grid.pitchY) / 20;
    for (const [dx, dy] of NEAR) search.measure(dx * step, dy * step);
    if (!search.clearCut()) for (const [dx, dy] of NEAR) search.measure(dx * step / 2, dy * step / 2);
  }
  const [i, j] = kernel.firstTwo();
  const [best, distance] = [labels[i], kernel.labelDistance(i)];
  const [runnerUp, runnerUpDistance] = j < 0 ? ['.', Infinity] : [labels[j], kernel.labelDistance(j)];
  const close = distance > skin.maxRatio * runnerUpDistance && !rescued(search, i, runnerUp, distance);
  const unreadable = distance > skin.maxDistance || close;
  return { row, col, cell: unreadable ? '.' : best, best, distance, runnerUp, runnerUpDistance, unreadable };
}

/**
 * Whether a close call between the nearest label (`best`, at `distance`) and a blank runner-up is decided for the
 * nearest all the same (`decisive`), by the runner-up's nearest template of the nearest's size.
 */
function rescued(search: CellSearch, best: number, runnerUp: string, distance: number): boolean {
  const { kernel, prepared, skin } = search;
  if (!BLANK.has(runnerUp) || distance > RESCUE_DISTANCE * skin.maxDistance) return false;
  const first = kernel.labelMatch(best);
  const rivalIndex = prepared.sizeIndex.get(`${runnerUp}@${prepared.groups[matchOf(first).group].size}`);
  const rival = rivalIndex === undefined ? -1 : kernel.sizeMatch(rivalIndex);
  return rival >= 0 && decisive(search.match(first), search.templateOf(rival), skin);
}

/**
 * A cell's nearest templates so far (in the kernel, `TemplateSearch`), as its patches, on the grid and shifted,
 * are measured. A class, not a closure per cell: V8 keeps a closure's optimised code only while one of its
 * closures lives, so it compiled that again after nearly every full collection of a batch (~15 ms each).
 */
class CellSearch {
  /** Each patch measured's shift, dx then dy, by patch index. */
  private readonly shifts: number[] = [];

  /** `onGridPatch`: the patch on the grid of a skin of one size, just made in the kernel (measured as it is there). */
  constructor(
    readonly kernel: TemplateSearch,
    private readonly image: RgbaImage,
    private readonly grid: Grid,
    readonly prepared: PreparedSkin,
    readonly skin: Skin,
    private readonly row: number,
    private readonly col: number,
    private readonly onGridPatch: Patch | undefined,
  ) {}

  /** The patch `dx`, `dy` off the cell against every template that could still change a reading. */
  measure(dx: number, dy: number): void {
    const patchIndex = this.shifts.length / 2;
    if (patchIndex === 0) this.kernel.start();
    this.shifts.push(dx, dy);
    const { groups } = this.prepared;
    for (let g = 0; g < groups.length; g++) {
      if (!(patchIndex === 0 && this.onGridPatch)) this.kernel.patch(shiftGrid(this.grid, dx, dy), this.row, this.col, this.skin.inset, groups[g].size);
      this.kernel.measure(g, patchIndex);
    }
  }

  clearCut(): boolean {
    const [i, j] = this.kernel.firstTwo();
    const [best, runnerUp] = [this.kernel.labelDistance(i), this.kernel.labelDistance(j)];
    if (best <= SURE_DISTANCE * this.skin.maxDistance && best <= SURE_RATIO * runnerUp) return true;
    return best <= DECIDED_DISTANCE * this.skin.maxDistance && best <= DECIDED_RATIO * runnerUp;
  }

  /** A match (`TemplateSearch.labelMatch`): its cell's patch, made again, and its template's. */
  match(which: number): Match {
    const { patchIndex, group } = matchOf(which);
    const [dx, dy] = [this.shifts[2 * patchIndex], this.shifts[2 * patchIndex + 1]];
    const size = this.prepared.groups[group].size;
    const cell = patchIndex === 0 && this.onGridPatch ? this.onGridPatch : cellPatch(this.image, shiftGrid(this.grid, dx, dy), this.row, this.col, this.skin.inset, size);
    return { cell, template: this.templateOf(which) };
  }

  templateOf(which: number): Patch {
    const { group, template } = matchOf(which);
    return this.prepared.groups[group].templates[template].patch;
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

interface Match {
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
function decisive(best: Match, runnerUp: Patch, skin: Skin): boolean {
  if (best.template.size !== runnerUp.size) return false;
  const a = best.template.rgb;
  const b = runnerUp.rgb;
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
