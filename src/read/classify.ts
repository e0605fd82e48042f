import type { Coord, Grid, Reading, RgbaImage, Skin } from '../common/types';
import { shiftGrid } from '../image/pixels';
import { cellPatch, type KernelReadings, matchOf, type Patch, readInKernel, rmsDistance } from '../image/patch';
import { prepareTemplates, type PreparedSkin } from './templates';
import { exactReading } from './exact';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { min, sqrt } = Math;

/**
 * Reads every cell by nearest-template distance. Each template is compared at the smaller of its own size
 * and the cell's (both only ever shrink), so an upscaled screenshot, which lacks the fine texture of a
 * native large template, still meets its small template at that template's own detail. A best match that
 * is too far, or too close to the best match of another label, makes the cell unreadable: read as hidden,
 * and reported. The cells are searched in the kernel (image/patch.ts's `readInKernel`), all in one call.
 */
export function classify(image: RgbaImage, grid: Grid, skin: Skin, options: ClassifyOptions = {}): Reading[] {
  const prepared = prepareTemplates(skin, grid);
  const cells = options.cells ?? allCells(grid);
  const search = options.search ?? true;
  // a step of a pixel, more on a large pitch: a fitted grid drifts by a pixel across a board
  const step = min(grid.pitchX, grid.pitchY) / 20;
  const read = (which: Coord[], exact: boolean) =>
    readInKernel(image, grid, skin.inset, prepared, which, { search, exact, step, clearCut: clearCutFor(skin) });
  const found = read(cells, true);
  const readings = new Array<Reading>(cells.length);
  // a cell drawn as a template whose reading a lookup cannot tell (exact.ts) is measured after all
  const measure: number[] = [];
  for (let k = 0; k < cells.length; k++) {
    const row = cells[k][0];
    const col = cells[k][1];
    const same = found.same(k);
    const exact = same >= 0 ? exactReading(prepared, same, row, col) : null;
    if (exact) readings[k] = exact;
    else if (same >= 0) measure.push(k);
    else readings[k] = readingOf(image, grid, prepared, skin, found, k, step, row, col);
  }
  if (measure.length) {
    const again = read(
      measure.map((k) => cells[k]),
      false,
    );
    measure.forEach(
      (k, i) => (readings[k] = readingOf(image, grid, prepared, skin, again, i, step, cells[k][0], cells[k][1])),
    );
  }
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

function clearCutFor(skin: Skin) {
  return {
    sure: SURE_DISTANCE * skin.maxDistance,
    sureRatio: SURE_RATIO,
    decided: DECIDED_DISTANCE * skin.maxDistance,
    decidedRatio: DECIDED_RATIO,
  };
}

function allCells(grid: Grid): Coord[] {
  const cells: Coord[] = [];
  for (let row = 0; row < grid.rows; row++) for (let col = 0; col < grid.cols; col++) cells.push([row, col]);
  return cells;
}

/**
 * Cell k's reading from its search in the kernel: each label's nearest template, on the grid and, when the match
 * was not clear-cut, a step off in each direction (then half a step), each label keeping its closest.
 */
function readingOf(
  image: RgbaImage,
  grid: Grid,
  prepared: PreparedSkin,
  skin: Skin,
  found: KernelReadings,
  k: number,
  step: number,
  row: number,
  col: number,
): Reading {
  // plain constants, not destructured pairs: a pair is made each time until V8 compiles this, and it runs per cell
  const { labels } = prepared;
  const j = found.second(k);
  const best = labels[found.first(k)];
  const distance = found.distance(k);
  const runnerUp = j < 0 ? '.' : labels[j];
  const runnerUpDistance = j < 0 ? Infinity : found.runnerUpDistance(k);
  const close =
    distance > skin.maxRatio * runnerUpDistance &&
    !rescued({ image, grid, prepared, skin, row, col, step }, found.match(k), found.rival(k), runnerUp, distance);
  const loose = COUNTS.has(best) && distance > LOOSE_COUNT * skin.maxDistance;
  const unreadable = distance > skin.maxDistance || close || loose;
  return { row, col, cell: unreadable ? '.' : best, best, distance, runnerUp, runnerUpDistance, unreadable };
}

interface CellAt {
  image: RgbaImage;
  grid: Grid;
  prepared: PreparedSkin;
  skin: Skin;
  row: number;
  col: number;
  step: number;
}

/**
 * Whether a close call between the nearest label (at `distance`, given by `first`) and a blank runner-up is decided
 * for the nearest all the same (`decisive`), by the runner-up's nearest template of the nearest's size (`rival`).
 */
function rescued(cell: CellAt, first: number, rival: number, runnerUp: string, distance: number): boolean {
  if (!BLANK.has(runnerUp) || distance > RESCUE_DISTANCE * cell.skin.maxDistance) return false;
  return rival >= 0 && decisive(matched(cell, first), templateOf(cell.prepared, rival), cell.skin);
}

/**
 * A match (`KernelReadings.match`): its cell's patch, made again where the kernel made it (patch 0 on the grid,
 * 1–8 a step off in each NEAR direction, 9–16 half a step), and its template's.
 */
function matched(cell: CellAt, which: number): Match {
  const { patchIndex, group } = matchOf(which);
  const [dx, dy] =
    patchIndex === 0
      ? [0, 0]
      : NEAR[(patchIndex - 1) % NEAR.length].map((d) =>
          patchIndex > NEAR.length ? (d * cell.step) / 2 : d * cell.step,
        );
  const size = cell.prepared.groups[group].size;
  const grid = patchIndex === 0 ? cell.grid : shiftGrid(cell.grid, dx, dy);
  return {
    cell: cellPatch(cell.image, grid, cell.row, cell.col, cell.skin.inset, size),
    template: templateOf(cell.prepared, which),
  };
}

function templateOf(prepared: PreparedSkin, which: number): Patch {
  const { group, template } = matchOf(which);
  return prepared.groups[group].templates[template].patch;
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
 * 4 template) sits far from every template, and must stay unreadable; and the cell must lie near the line between
 * the two templates' colours there (OFF_LINE).
 */
function decisive(best: Match, runnerUp: Patch, skin: Skin): boolean {
  if (best.template.size !== runnerUp.size) return false;
  const a = best.template.rgb;
  const b = runnerUp.rgb;
  const cell = best.cell.rgb;
  let toBest = 0;
  let toRunnerUp = 0;
  let offLine = 0;
  let pixels = 0;
  // Squares as products and no destructuring: the same floats as `x ** 2`, for less work and garbage before V8
  // has compiled this (a fresh process reads a board's cells once).
  for (let i = 0; i < a.length; i += 3) {
    const red = a[i] - b[i];
    const green = a[i + 1] - b[i + 1];
    const blue = a[i + 2] - b[i + 2];
    const apart = red * red + green * green + blue * blue;
    if (apart < APART) continue;
    pixels++;
    let far = 0;
    let along = 0;
    for (let c = i; c < i + 3; c++) {
      const near = cell[c] - a[c];
      const off = cell[c] - b[c];
      toBest += near * near;
      far += off * off;
      along += off * (a[c] - b[c]);
    }
    toRunnerUp += far;
    offLine += far - (along * along) / apart;
  }
  return pixels >= 3 && sqrt(toBest) <= skin.maxRatio * sqrt(toRunnerUp) && offLine <= OFF_LINE * toBest;
}

/**
 * How many unreadable cells may be flags placed (for a counter of mines left, which counts those): each, unless
 * the skin has flag templates and the cell's best label is not a flag, within the limit, and beats every flag
 * template, at any of the places the search tries, by the margin a reading needs (a 4 that a 1 comes close
 * to, no flag near either, is not a flag).
 */
export function mayBeFlags(image: RgbaImage, grid: Grid, skin: Skin, readings: Reading[]): number {
  return readings.filter((r) => r.unreadable && mayBeFlag(image, grid, skin, r)).length;
}

function mayBeFlag(image: RgbaImage, grid: Grid, skin: Skin, reading: Reading): boolean {
  if (FLAGS.has(reading.best) || FLAGS.has(reading.runnerUp) || reading.distance > skin.maxDistance) return true;
  // without a flag template a flag reads as nothing, as this cell may
  if (!skin.templates.some((t) => t.label === 'F')) return true;
  const { groups } = prepareTemplates(skin, grid);
  const step = min(grid.pitchX, grid.pitchY) / 20;
  const shifts = [
    [0, 0],
    ...NEAR.map(([x, y]) => [x * step, y * step]),
    ...NEAR.map(([x, y]) => [(x * step) / 2, (y * step) / 2]),
  ];
  let flag = Infinity;
  for (const { size, templates } of groups) {
    const flags = templates.filter((t) => FLAGS.has(t.label));
    if (!flags.length) continue;
    for (const [dx, dy] of shifts) {
      const cell = cellPatch(image, shiftGrid(grid, dx, dy), reading.row, reading.col, skin.inset, size);
      for (const t of flags) flag = min(flag, rmsDistance(cell, t.patch));
    }
  }
  return reading.distance > skin.maxRatio * flag;
}

/**
 * A count that fits its nearest template this loosely (a share of the skin's limit) may be a count the skin
 * lacks (KMines' default theme has no 6: a 6 sits further than this from its 5), while counts read right sit
 * closer. Found by measurement on the eval's copies.
 */
const LOOSE_COUNT = 0.65;
const COUNTS = new Set([...'12345678']);

/** What a player places on a cell they take for a mine: a flag, and after a loss a wrong one. */
const FLAGS = new Set(['F', '!']);

const BLANK = new Set(['0', '.']);
const RESCUE_DISTANCE = 0.35;

/**
 * The share of a rescued cell's distance from its best template (where that and the blank differ) that may lie
 * off the line between the two colours. Blur and compression blend a count with its background, which stays near
 * the line; a count of another colour, which the skin lacks, does not. Found by measurement on the eval's copies.
 */
const OFF_LINE = 0.3;

/** Template pixels this far apart (RMS per channel, 0-255) are where two templates differ. */
const DIFFERENT = 40;
/** The same as a summed square over the three channels. */
const APART = 3 * DIFFERENT * DIFFERENT;

/** Offsets tried around a cell whose match is not clear-cut, in steps (then half steps, if still not). */
const NEAR = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
  [-1, -1],
  [1, 1],
  [-1, 1],
  [1, -1],
];
