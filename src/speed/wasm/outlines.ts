// The pixel work of locate/outlines.ts in WebAssembly (AssemblyScript): grey, the two binary images, their flat
// regions and the square ones among them. The JS side hands over the screenshot a band of rows at a time
// (`band(width, height)`, then `greyRows`), and reads the squares from `squaresAt()`. Linear memory:
//   band of RGBA rows | grey (1 per pixel) | mask (1) | window column sums and their prefix (2 per column)
//   | row starts (4 per row + 1) | runs (RUN bytes each) | boxes of the runs' regions (BOX bytes each) | squares
// The runs, boxes and squares are sized as they are found. Memory grows and is never given back, so the JS side
// drops an instance that grew large.

import { reserve } from './memory';

/** A step of this much (0–255) between neighbours makes both edge pixels (OpenCV's Canny at 20/60 ≈ 5/15). */
const EDGE_STEP: i32 = 10;
/** The local threshold's window is 2 × RADIUS + 1 pixels a side (OpenCV's adaptive mean threshold: block 15, C 2). */
const RADIUS: i32 = 7;
/** A run: start, end (exclusive), value, parent (its union–find representative): four i32. */
const RUN: usize = 16;
/** A region's box, at its root run: left, top, right, bottom, size: five i32. */
const BOX: usize = 20;
/** A square found: left, top, width, height: four i32. */
const SQUARE: usize = 16;

let width: i32 = 0;
let height: i32 = 0;
let bandAt: usize = 0;
let grayAt: usize = 0;
let maskAt: usize = 0;
let columnsAt: usize = 0;
let prefixAt: usize = 0;
let rowsAt: usize = 0;
let runsAt: usize = 0;
let squaresStart: usize = 0;

/** Rows of RGBA the JS side writes at once to `band`'s address. */
export const BAND_ROWS: i32 = 32;

/** Memory laid out for a width × height image; returns where the JS side writes each band of its RGBA rows. */
export function band(w: i32, h: i32): usize {
  width = w;
  height = h;
  const n = <usize>w * <usize>h;
  bandAt = (__heap_base + 15) & ~15;
  grayAt = bandAt + 4 * <usize>BAND_ROWS * <usize>w;
  maskAt = grayAt + n;
  columnsAt = (maskAt + n + 15) & ~15;
  prefixAt = columnsAt + ((2 * <usize>(w + 8) + 15) & ~15);
  rowsAt = (prefixAt + 2 * <usize>(w + 16) + 15) & ~15;
  runsAt = (rowsAt + 4 * <usize>(h + 1) + 15) & ~15;
  reserve(runsAt);
  return bandAt;
}

/** The squares found by the last `squares`: left, top, width, height (i32 each). */
export function squaresAt(): usize {
  return squaresStart;
}

/** Every square, mostly filled region of the mask last made; returns how many (at `squaresAt()`). */
export function squares(minSide: f64, maxSide: f64): i32 {
  return squaresOf(runsOf(), minSide, maxSide);
}

/**
 * Grey of the `count` rows from `top`, whose RGBA is in the band: (77 R + 150 G + 29 B) >> 8, sixteen pixels at a
 * time. Both masks are made from the grey image.
 */
export function greyRows(top: i32, count: i32): void {
  const n = <usize>width * <usize>count;
  const out = grayAt + <usize>top * <usize>width;
  const weights = i16x8(77, 150, 29, 0, 77, 150, 29, 0);
  let i: usize = 0;
  for (; i + 16 <= n; i += 16) {
    const p = bandAt + 4 * i;
    const low = i16x8.narrow_i32x4_u(greyOf4(v128.load(p), weights), greyOf4(v128.load(p, 16), weights));
    const high = i16x8.narrow_i32x4_u(greyOf4(v128.load(p, 32), weights), greyOf4(v128.load(p, 48), weights));
    v128.store(out + i, i8x16.narrow_i16x8_u(low, high));
  }
  for (; i < n; i++) {
    const p = bandAt + 4 * i;
    store<u8>(out + i, <u8>((77 * <i32>load<u8>(p) + 150 * <i32>load<u8>(p, 1) + 29 * <i32>load<u8>(p, 2)) >> 8));
  }
}

/** Four RGBA pixels' greys as i32 lanes (each weighted sum fits 16 bits unsigned: 256 × 255 at most). */
// @ts-ignore: decorator
@inline function greyOf4(pixels: v128, weights: v128): v128 {
  const first = i32x4.extadd_pairwise_i16x8_u(i16x8.mul(i16x8.extend_low_i8x16_u(pixels), weights));
  const second = i32x4.extadd_pairwise_i16x8_u(i16x8.mul(i16x8.extend_high_i8x16_u(pixels), weights));
  // first: R·77 + G·150, B·29 of pixels 0 and 1; second: of pixels 2 and 3
  const sums = i32x4.add(i32x4.shuffle(first, second, 0, 2, 4, 6), i32x4.shuffle(first, second, 1, 3, 5, 7));
  return i32x4.shr_u(sums, 8);
}

/**
 * Both pixels of a step of EDGE_STEP or more between neighbours: a pixel is an edge pixel when it steps that far
 * from any of its four neighbours. Sixteen at a time inside the image, one at a time along its border.
 */
export function edges(): void {
  const w = width;
  const h = height;
  const limit = i8x16.splat(<i8>EDGE_STEP);
  const one = i8x16.splat(1);
  for (let y = 0; y < h; y++) {
    const line = <usize>y * <usize>w;
    let x = 0;
    if (y > 0 && y < h - 1) {
      edgeAt(x++, y);
      const up = <usize>w;
      for (; x + 16 < w; x += 16) {
        const at = grayAt + line + <usize>x;
        const g = v128.load(at);
        const steps = v128.or(v128.or(stepped(g, v128.load(at - 1), limit), stepped(g, v128.load(at + 1), limit)),
          v128.or(stepped(g, v128.load(at - up), limit), stepped(g, v128.load(at + up), limit)));
        v128.store(maskAt + line + <usize>x, v128.and(steps, one));
      }
    }
    for (; x < w; x++) edgeAt(x, y);
  }
}

/** 0xff in each lane where a and b differ by `limit` or more. */
// @ts-ignore: decorator
@inline function stepped(a: v128, b: v128, limit: v128): v128 {
  return i8x16.ge_u(v128.or(i8x16.sub_sat_u(a, b), i8x16.sub_sat_u(b, a)), limit);
}

function edgeAt(x: i32, y: i32): void {
  const i = <usize>y * <usize>width + <usize>x;
  const g = <i32>load<u8>(grayAt + i);
  const w = <usize>width;
  const step = (x > 0 && abs<i32>(g - <i32>load<u8>(grayAt + i - 1)) >= EDGE_STEP)
    || (x < width - 1 && abs<i32>(g - <i32>load<u8>(grayAt + i + 1)) >= EDGE_STEP)
    || (y > 0 && abs<i32>(g - <i32>load<u8>(grayAt + i - w)) >= EDGE_STEP)
    || (y < height - 1 && abs<i32>(g - <i32>load<u8>(grayAt + i + w)) >= EDGE_STEP);
  store<u8>(maskAt + i, step ? 1 : 0);
}

/**
 * Brighter than the mean of its 15×15 neighbourhood less 2 (the window clipped at the image's edges). Row by row:
 * each column's sum over the window's rows is kept up to date as the window moves down, and the row's totals
 * are differences of their running sum. All in 16 bits: a column's sum is at most 15 × 255 and a window's
 * 225 × 255, so a difference of running sums taken modulo 2^16 is the window's total.
 */
export function threshold(): void {
  const w = width;
  const h = height;
  memory.fill(columnsAt, 0, 2 * <usize>w);
  for (let y = 0; y < RADIUS && y < h; y++) addRow(y, 1);
  for (let y = 0; y < h; y++) {
    if (y + RADIUS < h) addRow(y + RADIUS, 1);
    if (y > RADIUS) addRow(y - RADIUS - 1, -1);
    const rows = min(h, y + RADIUS + 1) - max(0, y - RADIUS);
    runningSums();
    const line = <usize>y * <usize>w;
    for (let x = 0; x < w; x++) {
      if (x == RADIUS && x + RADIUS + 1 < w) x = interior(line, rows);
      const x0 = x > RADIUS ? x - RADIUS : 0;
      const x1 = x + RADIUS + 1 < w ? x + RADIUS + 1 : w;
      store<u8>(maskAt + line + x, thresholded(line, x, x0, x1, rows));
    }
  }
}

/** Adds grey row y to the column sums (sign 1), or takes it away (-1); eight columns at a time. */
function addRow(y: i32, sign: i32): void {
  const row = grayAt + <usize>y * <usize>width;
  const w = <usize>width;
  let x: usize = 0;
  for (; x + 8 <= w; x += 8) {
    const at = columnsAt + 2 * x;
    const g = v128.load8x8_u(row + x);
    v128.store(at, sign > 0 ? i16x8.add(v128.load(at), g) : i16x8.sub(v128.load(at), g));
  }
  for (; x < w; x++) {
    const at = columnsAt + 2 * x;
    store<u16>(at, <u16>(<i32>load<u16>(at) + sign * <i32>load<u8>(row + x)));
  }
}

/**
 * prefix[x] = the sum of columns 0 to x - 1, modulo 2^16: eight at a time, each group's sums made by adding
 * it to itself shifted by one, two and four lanes, then the total so far.
 */
function runningSums(): void {
  const zero = i16x8.splat(0);
  let carry = zero;
  store<u16>(prefixAt, 0);
  for (let x: usize = 0; x < <usize>width; x += 8) {
    let v = v128.load(columnsAt + 2 * x);
    v = i16x8.add(v, i8x16.shuffle(zero, v, 0, 1, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29));
    v = i16x8.add(v, i8x16.shuffle(zero, v, 0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27));
    v = i16x8.add(v, i8x16.shuffle(zero, v, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23));
    v = i16x8.add(v, carry);
    v128.store(prefixAt + 2 * x + 2, v);
    carry = i16x8.splat(i16x8.extract_lane_u(v, 7));
  }
}

// @ts-ignore: decorator
@inline function thresholded(line: usize, x: i32, x0: i32, x1: i32, rows: i32): u8 {
  const area = rows * (x1 - x0);
  const total = (<i32>load<u16>(prefixAt + 2 * <usize>x1) - <i32>load<u16>(prefixAt + 2 * <usize>x0)) & 0xffff;
  return <i32>load<u8>(grayAt + line + x) * area > total - 2 * area ? 1 : 0;
}

/**
 * The row's pixels whose window lies whole across (x from RADIUS to w - RADIUS - 2), eight at a time; returns
 * the x where the clipped right margin starts. grey × area > total − 2 × area as (grey + 2) × area > total:
 * both sides under 2^16.
 */
function interior(line: usize, rows: i32): i32 {
  const w = width;
  const last = w - RADIUS - 2;
  const area = i16x8.splat(<i16>(rows * (2 * RADIUS + 1)));
  const two = i16x8.splat(2);
  const one = i16x8.splat(1);
  const zero = i16x8.splat(0);
  let x = RADIUS;
  for (; x + 7 <= last; x += 8) {
    const x0 = (<usize>(x - RADIUS)) << 1;
    const x1 = (<usize>(x + RADIUS + 1)) << 1;
    const total = i16x8.sub(v128.load(prefixAt + x1), v128.load(prefixAt + x0));
    const g = v128.load8x8_u(grayAt + line + <usize>x);
    const above = v128.and(i16x8.gt_u(i16x8.mul(i16x8.add(g, two), area), total), one);
    v128.store64_lane(maskAt + line + <usize>x, i8x16.narrow_i16x8_u(above, zero), 0);
  }
  for (; x <= last; x++) store<u8>(maskAt + line + <usize>x, thresholded(line, x, x - RADIUS, x + RADIUS + 1, rows));
  return x;
}

/** Runs of one value along each row, at runsAt; row y's are rowStart[y] to rowStart[y + 1]. Returns the count. */
function runsOf(): i32 {
  const w = width;
  let count: i32 = 0;
  for (let y = 0; y < height; y++) {
    store<i32>(rowsAt + 4 * <usize>y, count);
    reserve(runsAt + <usize>(count + w) * RUN);
    const row = maskAt + <usize>y * <usize>w;
    for (let x = 0; x < w; ) {
      const v = load<u8>(row + <usize>x);
      const to = runEnd(row, x + 1, w, v);
      const run = runsAt + <usize>count * RUN;
      store<i32>(run, x);
      store<i32>(run, to, 4);
      store<i32>(run, v, 8);
      store<i32>(run, count, 12);
      count++;
      x = to;
    }
  }
  store<i32>(rowsAt + 4 * <usize>height, count);
  return count;
}

/** The first x from `from` on where the row's value is not v (w when there is none): 16 pixels at a time. */
function runEnd(row: usize, from: i32, w: i32, v: u8): i32 {
  const same = i8x16.splat(<i8>v);
  let x = from;
  for (; x + 16 <= w; x += 16) {
    const differs = i8x16.bitmask(i8x16.ne(v128.load(row + <usize>x), same));
    if (differs != 0) return x + ctz(differs);
  }
  while (x < w && load<u8>(row + <usize>x) == v) x++;
  return x;
}

// @ts-ignore: decorator
@inline function start(i: i32): i32 { return load<i32>(runsAt + <usize>i * RUN); }
// @ts-ignore: decorator
@inline function end(i: i32): i32 { return load<i32>(runsAt + <usize>i * RUN, 4); }
// @ts-ignore: decorator
@inline function value(i: i32): i32 { return load<i32>(runsAt + <usize>i * RUN, 8); }
// @ts-ignore: decorator
@inline function parent(i: i32): i32 { return load<i32>(runsAt + <usize>i * RUN, 12); }
// @ts-ignore: decorator
@inline function setParent(i: i32, p: i32): void { store<i32>(runsAt + <usize>i * RUN, p, 12); }
// @ts-ignore: decorator
@inline function rowStart(y: i32): i32 { return load<i32>(rowsAt + 4 * <usize>y); }

function find(i: i32): i32 {
  while (parent(i) != i) {
    const up = parent(parent(i));
    setParent(i, up);
    i = up;
  }
  return i;
}

/** The squares among the regions of the runs: runs of one value overlapping in neighbouring rows joined. */
function squaresOf(runs: i32, minSide: f64, maxSide: f64): i32 {
  joinRuns();
  const boxes = (runsAt + <usize>runs * RUN + 15) & ~15;
  boxRegions(boxes, runs);
  squaresStart = boxes + <usize>runs * BOX;
  let count: i32 = 0;
  for (let root = 0; root < runs; root++) {
    const box = boxes + <usize>root * BOX;
    const size = load<i32>(box, 16);
    if (size == 0) continue;
    const w = load<i32>(box, 8) - load<i32>(box);
    const h = load<i32>(box, 12) - load<i32>(box, 4) + 1;
    const ratio = <f64>w / <f64>h;
    const square = <f64>w >= minSide && <f64>h >= minSide && <f64>w <= maxSide && <f64>h <= maxSide
      && ratio > 0.75 && ratio < 1.33;
    if (!square || <f64>size < 0.5 * <f64>w * <f64>h) continue;
    const at = squaresStart + <usize>count * SQUARE;
    reserve(at + SQUARE);
    store<i32>(at, load<i32>(box));
    store<i32>(at, load<i32>(box, 4), 4);
    store<i32>(at, w, 8);
    store<i32>(at, h, 12);
    count++;
  }
  return count;
}

function joinRuns(): void {
  for (let y = 1; y < height; y++) {
    let a = rowStart(y - 1);
    let b = rowStart(y);
    const aEnd = b;
    const bEnd = rowStart(y + 1);
    while (a < aEnd && b < bEnd) {
      if (value(a) == value(b) && start(a) < end(b) && start(b) < end(a)) {
        const ra = find(a);
        const rb = find(b);
        if (ra != rb) setParent(max(ra, rb), min(ra, rb));
      }
      if (end(a) < end(b)) a++;
      else b++;
    }
  }
}

/** Each region's bounding box and pixel count, kept at its root run's place. */
function boxRegions(boxes: usize, runs: i32): void {
  reserve(boxes + <usize>runs * BOX);
  memory.fill(boxes, 0, <usize>runs * BOX);
  for (let y = 0; y < height; y++) {
    const last = rowStart(y + 1);
    for (let i = rowStart(y); i < last; i++) {
      const box = boxes + <usize>find(i) * BOX;
      const s = start(i);
      const e = end(i);
      if (load<i32>(box, 16) == 0) {
        store<i32>(box, s);
        store<i32>(box, e, 8);
        store<i32>(box, y, 4);
      }
      if (s < load<i32>(box)) store<i32>(box, s);
      if (e > load<i32>(box, 8)) store<i32>(box, e, 8);
      store<i32>(box, y, 12);
      store<i32>(box, load<i32>(box, 16) + e - s, 16);
    }
  }
}

// The search of the outlines for the board's lattice (locate/locate.ts), the parts that take each outline's
// neighbours (`gapsToNext`, `linked`): the JS side writes the outlines of one size back (`outlinesInput`), where the
// band of rows was (the squares are read by then). Linear memory, from there:
//   outlines (SQUARE bytes each) | bucket column and row (2 × 4 per outline) | bucket starts (4 per bucket + 1)
//   | next free place per bucket (4 per bucket) | members (4 per outline) | the result (gaps, f64; parents, i32)

let outlinesAt: usize = 0;
let outlineCount: i32 = 0;
let bucketCols: i32 = 0;
let bucketRows: i32 = 0;
let cellsAt: usize = 0;
let startsAt: usize = 0;
let membersAt: usize = 0;
let resultAt: usize = 0;

/** Where the JS side writes `count` outlines: left, top, width, height (i32 each). */
export function outlinesInput(count: i32): usize {
  outlinesAt = (__heap_base + 15) & ~15;
  outlineCount = count;
  reserve(outlinesAt + <usize>count * SQUARE);
  return outlinesAt;
}

/** An outline's centre across x (`alongY` false) or y, as locate/locate.ts's centerX / centerY: left + width / 2. */
function centre(i: i32, alongY: bool): f64 {
  const at = outlinesAt + <usize>i * SQUARE + (alongY ? 4 : 0);
  return <f64>load<i32>(at) + <f64>load<i32>(at, 8) / 2;
}

function bucketX(i: i32): i32 {
  return load<i32>(cellsAt + 8 * <usize>i);
}

function bucketY(i: i32): i32 {
  return load<i32>(cellsAt + 8 * <usize>i, 4);
}

function bucketStart(x: i32, y: i32): i32 {
  return load<i32>(startsAt + 4 * <usize>(y * bucketCols + x));
}

function bucketEnd(x: i32, y: i32): i32 {
  return load<i32>(startsAt + 4 * <usize>(y * bucketCols + x + 1));
}

function member(m: i32): i32 {
  return load<i32>(membersAt + 4 * <usize>m);
}

/**
 * The outlines in buckets: each outline's bucket, its centre along x (or along y, `swapped`) over `sizeX` and along
 * the other axis over `sizeY`, floored; bucket (x, y) holds members from bucketStart(x, y) to bucketEnd(x, y), in
 * outline order. The result's place follows.
 */
function bucketOutlines(swapped: bool, sizeX: f64, sizeY: f64): void {
  const n = outlineCount;
  cellsAt = outlinesAt + <usize>n * SQUARE;
  reserve(cellsAt + 8 * <usize>n);
  let cols = 0;
  let rows = 0;
  for (let i = 0; i < n; i++) {
    const x = <i32>Math.floor(centre(i, swapped) / sizeX);
    const y = <i32>Math.floor(centre(i, !swapped) / sizeY);
    store<i32>(cellsAt + 8 * <usize>i, x);
    store<i32>(cellsAt + 8 * <usize>i, y, 4);
    cols = max(cols, x);
    rows = max(rows, y);
  }
  bucketCols = cols + 1;
  bucketRows = rows + 1;
  const buckets = <usize>bucketCols * <usize>bucketRows;
  startsAt = cellsAt + 8 * <usize>n;
  const nextAt = startsAt + 4 * (buckets + 1);
  membersAt = nextAt + 4 * buckets;
  resultAt = (membersAt + 4 * <usize>n + 15) & ~15;
  reserve(resultAt + 8 * <usize>n);
  memory.fill(startsAt, 0, 4 * (buckets + 1));
  for (let i = 0; i < n; i++) {
    const k = startsAt + 4 * <usize>(bucketY(i) * bucketCols + bucketX(i) + 1);
    store<i32>(k, load<i32>(k) + 1);
  }
  for (let k: usize = 0; k < buckets; k++)
    store<i32>(startsAt + 4 * (k + 1), load<i32>(startsAt + 4 * (k + 1)) + load<i32>(startsAt + 4 * k));
  memory.copy(nextAt, startsAt, 4 * buckets);
  for (let i = 0; i < n; i++) {
    const k = nextAt + 4 * <usize>(bucketY(i) * bucketCols + bucketX(i));
    const m = load<i32>(k);
    store<i32>(membersAt + 4 * <usize>m, i);
    store<i32>(k, m + 1);
  }
}

/**
 * Each outline's gap to the nearest outline after it along the axis (y when `alongY`), on about its line, where
 * under 1.9 sides (locate/locate.ts's `nearestGap` uses them); returns how many, written (f64) at `resultsAt()`.
 */
export function gapsToNext(alongY: bool, side: f64): i32 {
  bucketOutlines(alongY, side, side);
  let count = 0;
  for (let i = 0; i < outlineCount; i++) {
    let gap = Infinity;
    const along = centre(i, alongY);
    const across = centre(i, !alongY);
    const ka = bucketX(i);
    const kb = bucketY(i);
    for (let x = ka; x <= min(bucketCols - 1, ka + 2); x++) {
      for (let y = max(0, kb - 1); y <= min(bucketRows - 1, kb + 1); y++) {
        for (let m = bucketStart(x, y); m < bucketEnd(x, y); m++) {
          const j = member(m);
          const d = centre(j, alongY) - along;
          if (d > 0.6 * side && d < gap && Math.abs(centre(j, !alongY) - across) < side / 3) gap = d;
        }
      }
    }
    if (gap < 1.9 * side) {
      store<f64>(resultAt + 8 * <usize>count, gap);
      count++;
    }
  }
  return count;
}

/** Where `gapsToNext` and `linked` wrote their results. */
export function resultsAt(): usize {
  return resultAt;
}

/**
 * The union–find forest (i32 parents, at `resultsAt()`) of the outlines, each joined to those on its lattice up to
 * `link` buckets of a pitch away, in turn, with common/unionfind.ts's path compression (locate/locate.ts's
 * `lattices` uses it).
 */
export function linked(pitchX: f64, pitchY: f64, link: i32): void {
  bucketOutlines(false, pitchX, pitchY);
  for (let i = 0; i < outlineCount; i++) store<i32>(resultAt + 4 * <usize>i, i);
  for (let i = 0; i < outlineCount; i++) {
    const bx = bucketX(i);
    const by = bucketY(i);
    for (let y = by; y <= min(bucketRows - 1, by + link); y++) {
      for (let x = y == by ? bx : max(0, bx - link); x <= min(bucketCols - 1, bx + link); x++) {
        const same = y == by && x == bx;
        for (let m = bucketStart(x, y); m < bucketEnd(x, y); m++) {
          const j = member(m);
          if ((!same || j > i) && rootOf(i) != rootOf(j) && onLattice(i, j, pitchX, pitchY)) {
            const rj = rootOf(j);
            store<i32>(resultAt + 4 * <usize>rj, rootOf(i));
          }
        }
      }
    }
  }
}

/** common/unionfind.ts's `root`: every parent on the way set to the root. */
function rootOf(i: i32): i32 {
  let root = i;
  while (load<i32>(resultAt + 4 * <usize>root) != root) root = load<i32>(resultAt + 4 * <usize>root);
  while (i != root) {
    const up = load<i32>(resultAt + 4 * <usize>i);
    store<i32>(resultAt + 4 * <usize>i, root);
    i = up;
  }
  return root;
}

function onLattice(a: i32, b: i32, pitchX: f64, pitchY: f64): bool {
  const fx = (centre(b, false) - centre(a, false)) / pitchX;
  const fy = (centre(b, true) - centre(a, true)) / pitchY;
  return Math.abs(fx - Math.round(fx)) < 0.2 && Math.abs(fy - Math.round(fy)) < 0.2;
}

/**
 * The axis fit of the outlines written at `outlinesInput` (locate/grid.ts's `fitGrid`): their centres across x (or
 * y, `alongY`) on a lattice c = origin + pitch × (k + 0.5) for whole k, by least squares, from those near the
 * middle outwards (a reach of 4 pitches, doubled each round until it spans them all), centres a quarter of a pitch
 * or more off the lattice dropped. Writes the origin of the first cell, the pitch and the count of cells (f64
 * each) at `resultsAt()`.
 */
export function fitAxis(alongY: bool, pitchGuess: f64): void {
  const n = outlineCount;
  const sorted = (outlinesAt + <usize>n * SQUARE + 7) & ~7;
  let points = sorted + 8 * <usize>n;
  let kept = points + 8 * <usize>n;
  const window = kept + 8 * <usize>n;
  const ks = window + 8 * <usize>n;
  resultAt = ks + 8 * <usize>n;
  reserve(resultAt + 24);
  if (n == 0) {
    store<f64>(resultAt, NaN);
    store<f64>(resultAt, NaN, 8);
    store<f64>(resultAt, NaN, 16);
    return;
  }
  for (let i = 0; i < n; i++) store<f64>(sorted + 8 * <usize>i, centre(i, alongY));
  heapSort(sorted, n);
  memory.copy(points, sorted, 8 * <usize>n);
  let count = n;
  let pitch = pitchGuess;
  const middle = load<f64>(sorted + 8 * <usize>(n >> 1));
  const span = load<f64>(sorted + 8 * <usize>(n - 1)) - load<f64>(sorted);
  let origin = middle - pitch / 2;
  for (let reach = 4 * pitch; ; reach *= 2) {
    let w = 0;
    for (let i = 0; i < count; i++) {
      const c = load<f64>(points + 8 * <usize>i);
      if (abs<f64>(c - middle) <= reach) store<f64>(window + 8 * <usize>(w++), c);
    }
    // at least two cells among them (as a set of numbers: NaN is one)
    let distinct = false;
    for (let i = 0; i < w; i++) {
      const k = Math.round((load<f64>(window + 8 * <usize>i) - origin) / pitch - 0.5);
      store<f64>(ks + 8 * <usize>i, k);
      const first = load<f64>(ks);
      if (k != first && !(isNaN(k) && isNaN(first))) distinct = true;
    }
    if (distinct) {
      let sumK: f64 = 0;
      let sumV: f64 = 0;
      for (let i = 0; i < w; i++) sumK += load<f64>(ks + 8 * <usize>i);
      for (let i = 0; i < w; i++) sumV += load<f64>(window + 8 * <usize>i);
      const mk = sumK / <f64>w;
      const mv = sumV / <f64>w;
      let num: f64 = 0;
      let den: f64 = 0;
      for (let i = 0; i < w; i++) {
        const dk = load<f64>(ks + 8 * <usize>i) - mk;
        num += dk * (load<f64>(window + 8 * <usize>i) - mv);
        den += dk * dk;
      }
      pitch = den > 0 ? num / den : 1;
      origin = mv - pitch * (mk + 0.5);
    }
    let m = 0;
    for (let i = 0; i < count; i++) {
      const c = load<f64>(points + 8 * <usize>i);
      const f = (c - origin) / pitch - 0.5;
      if (abs<f64>(c - middle) > reach || abs<f64>(f - Math.round(f)) < 0.25) store<f64>(kept + 8 * <usize>(m++), c);
    }
    const swap = points;
    points = kept;
    kept = swap;
    const same = w == m;
    count = m;
    if (same && reach > span) break;
  }
  let kMin = Infinity;
  let kMax = -Infinity;
  for (let i = 0; i < count; i++) {
    const k = Math.round((load<f64>(points + 8 * <usize>i) - origin) / pitch - 0.5);
    kMin = min(kMin, k);
    kMax = max(kMax, k);
  }
  store<f64>(resultAt, origin + kMin * pitch);
  store<f64>(resultAt, pitch, 8);
  store<f64>(resultAt, kMax - kMin + 1, 16);
}

/** The n f64s at `at` in ascending order. */
function heapSort(at: usize, n: i32): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(at, i, n);
  for (let end = n - 1; end > 0; end--) {
    const top = load<f64>(at);
    store<f64>(at, load<f64>(at + 8 * <usize>end));
    store<f64>(at + 8 * <usize>end, top);
    siftDown(at, 0, end);
  }
}

function siftDown(at: usize, i: i32, n: i32): void {
  const value = load<f64>(at + 8 * <usize>i);
  for (;;) {
    let child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && load<f64>(at + 8 * <usize>(child + 1)) > load<f64>(at + 8 * <usize>child)) child++;
    if (!(load<f64>(at + 8 * <usize>child) > value)) break;
    store<f64>(at + 8 * <usize>i, load<f64>(at + 8 * <usize>child));
    i = child;
  }
  store<f64>(at + 8 * <usize>i, value);
}
