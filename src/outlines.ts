// Square outlines without OpenCV: the flat regions of two binary images (edges, a local threshold), each
// region's bounding box kept when it is square and the region fills most of it. A cell's inside is such a
// region whether its border is a grid line, a bevel or a gap. (Edges thickened by a pixel, OpenCV's third
// image, read 12 more of 26 598 fixture cells at 50 %, 2 at 100 %, none at 250 %, for a third more time.)
import type { Rect, RgbaImage } from './types';

// Math's functions as module constants: under jest every lookup of the global Math costs ~100 ns.
const { abs, max, min } = Math;

export interface SquareLimits {
  minSide: number;
  maxSide: number;
}

/** Every square, mostly filled region of the binary images (as OpenCV's contours would give them). */
export function squareRegions(image: RgbaImage, limits: SquareLimits): Rect[] {
  const { width, height } = image;
  const gray = grayOf(image);
  return [edgeMask(gray, width, height), localThreshold(gray, width, height)]
    .flatMap((mask) => squaresOf(mask, width, height, limits));
}

function grayOf(image: RgbaImage): Uint8Array {
  const { data } = image;
  const gray = new Uint8Array(image.width * image.height);
  for (let i = 0, p = 0; i < gray.length; i++, p += 4) gray[i] = (77 * data[p] + 150 * data[p + 1] + 29 * data[p + 2]) >> 8;
  return gray;
}

/** A step of this much (0–255) between neighbours makes both edge pixels (OpenCV's Canny at 20/60 ≈ 5/15). */
const EDGE_STEP = 10;

function edgeMask(gray: Uint8Array, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(gray.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const g = gray[i];
      if (x > 0 && abs(g - gray[i - 1]) >= EDGE_STEP) mask[i] = mask[i - 1] = 1;
      if (y > 0 && abs(g - gray[i - width]) >= EDGE_STEP) mask[i] = mask[i - width] = 1;
    }
  }
  return mask;
}

/** Brighter than the mean of its 15×15 neighbourhood less 2 (OpenCV's adaptive mean threshold, block 15, C 2). */
function localThreshold(gray: Uint8Array, width: number, height: number): Uint8Array {
  const sums = summedArea(gray, width, height);
  const stride = width + 1;
  const mask = new Uint8Array(gray.length);
  const r = 7;
  for (let y = 0; y < height; y++) {
    const y0 = (y > r ? y - r : 0) * stride;
    const y1 = (y + r + 1 < height ? y + r + 1 : height) * stride;
    const rows = (y1 - y0) / stride;
    for (let x = 0; x < width; x++) {
      const x0 = x > r ? x - r : 0;
      const x1 = x + r + 1 < width ? x + r + 1 : width;
      const area = rows * (x1 - x0);
      const total = sums[y1 + x1] - sums[y0 + x1] - sums[y1 + x0] + sums[y0 + x0];
      mask[y * width + x] = gray[y * width + x] * area > total - 2 * area ? 1 : 0;
    }
  }
  return mask;
}

/** Sums over every rectangle from the origin ((width + 1) × (height + 1), a zero row and column first). */
function summedArea(gray: Uint8Array, width: number, height: number): Int32Array {
  const stride = width + 1;
  const sums = new Int32Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    const from = y * stride + 1;
    const to = (y + 1) * stride + 1;
    for (let x = 0; x < width; x++) {
      row += gray[y * width + x];
      sums[to + x] = sums[from + x] + row;
    }
  }
  return sums;
}

/**
 * Regions of equal mask value (4-connected): each row cut into runs of one value, runs of one value that
 * overlap in neighbouring rows joined (union–find over runs), then each region's bounding box and size.
 * One loop to a function: run once per image, each is compiled while it runs (on-stack replacement), and a
 * later loop of the same function, never run when it was compiled, would throw that code away.
 */
function squaresOf(mask: Uint8Array, width: number, height: number, limits: SquareLimits): Rect[] {
  const runs = runsOf(mask, width, height);
  const parent = joinedRuns(runs, height);
  return squaresIn(regionBoxes(runs, parent, height), limits);
}

interface Runs {
  count: number;
  start: Int32Array;
  end: Int32Array;
  value: Uint8Array;
  rowStart: Int32Array;
}

/** Runs of one value along each row: [start, end) and value; row y's runs are rowStart[y] to rowStart[y + 1]. */
function runsOf(mask: Uint8Array, width: number, height: number): Runs {
  let capacity = 1024;
  let start: Int32Array = new Int32Array(capacity);
  let end: Int32Array = new Int32Array(capacity);
  let value: Uint8Array = new Uint8Array(capacity);
  const rowStart = new Int32Array(height + 1);
  let count = 0;
  for (let y = 0; y < height; y++) {
    rowStart[y] = count;
    const row = y * width;
    for (let x = 0; x < width; ) {
      const v = mask[row + x];
      let to = x + 1;
      while (to < width && mask[row + to] === v) to++;
      if (count === capacity) {
        capacity *= 2;
        start = grownInts(start, capacity);
        end = grownInts(end, capacity);
        value = grownBytes(value, capacity);
      }
      start[count] = x;
      end[count] = to;
      value[count] = v;
      count++;
      x = to;
    }
  }
  rowStart[height] = count;
  return { count, start, end, value, rowStart };
}

function grownInts(array: Int32Array, capacity: number): Int32Array {
  const bigger = new Int32Array(capacity);
  bigger.set(array);
  return bigger;
}

function grownBytes(array: Uint8Array, capacity: number): Uint8Array {
  const bigger = new Uint8Array(capacity);
  bigger.set(array);
  return bigger;
}

/** Each run's representative in the union–find forest: runs of one value overlapping in neighbouring rows joined. */
function joinedRuns(runs: Runs, height: number): Int32Array {
  const { count, start, end, value, rowStart } = runs;
  const parent = new Int32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  for (let y = 1; y < height; y++) {
    let a = rowStart[y - 1];
    let b = rowStart[y];
    const aEnd = rowStart[y];
    const bEnd = rowStart[y + 1];
    while (a < aEnd && b < bEnd) {
      if (value[a] === value[b] && start[a] < end[b] && start[b] < end[a]) {
        const ra = find(parent, a);
        const rb = find(parent, b);
        if (ra !== rb) parent[max(ra, rb)] = min(ra, rb);
      }
      if (end[a] < end[b]) a++;
      else b++;
    }
  }
  return parent;
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) i = parent[i] = parent[parent[i]];
  return i;
}

interface Boxes {
  left: Int32Array;
  top: Int32Array;
  right: Int32Array;
  bottom: Int32Array;
  /** Pixels in the region (0: not a region's root). */
  size: Int32Array;
}

/** Each region's bounding box and pixel count, kept at its root run. */
function regionBoxes(runs: Runs, parent: Int32Array, height: number): Boxes {
  const { count, start, end, rowStart } = runs;
  const [left, top, right, bottom, size] = [new Int32Array(count), new Int32Array(count), new Int32Array(count), new Int32Array(count), new Int32Array(count)];
  for (let y = 0; y < height; y++) {
    for (let i = rowStart[y]; i < rowStart[y + 1]; i++) {
      const root = find(parent, i);
      if (size[root] === 0) {
        left[root] = start[i];
        right[root] = end[i];
        top[root] = y;
      }
      if (start[i] < left[root]) left[root] = start[i];
      if (end[i] > right[root]) right[root] = end[i];
      bottom[root] = y;
      size[root] += end[i] - start[i];
    }
  }
  return { left, top, right, bottom, size };
}

/** The regions whose bounding box is square, of a cell's size, and mostly filled. */
function squaresIn({ left, top, right, bottom, size }: Boxes, limits: SquareLimits): Rect[] {
  const found: Rect[] = [];
  for (let root = 0; root < size.length; root++) {
    if (!size[root]) continue;
    const w = right[root] - left[root];
    const h = bottom[root] - top[root] + 1;
    const ratio = w / h;
    const square = w >= limits.minSide && h >= limits.minSide && w <= limits.maxSide && h <= limits.maxSide && ratio > 0.75 && ratio < 1.33;
    if (square && size[root] >= 0.5 * w * h) found.push({ left: left[root], top: top[root], width: w, height: h });
  }
  return found;
}
