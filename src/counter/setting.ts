// A text of the counter's form set in one of its fonts at one scale and place, and how much of the ink
// there it leaves unexplained (typeset.ts searches the scales and places).
import type { CounterFont, FontGlyph, Rect } from '../common/types';
import { type Drawn, PHASES, drawing, phaseOf, pixelOf } from './drawglyph';

const { floor, max, min, round } = Math;

/** Beside the text, this share of the digits' pitch is compared too… */
const GUARD = 0.35;
/** …and there no ink may be left unexplained by more than this share of the text's strength. */
export const GUARD_INK = 0.25;
/** The ink's strength fitted to a text must be within this factor of the font's: text, not a faint shadow or noise. */
const STRENGTH_FACTOR = 2.5;

export const CHARS = [...'0123456789/'];
const SLASH = CHARS.indexOf('/');

/**
 * The part of the screenshot searched, w × h from (left, top); `band(top, bottom)` gives its rows' ink
 * (distances from their background colour, w per row), the background taken from those rows.
 */
export interface Ink {
  w: number;
  h: number;
  band: (top: number, bottom: number) => Float32Array;
}

/**
 * Texts set in one font at one scale, one kernel (image/resample.ts KERNELS) and one height: the rows they
 * reach and their ink, each column's ink energy there (running sums), the places texts were set at, by
 * where the place starts (to 1/8 px), and the characters' drawings there, by CHARS index and phase across
 * (shared by lines alike).
 */
export interface Line {
  font: CounterFont;
  s: number;
  kernel: number;
  y0: number;
  top: number;
  height: number;
  d: Float32Array;
  energy: Float64Array;
  /** Each place's index in `pool`, by 2 × the place's start in 1/8 px, + 1 for the slash's: 64 at a time. */
  places: number[][];
  /** The places of every line over this ink. */
  pool: Places;
  /** More than any misfit's rounding error below its true value (at least 0). */
  slack: number;
  glyphs: (FontGlyph | undefined)[];
  drawn: (Drawn | undefined)[];
  /** The pixel row each glyph is drawn from (drawglyph.ts pixelOf), by CHARS index. */
  rows: number[];
}

/** `layout`: a character per place, `d` a digit, `/` the slash; `text` the characters set there, from x0 on. */
export interface Setting {
  layout: string;
  text: string;
  line: Line;
  x0: number;
  window: Rect;
  /** The ink's strength fitted to the text (its distance from the background where a glyph covers a pixel). */
  strength: number;
  /** The share of the ink in the window the text leaves unexplained. */
  residual: number;
}

export function lineOf(ink: Ink, font: CounterFont, s: number, kernel: number, y0: number): Line | null {
  const { glyphs, glyphTop, glyphBottom } = charsOf(font);
  const top = floor(y0 + s * glyphTop);
  const bottom = round(y0 + s * glyphBottom);
  if (top < 0 || bottom > ink.h) return null;
  const d = ink.band(top, bottom);
  const energy = new Float64Array(ink.w + 1);
  for (let x = 0; x < ink.w; x++) {
    let e = 0;
    for (let y = 0; y < bottom - top; y++) e += d[y * ink.w + x] ** 2;
    energy[x + 1] = energy[x] + e;
  }
  // a drawn pixel is below 2 (its kernels' weights sum to 1, the negative ones to little)
  const slack = 1e-9 * (energy[ink.w] + 4 * font.strength ** 2 * (bottom - top) * ink.w);
  return {
    font,
    s,
    kernel,
    y0,
    top,
    height: bottom - top,
    d,
    energy,
    places: [],
    pool: placesOver(ink),
    slack,
    glyphs,
    drawn: drawnOn(font, s, kernel, y0),
    rows: glyphs.map((g) => (g ? pixelOf(y0 + s * g.top) : 0)),
  };
}

/** The drawings of lines alike: the same font, scale and kernel, each glyph at the same phase down. */
function drawnOn(font: CounterFont, s: number, kernel: number, y0: number): (Drawn | undefined)[] {
  let known = lines.get(font);
  if (!known) lines.set(font, (known = new Map()));
  const key = `${s} ${kernel} ${charsOf(font)
    .glyphs.map((g) => (g ? phaseOf(y0 + s * g.top) : '-'))
    .join('')}`;
  let drawn = known.get(key);
  if (!drawn) known.set(key, (drawn = []));
  return drawn;
}

const lines = new WeakMap<CounterFont, Map<string, (Drawn | undefined)[]>>();

/** The font's glyphs by CHARS index, and the top of the highest and the bottom of the lowest. */
function charsOf(font: CounterFont): { glyphs: (FontGlyph | undefined)[]; glyphTop: number; glyphBottom: number } {
  let found = fonts.get(font);
  if (!found) {
    const all = [...font.glyphs.values()];
    found = {
      glyphs: CHARS.map((c) => font.glyphs.get(c)),
      glyphTop: min(...all.map((g) => g.top)),
      glyphBottom: max(...all.map((g) => g.top + g.height)),
    };
    fonts.set(font, found);
  }
  return found;
}

const fonts = new WeakMap<CounterFont, ReturnType<typeof charsOf>>();

/**
 * The window a layout set from x0 is compared over: its line's rows, its columns and a guard either side; null
 * outside the ink.
 */
export function windowOf(ink: Ink, line: Line, layout: string, x0: number): Rect | null {
  return columnsOf(ink, line, layout, x0)?.window ?? null;
}

/** The columns of each place and the window (a guard either side); null outside the ink's area. */
function columnsOf(ink: Ink, line: Line, layout: string, x0: number): { cuts: number[]; window: Rect } | null {
  const { font, s } = line;
  const cuts = [round(x0)];
  let at = 0;
  for (const slot of layout) cuts.push(round(x0 + s * (at += slot === '/' ? font.slash : font.pitch)));
  const guard = GUARD * font.pitch * s;
  const [left, right] = [round(x0 - guard), round(x0 + s * at + guard)];
  if (left < 0 || right > ink.w) return null;
  return { cuts, window: { left, top: line.top, width: right - left, height: line.height } };
}

/**
 * A quick measure of how well the layout can be set from x0: each place's best character on its own
 * columns (the ink's strength taken from the font), the guard columns left empty.
 */
export function roughResidual(ink: Ink, line: Line, layout: string, x0: number, bound = Infinity): number {
  ownPlaces(ink, line);
  const { font, s, energy } = line;
  let at = 0;
  for (let i = 0; i < layout.length; i++) at += layout[i] === '/' ? font.slash : font.pitch;
  const guard = GUARD * font.pitch * s;
  const [left, right] = [round(x0 - guard), round(x0 + s * at + guard)];
  if (left < 0 || right > ink.w) return Infinity;
  const guarded = energy[round(x0)] - energy[left] + energy[right] - energy[round(x0 + s * at)];
  const norm = max(1, energy[right] - energy[left]);
  at = 0;
  let from = round(x0);
  for (let i = 0; i < layout.length; i++) {
    const slash = layout[i] === '/';
    const x = x0 + s * at;
    at += slash ? font.slash : font.pitch;
    const to = round(x0 + s * at);
    inPlaces[i] = placeAt(line, x, from, to, slash);
    from = to;
  }
  // every place is taken before any is compared (a place keeps the columns of the first text set there);
  // those not compared yet count as their least possible misfit, so the sum only grows as they are. The
  // slash is compared first: one character, and where none is, the layout does not fit.
  const { compared, least, slashes } = line.pool;
  while (bound < Infinity) {
    let low = guarded;
    let next = -1;
    for (let i = 0; i < layout.length; i++) {
      const place = inPlaces[i];
      low += compared[place] ? least[place] : -line.slack;
      if (!compared[place] && (next < 0 || (slashes[place] && !slashes[inPlaces[next]]))) next = i;
    }
    if (low / norm >= bound) return Infinity;
    if (next < 0) break;
    compare(ink, line, inPlaces[next]);
  }
  let sum = guarded;
  for (let i = 0; i < layout.length; i++) sum += least[compare(ink, line, inPlaces[i])];
  return sum / norm;
}

const inPlaces = new Int32Array(16);

/**
 * The text of this layout that best explains the ink from x0: each place's character chosen on its own
 * columns, then the whole text compared over its window. Null where the window leaves the ink's area, the
 * ink is far from the font's strength, or the guard columns hold ink no glyph explains.
 */
export function setText(ink: Ink, line: Line, layout: string, x0: number): Setting | null {
  ownPlaces(ink, line);
  const found = columnsOf(ink, line, layout, x0);
  if (!found) return null;
  const { cuts, window } = found;
  const text = [...layout].map((slot, i) => {
    if (slot === '/') return '/';
    return CHARS[
      line.pool.first[
        compare(ink, line, placeAt(line, x0 + line.s * placeStart(line.font, layout, i), cuts[i], cuts[i + 1], false))
      ]
    ];
  });
  const predicted = predict(line, layout, text, x0, window);
  const strength = fittedStrength(ink, line, predicted, window);
  if (strength * STRENGTH_FACTOR < line.font.strength || strength > STRENGTH_FACTOR * line.font.strength) return null;
  if (unexplained(ink, line, predicted, strength, window, cuts[0], cuts.at(-1)!) > GUARD_INK * strength) return null;
  return {
    layout,
    text: text.join(''),
    line,
    x0,
    window,
    strength,
    residual: shareLeft(ink, line, predicted, strength, window),
  };
}

/** The share of the window's ink left unexplained by these characters ('' an empty place) set in the layout from x0. */
export function residualOf(ink: Ink, line: Line, layout: string, chars: string[], x0: number, window: Rect): number {
  const predicted = predict(line, layout, chars, x0, window);
  return shareLeft(ink, line, predicted, max(0, fittedStrength(ink, line, predicted, window)), window);
}

function shareLeft(ink: Ink, line: Line, predicted: Float32Array, strength: number, window: Rect): number {
  let sum = 0;
  let total = 0;
  for (let y = 0; y < window.height; y++) {
    for (let x = 0; x < window.width; x++) {
      const d = line.d[y * ink.w + window.left + x];
      sum += (d - strength * predicted[y * window.width + x]) ** 2;
      total += d * d;
    }
  }
  return sum / (total || 1);
}

export function placeStart(font: CounterFont, layout: string, i: number): number {
  let at = 0;
  for (let j = 0; j < i; j++) at += layout[j] === '/' ? font.slash : font.pitch;
  return at;
}

/**
 * Σ ink × drawn and Σ drawn² of the character drawn from `start`, over the line's rows and the columns
 * [from, to). The same object each call.
 */
export function inkAndDrawn(
  ink: Ink,
  line: Line,
  c: string,
  start: number,
  from: number,
  to: number,
): { dp: number; pp: number } {
  return inkTimesDrawn(ink, line, CHARS.indexOf(c), start, from, to);
}

function inkTimesDrawn(
  ink: Ink,
  line: Line,
  k: number,
  start: number,
  from: number,
  to: number,
): { dp: number; pp: number } {
  const g = line.glyphs[k]!;
  const x = start + line.s * g.left;
  // phaseOf(x) and pixelOf(x)
  const whole = floor(x);
  const q = round((x - whole) * PHASES);
  const d = (line.drawn[k * PHASES + (q === PHASES ? 0 : q)] ??= drawing(
    g,
    line.s,
    line.kernel,
    x,
    line.y0 + line.s * g.top,
  ));
  const { width, height, values } = d;
  const left = d.left + (q === PHASES ? whole + 1 : whole);
  const top = d.top + line.rows[k];
  const ds = line.d;
  const w = ink.w;
  const iFrom = max(0, from - left);
  const iTo = min(width, to - left);
  let dp = 0;
  let pp = 0;
  for (let j = max(0, line.top - top), jTo = min(height, line.top + line.height - top); j < jTo; j++) {
    const at = (top + j - line.top) * w + left;
    for (let i = iFrom; i < iTo; i++) {
      const p = values[j * width + i];
      dp += ds[at + i] * p;
      pp += p * p;
    }
  }
  sums.dp = dp;
  sums.pp = pp;
  return sums;
}

const sums = { dp: 0, pp: 0 };

/**
 * The places of the lines over one ink, by index: where each starts (in 1/8 px), whether it holds the
 * slash, the columns [from, to) its characters are compared on (those of the first text set there), and
 * once compared, the least Σ (ink − font's strength × drawn)² there of a character (a digit for a digit's
 * place, the slash for the slash's) and the first character (CHARS index) leaving it. Kept in arrays, not
 * objects: a search sets hundreds of thousands.
 */
interface Places {
  /** The ink whose lines own the places now. */
  owner: Ink | null;
  count: number;
  q: Int32Array;
  slashes: Uint8Array;
  from: Int32Array;
  to: Int32Array;
  compared: Uint8Array;
  least: Float64Array;
  first: Int8Array;
}

/**
 * The places of the lines over the ink: one set of arrays for every search, taken over by each new ink (a
 * search's places die with it, and fresh arrays are slow: each 4 KB page of them faults when first written).
 */
function placesOver(ink: Ink): Places {
  const places = (searchPlaces ??= placesOf(1 << 16));
  if (places.owner !== ink) [places.owner, places.count] = [ink, 0];
  return places;
}

let searchPlaces: Places | null = null;

function placesOf(size: number): Places {
  const [q, from, to] = [new Int32Array(size), new Int32Array(size), new Int32Array(size)];
  return {
    owner: null,
    count: 0,
    q,
    slashes: new Uint8Array(size),
    from,
    to,
    compared: new Uint8Array(size),
    least: new Float64Array(size),
    first: new Int8Array(size),
  };
}

/** A line's places are the ink's only until a line is made over another ink: its places are then gone. */
function ownPlaces(ink: Ink, line: Line): void {
  if (line.pool.owner !== ink) throw new Error('a line of a finished search: its places were taken over');
}

/** The place's index, made with these columns if the line has none there yet. */
function placeAt(line: Line, x: number, from: number, to: number, slash: boolean): number {
  const q = round(8 * x);
  const key = 2 * q + (slash ? 1 : 0);
  const chunk = (line.places[key >> 6] ??= new Array(64));
  const known = chunk[key & 63];
  if (known !== undefined) return known;
  const pool = line.pool;
  if (pool.count === pool.q.length) grow(pool);
  const at = pool.count++;
  pool.q[at] = q;
  pool.slashes[at] = slash ? 1 : 0;
  pool.from[at] = from;
  pool.to[at] = to;
  pool.compared[at] = 0;
  pool.least[at] = Infinity;
  pool.first[at] = -1;
  chunk[key & 63] = at;
  return at;
}

function grow(pool: Places): void {
  const bigger = placesOf(2 * pool.q.length);
  for (const k of ['q', 'slashes', 'from', 'to', 'compared', 'least', 'first'] as const) bigger[k].set(pool[k]);
  Object.assign(pool, { ...bigger, owner: pool.owner, count: pool.count });
}

/** The place compared, if it was not yet; its index. */
function compare(ink: Ink, line: Line, place: number): number {
  const pool = line.pool;
  if (pool.compared[place]) return place;
  const from = pool.from[place];
  const to = pool.to[place];
  const slash = pool.slashes[place] === 1;
  const energy = line.energy[to] - line.energy[from];
  const g = line.font.strength;
  for (let k = slash ? SLASH : 0; k < (slash ? SLASH + 1 : SLASH); k++) {
    if (!line.glyphs[k]) continue;
    const { dp, pp } = inkTimesDrawn(ink, line, k, pool.q[place] / 8, from, to);
    const misfit = energy - 2 * g * dp + g * g * pp;
    if (misfit < pool.least[place]) [pool.least[place], pool.first[place]] = [misfit, k];
  }
  pool.compared[place] = 1;
  return place;
}

/** The most ink left unexplained in the window's columns outside [from, to). */
function unexplained(
  ink: Ink,
  line: Line,
  predicted: Float32Array,
  strength: number,
  window: Rect,
  from: number,
  to: number,
): number {
  let most = 0;
  for (let y = 0; y < window.height; y++) {
    for (let x = window.left; x < window.left + window.width; x++) {
      if (x < from || x >= to)
        most = max(most, line.d[y * ink.w + x] - strength * predicted[y * window.width + x - window.left]);
    }
  }
  return most;
}

/** The strength that makes the drawing fit the window's ink best (least squares). */
function fittedStrength(ink: Ink, line: Line, predicted: Float32Array, window: Rect): number {
  let [dp, pp] = [0, 0];
  for (let y = 0; y < window.height; y++) {
    for (let x = 0; x < window.width; x++) {
      const p = predicted[y * window.width + x];
      dp += line.d[y * ink.w + window.left + x] * p;
      pp += p * p;
    }
  }
  return pp > 0 ? dp / pp : 0;
}

/**
 * The characters ('' an empty place) set in the layout from x0, drawn and summed over the area: a buffer reused by
 * the next call.
 */
function predict(line: Line, layout: string, chars: string[], x0: number, area: Rect): Float32Array {
  const size = area.width * area.height;
  if (predicted.length < size) predicted = new Float32Array(2 * size);
  const out = predicted;
  out.fill(0, 0, size);
  let start = x0;
  for (let k = 0; k < chars.length; k++) {
    if (chars[k]) {
      const g = line.font.glyphs.get(chars[k])!;
      const [x, y] = [start + line.s * g.left, line.y0 + line.s * g.top];
      const d = drawing(g, line.s, line.kernel, x, y);
      const { width, height, values } = d;
      const [left, top] = [d.left + pixelOf(x), d.top + pixelOf(y)];
      for (let j = max(0, top - area.top), jTo = min(area.height, top + height - area.top); j < jTo; j++) {
        for (let i = max(0, left - area.left), iTo = min(area.width, left + width - area.left); i < iTo; i++) {
          out[j * area.width + i] += values[(j + area.top - top) * width + i + area.left - left];
        }
      }
    }
    start = x0 + line.s * placeStart(line.font, layout, k + 1);
  }
  return out;
}

let predicted = new Float32Array(0);
