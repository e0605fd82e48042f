// A font glyph's coverage drawn onto whole pixels at another scale, the way image tools resample (typeset.ts).
import type { FontGlyph } from './types';
import { KERNELS, type Kernel } from './resampled';

const { ceil, floor, min, round } = Math;

/** Glyphs are drawn at their place to 1/PHASES of a pixel. */
const PHASES = 8;

/** Coverage on whole pixels: `values` is width × height, its first pixel at (left, top). */
export interface Drawn {
  left: number;
  top: number;
  width: number;
  height: number;
  values: Float32Array;
}

const cache = new WeakMap<FontGlyph, Map<number, Drawn>>();

/** The glyph, scaled by s with KERNELS[kernel], its image's top-left corner at (x, y). */
export function drawGlyph(glyph: FontGlyph, s: number, kernel: number, x: number, y: number): Drawn {
  let [ix, iy] = [floor(x), floor(y)];
  let [qx, qy] = [round((x - ix) * PHASES), round((y - iy) * PHASES)];
  if (qx === PHASES) [ix, qx] = [ix + 1, 0];
  if (qy === PHASES) [iy, qy] = [iy + 1, 0];
  let drawings = cache.get(glyph);
  if (!drawings) cache.set(glyph, (drawings = new Map()));
  const key = ((round(s * 10000) * KERNELS.length + kernel) * PHASES + qx) * PHASES + qy;
  let d = drawings.get(key);
  if (!d) drawings.set(key, (d = drawAt(glyph, s, KERNELS[kernel], qx / PHASES, qy / PHASES)));
  return { ...d, left: d.left + ix, top: d.top + iy };
}

/** Drawn with its corner `fx`, `fy` past pixel (0, 0): each pixel the kernel-weighted coverage around its centre. */
function drawAt(glyph: FontGlyph, s: number, kernel: Kernel, fx: number, fy: number): Drawn {
  const across = taps(glyph.width, s, fx, kernel);
  const down = taps(glyph.height, s, fy, kernel);
  const [width, height] = [across.weights.length, down.weights.length];
  const rows = new Float32Array(glyph.height * width);
  for (let v = 0; v < glyph.height; v++) {
    for (let i = 0; i < width; i++) {
      for (const [u, w] of across.weights[i]) rows[v * width + i] += w * glyph.coverage[v * glyph.width + u];
    }
  }
  const values = new Float32Array(width * height);
  for (let j = 0; j < height; j++) {
    for (const [v, w] of down.weights[j]) {
      for (let i = 0; i < width; i++) values[j * width + i] += w * rows[v * width + i];
    }
  }
  return { left: across.from, top: down.from, width, height, values };
}

/**
 * Along one axis: the pixels a source of n pixels covers, scaled by s and starting f past pixel 0, and for
 * each the source pixels the kernel weighs (normalised over all pixels, beyond the source too: no ink there).
 */
function taps(n: number, s: number, f: number, kernel: Kernel): { from: number; weights: [number, number][][] } {
  const stretch = min(1, s);
  const reach = kernel.radius / stretch;
  const from = floor(f - reach * s);
  const to = ceil(f + (n + reach) * s);
  const weights: [number, number][][] = [];
  for (let i = from; i < to; i++) {
    const centre = (i + 0.5 - f) / s;
    const list: [number, number][] = [];
    let total = 0;
    for (let u = floor(centre - reach); u <= ceil(centre + reach); u++) {
      const w = kernel.weight((u + 0.5 - centre) * stretch);
      total += w;
      if (w && u >= 0 && u < n) list.push([u, w]);
    }
    weights.push(list.map(([u, w]) => [u, w / total]));
  }
  return { from, weights };
}
