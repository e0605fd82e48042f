// A cell's pixels as a small fixed-size patch, and distances between patches: what templates are matched on.
// Also the JS side of the cells' WebAssembly kernel (speed/wasm/patch.ts), which does the per-pixel work.
import type { Cell, Coord, Grid, RgbaImage } from '../common/types';
import { cellLeft, cellTop } from './pixels';
import { Kernel } from '../speed/kernel';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { floor, min, sqrt } = Math;

/** A cell's pixels, RGB as floats, `size`×`size`, resampled by area averaging. */
export interface Patch {
  size: number;
  rgb: Float32Array;
}

/** A skin's templates prepared for one cell size (read/templates.ts), as the kernel takes them. */
export interface Prepared {
  label: Cell;
  patch: Patch;
  coarse: Float64Array;
  /** Indices of the label, and of the label at this size, among the prepared templates'. */
  labelIndex: number;
  sizeIndex: number;
}

/** Templates of one comparison size. */
export interface SizeGroup {
  size: number;
  templates: Prepared[];
}

export interface PreparedSkin {
  groups: SizeGroup[];
  labels: Cell[];
  /** `${label}@${size}` → sizeIndex. */
  sizeIndex: Map<string, number>;
}

/**
 * Samples cell (row, col) of the grid, trimmed by `inset` (a fraction of the pitch) on each side, into a
 * size×size patch. Each output pixel averages the source area it covers, edge pixels weighted by the part
 * covered, so shrinking never aliases. Separable: each source row is summed over every column's span, then
 * each output row weighs the source rows it covers. Runs in WebAssembly (speed/wasm/patch.ts). Written into
 * `into` when given (of the patch's length).
 */
export function cellPatch(
  image: RgbaImage,
  grid: Grid,
  row: number,
  col: number,
  inset: number,
  size: number,
  into?: Float32Array,
): Patch {
  try {
    const [kernel, slot] = placed(image);
    const at = kernel.patch(
      slot,
      image.width,
      image.height,
      cellLeft(grid, col) + inset * grid.pitchX,
      (grid.pitchX * (1 - 2 * inset)) / size,
      cellTop(grid, row) + inset * grid.pitchY,
      (grid.pitchY * (1 - 2 * inset)) / size,
      size,
    );
    const rgb = into && into.length === size * size * 3 ? into : new Float32Array(size * size * 3);
    rgb.set(new Float32Array(kernel.memory.buffer, at, size * size * 3));
    return { size, rgb };
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/** The exports of speed/wasm/patch.ts. */
interface PatchKernel {
  memory: WebAssembly.Memory;
  SMALL: { value: number };
  place(slot: number, width: number, height: number): number;
  skin(bytes: number): number;
  currentSkin(): number;
  useSkin(offset: number): void;
  dropSkins(): void;
  cellsInput(count: number, cols: number, rows: number): number;
  nearestCells(
    slot: number,
    width: number,
    height: number,
    count: number,
    cols: number,
    rows: number,
    left: number,
    top: number,
    pitchX: number,
    pitchY: number,
    linedX: boolean,
    linedY: boolean,
    inset: number,
    ordered: boolean,
    stop: number,
    limit: number,
    enough: number,
  ): number;
  bounds(group: number): number;
  readInput(count: number, cols: number, rows: number, labels: number, groups: number): number;
  readingsAt(at: number, count: number, cols: number, rows: number, labels: number, groups: number): number;
  readCells(
    slot: number,
    width: number,
    height: number,
    count: number,
    cols: number,
    rows: number,
    left: number,
    top: number,
    pitchX: number,
    pitchY: number,
    linedX: boolean,
    linedY: boolean,
    inset: number,
    search: boolean,
    exact: boolean,
    sure: number,
    sureRatio: number,
    decided: number,
    decidedRatio: number,
    step: number,
  ): void;
  templateDistances(group: number, template: number): number;
  edgeProfile(
    slot: number,
    width: number,
    height: number,
    vertical: boolean,
    from: number,
    first: number,
    to: number,
    acrossFrom: number,
    acrossTo: number,
  ): number;
  lineSteps(
    slot: number,
    width: number,
    height: number,
    vertical: boolean,
    at: number,
    band: number,
    from: number,
    to: number,
  ): number;
  shiftsInput(length: number, count: number): number;
  lineShifts(length: number, count: number, reach: number, width: number): number;
  patch(
    slot: number,
    width: number,
    height: number,
    left: number,
    stepX: number,
    top: number,
    stepY: number,
    size: number,
  ): number;
}

/**
 * The kernel, and the image's slot in it, copied there unless it is the one there already: a template (small)
 * or a screenshot (large), each slot holding the last image of its kind. Images are never changed once made.
 */
function placed(image: RgbaImage): [PatchKernel, number] {
  let kernel = cellKernel.get();
  const slot = image.data.length <= kernel.SMALL.value ? 0 : 1;
  const id = idOf(image);
  if (inSlot[slot] !== id) {
    if (slot === 1 && cellKernel.oversized()) {
      dropKernel();
      kernel = cellKernel.get();
    }
    const at = kernel.place(slot, image.width, image.height);
    new Uint8Array(kernel.memory.buffer, at, image.data.length).set(image.data);
    inSlot[slot] = id;
    // the skins' templates sit past the large slot, which grows to the largest screenshot held: they moved
    if (slot === 1 && image.data.length > largeBytes) {
      largeBytes = image.data.length;
      forgetSkins();
    }
  }
  return [kernel, slot];
}

/** How `nearestCells` may stop before measuring every cell (speed/wasm/patch.ts's STOP_*). */
export const CELLS_STOP = { never: 0, sum: 1, over: 2 } as const;

/**
 * Cells' distances to their nearest prepared templates, for read/nearest.ts: into `known` (by row × cols + col of
 * the grid; NaN where not yet known), which also holds those measured before; measured in `order` (indices into
 * `cells`) or in turn. With `stop` CELLS_STOP.sum it stops as soon as the distances so far sum to `limit` or more,
 * with CELLS_STOP.over as soon as `enough` of them are over `limit`; returns whether it stopped so. In one call to
 * the kernel (speed/wasm/patch.ts's `nearestCells`): a call per cell costs more in JS than the measuring.
 */
export function nearestCells(
  image: RgbaImage,
  grid: Grid,
  inset: number,
  prepared: PreparedSkin,
  cells: readonly Coord[],
  known: Float64Array,
  order: readonly number[] | undefined,
  stop: number,
  limit: number,
  enough: number,
): boolean {
  try {
    const [kernel, slot] = placed(image);
    holdSkin(kernel, prepared);
    const { rows, cols } = grid;
    const count = cells.length;
    const at = kernel.cellsInput(count, cols, rows);
    writeCells(kernel, at, cells, grid);
    if (order) new Int32Array(kernel.memory.buffer, at + 8 * count, count).set(order);
    // the lefts, the tops, what is known: from the next multiple of 8 bytes
    const floatsAt = (at + 12 * count + 7) & ~7;
    writeLines(kernel, floatsAt, grid);
    new Float64Array(kernel.memory.buffer, floatsAt + 8 * (cols + rows), rows * cols).set(known);
    const stopped = kernel.nearestCells(
      slot,
      image.width,
      image.height,
      count,
      cols,
      rows,
      grid.left,
      grid.top,
      grid.pitchX,
      grid.pitchY,
      grid.lefts !== undefined,
      grid.tops !== undefined,
      inset,
      order !== undefined,
      stop,
      limit,
      enough,
    );
    known.set(new Float64Array(kernel.memory.buffer, floatsAt + 8 * (cols + rows), rows * cols));
    return stopped === 1;
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/**
 * What the kernel's `readCells` found for each cell (speed/wasm/patch.ts's `readingsAt`; read/classify.ts decides
 * what it reads as), by the cell's index k.
 */
export class KernelReadings {
  private readonly ints: Int32Array;
  private readonly floats: Float64Array;

  constructor(block: Uint8Array) {
    this.ints = new Int32Array(block.buffer, block.byteOffset, block.length / 4);
    this.floats = new Float64Array(block.buffer, block.byteOffset, block.length / 8);
  }

  /** The nearest label (an index into the prepared skin's labels; -1: none). */
  first(k: number): number {
    return this.ints[READING_INTS * k];
  }

  /** The second-nearest label, or -1. */
  second(k: number): number {
    return this.ints[READING_INTS * k + 1];
  }

  /** The template (of the one size group) the cell's patch on the grid equals, or -1; nothing else is then measured. */
  same(k: number): number {
    return this.ints[READING_INTS * k + 2];
  }

  /** What gave the nearest label's distance (`matchOf` reads it). */
  match(k: number): number {
    return this.ints[READING_INTS * k + 3];
  }

  /** What gave the second-nearest label's nearest distance at the size of the nearest match (`matchOf`), or -1. */
  rival(k: number): number {
    return this.ints[READING_INTS * k + 4];
  }

  distance(k: number): number {
    return this.floats[(READING_INTS / 2) * k + 3];
  }

  /** The second-nearest label's distance (Infinity: none). */
  runnerUpDistance(k: number): number {
    return this.floats[(READING_INTS / 2) * k + 4];
  }
}

/** A reading's bytes in the kernel (speed/wasm/patch.ts's READING_BYTES), as i32s. */
const READING_INTS = 10;

/**
 * When a cell's match is clear-cut (read/classify.ts): its distance at most `sure`, and at most `sureRatio` of the
 * runner-up's; or the same with `decided`.
 */
export interface ClearCut {
  sure: number;
  sureRatio: number;
  decided: number;
  decidedRatio: number;
}

/**
 * The cells' searches for their nearest templates, in one call to the kernel (speed/wasm/patch.ts's `readCells`):
 * each cell's patch on the grid, a cell equal to a template (with `exact`) taken as that one; else measured against
 * every template that could change its reading, and, with `search`, when the match is not clear-cut, shifted by
 * `step` in each direction, then by half of it.
 */
export function readInKernel(
  image: RgbaImage,
  grid: Grid,
  inset: number,
  prepared: PreparedSkin,
  cells: readonly Coord[],
  options: { search: boolean; exact: boolean; step: number; clearCut: ClearCut },
): KernelReadings {
  try {
    const [kernel, slot] = placed(image);
    holdSkin(kernel, prepared);
    const { rows, cols } = grid;
    const { groups, labels, sizeIndex } = prepared;
    const count = cells.length;
    const at = kernel.readInput(count, cols, rows, labels.length, groups.length);
    writeCells(kernel, at, cells, grid);
    writeLines(kernel, at + 8 * count, grid);
    const rivals = new Int32Array(kernel.memory.buffer, at + 8 * (count + cols + rows), labels.length * groups.length);
    for (let l = 0; l < labels.length; l++) {
      for (let g = 0; g < groups.length; g++)
        rivals[l * groups.length + g] = sizeIndex.get(`${labels[l]}@${groups[g].size}`) ?? -1;
    }
    const { search, exact, step, clearCut } = options;
    kernel.readCells(
      slot,
      image.width,
      image.height,
      count,
      cols,
      rows,
      grid.left,
      grid.top,
      grid.pitchX,
      grid.pitchY,
      grid.lefts !== undefined,
      grid.tops !== undefined,
      inset,
      search,
      exact,
      clearCut.sure,
      clearCut.sureRatio,
      clearCut.decided,
      clearCut.decidedRatio,
      step,
    );
    const readingsAt = kernel.readingsAt(at, count, cols, rows, labels.length, groups.length);
    return new KernelReadings(new Uint8Array(kernel.memory.buffer, readingsAt, 4 * READING_INTS * count).slice());
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/** The cells' rows and columns into the kernel, i32 pairs from `at`; a cell off the grid is a RangeError. */
function writeCells(kernel: PatchKernel, at: number, cells: readonly Coord[], grid: Grid): void {
  const { rows, cols } = grid;
  const ints = new Int32Array(kernel.memory.buffer, at, 2 * cells.length);
  for (let i = 0; i < cells.length; i++) {
    const row = cells[i][0];
    const col = cells[i][1];
    if (!(row >= 0 && row < rows && col >= 0 && col < cols))
      throw new RangeError(`cell ${row},${col} is not on the ${rows}×${cols} grid`);
    ints[2 * i] = row;
    ints[2 * i + 1] = col;
  }
}

/** The grid's own column lefts, then row tops, into the kernel (f64 from `at`) when it has them. */
function writeLines(kernel: PatchKernel, at: number, grid: Grid): void {
  const { rows, cols } = grid;
  const floats = new Float64Array(kernel.memory.buffer, at, cols + rows);
  if (grid.lefts) for (let c = 0; c < cols; c++) floats[c] = cellLeft(grid, c);
  if (grid.tops) for (let r = 0; r < rows; r++) floats[cols + r] = cellTop(grid, r);
}

/** A match's patch index, size group and template (`KernelReadings.match`). */
export function matchOf(which: number): { patchIndex: number; group: number; template: number } {
  return { patchIndex: which >>> 24, group: (which >> 16) & 0xff, template: which & 0xffff };
}

/** The RMS distance (`rmsDistance`) from template i of group g of a prepared skin to each of the group's templates. */
export function templateDistances(prepared: PreparedSkin, group: number, i: number): Float64Array {
  try {
    const kernel = cellKernel.get();
    holdSkin(kernel, prepared);
    // the view made after the call, which may grow the memory (a new buffer)
    const at = kernel.templateDistances(group, i);
    return new Float64Array(kernel.memory.buffer, at, prepared.groups[group].templates.length).slice();
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/** The coarse lower bound of the distance between the cell's patch and each template of group g of a prepared skin. */
export function templateBounds(
  image: RgbaImage,
  grid: Grid,
  row: number,
  col: number,
  inset: number,
  prepared: PreparedSkin,
  group: number,
): Float64Array {
  return guarded(() => {
    const kernel = kernelWithSkin(image, prepared);
    patchAt(kernel, image, grid, row, col, inset, prepared.groups[group].size);
    const at = kernel.bounds(group);
    return new Float64Array(kernel.memory.buffer, at, prepared.groups[group].templates.length).slice();
  });
}

/**
 * The prepared skin's templates in use in the kernel: written there unless it holds them already. A batch that
 * names no skin reads each screenshot with every skin in turn, so the kernel keeps several skins at once.
 */
function holdSkin(kernel: PatchKernel, prepared: PreparedSkin): void {
  const id = idOf(prepared);
  if (inSkin === id) return;
  const offset = heldSkins.get(id);
  if (offset !== undefined) {
    kernel.useSkin(offset);
    inSkin = id;
    return;
  }
  if (heldSkins.size >= MAX_HELD_SKINS) forgetSkins(kernel);
  writeSkin(kernel, prepared);
  heldSkins.set(id, kernel.currentSkin());
}

/** None of the skins the kernel held is there any longer (or, given the kernel, is to be). */
function forgetSkins(kernel?: PatchKernel): void {
  kernel?.dropSkins();
  heldSkins.clear();
  inSkin = 0;
}

function kernelWithSkin(image: RgbaImage, prepared: PreparedSkin): PatchKernel {
  return guarded(() => {
    const [kernel] = placed(image);
    holdSkin(kernel, prepared);
    return kernel;
  });
}

function patchAt(
  kernel: PatchKernel,
  image: RgbaImage,
  grid: Grid,
  row: number,
  col: number,
  inset: number,
  size: number,
): number {
  const slot = image.data.length <= kernel.SMALL.value ? 0 : 1;
  return kernel.patch(
    slot,
    image.width,
    image.height,
    cellLeft(grid, col) + inset * grid.pitchX,
    (grid.pitchX * (1 - 2 * inset)) / size,
    cellTop(grid, row) + inset * grid.pitchY,
    (grid.pitchY * (1 - 2 * inset)) / size,
    size,
  );
}

/** A call into the kernel; after a trap, the kernel is made anew on next use. */
function guarded<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/**
 * The summed grey step (grey = 0.3 R + 0.59 G + 0.11 B) at each position from `from` to `to`: between columns
 * x - 1 and x over rows [acrossFrom, acrossTo) when `vertical`, else between rows y - 1 and y over those columns;
 * positions before `first` (at least 1) are 0. In WebAssembly (speed/wasm/patch.ts's `edgeProfile`).
 */
export function edgeSums(
  image: RgbaImage,
  vertical: boolean,
  from: number,
  to: number,
  acrossFrom: number,
  acrossTo: number,
): Float64Array {
  try {
    const [kernel, slot] = placed(image);
    const at = kernel.edgeProfile(
      slot,
      image.width,
      image.height,
      vertical,
      from,
      Math.max(1, from),
      to,
      acrossFrom,
      acrossTo,
    );
    return new Float64Array(kernel.memory.buffer, at, Math.max(0, to - from + 1)).slice();
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/**
 * read/align.ts's search for each line's shift on an edge profile (speed/wasm/patch.ts's `lineShifts`): the lines'
 * strips, `width` long from their `bases` in the profile, scored against their mean strip at every shift within
 * `reach`, and the smoothest path of shifts taken, three rounds.
 */
export function lineShiftsOn(profile: Float64Array, bases: readonly number[], reach: number, width: number): number[] {
  try {
    const kernel = cellKernel.get();
    const at = kernel.shiftsInput(profile.length, bases.length);
    new Float64Array(kernel.memory.buffer, at, profile.length).set(profile);
    new Int32Array(kernel.memory.buffer, at + 8 * profile.length, bases.length).set(bases);
    const shifts = kernel.lineShifts(profile.length, bases.length, reach, width);
    return Array.from(new Int32Array(kernel.memory.buffer, shifts, bases.length));
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/**
 * The summed largest colour step across a grid line (locate/gridlines.ts's gridLineStrength, before its mean): at
 * each position from `from` to `to` along it, the largest over `at - band` to `at + band`. In WebAssembly
 * (speed/wasm/patch.ts's `lineSteps`).
 */
export function lineSteps(
  image: RgbaImage,
  vertical: boolean,
  at: number,
  band: number,
  from: number,
  to: number,
): number {
  try {
    const [kernel, slot] = placed(image);
    return kernel.lineSteps(slot, image.width, image.height, vertical, at, band, from, to);
  } catch (err) {
    dropKernel();
    throw err;
  }
}

/**
 * The prepared templates into the kernel: the group, label and size counts and the search state's offset (i32),
 * then each group's size, template count, records' offset, one i32 the kernel fills, and its templates' indices'
 * offset (i32, then three unused); per group each template's record: its patch (f32), and its coarse view (rounded
 * to f32) from the next multiple of 8 bytes, room for 4 × 4 blocks; then, from the next multiple of 16, the
 * group's coarse views side by side (element e of template i at e × padded count + i; the count padded to LANES with
 * zeros), which the kernel bounds LANES templates at a time with; then each template's label and size index (i32).
 * Last, room for one cell's search (speed/wasm/patch.ts's `stateAt`).
 */
function writeSkin(kernel: PatchKernel, prepared: PreparedSkin): void {
  const { groups, labels, sizeIndex } = prepared;
  const offsets: number[] = [];
  const tables: number[] = [];
  const indices: number[] = [];
  let bytes = align8(16 + 32 * groups.length);
  for (const { size, templates } of groups) {
    offsets.push(bytes);
    tables.push(align16(bytes + templates.length * recordBytes(size)));
    indices.push(tables[tables.length - 1] + 4 * COARSE_ELEMENTS * padded(templates.length));
    bytes = align8(indices[indices.length - 1] + 8 * templates.length);
  }
  const state = bytes;
  bytes += 16 + 16 * labels.length + 12 * sizeIndex.size;
  const at = kernel.skin(bytes);
  const { buffer } = kernel.memory;
  const table = new Int32Array(buffer, at, 4 + 8 * groups.length);
  table.set([groups.length, labels.length, sizeIndex.size, state]);
  for (let g = 0; g < groups.length; g++) {
    const { size, templates } = groups[g];
    table.set([size, templates.length, offsets[g], 0, indices[g]], 4 + 8 * g);
    const labelled = new Int32Array(buffer, at + indices[g], 2 * templates.length);
    for (let i = 0; i < templates.length; i++) {
      const t = templates[i];
      const record = at + offsets[g] + i * recordBytes(size);
      new Float32Array(buffer, record, t.patch.rgb.length).set(t.patch.rgb);
      new Float32Array(buffer, record + align8(12 * size * size), t.coarse.length).set(t.coarse);
      labelled[2 * i] = t.labelIndex;
      labelled[2 * i + 1] = t.sizeIndex;
    }
    const stride = padded(templates.length);
    const views = new Float32Array(buffer, at + tables[g], COARSE_ELEMENTS * stride);
    views.fill(0);
    for (let i = 0; i < templates.length; i++) templates[i].coarse.forEach((v, e) => (views[e * stride + i] = v));
  }
  inSkin = idOf(prepared);
}

/** The kernel's LANES (speed/wasm/patch.ts), and the most elements of a coarse view (4 × 4 blocks, RGB). */
const LANES = 16;
const COARSE_ELEMENTS = 48;
const padded = (count: number): number => Math.ceil(count / LANES) * LANES;
const align8 = (bytes: number): number => Math.ceil(bytes / 8) * 8;
const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;
const recordBytes = (size: number): number => align8(12 * size * size) + 4 * 48;

const ids = new WeakMap<object, number>();
let lastId = 0;
function idOf(thing: object): number {
  let id = ids.get(thing);
  if (id === undefined) ids.set(thing, (id = ++lastId));
  return id;
}

/**
 * A kernel's memory grows to the largest screenshot it has held (a 1280×1024 one takes 5 MB) and is never
 * given back: past this, the instance is made anew for the next screenshot.
 */
const KEEP_MEMORY = 64 << 20;

const cellKernel = new Kernel<PatchKernel>('patch.wasm', KEEP_MEMORY);
const inSlot = [0, 0];
/** The prepared skin whose templates the kernel is using (0: none). */
let inSkin = 0;
/** The prepared skins whose templates the kernel holds, by id: where each starts among them. */
const heldSkins = new Map<number, number>();
/** Past this many skins held (a batch of screenshots at many cell sizes), they are dropped and written anew. */
const MAX_HELD_SKINS = 32;
/** The largest screenshot the kernel's large slot has held (bytes of RGBA). */
let largeBytes = 0;

function dropKernel(): void {
  cellKernel.drop();
  inSlot.fill(0);
  forgetSkins();
  largeBytes = 0;
}

/**
 * Root-mean-square difference per channel, on the 0-255 scale. Element i's square goes into running sum i % 4,
 * added up as (s0 + s1) + (s2 + s3): the order of the kernel's `rmsWithin` (speed/wasm/patch.ts), which sums four
 * at a time, so the two give the same floats.
 */
export function rmsDistance(a: Patch, b: Patch): number {
  const x = a.rgb;
  const y = b.rgb;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 4 <= x.length; i += 4) {
    const d0 = x[i] - y[i];
    const d1 = x[i + 1] - y[i + 1];
    const d2 = x[i + 2] - y[i + 2];
    const d3 = x[i + 3] - y[i + 3];
    s0 += d0 * d0;
    s1 += d1 * d1;
    s2 += d2 * d2;
    s3 += d3 * d3;
  }
  for (; i < x.length; i++) {
    const d = x[i] - y[i];
    if ((i & 3) === 0) s0 += d * d;
    else if ((i & 3) === 1) s1 += d * d;
    else s2 += d * d;
  }
  return sqrt((s0 + s1 + (s2 + s3)) / x.length);
}

/** Blocks per side of a patch's coarse view. */
const BLOCKS = 4;

/**
 * A patch's coarse view: the mean of each channel over BLOCKS×BLOCKS blocks, times the square root of the
 * block's pixel count, so that the squared distance between two coarse views never exceeds the summed
 * squared distance between the patches (each block's pixels differ at least by their means' difference).
 * The kernel's `coarseOf` (speed/wasm/patch.ts) gives the same floats for the cells' patches, then rounds them to
 * f32 as the templates' are written: its bounds are lowered to stay bounds.
 */
export function coarseOf(patch: Patch): Float64Array {
  const { size, rgb } = patch;
  const blocks = min(BLOCKS, size);
  const out = new Float64Array(blocks * blocks * 3);
  for (let by = 0; by < blocks; by++) {
    const y0 = floor((by * size) / blocks);
    const y1 = floor(((by + 1) * size) / blocks);
    for (let bx = 0; bx < blocks; bx++) {
      const x0 = floor((bx * size) / blocks);
      const x1 = floor(((bx + 1) * size) / blocks);
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = y0; y < y1; y++) {
        for (let p = (y * size + x0) * 3, end = (y * size + x1) * 3; p < end; p += 3) {
          r += rgb[p];
          g += rgb[p + 1];
          b += rgb[p + 2];
        }
      }
      const scale = 1 / sqrt((x1 - x0) * (y1 - y0));
      const at = (by * blocks + bx) * 3;
      out[at] = r * scale;
      out[at + 1] = g * scale;
      out[at + 2] = b * scale;
    }
  }
  return out;
}
