// The part of a screenshot where a counter's text is looked for, as ink: each pixel's distance from the
// background of the rows it is read in (typeset.ts).
import type { Rect, RgbaImage } from '../common/types';
import type { Ink } from './setting';

const { abs, max, min, round } = Math;

export interface InkArea extends Ink {
  area: Rect;
  /** The box's own columns within the area. */
  own: { from: number; to: number };
}

/**
 * The area searched: the box and `margin` pixels either side, its ink told from the background of the box's own
 * columns.
 */
export function inkOf(image: RgbaImage, box: Rect, margin: number): InkArea | null {
  const left = max(0, round(box.left - margin));
  const top = max(0, round(box.top));
  const w = min(image.width, round(box.left + box.width + margin)) - left;
  const h = min(image.height, round(box.top + box.height)) - top;
  if (w < 4 || h < 4) return null;
  const own = { from: max(0, round(box.left) - left), to: min(w, round(box.left + box.width) - left) };
  const area = { left, top, width: w, height: h };
  const bands = new Map<number, Float32Array>();
  const band = (from: number, to: number) => {
    if (!bands.has(from * 65536 + to)) bands.set(from * 65536 + to, inkBand(image, area, own, from, to));
    return bands.get(from * 65536 + to)!;
  };
  return { w, h, band, area, own };
}

/**
 * The rows [from, to) of the area: per pixel, how far its colour is from the commonest colour of those rows
 * in the columns `own` (the mean of the pixels in the commonest of 16 × 16 × 16 bins; largest channel
 * difference). A text line's background is told from its own rows: a status bar's, not the board's or the
 * desktop's above and below it; an LCD's black, not the red of a row through its digits' bars.
 */
function inkBand(
  image: RgbaImage,
  area: Rect,
  own: { from: number; to: number },
  from: number,
  to: number,
): Float32Array {
  const w = area.width;
  const at = (x: number, y: number) => ((area.top + y) * image.width + area.left + x) * 4;
  const binOf = (p: number) => ((image.data[p] >> 4) << 8) | ((image.data[p + 1] >> 4) << 4) | (image.data[p + 2] >> 4);
  const bins = new Uint32Array(4096);
  for (let y = from; y < to; y++) for (let x = own.from; x < own.to; x++) bins[binOf(at(x, y))]++;
  let mode = 0;
  for (let b = 1; b < bins.length; b++) if (bins[b] > bins[mode]) mode = b;
  const bg = [0, 0, 0];
  for (let y = from; y < to; y++) {
    for (let x = own.from; x < own.to; x++)
      if (binOf(at(x, y)) === mode) for (let c = 0; c < 3; c++) bg[c] += image.data[at(x, y) + c] / bins[mode];
  }
  const out = new Float32Array(w * (to - from));
  for (let y = from; y < to; y++) {
    for (let x = 0; x < w; x++) {
      const p = at(x, y);
      out[(y - from) * w + x] = max(
        abs(image.data[p] - bg[0]),
        abs(image.data[p + 1] - bg[1]),
        abs(image.data[p + 2] - bg[2]),
      );
    }
  }
  return out;
}
