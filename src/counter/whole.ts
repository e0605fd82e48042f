// Whether a text set in the counter's font (setting.ts) is the whole counter, not a part of it.
import { type Ink, type Line, type Setting, GUARD_INK, inkAndDrawn, placeStart } from './setting';

const { max, min, round } = Math;

/** A text is not whole when the place beside it holds this share of a place's ink or more… */
const WHOLE_INK = 0.1;
/** …and a digit drawn there leaves at most this share of it unexplained. */
const WHOLE_RATIO = 0.5;

/**
 * Whether the text is whole: nothing inked just above or below it, and in the place just before it and
 * just after it, either little ink (less than WHOLE_INK of a place of the text's) or none a digit drawn
 * there mostly explains (a leading 1 the search left out, the 1 of "0018" read as "00").
 */
export function whole(ink: Ink, setting: Setting): boolean {
  return (
    clearAboveBelow(ink, setting) &&
    ([-1, 1] as const).every((side) => {
      const beside = besideText(ink, setting.line, setting.layout, setting.x0, side, setting.strength);
      return (
        beside !== null && (beside.energy < WHOLE_INK * beside.perPlace || beside.least > WHOLE_RATIO * beside.energy)
      );
    })
  );
}

/**
 * The place just before (side -1) or after (side 1) a layout set from x0: the ink energy on its columns,
 * the least any digit drawn there leaves unexplained (at the given strength), and the text's ink energy per
 * place; null when the place leaves the ink's area.
 */
function besideText(
  ink: Ink,
  line: Line,
  layout: string,
  x0: number,
  side: -1 | 1,
  strength: number,
): { energy: number; least: number; perPlace: number } | null {
  const width = placeStart(line.font, layout, layout.length);
  const start = side < 0 ? x0 - line.s * line.font.pitch : x0 + line.s * width;
  const [from, to] = [round(start), round(start + line.s * line.font.pitch)];
  if (from < 0 || to > ink.w) return null;
  const energy = line.energy[to] - line.energy[from];
  const perPlace = (line.energy[round(x0 + line.s * width)] - line.energy[round(x0)]) / layout.length;
  let least = Infinity;
  for (const c of '0123456789') {
    const { dp, pp } = inkAndDrawn(ink, line, c, start, from, to);
    least = min(least, energy - 2 * strength * dp + strength * strength * pp);
  }
  return { energy, least, perPlace };
}

/**
 * Whether the rows just above and below the text (a quarter of its height each) hold no ink over its
 * columns, frame lines running on past it aside: else the text may be part of something taller (the lower
 * half of an LCD 0 looks like a 1). False where those rows leave the ink's area.
 */
function clearAboveBelow(ink: Ink, setting: Setting): boolean {
  const { line, window } = setting;
  const k = max(1, round(0.25 * line.s * line.font.height));
  if (window.top - k < 0 || window.top + window.height + k > ink.h) return false;
  const rows = ink.band(window.top - k, window.top + window.height + k);
  const from = round(setting.x0);
  const to = round(setting.x0 + line.s * placeStart(line.font, setting.layout, setting.layout.length));
  const inked = (x: number, y: number) => rows[y * ink.w + x] > GUARD_INK * setting.strength;
  for (let y = 0; y < window.height + 2 * k; y++) {
    if (y >= k && y < k + window.height) continue;
    let across = 0;
    for (let x = window.left; x < window.left + window.width; x++) across += inked(x, y) ? 1 : 0;
    if (across >= 0.85 * window.width) continue;
    for (let x = from; x < to; x++) if (inked(x, y)) return false;
  }
  return true;
}
