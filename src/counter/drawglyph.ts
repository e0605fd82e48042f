// A font glyph's coverage drawn onto whole pixels at another scale, the way image tools resample (typeset.ts).
import type { FontGlyph } from '../common/types';
import { KERNELS, type Kernel } from '../image/resample';

const { ceil, floor, min, round } = Math;

/** Glyphs are drawn at their place to 1/PHASES of a pixel. */
export const PHASES = 8;

/** Coverage on whole pixels: `values` is width × height, its first pixel at (left, top). */
export interface Drawn {
  left: number;
  top: number;
  width: number;
  height: number;
  values: Float32Array;
}

const cache = new WeakMap<FontGlyph, Map<number, Drawn>>();

/**
 * The glyph, scaled by s with KERNELS[kernel], its image's top-left corner at (x, y): the drawing is
 * shared, its `left` and `top` counted from pixel (pixelOf(x), pixelOf(y)).
 */
export function drawing(glyph: FontGlyph, s: number, kernel: number, x: number, y: number): Drawn {
  const [qx, qy] = [phaseOf(x), phaseOf(y)];
  let drawings = cache.get(glyph);
  if (!drawings) cache.set(glyph, (drawings = new Map()));
  const key = ((round(s * 10000) * KERNELS.length + kernel) * PHASES + qx) * PHASES + qy;
  let d = drawings.get(key);
  if (!d) drawings.set(key, (d = drawAt(glyph, s, KERNELS[kernel], qx / PHASES, qy / PHASES)));
  return d;
}

/** The whole pixel a place is drawn from: the one at or before it, or the next when it is within half a phase of it. */
export function pixelOf(v: number): number {
  const i = floor(v);
  return round((v - i) * PHASES) === PHASES ? i + 1 : i;
}

/** The phase (1/PHASES px) a place is drawn at. */
export function phaseOf(v: number): number {
  const q = round((v - floor(v)) * PHASES);
  return q === PHASES ? 0 : q;
}

/** Drawn with its corner `fx`, `fy` past pixel (0, 0): each pixel the kernel-weighted coverage around its centre. */
function drawAt(glyph: FontGlyph, s: number, kernel: Kernel, fx: number, fy: number): Drawn {
  const across = taps(glyph.width, s, fx, kernel);
  const down = taps(glyph.height, s, fy, kernel);
  const [width, height] = [across.starts.length - 1, down.starts.length - 1];
  const rows = acrossOf(glyph, s, kernel, fx, across);
  const values = new Float32Array(width * height);
  for (let j = 0; j < height; j++) {
    for (let t = down.starts[j]; t < down.starts[j + 1]; t++) {
      const [v, w] = [down.sources[t], down.weights[t]];
      for (let i = 0; i < width; i++) values[j * width + i] += w * rows[v * width + i];
    }
  }
  return { left: across.from, top: down.from, width, height, values };
}

/** The glyph's rows scaled across (the first of drawAt's passes, shared by the drawings at every phase down). */
function acrossOf(glyph: FontGlyph, s: number, kernel: Kernel, fx: number, across: Taps): Float32Array {
  let known = rowsCache.get(glyph);
  if (!known) rowsCache.set(glyph, (known = new Map()));
  const key = `${s} ${KERNELS.indexOf(kernel)} ${fx}`;
  let rows = known.get(key);
  if (rows) return rows;
  const width = across.starts.length - 1;
  const { coverage } = glyph;
  rows = new Float32Array(glyph.height * width);
  for (let v = 0; v < glyph.height; v++) {
    for (let i = 0; i < width; i++) {
      for (let t = across.starts[i]; t < across.starts[i + 1]; t++)
        rows[v * width + i] += across.weights[t] * coverage[v * glyph.width + across.sources[t]];
    }
  }
  known.set(key, rows);
  return rows;
}

const rowsCache = new WeakMap<FontGlyph, Map<string, Float32Array>>();

/**
 * Along one axis: the pixels a source of n pixels covers, scaled by s and starting f past pixel 0, and for
 * each the source pixels the kernel weighs (normalised over all pixels, beyond the source too: no ink there):
 * pixel `from + i` weighs `sources[t]` by `weights[t]` for t in [starts[i], starts[i + 1]).
 */
function taps(n: number, s: number, f: number, kernel: Kernel): Taps {
  let known = tapsCache.get(kernel);
  if (!known) tapsCache.set(kernel, (known = new Map()));
  const key = `${n} ${s} ${f}`;
  let found = known.get(key);
  if (!found) known.set(key, (found = tapsOf(n, s, f, kernel)));
  return found;
}

interface Taps {
  from: number;
  starts: Int32Array;
  sources: Int32Array;
  weights: Float64Array;
}

const tapsCache = new WeakMap<Kernel, Map<string, Taps>>();

function tapsOf(n: number, s: number, f: number, kernel: Kernel): Taps {
  const stretch = min(1, s);
  const reach = kernel.radius / stretch;
  const from = floor(f - reach * s);
  const to = ceil(f + (n + reach) * s);
  const starts = [0];
  const [sources, weights]: number[][] = [[], []];
  for (let i = from; i < to; i++) {
    const centre = (i + 0.5 - f) / s;
    const list: [number, number][] = [];
    let total = 0;
    for (let u = floor(centre - reach); u <= ceil(centre + reach); u++) {
      const w = kernel.weight((u + 0.5 - centre) * stretch);
      total += w;
      if (w && u >= 0 && u < n) list.push([u, w]);
    }
    for (const [u, w] of list) {
      sources.push(u);
      weights.push(w / total);
    }
    starts.push(sources.length);
  }
  return {
    from,
    starts: Int32Array.from(starts),
    sources: Int32Array.from(sources),
    weights: Float64Array.from(weights),
  };
}
