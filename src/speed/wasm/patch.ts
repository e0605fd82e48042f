// The cells' kernel, in WebAssembly (AssemblyScript): a cell's pixels resampled by area averaging (image/patch.ts's
// cellPatch), its distances to the templates (read/nearest.ts, read/classify.ts) and the edge profiles that align a
// grid's lines (read/align.ts), its f64 arithmetic in a fixed order, so that it gives the same floats as plain JS
// readings of these measures (the tests compare them). Images stay in memory between calls, in one of two slots, so
// a screenshot is copied once however many of its cells are read, even between reads of templates. Linear memory:
//   small slot (SMALL bytes: a template) | large slot (the screenshot) | skins' prepared templates | scratch
// Memory grows and is never given back; the JS side makes a new instance past a limit.

import { reserve } from './memory';

/** Images of up to this many bytes of RGBA go to the small slot. */
export const SMALL: i32 = 1 << 16;

let largeBytes: usize = 0;
/** The skins held, back to back, and where the one in use starts among them. */
let skinsBytes: usize = 0;
let skinOffset: usize = 0;
let width: i32 = 0;
let height: i32 = 0;
let imageAt: usize = 0;

function smallAt(): usize {
  return (__heap_base + 15) & ~15;
}

function largeAt(): usize {
  return smallAt() + <usize>SMALL;
}

function skinsAt(): usize {
  return (largeAt() + largeBytes + 15) & ~15;
}

function skinAt(): usize {
  return skinsAt() + skinOffset;
}

function scratchAt(): usize {
  return (skinsAt() + skinsBytes + 15) & ~15;
}

/**
 * Where the JS side writes a width × height RGBA image into its slot (0 small, 1 large). A larger screenshot
 * moves the skins' prepared templates: none is held then, each is to be written again.
 */
export function place(slot: i32, w: i32, h: i32): usize {
  const bytes = (<usize>w * <usize>h) << 2;
  if (slot == 1 && bytes > largeBytes) {
    largeBytes = bytes;
    dropSkins();
  }
  reserve(scratchAt());
  return slot == 0 ? smallAt() : largeAt();
}

/**
 * The size × size patch of the image in `slot` (width × height) whose pixel i spans from left + i × stepX (and
 * top + j × stepY), clamped to the image; returns where its RGB floats are.
 */
export function patch(slot: i32, w: i32, h: i32, left: f64, stepX: f64, top: f64, stepY: f64, size: i32): usize {
  useImage(slot, w, h);
  const out = scratchAt();
  patchInto(out, left, stepX, top, stepY, size, (out + 12 * <usize>size * <usize>size + 15) & ~15);
  return out;
}

function useImage(slot: i32, w: i32, h: i32): void {
  width = w;
  height = h;
  imageAt = slot == 0 ? smallAt() : largeAt();
}

/** The patch written at `out` (12 × size² bytes), with the memory from `free` on to work in. */
function patchInto(out: usize, left: f64, stepX: f64, top: f64, stepY: f64, size: i32, free: usize): void {
  const n = <usize>size;
  const xs = free;
  const ys = xs + 16 * n;
  const total = ys + 16 * n;
  const columns = total + 24 * n;
  reserve(columns + 8 * n);
  spans(xs, left, stepX, size, <f64>width);
  spans(ys, top, stepY, size, <f64>height);
  const across = columnWeights(xs, columns, size);
  const yFrom = <i32>Math.floor(load<f64>(ys));
  const yTo = <i32>Math.ceil(load<f64>(ys + 8 * (2 * n - 1)));
  reserve(across + 24 * n * <usize>max(0, yTo - yFrom));
  rowsAcross(columns, across, yFrom, yTo, size);
  const line = n * 3;
  for (let j: usize = 0; j < n; j++) {
    const from = load<f64>(ys + 16 * j);
    const to = load<f64>(ys + 16 * j + 8);
    let rows: f64 = 0;
    for (let y = Math.floor(from); y < to; y++) {
      const wy = (y + 1 < to ? y + 1 : to) - (y > from ? y : from);
      const base = across + 8 * <usize>(<i32>y - yFrom) * line;
      // two at a time: each lane the same multiply and add as one at a time, so the same floats; the first row's
      // products stand for 0 plus them (none is negative)
      const weight = f64x2.splat(wy);
      const firstRow = y == Math.floor(from);
      let k: usize = 0;
      if (firstRow) {
        for (; k + 2 <= line; k += 2) v128.store(total + 8 * k, f64x2.mul(weight, v128.load(base + 8 * k)));
        for (; k < line; k++) store<f64>(total + 8 * k, wy * load<f64>(base + 8 * k));
      } else {
        for (; k + 2 <= line; k += 2)
          v128.store(total + 8 * k, f64x2.add(v128.load(total + 8 * k), f64x2.mul(weight, v128.load(base + 8 * k))));
        for (; k < line; k++) store<f64>(total + 8 * k, load<f64>(total + 8 * k) + wy * load<f64>(base + 8 * k));
      }
      rows += wy;
    }
    if (rows == 0) memory.fill(total, 0, 8 * line);
    writeRow(out + 4 * j * line, total, xs, rows, n);
  }
}

/**
 * An output row from its summed RGB (f64, at `total`): each pixel's sums over the area it covers (rows × its
 * columns' span), as f32; two pixels at a time, each lane the same division and multiply as one at a time.
 */
function writeRow(out: usize, total: usize, xs: usize, rows: f64, n: usize): void {
  const height = f64x2.splat(rows);
  let i: usize = 0;
  for (; i + 2 <= n; i += 2) {
    const a = v128.load(xs + 16 * i);
    const b = v128.load(xs + 16 * i + 16);
    const weight = f64x2.mul(height, f64x2.sub(v128.shuffle<f64>(a, b, 1, 3), v128.shuffle<f64>(a, b, 0, 2)));
    const k = v128.and(f64x2.div(f64x2.splat(1), weight), f64x2.gt(weight, f64x2.splat(0)));
    const at = total + 24 * i;
    const o = out + 12 * i;
    v128.store64_lane(o, f32x4.demote_f64x2_zero(f64x2.mul(v128.load(at), v128.shuffle<f64>(k, k, 0, 0))), 0);
    v128.store64_lane(o, f32x4.demote_f64x2_zero(f64x2.mul(v128.load(at, 16), k)), 0, 8);
    v128.store64_lane(o, f32x4.demote_f64x2_zero(f64x2.mul(v128.load(at, 32), v128.shuffle<f64>(k, k, 1, 1))), 0, 16);
  }
  for (; i < n; i++) {
    const weight = rows * (load<f64>(xs + 16 * i + 8) - load<f64>(xs + 16 * i));
    const k = weight > 0 ? 1 / weight : 0;
    const o = out + 12 * i;
    store<f32>(o, <f32>(load<f64>(total + 24 * i) * k));
    store<f32>(o, <f32>(load<f64>(total + 24 * i + 8) * k), 4);
    store<f32>(o, <f32>(load<f64>(total + 24 * i + 16) * k), 8);
  }
}

/**
 * Each output column's first source column and how many it covers (i32 each, at `columns`), then the part of
 * each source column covered (f64, after them): the same for every source row. Returns the first byte free after.
 */
function columnWeights(xs: usize, columns: usize, size: i32): usize {
  const n = <usize>size;
  let weights = columns + 8 * n;
  let count: usize = 0;
  for (let i: usize = 0; i < n; i++)
    count += <usize>max(0, <i32>Math.ceil(load<f64>(xs + 16 * i + 8)) - <i32>Math.floor(load<f64>(xs + 16 * i)));
  reserve(weights + 8 * count);
  for (let i: usize = 0; i < n; i++) {
    const from = load<f64>(xs + 16 * i);
    const to = load<f64>(xs + 16 * i + 8);
    const first = Math.floor(from);
    let covered = 0;
    for (let x = first; x < to; x++, covered++, weights += 8)
      store<f64>(weights, (x + 1 < to ? x + 1 : to) - (x > from ? x : from));
    store<i32>(columns + 8 * i, <i32>first);
    store<i32>(columns + 8 * i, covered, 4);
  }
  return (weights + 15) & ~15;
}

/** Each source row in [yFrom, yTo) summed over each column's span (weighted by the part covered), RGB per column. */
function rowsAcross(columns: usize, across: usize, yFrom: i32, yTo: i32, size: i32): void {
  const n = <usize>size;
  for (let y = yFrom; y < yTo; y++) {
    const pixels = imageAt + 4 * <usize>y * <usize>width;
    const base = across + 24 * n * <usize>(y - yFrom);
    let weights = columns + 8 * n;
    for (let i: usize = 0; i < n; i++) {
      let p = pixels + 4 * <usize>load<i32>(columns + 8 * i);
      const end = weights + 8 * <usize>load<i32>(columns + 8 * i, 4);
      // red and green in one pair of lanes, blue (and alpha, unused) in another: each lane the same multiply and
      // add as one channel at a time, so the same floats
      let rg = f64x2.splat(0);
      let ba = f64x2.splat(0);
      for (; weights < end; weights += 8, p += 4) {
        const w = f64x2.splat(load<f64>(weights));
        const rgba = i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(p)));
        rg = f64x2.add(rg, f64x2.mul(w, f64x2.convert_low_i32x4_s(rgba)));
        ba = f64x2.add(ba, f64x2.mul(w, f64x2.convert_low_i32x4_s(v128.shuffle<i32>(rgba, rgba, 2, 3, 2, 3))));
      }
      v128.store(base + 24 * i, rg);
      store<f64>(base + 24 * i, f64x2.extract_lane(ba, 0), 16);
    }
  }
}

/** Where each of `count` steps starts and ends, clamped to [0, limit]: from, to, from, to, … */
function spans(out: usize, start: f64, step: f64, count: i32, limit: f64): void {
  for (let i = 0; i < count; i++) {
    const from = min(start + <f64>i * step > 0 ? start + <f64>i * step : 0, limit);
    const to = min(start + <f64>(i + 1) * step, limit);
    store<f64>(out + 16 * <usize>i, from);
    store<f64>(out + 16 * <usize>i + 8, to > from ? to : from);
  }
}

/**
 * Where the JS side writes a skin's prepared templates (`bytes` of them; layout in image/patch.ts's `writeSkin`),
 * after the skins held; it becomes the skin in use (`skinOffset` tells where it is among them).
 */
export function skin(bytes: i32): usize {
  skinOffset = (skinsBytes + 15) & ~15;
  skinsBytes = skinOffset + <usize>bytes;
  reserve(scratchAt());
  return skinAt();
}

/** Where the skin in use starts among the skins held. */
export function currentSkin(): i32 {
  return <i32>skinOffset;
}

/** The skin written at `offset` among those held becomes the one in use. */
export function useSkin(offset: i32): void {
  skinOffset = <usize>offset;
}

/** No skin held: the next `skin` is written first. */
export function dropSkins(): void {
  skinsBytes = 0;
  skinOffset = 0;
}

/** Blocks per side of a patch's coarse view (image/patch.ts's BLOCKS). */
const BLOCKS: i32 = 4;
/** Coarse distances are lower bounds up to float rounding: a template is passed over only when this far beyond. */
const SLACK: f64 = 1e-6;

/**
 * Where the JS side writes what `nearestCells` measures, `count` cells of a grid of `cols` × `rows`: each cell's
 * row and column (i32), the order to measure them in (i32 indices), the grid's column lefts and row tops (f64,
 * used when it has them), and each cell's distance as far as known (f64, NaN: not yet), by row × cols + col.
 */
export function cellsInput(count: i32, cols: i32, rows: i32): usize {
  const at = scratchAt();
  reserve(cellsFree(at, count, cols, rows));
  return at;
}

function cellsOrder(at: usize, count: i32): usize {
  return at + 8 * <usize>count;
}

function cellsLefts(at: usize, count: i32): usize {
  return (cellsOrder(at, count) + 4 * <usize>count + 7) & ~7;
}

function cellsTops(at: usize, count: i32, cols: i32): usize {
  return cellsLefts(at, count) + 8 * <usize>cols;
}

function cellsKnown(at: usize, count: i32, cols: i32, rows: i32): usize {
  return cellsTops(at, count, cols) + 8 * <usize>rows;
}

function cellsFree(at: usize, count: i32, cols: i32, rows: i32): usize {
  return (cellsKnown(at, count, cols, rows) + 8 * <usize>rows * <usize>cols + 15) & ~15;
}

/** `nearestCells`' ways to stop early (0: none; image/patch.ts's CELLS_STOP). */
const STOP_SUM: i32 = 1;
const STOP_OVER: i32 = 2;

/**
 * `nearestFrom` for each cell written at `cellsInput`, in the order written there when `ordered` (else in turn), on the
 * grid from (left, top) at pitchX × pitchY (its lefts and tops as written, when `linedX` / `linedY`), each cell inset
 * by `inset` of the pitch on every side: a cell whose distance is known is not measured again, and one measured is
 * written there. With `stop` STOP_SUM, it stops as soon as the distances so far sum to `limit` or more; with
 * STOP_OVER, as soon as `enough` of them are over `limit`. Returns 1 when it stopped so, else 0.
 */
export function nearestCells(
  slot: i32, w: i32, h: i32, count: i32, cols: i32, rows: i32, left: f64, top: f64, pitchX: f64, pitchY: f64,
  linedX: bool, linedY: bool, inset: f64, ordered: bool, stop: i32, limit: f64, enough: i32
): i32 {
  useImage(slot, w, h);
  const at = scratchAt();
  const order = cellsOrder(at, count);
  const lefts = cellsLefts(at, count);
  const tops = cellsTops(at, count, cols);
  const known = cellsKnown(at, count, cols, rows);
  const free = cellsFree(at, count, cols, rows);
  const spanX = pitchX * (1 - 2 * inset);
  const spanY = pitchY * (1 - 2 * inset);
  let sum: f64 = 0;
  let over = 0;
  for (let k = 0; k < count; k++) {
    const i = ordered ? load<i32>(order + 4 * <usize>k) : k;
    const row = load<i32>(at + 8 * <usize>i);
    const col = load<i32>(at + 8 * <usize>i, 4);
    const slotAt = known + 8 * (<usize>row * <usize>cols + <usize>col);
    let distance = load<f64>(slotAt);
    if (isNaN(distance)) {
      const cellLeft = linedX ? load<f64>(lefts + 8 * <usize>col) : left + <f64>col * pitchX;
      const cellTop = linedY ? load<f64>(tops + 8 * <usize>row) : top + <f64>row * pitchY;
      distance = nearestFrom(cellLeft + inset * pitchX, spanX, cellTop + inset * pitchY, spanY, free);
      store<f64>(slotAt, distance);
    }
    if (stop == STOP_SUM) {
      sum += distance;
      if (sum >= limit) return 1;
    } else if (stop == STOP_OVER && distance > limit && ++over >= enough) return 1;
  }
  return 0;
}

/**
 * The cell's distance to its nearest template (of the skin written by `skin`): the cell's patch at each
 * template size and its coarse view, every template's coarse lower bound; the nearest-looking template measured
 * first, then only those whose bound is under the nearest so far. The cell spans `spanX` × `spanY` from (left, top);
 * the memory from `scratch` on is worked in.
 */
function nearestFrom(left: f64, spanX: f64, top: f64, spanY: f64, scratch: usize): f64 {
  const groups = load<i32>(skinAt());
  // per group, in scratch: its patch, its coarse view, each template's bound
  let free = scratch;
  for (let g = 0; g < groups; g++) {
    store<i32>(groupAt(g), <i32>free, 12);
    free += (recordBytes(load<i32>(groupAt(g))) + 8 * paddedCount(g) + 15) & ~15;
  }
  reserve(free);
  let first = Infinity;
  let firstGroup = 0;
  let firstIndex = 0;
  for (let g = 0; g < groups; g++) {
    const size = load<i32>(groupAt(g));
    const patchAt = <usize>load<i32>(groupAt(g), 12);
    patchInto(patchAt, left, spanX / <f64>size, top, spanY / <f64>size, size, free);
    coarseOf(patchAt, size, patchAt + patchBytes(size));
    coarseBounds(patchAt + patchBytes(size), g, size, patchAt + recordBytes(size));
    for (let i = 0; i < load<i32>(groupAt(g), 4); i++) {
      const bound = load<f64>(patchAt + recordBytes(size) + 8 * <usize>i);
      if (bound < first) {
        first = bound;
        firstGroup = g;
        firstIndex = i;
      }
    }
  }
  let best = rmsWithin(
    <usize>load<i32>(groupAt(firstGroup), 12), templateAt(firstGroup, firstIndex), load<i32>(groupAt(firstGroup)),
    Infinity
  );
  for (let g = 0; g < groups; g++) {
    const size = load<i32>(groupAt(g));
    const patchAt = <usize>load<i32>(groupAt(g), 12);
    for (let i = 0; i < load<i32>(groupAt(g), 4); i++) {
      if (load<f64>(patchAt + recordBytes(size) + 8 * <usize>i) > best + SLACK || (g == firstGroup && i == firstIndex))
        continue;
      const distance = rmsWithin(patchAt, templateAt(g, i), size, best);
      if (distance < best) best = distance;
    }
  }
  return best;
}

/**
 * Group g of the skin's table (after the group, label and size counts and the search's offset): its template size,
 * template count, records' offset, its scratch (the kernel fills it), and its templates' label and size indices'
 * offset (i32 each, then three unused).
 */
function groupAt(g: i32): usize {
  return skinAt() + 16 + 32 * <usize>g;
}

/** Templates whose coarse bounds `coarseBounds` computes at once: a group's count is padded to a multiple. */
const LANES: i32 = 16;

/** Group g's template count padded to LANES. */
function paddedCount(g: i32): usize {
  return <usize>((load<i32>(groupAt(g), 4) + LANES - 1) & ~(LANES - 1));
}

/**
 * Group g's coarse views side by side, after its records (image/patch.ts's `writeSkin`): element e of template i at
 * e × padded count + i (f32), the count padded to LANES with zeros.
 */
function coarseTableAt(g: i32): usize {
  const count = load<i32>(groupAt(g), 4);
  return (templateAt(g, 0) + <usize>count * recordBytes(load<i32>(groupAt(g))) + 15) & ~15;
}

/**
 * Lower bounds of the RMS distance between the patch whose coarse view is at `view` and each template of group g,
 * from their coarse views alone, in f32, LANES templates at once (from the group's coarse table); written as f64
 * from `out`, LANES at a time (past the count too). The views' rounding to f32 (a value is at most 255 × the
 * square root of a block's pixels) moves a bound by under 3e-4 however large the patch; each lane's sum of up to 48
 * squares, added in turn, by under 3e-6 of itself, the bound by half that. Each bound is lowered by more
 * (COARSE_MARGIN, COARSE_RELATIVE), so that it stays under the distance that the f64 views bound.
 */
function coarseBounds(view: usize, g: i32, size: i32, out: usize): void {
  const count = load<i32>(groupAt(g), 4);
  const padded = paddedCount(g);
  const table = coarseTableAt(g);
  const blocks = min(BLOCKS, size);
  const n = <usize>(blocks * blocks * 3);
  const elements = <f64>(size * size * 3);
  for (let t: usize = 0; t < <usize>count; t += <usize>LANES) {
    let s0 = f32x4.splat(0);
    let s1 = f32x4.splat(0);
    let s2 = f32x4.splat(0);
    let s3 = f32x4.splat(0);
    for (let e: usize = 0; e < n; e++) {
      const v = f32x4.splat(load<f32>(view + 4 * e));
      const row = table + 4 * (e * padded + t);
      const d0 = f32x4.sub(v, v128.load(row));
      const d1 = f32x4.sub(v, v128.load(row, 16));
      const d2 = f32x4.sub(v, v128.load(row, 32));
      const d3 = f32x4.sub(v, v128.load(row, 48));
      s0 = f32x4.add(s0, f32x4.mul(d0, d0));
      s1 = f32x4.add(s1, f32x4.mul(d1, d1));
      s2 = f32x4.add(s2, f32x4.mul(d2, d2));
      s3 = f32x4.add(s3, f32x4.mul(d3, d3));
    }
    const at = out + 8 * t;
    storeBounds(at, s0, elements);
    storeBounds(at + 32, s1, elements);
    storeBounds(at + 64, s2, elements);
    storeBounds(at + 96, s3, elements);
  }
}

/** Four lanes' summed squares as bounds (f64), lowered. */
@inline function storeBounds(at: usize, sums: v128, elements: f64): void {
  store<f64>(at, lowered(<f64>f32x4.extract_lane(sums, 0), elements));
  store<f64>(at, lowered(<f64>f32x4.extract_lane(sums, 1), elements), 8);
  store<f64>(at, lowered(<f64>f32x4.extract_lane(sums, 2), elements), 16);
  store<f64>(at, lowered(<f64>f32x4.extract_lane(sums, 3), elements), 24);
}

@inline function lowered(sum: f64, elements: f64): f64 {
  return max(0, Math.sqrt(sum / elements) * (1 - COARSE_RELATIVE) - COARSE_MARGIN);
}

/** A prepared template: its patch (f32) and coarse view (f32, from the next multiple of 8 bytes). */
function recordBytes(size: i32): usize {
  return patchBytes(size) + 4 * 48;
}

function patchBytes(size: i32): usize {
  return (12 * <usize>size * <usize>size + 7) & ~7;
}

/**
 * image/patch.ts's coarseOf: each block's channel means times the square root of its pixel count, summed in f64 as
 * there, then kept as f32 (as the templates' are written).
 */
function coarseOf(patch: usize, size: i32, out: usize): void {
  const blocks = min(BLOCKS, size);
  for (let by = 0; by < blocks; by++) {
    const y0 = (by * size) / blocks;
    const y1 = ((by + 1) * size) / blocks;
    for (let bx = 0; bx < blocks; bx++) {
      const x0 = (bx * size) / blocks;
      const x1 = ((bx + 1) * size) / blocks;
      // red and green summed in one pair of lanes: each lane the same additions as one channel at a time
      let rg = f64x2.splat(0);
      let b: f64 = 0;
      for (let y = y0; y < y1; y++) {
        for (let p = patch + 12 * <usize>(y * size + x0), end = patch + 12 * <usize>(y * size + x1); p < end; p += 12) {
          rg = f64x2.add(rg, f64x2.promote_low_f32x4(v128.load64_zero(p)));
          b += <f64>load<f32>(p, 8);
        }
      }
      const scale = 1 / Math.sqrt(<f64>((x1 - x0) * (y1 - y0)));
      const at = out + 12 * <usize>(by * blocks + bx);
      store<f32>(at, <f32>(f64x2.extract_lane(rg, 0) * scale));
      store<f32>(at, <f32>(f64x2.extract_lane(rg, 1) * scale), 4);
      store<f32>(at, <f32>(b * scale), 8);
    }
  }
}

const COARSE_MARGIN: f64 = 2e-3;
const COARSE_RELATIVE: f64 = 1e-5;

/**
 * The RMS distance between two patches (per channel, 0–255) when it is at most `limit`; past that, Infinity.
 * Element i's square goes into running sum i % 4, and the sums make (s0 + s1) + (s2 + s3): image/patch.ts's
 * `rmsDistance` adds in this order too, so both give the same floats. The sums only grow, so checking them every
 * ROW_CHECK elements stops early without changing which distances come out Infinity.
 */
function rmsWithin(a: usize, b: usize, size: i32, limit: f64): f64 {
  const n = <usize>(size * size * 3);
  const most = limit * limit * <f64>n;
  let low = f64x2.splat(0);
  let high = f64x2.splat(0);
  let i: usize = 0;
  while (i + 4 <= n) {
    const stop = min(n & ~3, i + ROW_CHECK);
    for (; i < stop; i += 4) {
      const d0 = f64x2.sub(
        f64x2.promote_low_f32x4(v128.load64_zero(a + 4 * i)), f64x2.promote_low_f32x4(v128.load64_zero(b + 4 * i))
      );
      const d1 = f64x2.sub(
        f64x2.promote_low_f32x4(v128.load64_zero(a + 4 * i + 8)),
        f64x2.promote_low_f32x4(v128.load64_zero(b + 4 * i + 8))
      );
      low = f64x2.add(low, f64x2.mul(d0, d0));
      high = f64x2.add(high, f64x2.mul(d1, d1));
    }
    if ((f64x2.extract_lane(low, 0) + f64x2.extract_lane(low, 1))
      + (f64x2.extract_lane(high, 0) + f64x2.extract_lane(high, 1)) > most) return Infinity;
  }
  let s0 = f64x2.extract_lane(low, 0);
  let s1 = f64x2.extract_lane(low, 1);
  let s2 = f64x2.extract_lane(high, 0);
  const s3 = f64x2.extract_lane(high, 1);
  // at most three left (n is 3 × size²), into sums 0, 1, 2
  for (; i < n; i++) {
    const d = <f64>load<f32>(a + 4 * i) - <f64>load<f32>(b + 4 * i);
    if ((i & 3) == 0) s0 += d * d;
    else if ((i & 3) == 1) s1 += d * d;
    else s2 += d * d;
  }
  const sum = (s0 + s1) + (s2 + s3);
  return sum > most ? Infinity : Math.sqrt(sum / <f64>n);
}

/** How many elements `rmsWithin` sums between its checks against the limit (a multiple of 4). */
const ROW_CHECK: usize = 48;

/**
 * read/align.ts's edge profile: the summed grey step at each position from `from` to `to` (vertical: between
 * columns x - 1 and x, over rows acrossFrom to acrossTo; else between rows, over those columns); returns where
 * its f64 values are.
 */
export function edgeProfile(
  slot: i32, w: i32, h: i32, vertical: bool, from: i32, first: i32, to: i32, acrossFrom: i32, acrossTo: i32
): usize {
  useImage(slot, w, h);
  const values = scratchAt();
  const count = <usize>max(0, to - from + 1);
  reserve(values + 8 * count);
  memory.fill(values, 0, 8 * count);
  if (first > to) return values;
  // each pixel's grey is computed once: carried along the row, or kept for the next row in `above`
  if (vertical) {
    for (let j = acrossFrom; j < acrossTo; j++) {
      let i = <usize>j * <usize>w + <usize>first;
      let before = grey(i - 1);
      for (let k = first; k <= to; k++, i++) {
        const at = values + 8 * <usize>(k - from);
        const here = grey(i);
        store<f64>(at, load<f64>(at) + abs<f64>(here - before));
        before = here;
      }
    }
  } else {
    const above = values + 8 * count;
    reserve(above + 8 * <usize>max(0, acrossTo - acrossFrom));
    for (let j = acrossFrom, i = <usize>(first - 1) * <usize>w + <usize>acrossFrom; j < acrossTo; j++, i++)
      store<f64>(above + 8 * <usize>(j - acrossFrom), grey(i));
    for (let k = first; k <= to; k++) {
      let sum: f64 = 0;
      for (let j = acrossFrom, i = <usize>k * <usize>w + <usize>acrossFrom; j < acrossTo; j++, i++) {
        const at = above + 8 * <usize>(j - acrossFrom);
        const here = grey(i);
        sum += abs<f64>(here - load<f64>(at));
        store<f64>(at, here);
      }
      store<f64>(values + 8 * <usize>(k - from), sum);
    }
  }
  return values;
}

// @ts-ignore: decorator
/**
 * locate/gridlines.ts's gridLineStrength before its mean: over positions `from` to `to` (exclusive) along the
 * line, the sum of the largest colour step (|ΔR| + |ΔG| + |ΔB|) across it at `at - band` to `at + band`; a step
 * that reaches past the image is 0. Sums of whole numbers, so exact.
 */
export function lineSteps(slot: i32, w: i32, h: i32, vertical: bool, at: i32, band: i32, from: i32, to: i32): f64 {
  useImage(slot, w, h);
  let total: f64 = 0;
  for (let t = from; t < to; t++) {
    let strongest = 0;
    for (let s = at - band; s <= at + band; s++) {
      const v = vertical ? colourStep(s - 1, t, s, t) : colourStep(t, s - 1, t, s);
      if (v > strongest) strongest = v;
    }
    total += <f64>strongest;
  }
  return total;
}

function colourStep(x0: i32, y0: i32, x1: i32, y1: i32): i32 {
  if (x0 < 0 || y0 < 0 || x1 >= width || y1 >= height) return 0;
  const a = imageAt + 4 * (<usize>y0 * <usize>width + <usize>x0);
  const b = imageAt + 4 * (<usize>y1 * <usize>width + <usize>x1);
  return abs<i32>(<i32>load<u8>(a) - <i32>load<u8>(b)) + abs<i32>(<i32>load<u8>(a, 1) - <i32>load<u8>(b, 1))
    + abs<i32>(<i32>load<u8>(a, 2) - <i32>load<u8>(b, 2));
}

@inline function grey(i: usize): f64 {
  const p = imageAt + 4 * i;
  return <f64>load<u8>(p) * 0.3 + <f64>load<u8>(p, 1) * 0.59 + <f64>load<u8>(p, 2) * 0.11;
}

/**
 * The coarse lower bound of the distance between the patch `patch` last wrote (of group g's size) and each
 * template of group g (f64, from where this returns; past the count too, up to a multiple of LANES).
 */
export function bounds(g: i32): usize {
  return boundsOf(scratchAt(), g);
}

/** `bounds` of the patch at `patchAt`, written after it (its coarse view, then the bounds). */
function boundsOf(patchAt: usize, g: i32): usize {
  const size = load<i32>(groupAt(g));
  const at = patchAt + recordBytes(size);
  reserve(at + 8 * paddedCount(g));
  coarseOf(patchAt, size, patchAt + patchBytes(size));
  coarseBounds(patchAt + patchBytes(size), g, size, at);
  return at;
}

/**
 * read/classify.ts's search of a cell's nearest templates: the patch at `patchAt` (of group g's size) against
 * every template of group g that could still change a reading, nearest-looking (least coarse bound; ties in the
 * templates' order) first. Only the two nearest labels decide a reading, so with one size of templates (`single`)
 * a template matters only if it comes closer than its label's nearest so far and than the second-nearest label;
 * with several sizes, closer than its label's nearest overall or at its size (a close call is decided within one
 * size). The templates are taken in order from a heap: with one size, once a bound passes the second-nearest
 * distance, so do all the rest's. `patchIndex` tells which of the cell's patches this is, kept with each nearest.
 * The memory after the patch is worked in.
 */
function measure(patchAt: usize, g: i32, single: bool, patchIndex: i32): void {
  const size = load<i32>(groupAt(g));
  const count = load<i32>(groupAt(g), 4);
  const boundsAt = boundsOf(patchAt, g);
  const heap = boundsAt + 8 * paddedCount(g);
  reserve(heap + 16 * <usize>count);
  for (let i = 0; i < count; i++) {
    store<f64>(heap + 16 * <usize>i, load<f64>(boundsAt + 8 * <usize>i));
    store<i32>(heap + 16 * <usize>i, i, 8);
  }
  for (let i = (count >> 1) - 1; i >= 0; i--) siftDown(heap, i, count);
  const indices = skinAt() + <usize>load<i32>(groupAt(g), 16);
  const state = stateAt();
  for (let n = count; n > 0; ) {
    const bound = load<f64>(heap);
    const i = load<i32>(heap, 8);
    n--;
    v128.store(heap, v128.load(heap + 16 * <usize>n));
    siftDown(heap, 0, n);
    const second = load<f64>(state);
    if (single && bound > second + SLACK) break;
    const label = load<i32>(indices + 8 * <usize>i);
    const sized = load<i32>(indices + 8 * <usize>i, 4);
    const own = load<f64>(labelDistanceAt(label));
    const limit = single ? min(own, second) : max(own, load<f64>(sizeDistanceAt(sized)));
    if (bound > limit + SLACK) continue;
    const distance = rmsWithin(patchAt, templateAt(g, i), size, limit);
    const which = (patchIndex << 24) | (g << 16) | i;
    if (distance < own) {
      if (load<i32>(labelMatchAt(label)) < 0) {
        const matched = load<i32>(state, 8);
        store<i32>(orderAt() + 4 * <usize>matched, label);
        store<i32>(state, matched + 1, 8);
      }
      store<f64>(labelDistanceAt(label), distance);
      store<i32>(labelMatchAt(label), which);
      store<f64>(state, secondNearest());
    }
    if (distance < load<f64>(sizeDistanceAt(sized))) {
      store<f64>(sizeDistanceAt(sized), distance);
      store<i32>(sizeMatchAt(sized), which);
    }
  }
}

/**
 * The heap's item at `at` (its template's bound, f64, and index, i32, 16 bytes in all) moved down among its first n
 * until neither child comes before it: a lesser bound, or the same and an earlier template.
 */
function siftDown(heap: usize, at: i32, n: i32): void {
  const item = v128.load(heap + 16 * <usize>at);
  const bound = f64x2.extract_lane(item, 0);
  const index = i32x4.extract_lane(item, 2);
  for (;;) {
    let child = 2 * at + 1;
    if (child >= n) break;
    let childAt = heap + 16 * <usize>child;
    let childBound = load<f64>(childAt);
    if (child + 1 < n) {
      const other = load<f64>(childAt, 16);
      if (other < childBound || (other == childBound && load<i32>(childAt, 24) < load<i32>(childAt, 8))) {
        child++;
        childAt += 16;
        childBound = other;
      }
    }
    if (!(childBound < bound || (childBound == bound && load<i32>(childAt, 8) < index))) break;
    v128.store(heap + 16 * <usize>at, v128.load(childAt));
    at = child;
  }
  v128.store(heap + 16 * <usize>at, item);
}

/**
 * A cell's search so far, in the skin's area (image/patch.ts's `writeSkin`): the second-nearest label's distance
 * (f64), how many labels are matched (i32), then per label and per label at a size the nearest distance (f64) and
 * what gave it (i32: patch index << 24 | group << 16 | template), then the labels in the order first matched.
 */
function stateAt(): usize {
  return skinAt() + <usize>load<i32>(skinAt(), 12);
}

@inline function labelCount(): usize {
  return <usize>load<i32>(skinAt(), 4);
}

@inline function sizeCount(): usize {
  return <usize>load<i32>(skinAt(), 8);
}

@inline function labelDistanceAt(i: i32): usize {
  return stateAt() + 16 + 8 * <usize>i;
}

@inline function sizeDistanceAt(i: i32): usize {
  return stateAt() + 16 + 8 * labelCount() + 8 * <usize>i;
}

@inline function labelMatchAt(i: i32): usize {
  return stateAt() + 16 + 8 * (labelCount() + sizeCount()) + 4 * <usize>i;
}

@inline function sizeMatchAt(i: i32): usize {
  return stateAt() + 16 + 12 * labelCount() + 8 * sizeCount() + 4 * <usize>i;
}

@inline function orderAt(): usize {
  return stateAt() + 16 + 12 * (labelCount() + sizeCount());
}

/** A new cell's search: nothing matched. */
function startCell(): void {
  const state = stateAt();
  store<f64>(state, Infinity);
  store<i32>(state, 0, 8);
  for (let i: i32 = 0; i < <i32>labelCount(); i++) {
    store<f64>(labelDistanceAt(i), Infinity);
    store<i32>(labelMatchAt(i), -1);
  }
  for (let i: i32 = 0; i < <i32>sizeCount(); i++) {
    store<f64>(sizeDistanceAt(i), Infinity);
    store<i32>(sizeMatchAt(i), -1);
  }
}

/** The second-least distance of the labels matched. */
function secondNearest(): f64 {
  let first = Infinity;
  let second = Infinity;
  const matched = load<i32>(stateAt(), 8);
  for (let k = 0; k < matched; k++) {
    const d = load<f64>(labelDistanceAt(load<i32>(orderAt() + 4 * <usize>k)));
    if (d < first) {
      second = first;
      first = d;
    } else if (d < second) second = d;
  }
  return second;
}

/**
 * The nearest and the second-nearest label matched, each plus one (0: none), as first << 16 | second; ties in the
 * order first matched.
 */
function firstTwo(): i32 {
  let first = -1;
  let second = -1;
  const matched = load<i32>(stateAt(), 8);
  for (let k = 0; k < matched; k++) {
    const i = load<i32>(orderAt() + 4 * <usize>k);
    const d = load<f64>(labelDistanceAt(i));
    if (first < 0 || d < load<f64>(labelDistanceAt(first))) {
      second = first;
      first = i;
    } else if (second < 0 || d < load<f64>(labelDistanceAt(second))) second = i;
  }
  return ((first + 1) << 16) | (second + 1);
}

function labelDistance(i: i32): f64 {
  return load<f64>(labelDistanceAt(i));
}

function labelMatch(i: i32): i32 {
  return load<i32>(labelMatchAt(i));
}

function sizeMatch(i: i32): i32 {
  return load<i32>(sizeMatchAt(i));
}

function templateAt(g: i32, i: i32): usize {
  return skinAt() + <usize>load<i32>(groupAt(g), 8) + <usize>i * recordBytes(load<i32>(groupAt(g)));
}

/**
 * Where the JS side writes what `readCells` reads, `count` cells of a grid of `cols` × `rows` with a prepared skin
 * of `labels` labels in `groups` size groups: each cell's row and column (i32), the grid's column lefts and row
 * tops (f64, used when it has them), then, per label and group, the size index of that label at that group's size
 * (i32, -1: none). The readings follow (`readingsAt`).
 */
export function readInput(count: i32, cols: i32, rows: i32, labels: i32, groups: i32): usize {
  const at = scratchAt();
  reserve(readFree(at, count, cols, rows, labels, groups));
  return at;
}

function readLefts(at: usize, count: i32): usize {
  return at + 8 * <usize>count;
}

function readTops(at: usize, count: i32, cols: i32): usize {
  return readLefts(at, count) + 8 * <usize>cols;
}

function readRivals(at: usize, count: i32, cols: i32, rows: i32): usize {
  return readTops(at, count, cols) + 8 * <usize>rows;
}

/**
 * Each cell's reading, READING_BYTES each: the nearest and the second-nearest label (i32, -1: none), the template it
 * equals (i32, -1: none; nothing else is then written), what gave the nearest (`labelMatch`'s i32), what gave the
 * second-nearest label's nearest at the nearest's size (`sizeMatch`'s i32, -1: none), then the two labels' distances
 * (f64, from byte 24).
 */
export function readingsAt(at: usize, count: i32, cols: i32, rows: i32, labels: i32, groups: i32): usize {
  return (readRivals(at, count, cols, rows) + 4 * <usize>labels * <usize>groups + 7) & ~7;
}

const READING_BYTES: usize = 40;

function readFree(at: usize, count: i32, cols: i32, rows: i32, labels: i32, groups: i32): usize {
  return (readingsAt(at, count, cols, rows, labels, groups) + READING_BYTES * <usize>count + 15) & ~15;
}

/** The shifts tried around a cell whose match is not clear-cut (read/classify.ts's NEAR), dx then dy, in steps. */
const NEAR: StaticArray<f64> = [-1, 0, 1, 0, 0, -1, 0, 1, -1, -1, 1, 1, -1, 1, 1, -1];

/**
 * read/classify.ts's reading of each cell written at `readInput` on the grid from (left, top) at pitchX × pitchY
 * (its lefts and tops as written, when `linedX` / `linedY`), each cell inset by `inset` of the pitch: with one size
 * of templates and `exact`, a cell whose patch on the grid equals a template (bit for bit, the first in order) is not
 * measured; else its patch on the grid is measured, and when `search` and the match is not clear-cut (`sure` and
 * `decided`: distances, each with its ratio to the runner-up) the patch `step` off in each NEAR direction, then
 * half that. Writes each cell's reading (`readingsAt`).
 */
export function readCells(
  slot: i32, w: i32, h: i32, count: i32, cols: i32, rows: i32, left: f64, top: f64, pitchX: f64, pitchY: f64,
  linedX: bool, linedY: bool, inset: f64, search: bool, exact: bool,
  sure: f64, sureRatio: f64, decided: f64, decidedRatio: f64, step: f64
): void {
  useImage(slot, w, h);
  const at = scratchAt();
  const groups = load<i32>(skinAt());
  const labels = <i32>labelCount();
  const lefts = readLefts(at, count);
  const tops = readTops(at, count, cols);
  const rivals = readRivals(at, count, cols, rows);
  const readings = readingsAt(at, count, cols, rows, labels, groups);
  const work = readFree(at, count, cols, rows, labels, groups);
  const single = groups == 1;
  for (let k = 0; k < count; k++) {
    const row = load<i32>(at + 8 * <usize>k);
    const col = load<i32>(at + 8 * <usize>k, 4);
    const cellLeft = linedX ? load<f64>(lefts + 8 * <usize>col) : left + <f64>col * pitchX;
    const cellTop = linedY ? load<f64>(tops + 8 * <usize>row) : top + <f64>row * pitchY;
    const out = readings + READING_BYTES * <usize>k;
    if (single) {
      cellPatchAt(work, 0, linedX, linedY, left, top, cellLeft, cellTop, col, row, pitchX, pitchY, inset, 0, 0);
      const same = exact ? sameTemplate(work) : -1;
      store<i32>(out, same, 8);
      if (same >= 0) continue;
    } else store<i32>(out, -1, 8);
    startCell();
    let patches = 0;
    measureShifted(
      work, single, patches++, linedX, linedY, left, top, cellLeft, cellTop, col, row, pitchX, pitchY, inset, 0, 0
    );
    if (search && !clearCut(sure, sureRatio, decided, decidedRatio)) {
      for (let n = 0; n < 16; n += 2) {
        measureShifted(
          work, single, patches++, linedX, linedY, left, top, cellLeft, cellTop, col, row, pitchX, pitchY, inset,
          unchecked(NEAR[n]) * step, unchecked(NEAR[n + 1]) * step
        );
      }
      if (!clearCut(sure, sureRatio, decided, decidedRatio)) {
        for (let n = 0; n < 16; n += 2) {
          measureShifted(
            work, single, patches++, linedX, linedY, left, top, cellLeft, cellTop, col, row, pitchX, pitchY, inset,
            unchecked(NEAR[n]) * step / 2, unchecked(NEAR[n + 1]) * step / 2
          );
        }
      }
    }
    const packed = firstTwo();
    const first = (packed >> 16) - 1;
    const second = (packed & 0xffff) - 1;
    store<i32>(out, first);
    store<i32>(out, second, 4);
    const match = first < 0 ? -1 : labelMatch(first);
    store<i32>(out, match, 12);
    const rivalSize = first < 0 || second < 0
      ? -1
      : load<i32>(rivals + 4 * (<usize>second * <usize>groups + <usize>((match >> 16) & 0xff)));
    store<i32>(out, rivalSize < 0 ? -1 : sizeMatch(rivalSize), 16);
    store<f64>(out, first < 0 ? Infinity : labelDistance(first), 24);
    store<f64>(out, second < 0 ? Infinity : labelDistance(second), 32);
  }
}

/**
 * The cell's patch at group g's size, `dx`, `dy` off, written at `out`: its place as image/pixels.ts's shiftGrid and
 * cellLeft / cellTop give it (a lined grid's own edge plus the shift; else the shifted start plus whole pitches).
 */
function cellPatchAt(
  out: usize, g: i32, linedX: bool, linedY: bool, left: f64, top: f64, lineLeft: f64, lineTop: f64, col: i32, row: i32,
  pitchX: f64, pitchY: f64, inset: f64, dx: f64, dy: f64
): void {
  const size = load<i32>(groupAt(g));
  const x = linedX ? lineLeft + dx : (left + dx) + <f64>col * pitchX;
  const y = linedY ? lineTop + dy : (top + dy) + <f64>row * pitchY;
  patchInto(
    out, x + inset * pitchX, (pitchX * (1 - 2 * inset)) / <f64>size, y + inset * pitchY,
    (pitchY * (1 - 2 * inset)) / <f64>size, size, (out + 12 * <usize>size * <usize>size + 15) & ~15
  );
}

/**
 * The patch `dx`, `dy` off the cell measured against each size group (with one size, the first patch is the one on
 * the grid, made already).
 */
function measureShifted(
  work: usize, single: bool, patchIndex: i32, linedX: bool, linedY: bool, left: f64, top: f64, lineLeft: f64,
  lineTop: f64, col: i32, row: i32, pitchX: f64, pitchY: f64, inset: f64, dx: f64, dy: f64
): void {
  const groups = load<i32>(skinAt());
  for (let g = 0; g < groups; g++) {
    if (!(patchIndex == 0 && single))
      cellPatchAt(work, g, linedX, linedY, left, top, lineLeft, lineTop, col, row, pitchX, pitchY, inset, dx, dy);
    measure(work, g, single, patchIndex);
  }
}

/**
 * Whether the match is clear-cut (the limits are read/classify.ts's `clearCutFor`): the nearest label sure, or
 * decided, against the second-nearest.
 */
function clearCut(sure: f64, sureRatio: f64, decided: f64, decidedRatio: f64): bool {
  const packed = firstTwo();
  const first = (packed >> 16) - 1;
  const second = (packed & 0xffff) - 1;
  const best = first < 0 ? Infinity : labelDistance(first);
  const runnerUp = second < 0 ? Infinity : labelDistance(second);
  if (best <= sure && best <= sureRatio * runnerUp) return true;
  return best <= decided && best <= decidedRatio * runnerUp;
}

/** The first template of the one size group whose patch equals the patch at `patchAt` bit for bit, or -1. */
function sameTemplate(patchAt: usize): i32 {
  const size = load<i32>(groupAt(0));
  const count = load<i32>(groupAt(0), 4);
  const bytes: usize = 12 * <usize>size * <usize>size;
  for (let i = 0; i < count; i++) {
    const template = templateAt(0, i);
    let k: usize = 0;
    for (; k + 16 <= bytes; k += 16)
      if (!v128.all_true<i32>(i32x4.eq(v128.load(patchAt + k), v128.load(template + k)))) break;
    if (k + 16 <= bytes) continue;
    for (; k < bytes; k += 4) if (load<i32>(patchAt + k) != load<i32>(template + k)) break;
    if (k >= bytes) return i;
  }
  return -1;
}

/**
 * The RMS distance from template i of group g to each template of the group (f64, from where this returns), as
 * image/patch.ts's rmsDistance gives it: what tells a template's nearest rival (read/exact.ts).
 */
export function templateDistances(g: i32, i: i32): usize {
  const size = load<i32>(groupAt(g));
  const count = load<i32>(groupAt(g), 4);
  const out = scratchAt();
  reserve(out + 8 * <usize>count);
  const own = templateAt(g, i);
  for (let j = 0; j < count; j++) store<f64>(out + 8 * <usize>j, rmsWithin(own, templateAt(g, j), size, Infinity));
  return out;
}

/**
 * Where the JS side writes read/align.ts's line-shift search: its edge profile (f64 × `length`), then each line's
 * base in it (i32 × `count`); `lineShifts` works after them.
 */
export function shiftsInput(length: i32, count: i32): usize {
  const at = scratchAt();
  reserve(shiftsBases(at, length) + 4 * <usize>count);
  return at;
}

function shiftsBases(at: usize, length: i32): usize {
  return at + 8 * <usize>length;
}

/**
 * read/align.ts's line-shift search: three rounds of scoring each line's strip (`width` long, from its base)
 * against the mean strip at every shift within `reach`, then the smoothest path of shifts (`smoothestPath`).
 * Returns where the shifts are (i32 × count).
 */
export function lineShifts(length: i32, count: i32, reach: i32, width: i32): usize {
  const profile = scratchAt();
  const bases = shiftsBases(profile, length);
  const states = 2 * reach + 1;
  const shifts = (bases + 4 * <usize>count + 7) & ~7;
  const typical = shifts + ((4 * <usize>count + 7) & ~7);
  const scores = typical + 8 * <usize>width;
  const total = scores + 8 * <usize>count * <usize>states;
  const from = total + 8 * <usize>count * <usize>states;
  reserve(from + 4 * <usize>count * <usize>states);
  for (let i = 0; i < count; i++) store<i32>(shifts + 4 * <usize>i, 0);
  for (let pass = 0; pass < 3; pass++) {
    for (let t = 0; t < width; t++) {
      let sum: f64 = 0;
      for (let i = 0; i < count; i++)
        sum += profileAt(profile, length, load<i32>(bases + 4 * <usize>i) + load<i32>(shifts + 4 * <usize>i) + t);
      store<f64>(typical + 8 * <usize>t, sum / <f64>count);
    }
    for (let i = 0; i < count; i++) {
      const row = scores + 8 * <usize>i * <usize>states;
      let top: f64 = 1e-9;
      for (let k = 0; k < states; k++) {
        let sum: f64 = 0;
        for (let t = 0; t < width; t++)
          sum += load<f64>(typical + 8 * <usize>t)
            * profileAt(profile, length, load<i32>(bases + 4 * <usize>i) + k - reach + t);
        store<f64>(row + 8 * <usize>k, sum);
        top = max(top, sum);
      }
      for (let k = 0; k < states; k++) store<f64>(row + 8 * <usize>k, load<f64>(row + 8 * <usize>k) / top);
    }
    smoothestPath(scores, total, from, count, states, shifts);
    for (let i = 0; i < count; i++) store<i32>(shifts + 4 * <usize>i, load<i32>(shifts + 4 * <usize>i) - reach);
  }
  return shifts;
}

/** The profile's value at `i`, NaN past either end (as a JS array read past its end gives in arithmetic). */
@inline function profileAt(profile: usize, length: i32, i: i32): f64 {
  return i < 0 || i >= length ? NaN : load<f64>(profile + 8 * <usize>i);
}

/**
 * The smoothest path of shifts: one choice per line (0 to states - 1), steps of at most one, the highest total
 * score (the first line's scores lowered a millionth per step off the middle; ties to the first); written at `path`.
 */
function smoothestPath(scores: usize, total: usize, from: usize, count: i32, states: i32, path: usize): void {
  for (let k = 0; k < states; k++) {
    store<f64>(
      total + 8 * <usize>k, load<f64>(scores + 8 * <usize>k) - 1e-6 * abs<f64>(<f64>k - <f64>(states - 1) / 2)
    );
  }
  for (let i = 1; i < count; i++) {
    const before = total + 8 * <usize>(i - 1) * <usize>states;
    for (let k = 0; k < states; k++) {
      let best = -1;
      for (let j = max(0, k - 1); j <= min(states - 1, k + 1); j++) {
        if (best < 0 || load<f64>(before + 8 * <usize>j) > load<f64>(before + 8 * <usize>best)) best = j;
      }
      store<i32>(from + 4 * (<usize>(i - 1) * <usize>states + <usize>k), best);
      store<f64>(
        total + 8 * (<usize>i * <usize>states + <usize>k),
        load<f64>(before + 8 * <usize>best) + load<f64>(scores + 8 * (<usize>i * <usize>states + <usize>k))
      );
    }
  }
  const last = total + 8 * <usize>(count - 1) * <usize>states;
  let most = -Infinity;
  for (let k = 0; k < states; k++) most = max(most, load<f64>(last + 8 * <usize>k));
  // the scores are finite, so some choice holds the most (none would only for NaN, which a profile never holds)
  let at = 0;
  for (let k = 0; k < states; k++) {
    if (load<f64>(last + 8 * <usize>k) == most) {
      at = k;
      break;
    }
  }
  store<i32>(path + 4 * <usize>(count - 1), at);
  for (let i = count - 2; i >= 0; i--)
    store<i32>(
      path + 4 * <usize>i,
      load<i32>(from + 4 * (<usize>i * <usize>states + <usize>load<i32>(path + 4 * <usize>(i + 1))))
    );
}
