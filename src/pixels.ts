import type { Grid, RgbaImage } from './types';

// Math's functions as module constants: under jest every lookup of the global Math costs ~100 ns.
const { ceil, floor, max, min, round, sqrt } = Math;

/** A cell's pixels, RGB as floats, `size`×`size`, resampled by area averaging. */
export interface Patch {
  size: number;
  rgb: Float32Array;
}

/**
 * Samples cell (row, col) of the grid, trimmed by `inset` (a fraction of the pitch) on each side, into a
 * size×size patch. Each output pixel averages the source area it covers, so shrinking never aliases.
 */
export function cellPatch(image: RgbaImage, grid: Grid, row: number, col: number, inset: number, size: number): Patch {
  const x0 = cellLeft(grid, col) + inset * grid.pitchX;
  const y0 = cellTop(grid, row) + inset * grid.pitchY;
  const w = grid.pitchX * (1 - 2 * inset);
  const h = grid.pitchY * (1 - 2 * inset);
  const xs = spans(x0, w / size, size, image.width);
  const ys = spans(y0, h / size, size, image.height);
  const sums = rowSums(image);
  if (sums) return patchFromSums(sums, image.width, xs, ys, size);
  const rgb = new Float32Array(size * size * 3);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) averageInto(image, xs[2 * i], xs[2 * i + 1], ys[2 * j], ys[2 * j + 1], rgb, (j * size + i) * 3);
  }
  return { size, rgb };
}

/** Left edge of a column, and top edge of a row: the grid's own edges when it has them. */
export const cellLeft = (grid: Grid, col: number): number => grid.lefts?.[col] ?? grid.left + col * grid.pitchX;
export const cellTop = (grid: Grid, row: number): number => grid.tops?.[row] ?? grid.top + row * grid.pitchY;

/** The grid's outer edges in the image: its first column's left, its last column's right, and so on. */
export function gridEdges(grid: Grid): { left: number; top: number; right: number; bottom: number } {
  return { left: cellLeft(grid, 0), top: cellTop(grid, 0), right: cellLeft(grid, grid.cols - 1) + grid.pitchX, bottom: cellTop(grid, grid.rows - 1) + grid.pitchY };
}

/** The grid moved by (dx, dy) pixels. */
export function shiftGrid(grid: Grid, dx: number, dy: number): Grid {
  const moved: Grid = { ...grid, left: grid.left + dx, top: grid.top + dy };
  if (grid.lefts) moved.lefts = grid.lefts.map((x) => x + dx);
  if (grid.tops) moved.tops = grid.tops.map((y) => y + dy);
  return moved;
}

/** The whole image as one cell: how templates are sampled. */
export function wholeGrid(image: RgbaImage): Grid {
  return { rows: 1, cols: 1, left: 0, top: 0, pitchX: image.width, pitchY: image.height };
}

/** Where each of `count` steps starts and ends, clamped to [0, limit]: from, to, from, to, … */
function spans(start: number, step: number, count: number, limit: number): Float64Array {
  const out = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) {
    const from = min(max(start + i * step, 0), limit);
    out[2 * i] = from;
    out[2 * i + 1] = min(max(start + (i + 1) * step, from), limit);
  }
  return out;
}

/**
 * Running sums along each row, per channel ((width + 1) per row): the sum over any span of a row, fractional
 * ends included, is two lookups, so a patch costs its rows, not its pixels. Whole values up to 2^24 are
 * exact in float32 (a row of 65 000 white pixels). Kept per image; null for huge images (memory).
 */
function rowSums(image: RgbaImage): Float32Array | null {
  const cached = sumsCache.get(image);
  if (cached !== undefined || image.width * image.height > MAX_SUMMED || image.width > 65_000) return cached ?? null;
  const { width, height, data } = image;
  const sums = new Float32Array((width + 1) * height * 3);
  for (let y = 0; y < height; y++) {
    let r = 0;
    let g = 0;
    let b = 0;
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const q = (y * (width + 1) + x + 1) * 3;
      sums[q] = r += data[p];
      sums[q + 1] = g += data[p + 1];
      sums[q + 2] = b += data[p + 2];
    }
  }
  sumsCache.set(image, sums);
  return sums;
}

const sumsCache = new WeakMap<RgbaImage, Float32Array>();
const MAX_SUMMED = 16_000_000;

/**
 * Like averageInto for every pixel of the patch, from the row sums, in two passes: each column's span on
 * each source row once (the difference of two interpolated sums), then each output row's weighted rows.
 */
function patchFromSums(sums: Float32Array, width: number, xs: Float64Array, ys: Float64Array, size: number): Patch {
  const rgb = new Float32Array(size * size * 3);
  const yFrom = floor(ys[0]);
  const yTo = ceil(ys[2 * size - 1]);
  const stride = (width + 1) * 3;
  const row = size * 3;
  const spanSums = scratch(max(0, yTo - yFrom) * row);
  for (let y = yFrom; y < yTo; y++) {
    const base = (y - yFrom) * row;
    for (let i = 0; i < size; i++) {
      const x0 = xs[2 * i];
      const x1 = xs[2 * i + 1];
      const i0 = floor(x0);
      const i1 = floor(x1);
      const f0 = x0 - i0;
      const f1 = x1 - i1;
      const a = y * stride + i0 * 3;
      const c = y * stride + i1 * 3;
      const an = i0 < width ? a + 3 : a;
      const cn = i1 < width ? c + 3 : c;
      const at = base + i * 3;
      spanSums[at] = sums[c] + f1 * (sums[cn] - sums[c]) - sums[a] - f0 * (sums[an] - sums[a]);
      spanSums[at + 1] = sums[c + 1] + f1 * (sums[cn + 1] - sums[c + 1]) - sums[a + 1] - f0 * (sums[an + 1] - sums[a + 1]);
      spanSums[at + 2] = sums[c + 2] + f1 * (sums[cn + 2] - sums[c + 2]) - sums[a + 2] - f0 * (sums[an + 2] - sums[a + 2]);
    }
  }
  const total = scratchRow(row);
  for (let j = 0; j < size; j++) {
    const y0 = ys[2 * j];
    const y1 = ys[2 * j + 1];
    total.fill(0);
    let rows = 0;
    for (let y = floor(y0); y < ceil(y1); y++) {
      const wy = (y + 1 < y1 ? y + 1 : y1) - (y > y0 ? y : y0);
      const base = (y - yFrom) * row;
      for (let k = 0; k < row; k++) total[k] += wy * spanSums[base + k];
      rows += wy;
    }
    for (let i = 0; i < size; i++) {
      const weight = rows * (xs[2 * i + 1] - xs[2 * i]);
      const k = weight > 0 ? 1 / weight : 0;
      const at = (j * size + i) * 3;
      rgb[at] = total[i * 3] * k;
      rgb[at + 1] = total[i * 3 + 1] * k;
      rgb[at + 2] = total[i * 3 + 2] * k;
    }
  }
  return { size, rgb };
}

/** Reused work buffers of patchFromSums (a patch is built thousands of times per screenshot). */
let spanBuffer = new Float64Array(0);
let rowBuffer = new Float64Array(0);
function scratch(length: number): Float64Array {
  if (spanBuffer.length < length) spanBuffer = new Float64Array(length);
  return spanBuffer;
}
function scratchRow(length: number): Float64Array {
  if (rowBuffer.length < length) rowBuffer = new Float64Array(length);
  return rowBuffer;
}

/** Weighted sum over the pixels the span covers (for images too large to keep row sums of). */
function averageInto(image: RgbaImage, x0: number, x1: number, y0: number, y1: number, out: Float32Array, at: number): void {
  const data = image.data;
  const width = image.width;
  const xFrom = floor(x0);
  const xTo = ceil(x1);
  const yFrom = floor(y0);
  const yTo = ceil(y1);
  let r = 0;
  let g = 0;
  let b = 0;
  let weight = 0;
  for (let y = yFrom; y < yTo; y++) {
    const wy = (y + 1 < y1 ? y + 1 : y1) - (y > y0 ? y : y0);
    for (let x = xFrom; x < xTo; x++) {
      const w = wy * ((x + 1 < x1 ? x + 1 : x1) - (x > x0 ? x : x0));
      const p = (y * width + x) * 4;
      r += w * data[p];
      g += w * data[p + 1];
      b += w * data[p + 2];
      weight += w;
    }
  }
  const k = weight > 0 ? 1 / weight : 0;
  out[at] = r * k;
  out[at + 1] = g * k;
  out[at + 2] = b * k;
}

/** Root-mean-square difference per channel, on the 0-255 scale. */
export function rmsDistance(a: Patch, b: Patch): number {
  let sum = 0;
  for (let i = 0; i < a.rgb.length; i++) sum += (a.rgb[i] - b.rgb[i]) ** 2;
  return sqrt(sum / a.rgb.length);
}

/**
 * rmsDistance when it is at most `limit`; past that, some value over `limit` (the sum stops growing
 * once it passes the limit, checked every row of pixels).
 */
export function rmsDistanceWithin(a: Patch, b: Patch, limit: number): number {
  const n = a.rgb.length;
  const most = limit * limit * n;
  const row = 3 * a.size;
  let sum = 0;
  for (let start = 0; start < n; start += row) {
    const end = start + row;
    for (let i = start; i < end; i++) sum += (a.rgb[i] - b.rgb[i]) ** 2;
    if (sum > most) return Infinity;
  }
  return sqrt(sum / n);
}

/** The image shrunk by a whole factor: each k×k block becomes its average. */
export function shrinkImage(image: RgbaImage, k: number): RgbaImage {
  const width = floor(image.width / k);
  const height = floor(image.height / k);
  const data = new Uint8Array(width * height * 4);
  const sums = new Float64Array(width * 4);
  const area = k * k;
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let dy = 0; dy < k; dy++) {
      const row = (y * k + dy) * image.width * 4;
      for (let x = 0; x < width * k; x++) {
        const at = (x / k | 0) * 4;
        const p = row + x * 4;
        sums[at] += image.data[p];
        sums[at + 1] += image.data[p + 1];
        sums[at + 2] += image.data[p + 2];
      }
    }
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      data[p] = round(sums[x * 4] / area);
      data[p + 1] = round(sums[x * 4 + 1] / area);
      data[p + 2] = round(sums[x * 4 + 2] / area);
      data[p + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Grid coordinates multiplied by `k` (from a shrunk image back to the original). */
export function scaleGrid(grid: Grid, k: number): Grid {
  const scaled: Grid = { ...grid, left: grid.left * k, top: grid.top * k, pitchX: grid.pitchX * k, pitchY: grid.pitchY * k };
  if (grid.lefts) scaled.lefts = grid.lefts.map((x) => x * k);
  if (grid.tops) scaled.tops = grid.tops.map((y) => y * k);
  return scaled;
}

/** Blocks per side of a patch's coarse view. */
const BLOCKS = 4;

/**
 * A patch's coarse view: the mean of each channel over BLOCKS×BLOCKS blocks, times the square root of the
 * block's pixel count, so that the squared distance between two coarse views never exceeds the summed
 * squared distance between the patches (each block's pixels differ at least by their means' difference).
 */
export function coarseOf(patch: Patch): Float64Array {
  const { size, rgb } = patch;
  const blocks = min(BLOCKS, size);
  const out = new Float64Array(blocks * blocks * 3);
  const edge = (k: number) => floor((k * size) / blocks);
  for (let by = 0; by < blocks; by++) {
    for (let bx = 0; bx < blocks; bx++) {
      const [x0, x1, y0, y1] = [edge(bx), edge(bx + 1), edge(by), edge(by + 1)];
      const at = (by * blocks + bx) * 3;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const p = (y * size + x) * 3;
          out[at] += rgb[p];
          out[at + 1] += rgb[p + 1];
          out[at + 2] += rgb[p + 2];
        }
      }
      const scale = 1 / sqrt((x1 - x0) * (y1 - y0));
      for (let c = 0; c < 3; c++) out[at + c] *= scale;
    }
  }
  return out;
}

/** A lower bound of the RMS distance between two patches of one size, from their coarse views alone. */
export function coarseDistance(a: Float64Array, b: Float64Array, size: number): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  return sqrt(sum / (size * size * 3));
}
