import type { Grid, RgbaImage } from './types';

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
  const x0 = grid.left + (col + inset) * grid.pitchX;
  const y0 = grid.top + (row + inset) * grid.pitchY;
  const w = grid.pitchX * (1 - 2 * inset);
  const h = grid.pitchY * (1 - 2 * inset);
  const rgb = new Float32Array(size * size * 3);
  const xs = spans(x0, w / size, size, image.width);
  const ys = spans(y0, h / size, size, image.height);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) averageInto(image, xs[i], ys[j], rgb, (j * size + i) * 3);
  }
  return { size, rgb };
}

/** The whole image as one cell: how templates are sampled. */
export function wholeGrid(image: RgbaImage): Grid {
  return { rows: 1, cols: 1, left: 0, top: 0, pitchX: image.width, pitchY: image.height };
}

type Span = [from: number, to: number];

function spans(start: number, step: number, count: number, limit: number): Span[] {
  const out: Span[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.min(Math.max(start + i * step, 0), limit);
    const to = Math.min(Math.max(start + (i + 1) * step, from), limit);
    out.push([from, to]);
  }
  return out;
}

function averageInto(image: RgbaImage, [x0, x1]: Span, [y0, y1]: Span, out: Float32Array, at: number): void {
  let r = 0;
  let g = 0;
  let b = 0;
  let weight = 0;
  for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
    const wy = Math.min(y + 1, y1) - Math.max(y, y0);
    for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
      const w = wy * (Math.min(x + 1, x1) - Math.max(x, x0));
      const p = (y * image.width + x) * 4;
      r += w * image.data[p];
      g += w * image.data[p + 1];
      b += w * image.data[p + 2];
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
  return Math.sqrt(sum / a.rgb.length);
}
