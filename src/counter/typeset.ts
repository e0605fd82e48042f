// A counter whose text is a few pixels tall (a screenshot shrunk to half size) cannot be cut into glyphs:
// at the screenshot's pixels neighbours run together and a glyph falls apart. Instead, texts of the
// counter's form are set in the game's font as learned at full size (scripts/counter-fonts.js), shrunk (or a
// little enlarged) onto the screenshot's pixels the way image tools resample (drawglyph.ts), and compared with
// the ink there (setting.ts): a text is read only where it is whole and explains the ink clearly better than
// any other.
import { debuglog } from 'node:util';
import type { CounterFont, CounterModel, Rect, RgbaImage } from '../common/types';
import { eraseLines } from './glyphs';
import { blobs, wordBoxes } from './blobs';
import { KERNELS } from '../image/resample';
import { type Ink, type Line, type Setting, lineOf, residualOf, roughResidual, setText } from './setting';
import { whole } from './whole';
import { inkOf } from './inkband';

const { max, min, round } = Math;
const trace = debuglog('mine-assist');
const DIGITS = [...'0123456789'];

/**
 * Text larger than this (times the font's size) is read glyph by glyph only (counter.ts), not also set here
 * where the glyphs do not read (text at a size between a skin's glyph examples may not)…
 */
const MAX_SCALE = 1.6;
/** …and text smaller than this not at all. */
const MIN_SCALE = 0.3;
/** Ink this strong (share of the font's) marks where text may be… */
const ANCHOR_INK = 0.2;
/** …and the scale its blob's height gives is tried at these factors (blurred edges make a blob look taller), */
const SCALE_SPREAD = [0.75, 0.8, 0.85, 0.9, 0.95, 1, 1.05, 1.1];
/** A scale known from the board is tried this much off (its cells' pitch is measured to about a percent). */
const KNOWN_SPREAD = [0.97, 1, 1.03];
/**
 * the text's place to half a pixel up to a pixel beyond where its ink starts; the best of each layout then to a
 * quarter pixel.
 */
const COARSE = 0.5;
const REACH = 1;
const FINE = [-0.25, 0, 0.25];
/** Only layouts whose rough best is within this factor of the anchor's best are searched finely. */
const REFINED = 3;
/** A text is read when the ink it leaves unexplained is at most this share… */
const MAX_RESIDUAL = 0.15;
/** …and at most this share of what any other text in its place leaves. */
const RATIO = 0.5;

export interface Judgement {
  text: string;
  box: Rect;
  residual: number;
  rival: { text: string; residual: number };
}

/**
 * The text of the counter in the box, when set in one of its fonts it explains the ink clearly best; else
 * null. The text may reach `margin` pixels past the box's sides (a digit beside it is looked for there too);
 * `scale`: how large (times the fonts' size) the text is known to be, else null (found from its ink).
 */
export function readSmallText(
  image: RgbaImage,
  box: Rect,
  margin: number,
  model: CounterModel,
  scale: number | null,
): { text: string; box: Rect } | null {
  const found = bestSetting(image, box, margin, model, scale);
  if (!found) return null;
  trace(
    'counter set as %s at %j leaves %s of the ink, %s %s',
    found.text,
    found.box,
    found.residual.toFixed(3),
    found.rival.text,
    found.rival.residual.toFixed(3),
  );
  if (found.residual > MAX_RESIDUAL || found.residual > RATIO * found.rival.residual) return null;
  return { text: found.text, box: found.box };
}

/**
 * The whole text that, set in one of the counter's fonts, best explains the ink in the box, and its closest rival
 * there.
 */
export function bestSetting(
  image: RgbaImage,
  box: Rect,
  margin: number,
  model: CounterModel,
  scale: number | null,
): Judgement | null {
  const ink = inkOf(image, box, margin);
  if (!ink || !model.fonts.length) return null;
  const lines = new Map<string, Line | null>();
  const lineAt = (font: CounterFont, s: number, kernel: number, y0: number) => {
    const key = `${font.height} ${s} ${kernel} ${y0}`;
    if (!lines.has(key)) lines.set(key, lineOf(ink, font, s, kernel, y0));
    return lines.get(key) ?? null;
  };
  const { own, area } = ink;
  const inPlace = (r: Rect) => r.left < own.to && r.left + r.width > own.from;
  // a character the font lacks would be set as its nearest look-alike
  const needed = model.kind === 'remaining' ? DIGITS : [...DIGITS, '/'];
  const fonts = model.fonts.filter((font) => needed.every((c) => font.glyphs.has(c)));
  const forms = layouts(model.kind);
  const settings = fonts.flatMap((font) => {
    const bests = forms.map(() => Infinity);
    return anchors(ink, font)
      .filter(inPlace)
      .flatMap((anchor) => settingsAt(ink, forms, anchor, font, scale, lineAt, bests));
  });
  settings.sort((a, b) => a.residual - b.residual);
  const first = settings.find((s) => whole(ink, s));
  if (!first) return null;
  const best = bettered(ink, first);
  const others = settings.filter((s) => s.text !== best.text && overlap(s.window, best.window) >= 0.5);
  const other = others.find((s) => s.residual * RATIO < best.residual && whole(ink, s));
  const changed = oneChanged(ink, best);
  const rival = other && other.residual < changed.residual ? other : changed;
  const { window } = best;
  return {
    text: best.text,
    box: { ...window, left: window.left + area.left, top: window.top + area.top },
    residual: best.residual,
    rival: { text: rival.text, residual: rival.residual },
  };
}

/**
 * Where text may be: blobs of ink at least ANCHOR_INK of the font's strength (frame lines aside), and the
 * words they make (an LCD digit's upper and lower bars are blobs apart), the ink told from the whole area's
 * background and from each row's. A text's first ink may lie anywhere in its blob or word (a colon before
 * it may have run into it) but its top is the blob's.
 */
function anchors(ink: Ink, font: CounterFont): Rect[] {
  const whole = ink.band(0, ink.h);
  const rows = new Float32Array(ink.w * ink.h);
  for (let y = 0; y < ink.h; y++) rows.set(ink.band(y, y + 1), y * ink.w);
  const found = new Map<string, Rect>();
  for (const d of [whole, rows]) {
    const mask = d.map((v) => (v >= ANCHOR_INK * font.strength ? 1 : 0));
    eraseLines(mask, ink.w, ink.h);
    const { rects } = blobs(mask, ink.w, ink.h);
    const words = wordBoxes(rects.map((r, i) => ({ ...r, members: [i] })));
    for (const r of [...rects, ...words])
      found.set(`${r.left} ${r.top} ${r.width} ${r.height}`, {
        left: r.left,
        top: r.top,
        width: r.width,
        height: r.height,
      });
  }
  return [...found.values()];
}

/** The forms a counter's text takes, as places: `d` a digit, `/` the slash. */
function layouts(kind: CounterModel['kind']): string[] {
  const digits = (n: number) => 'd'.repeat(n);
  if (kind === 'remaining') return [1, 2, 3, 4].map(digits);
  return [1, 2, 3].flatMap((a) => [1, 2, 3].map((b) => `${digits(a)}/${digits(b)}`));
}

type LineAt = (font: CounterFont, s: number, kernel: number, y0: number) => Line | null;

/**
 * Each layout's texts in the anchor: the first ink in the blob, the top at the blob's top, at the scale
 * known or else the scales the blob's height gives (a blob of digits, or one reaching a slash's height);
 * searched roughly, then around each layout's best — where it is better than the font's `bests` for that
 * layout over the anchors searched before (which it updates): an anchor's places a layout fits no better
 * than it fitted at another anchor's are not searched again.
 */
function settingsAt(
  ink: Ink,
  forms: string[],
  anchor: Rect,
  font: CounterFont,
  scale: number | null,
  lineAt: LineAt,
  bests: number[],
): Setting[] {
  const glyphs = [...font.glyphs.values()];
  const inkTop = min(...glyphs.map((g) => g.top)) + 1;
  const heights = [font.height, max(...glyphs.map((g) => g.top + g.height)) - 1 - inkTop];
  const lefts = [...'0123456789'].map((c) => font.glyphs.get(c)!.left + 1);
  const guesses = scale ? [scale] : heights.map((hh) => anchor.height / hh);
  const spread = scale ? KNOWN_SPREAD : SCALE_SPREAD;
  const scales = [...new Set(guesses.flatMap((g) => spread.map((f) => round(100 * f * g) / 100)))];
  const rough = new Map<string, { residual: number; s: number; x0: number; y0: number }>();
  for (const s of scales.filter((x) => x >= MIN_SCALE && x <= MAX_SCALE)) {
    const last = anchor.left + max(0, anchor.width - s * font.pitch) - s * min(...lefts) + REACH;
    for (let y0 = anchor.top - s * inkTop - REACH; y0 <= anchor.top - s * inkTop + REACH; y0 += COARSE) {
      const line = lineAt(font, s, 0, y0);
      if (!line) continue;
      for (let x0 = anchor.left - s * max(...lefts) - REACH; x0 <= last; x0 += COARSE) {
        forms.forEach((layout, i) => {
          const residual = roughResidual(ink, line, layout, x0, bests[i]);
          if (residual < bests[i]) rough.set(layout, { residual: (bests[i] = residual), s, x0, y0 });
        });
      }
    }
  }
  const out: Setting[] = [];
  const least = min(...[...rough.values()].map((r) => r.residual));
  for (const [layout, at] of [...rough].filter(([, r]) => r.residual <= REFINED * least)) {
    for (const ds of FINE) {
      for (const dy of FINE) {
        for (const kernel of KERNELS.keys()) {
          const line = lineAt(font, round(100 * at.s * (1 + ds / 10)) / 100, kernel, at.y0 + dy);
          for (const dx of FINE) {
            const found = line && setText(ink, line, layout, at.x0 + dx);
            if (found) out.push(found);
          }
        }
      }
    }
  }
  return out;
}

/**
 * The setting with, while any, the one digit changed that explains the ink better (the places were chosen one by
 * one).
 */
function bettered(ink: Ink, setting: Setting): Setting {
  for (let pass = 0; pass < 3; pass++) {
    const changed = oneChanged(ink, setting);
    if (changed.residual >= setting.residual) break;
    setting = { ...setting, text: changed.text, residual: changed.residual };
  }
  return setting;
}

/** The best text differing from the setting's in one digit, set in its place. */
function oneChanged(ink: Ink, setting: Setting): { text: string; residual: number } {
  let found = { text: '', residual: Infinity };
  [...setting.text].forEach((c, i) => {
    if (c === '/') return;
    for (const other of DIGITS.filter((d) => d !== c)) {
      const chars = [...setting.text].map((x, j) => (j === i ? other : x));
      const residual = residualOf(ink, setting.line, setting.layout, chars, setting.x0, setting.window);
      if (residual < found.residual) found = { text: chars.join(''), residual };
    }
  });
  return found;
}

/** How much of the smaller of two rects the other covers. */
function overlap(a: Rect, b: Rect): number {
  const w = min(a.left + a.width, b.left + b.width) - max(a.left, b.left);
  const h = min(a.top + a.height, b.top + b.height) - max(a.top, b.top);
  return w > 0 && h > 0 ? (w * h) / min(a.width * a.height, b.width * b.height) : 0;
}
