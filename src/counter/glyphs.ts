import type { GlyphShape, Rect, RgbaImage } from '../common/types';
import { type Group, SHORT_GLYPH, blobs, fragmentsJoined, glyphGroups, wordBoxes } from './blobs';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { abs, ceil, floor, log, max, min, round } = Math;

/** One character of a line of text (a counter's digits): its box in the image and its ink, 0-1 per pixel. */
export interface Glyph {
  rect: Rect;
  /** Ink coverage, rect.width × rect.height, row-major. */
  ink: Float32Array;
  /** It touches the edge of the box it was found in, so it may be cut: never read. */
  clipped?: boolean;
}

const SHAPE_W = 8;
const SHAPE_H = 12;

/**
 * The words of text in a box, each a run of glyphs. Ink is whatever stands out from the box's commonest
 * colour (unlit LCD segments and JPEG noise do not), kept soft at antialiased edges. Inked blobs that
 * overlap in height and sit less than a glyph height apart form a word; blobs of a word that share most of
 * their columns form one glyph (the bars of an LCD digit, the dot of an i), so a leaning slash touching a
 * digit's columns stays apart. Frame lines along the box are not text. Glyphs much shorter than their word
 * join a glyph they touch (a bar of a digit come apart), or else are dropped (a colon, a speck).
 */
export function wordsIn(image: RgbaImage, box: Rect, ink: Ink = { rank: 0.99 }): Glyph[][] {
  const left = max(0, round(box.left));
  const top = max(0, round(box.top));
  const right = min(image.width, round(box.left + box.width));
  const bottom = min(image.height, round(box.top + box.height));
  const w = right - left;
  const h = bottom - top;
  if (w < 2 || h < 4) return [];
  const distance = inkDistances(image, left, top, w, h);
  const threshold = inkThreshold(distance, w, h, ink);
  const mask = inkMask(distance, threshold);
  const soft = new Float32Array(w * h);
  for (let i = 0; i < mask.length; i++) soft[i] = min(1, max(0, (distance[i] - 0.5 * threshold) / threshold));
  eraseLines(mask, w, h);
  const { rects, labels } = blobs(mask, w, h);
  return wordBoxes(rects.map((r, i) => ({ ...r, members: [i] })))
    .map((word) => {
      const glyphs = fragmentsJoined(glyphGroups(word.members.map((i) => ({ ...rects[i], members: [i] })))).map((g) =>
        glyphOf(soft, labels, w, g, left, top),
      );
      const tallest = max(0, ...glyphs.map((g) => g.rect.height));
      return glyphs
        .filter((g) => g.rect.height >= SHORT_GLYPH * tallest)
        .map((g) => (touches(g.rect, left, top, right, bottom) ? { ...g, clipped: true } : g));
    })
    .filter((word) => word.length > 0);
}

/**
 * How ink is told from the background: it stands out from the box's commonest colour by about half as much
 * as its strongest pixels (this rank of them) — with `besideLines`, those of rows and columns inked end to
 * end aside: a band of dark desktop below a window's status bar (KMines) sets the bar so high that the text's
 * antialiased strokes thin out.
 */
export interface Ink {
  rank: number;
  besideLines?: boolean;
}

function inkThreshold(distance: Float32Array, w: number, h: number, ink: Ink): number {
  const first = max(48, 0.45 * percentile(distance, ink.rank));
  if (!ink.besideLines) return first;
  const { rows, cols } = inkedLines(inkMask(distance, first), w, h);
  const [lineRow, lineCol] = [new Uint8Array(h), new Uint8Array(w)];
  for (const y of rows) lineRow[y] = 1;
  for (const x of cols) lineCol[x] = 1;
  const rest = new Float32Array(distance.length);
  let count = 0;
  for (let y = 0; y < h; y++) {
    if (lineRow[y]) continue;
    for (let x = 0; x < w; x++) if (!lineCol[x]) rest[count++] = distance[y * w + x];
  }
  return count ? max(48, 0.45 * percentile(rest.subarray(0, count), ink.rank)) : first;
}

function inkMask(distance: Float32Array, threshold: number): Float32Array {
  const mask = new Float32Array(distance.length);
  for (let i = 0; i < distance.length; i++) if (distance[i] >= threshold) mask[i] = 1;
  return mask;
}

/** Frame lines (inkedLines) are not text: erased. */
export function eraseLines(ink: Float32Array, w: number, h: number): void {
  const { rows, cols } = inkedLines(ink, w, h);
  for (const y of rows) ink.fill(0, y * w, (y + 1) * w);
  for (const x of cols) for (let y = 0; y < h; y++) ink[y * w + x] = 0;
}

/**
 * Rows and columns inked almost end to end that reach an edge of the box: a frame line runs on past the
 * box, while a digit's bar, however long in a tight box (an LCD 9's right-hand bars run together when
 * shrunk), stops short of its edges.
 */
function inkedLines(ink: Float32Array, w: number, h: number): { rows: number[]; cols: number[] } {
  const rows: number[] = [];
  const cols: number[] = [];
  for (let y = 0; y < h; y++) {
    let n = 0;
    for (let x = 0; x < w; x++) n += ink[y * w + x];
    if (n >= 0.85 * w && (ink[y * w] || ink[y * w + w - 1])) rows.push(y);
  }
  for (let x = 0; x < w; x++) {
    let n = 0;
    for (let y = 0; y < h; y++) n += ink[y * w + x];
    if (n >= 0.85 * h && (ink[x] || ink[(h - 1) * w + x])) cols.push(x);
  }
  return { rows, cols };
}

function touches(r: Rect, left: number, top: number, right: number, bottom: number): boolean {
  return r.left <= left || r.top <= top || r.left + r.width >= right || r.top + r.height >= bottom;
}

/** A glyph's coverage on a fixed 8×12 grid (area-weighted), whatever its size. */
export function shapeOf(glyph: Glyph): GlyphShape {
  const { width, height } = glyph.rect;
  const cells = new Float32Array(SHAPE_W * SHAPE_H);
  const area = new Float32Array(SHAPE_W * SHAPE_H);
  const sx = SHAPE_W / width;
  const sy = SHAPE_H / height;
  // each pixel's ink spread over the shape cells it overlaps, by the area of overlap
  for (let y = 0; y < height; y++) {
    const ya = y * sy,
      yb = (y + 1) * sy;
    for (let x = 0; x < width; x++) {
      const v = glyph.ink[y * width + x];
      const xa = x * sx,
        xb = (x + 1) * sx;
      for (let cy = floor(ya); cy < min(SHAPE_H, ceil(yb)); cy++) {
        for (let cx = floor(xa); cx < min(SHAPE_W, ceil(xb)); cx++) {
          const a = (min(xb, cx + 1) - max(xa, cx)) * (min(yb, cy + 1) - max(ya, cy));
          if (a <= 0) continue;
          cells[cy * SHAPE_W + cx] += v * a;
          area[cy * SHAPE_W + cx] += a;
        }
      }
    }
  }
  for (let i = 0; i < cells.length; i++) cells[i] = area[i] > 0 ? cells[i] / area[i] : 0;
  return { aspect: width / height, height, cells };
}

/** How different two glyph shapes are: mean coverage difference, plus a penalty for unlike proportions. */
export function shapeDistance(a: GlyphShape, b: GlyphShape): number {
  let sum = 0;
  for (let i = 0; i < a.cells.length; i++) sum += abs(a.cells[i] - b.cells[i]);
  return sum / a.cells.length + ASPECT_WEIGHT * abs(log(a.aspect / b.aspect));
}

/** How much unlike proportions count in shapeDistance, per unit of their log ratio. */
export const ASPECT_WEIGHT = 0.3;

/** A glyph as a grey image (ink black on white), for storing in a skin. */
export function glyphImage(glyph: Glyph): RgbaImage {
  const { width, height } = glyph.rect;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const v = round(255 * (1 - glyph.ink[i]));
    data.set([v, v, v, 255], i * 4);
  }
  return { width, height, data };
}

/** The glyph stored by glyphImage, back. */
export function glyphFromImage(image: RgbaImage): Glyph {
  const ink = new Float32Array(image.width * image.height);
  for (let i = 0; i < ink.length; i++) ink[i] = 1 - image.data[i * 4] / 255;
  return { rect: { left: 0, top: 0, width: image.width, height: image.height }, ink };
}

/** Per pixel, how far its colour is from the commonest colour of the area (largest channel difference). */
export function inkDistances(image: RgbaImage, left: number, top: number, w: number, h: number): Float32Array {
  const bins = new Uint32Array(4096);
  const at = (x: number, y: number) => ((top + y) * image.width + left + x) * 4;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = at(x, y);
      bins[((image.data[p] >> 4) << 8) | ((image.data[p + 1] >> 4) << 4) | (image.data[p + 2] >> 4)]++;
    }
  }
  let bin = 0;
  for (let i = 1; i < bins.length; i++) if (bins[i] > bins[bin]) bin = i;
  const bg = [((bin >> 8) << 4) + 8, (((bin >> 4) & 15) << 4) + 8, ((bin & 15) << 4) + 8];
  const distance = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = at(x, y);
      distance[y * w + x] = max(
        abs(image.data[p] - bg[0]),
        abs(image.data[p + 1] - bg[1]),
        abs(image.data[p + 2] - bg[2]),
      );
    }
  }
  return distance;
}

/**
 * The value at rank q of the values sorted (as Float32Array's sort orders them). Ink distances are whole numbers
 * from 0 to 255: counted, not sorted (a counter's box is ranked many times a screenshot).
 */
export function percentile(values: Float32Array, q: number): number {
  if (!values.length) return NaN;
  const rank = min(values.length - 1, floor(q * values.length));
  const counts = new Uint32Array(256);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const whole = v | 0;
    if (whole !== v || whole < 0 || whole > 255) return Float32Array.from(values).sort()[rank];
    counts[whole]++;
  }
  for (let v = 0, below = 0; v < 256; v++) {
    below += counts[v];
    if (below > rank) return v;
  }
  return values[rank];
}

/** The glyph of a group of blobs: soft ink inside its box, except pixels of other blobs. */
function glyphOf(soft: Float32Array, labels: Int32Array, w: number, g: Group, left: number, top: number): Glyph {
  const own = new Set(g.members);
  const ink = new Float32Array(g.width * g.height);
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      const p = (g.top + y) * w + g.left + x;
      if (labels[p] < 0 || own.has(labels[p])) ink[y * g.width + x] = soft[p];
    }
  }
  return { rect: { left: left + g.left, top: top + g.top, width: g.width, height: g.height }, ink };
}

/**
 * The word with each thin bar joined to the glyph it nearly touches: shrunk, an LCD digit's right-hand
 * bars come apart from its other bars (a 9 at 50 % is a 6 px glyph and a 1 px bar). Only a second reading
 * to try, since a 1 beside a 0 in a small font looks the same.
 */
export function joinThinBars(word: Glyph[]): Glyph[] {
  const out = [...word];
  for (let i = 0; i < out.length; i++) {
    const g = out[i];
    if (g.rect.width > max(1, 0.25 * g.rect.height)) continue;
    const gap = (a: Glyph, b: Glyph) => b.rect.left - (a.rect.left + a.rect.width);
    const near = [i - 1, i + 1]
      .filter((j) => j >= 0 && j < out.length)
      .filter(
        (j) =>
          (j < i ? gap(out[j], g) : gap(g, out[j])) <= max(1, 0.1 * g.rect.height) && out[j].rect.width > g.rect.width,
      )
      .sort((a, b) => (a < i ? gap(out[a], g) : gap(g, out[a])) - (b < i ? gap(out[b], g) : gap(g, out[b])));
    if (!near.length) continue;
    const j = near[0];
    out.splice(min(i, j), 2, joinGlyphs(out[min(i, j)], out[max(i, j)]));
    i = min(i, j) - 1;
  }
  return out;
}

function joinGlyphs(a: Glyph, b: Glyph): Glyph {
  const left = min(a.rect.left, b.rect.left);
  const top = min(a.rect.top, b.rect.top);
  const width = max(a.rect.left + a.rect.width, b.rect.left + b.rect.width) - left;
  const height = max(a.rect.top + a.rect.height, b.rect.top + b.rect.height) - top;
  const ink = new Float32Array(width * height);
  for (const g of [a, b]) {
    for (let y = 0; y < g.rect.height; y++) {
      for (let x = 0; x < g.rect.width; x++) {
        const p = (g.rect.top - top + y) * width + g.rect.left - left + x;
        ink[p] = max(ink[p], g.ink[y * g.rect.width + x]);
      }
    }
  }
  return { rect: { left, top, width, height }, ink, clipped: a.clipped || b.clipped };
}
