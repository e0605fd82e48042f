// A cell's pixels as a small fixed-size patch, and distances between patches: what templates are matched on.
import type { Grid, RgbaImage } from './types';
import { cellLeft, cellTop } from './pixels';

// Math's functions as module constants: under jest every lookup of the global Math costs ~100 ns.
const { ceil, floor, min, sqrt } = Math;

/** A cell's pixels, RGB as floats, `size`×`size`, resampled by area averaging. */
export interface Patch {
  size: number;
  rgb: Float32Array;
}

/**
 * Samples cell (row, col) of the grid, trimmed by `inset` (a fraction of the pitch) on each side, into a
 * size×size patch. Each output pixel averages the source area it covers, edge pixels weighted by the part
 * covered, so shrinking never aliases. Separable: each source row is summed over every column's span, then
 * each output row weighs the source rows it covers. Written into `into` when given (of the patch's length).
 */
export function cellPatch(image: RgbaImage, grid: Grid, row: number, col: number, inset: number, size: number, into?: Float32Array): Patch {
  const xs = spans(X_SPANS, cellLeft(grid, col) + inset * grid.pitchX, (grid.pitchX * (1 - 2 * inset)) / size, size, image.width);
  const ys = spans(Y_SPANS, cellTop(grid, row) + inset * grid.pitchY, (grid.pitchY * (1 - 2 * inset)) / size, size, image.height);
  const yFrom = floor(ys[0]);
  const across = rowsAcross(image, xs, yFrom, ceil(ys[2 * size - 1]), size);
  const line = size * 3;
  const total = scratch(TOTAL, line);
  const rgb = into && into.length === size * line ? into : new Float32Array(size * line);
  for (let j = 0; j < size; j++) {
    const from = ys[2 * j];
    const to = ys[2 * j + 1];
    total.fill(0, 0, line);
    let rows = 0;
    for (let y = floor(from); y < to; y++) {
      const wy = (y + 1 < to ? y + 1 : to) - (y > from ? y : from);
      const base = (y - yFrom) * line;
      for (let k = 0; k < line; k++) total[k] += wy * across[base + k];
      rows += wy;
    }
    for (let i = 0; i < size; i++) {
      const weight = rows * (xs[2 * i + 1] - xs[2 * i]);
      const k = weight > 0 ? 1 / weight : 0;
      const at = j * line + i * 3;
      rgb[at] = total[i * 3] * k;
      rgb[at + 1] = total[i * 3 + 1] * k;
      rgb[at + 2] = total[i * 3 + 2] * k;
    }
  }
  return { size, rgb };
}

/** Each source row in [yFrom, yTo) summed over each column's span (weighted by the part covered), RGB per column. */
function rowsAcross(image: RgbaImage, xs: Float64Array, yFrom: number, yTo: number, size: number): Float64Array {
  const { data, width } = image;
  const line = size * 3;
  const across = scratch(ACROSS, (yTo - yFrom) * line);
  for (let y = yFrom; y < yTo; y++) {
    const pixels = y * width * 4;
    const base = (y - yFrom) * line;
    for (let i = 0; i < size; i++) {
      const from = xs[2 * i];
      const to = xs[2 * i + 1];
      let r = 0;
      let g = 0;
      let b = 0;
      for (let x = floor(from); x < to; x++) {
        const w = (x + 1 < to ? x + 1 : to) - (x > from ? x : from);
        const p = pixels + x * 4;
        r += w * data[p];
        g += w * data[p + 1];
        b += w * data[p + 2];
      }
      across[base + i * 3] = r;
      across[base + i * 3 + 1] = g;
      across[base + i * 3 + 2] = b;
    }
  }
  return across;
}

/** Where each of `count` steps starts and ends, clamped to [0, limit]: from, to, from, to, … (into `out`). */
function spans(out: { buffer: Float64Array }, start: number, step: number, count: number, limit: number): Float64Array {
  const values = scratch(out, 2 * count);
  for (let i = 0; i < count; i++) {
    const from = min(start + i * step > 0 ? start + i * step : 0, limit);
    const to = min(start + (i + 1) * step, limit);
    values[2 * i] = from;
    values[2 * i + 1] = to > from ? to : from;
  }
  return values;
}

/** Reused work buffers (a patch is built thousands of times per screenshot). */
const X_SPANS = { buffer: new Float64Array(0) };
const Y_SPANS = { buffer: new Float64Array(0) };
const ACROSS = { buffer: new Float64Array(0) };
const TOTAL = { buffer: new Float64Array(0) };
function scratch(holder: { buffer: Float64Array }, length: number): Float64Array {
  if (holder.buffer.length < length) holder.buffer = new Float64Array(length);
  return holder.buffer;
}

/** Root-mean-square difference per channel, on the 0-255 scale. */
export function rmsDistance(a: Patch, b: Patch): number {
  let sum = 0;
  for (let i = 0; i < a.rgb.length; i++) {
    const d = a.rgb[i] - b.rgb[i];
    sum += d * d;
  }
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
  const [x, y] = [a.rgb, b.rgb];
  let sum = 0;
  for (let start = 0; start < n; start += row) {
    const end = start + row;
    for (let i = start; i < end; i++) {
      const d = x[i] - y[i];
      sum += d * d;
    }
    if (sum > most) return Infinity;
  }
  return sqrt(sum / n);
}

/** Blocks per side of a patch's coarse view. */
const BLOCKS = 4;

/**
 * A patch's coarse view: the mean of each channel over BLOCKS×BLOCKS blocks, times the square root of the
 * block's pixel count, so that the squared distance between two coarse views never exceeds the summed
 * squared distance between the patches (each block's pixels differ at least by their means' difference).
 * Written into `into` when given (of the view's length).
 */
export function coarseOf(patch: Patch, into?: Float64Array): Float64Array {
  const { size, rgb } = patch;
  const blocks = min(BLOCKS, size);
  const out = into && into.length === blocks * blocks * 3 ? into : new Float64Array(blocks * blocks * 3);
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

/** A lower bound of the RMS distance between two patches of one size, from their coarse views alone. */
export function coarseDistance(a: Float64Array, b: Float64Array, size: number): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    sum += d * d;
  }
  return sqrt(sum / (size * size * 3));
}
