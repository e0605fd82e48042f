// A screenshot shrunk below the skin's cell size (a 12 px board saved at 50 %) keeps a glyph in a few pixels,
// and the shrinking tool's kernel shapes them: compared the usual way (cell and template both area-averaged
// to one size), a 2 and a 3 sit about as far from the cell. Here each unreadable cell is compared, on the
// screenshot's own pixels, with every larger template shrunk onto them the way image tools shrink (lanczos3,
// bicubic), within a pixel of the cell's place, to an eighth of a pixel. The true label then sits far closer
// than any other, and a label the skin lacks still sits far from every template, so it stays unreadable.
import type { Cell, Grid, Reading, RgbaImage, Skin, Template } from '../common/types';
import { cellLeft, cellTop } from '../image/pixels';
import { KERNELS, type Kernel } from '../image/resample';

const { abs, ceil, floor, max, min, round, sqrt } = Math;

/**
 * Templates this many times the cell's size or more are shrunk onto it; up to MAX_SHRINK (cost grows with it).
 * Shrunk even this little and area-averaged, a count's own template sits hardly nearer it than another count's.
 */
const MIN_SHRINK = 1.1;
const MAX_SHRINK = 4.5;

/**
 * The places tried around a cell's place (pixels): every STEP within NEAR, then, if no label is read there, every
 * 2 × STEP out to REACH; each time also the eight places 1/PHASES px around each label's best (templates are placed
 * to 1/PHASES px). The grid's start is snapped to half a pixel where the many plain cells fit best, which may be
 * 0.75 px from where the cells were drawn; and a count may fit twice as far an eighth of a pixel off.
 */
const NEAR = 0.5;
const REACH = 1;
const STEP = 0.25;
const PHASES = 8;
const NEAR_PLACES = placesWithin(NEAR, STEP);
const FAR_PLACES = placesWithin(REACH, 2 * STEP).filter(([dx, dy]) => max(abs(dx), abs(dy)) > NEAR);
const AROUND = [
  [-1, -1],
  [0, -1],
  [1, -1],
  [-1, 0],
  [1, 0],
  [-1, 1],
  [0, 1],
  [1, 1],
];

function placesWithin(reach: number, step: number): [number, number][] {
  const places: [number, number][] = [];
  for (let dy = -reach; dy <= reach + 1e-9; dy += step)
    for (let dx = -reach; dx <= reach + 1e-9; dx += step) places.push([dx, dy]);
  return places;
}

/**
 * A label is read when its template sits this close (share of the skin's limit) and this much closer than any other
 * label's.
 */
const SURE = 0.3;
const RATIO = 0.5;

/**
 * A template shrunk onto the pixels of a cell whose left/top edge falls at one phase: RGB per pixel, and where those
 * pixels start.
 */
interface Shrunk {
  rgb: Float64Array;
  width: number;
  height: number;
  /** First pixel column/row, from the whole pixel at or before the cell's edge. */
  left: number;
  top: number;
}

/**
 * Readings with each unreadable cell read again against the larger templates shrunk onto its pixels; on a board
 * smaller than every template, each count read not clearly (CLEAR) must also be read so there, against the open
 * cells' templates of the skin's smallest sizes (the board's own, shrunk), or is unreadable (`confirmed`). For a
 * board already accepted (read.ts): each cell costs a few hundred template placements.
 */
export function readResampled(image: RgbaImage, grid: Grid, skin: Skin, readings: Reading[]): Reading[] {
  const shrunk = skin.templates.every(
    (t) => min(t.image.width / grid.pitchX, t.image.height / grid.pitchY) >= MIN_SHRINK,
  );
  const count = (r: Reading) => !r.unreadable && COUNT.test(r.cell);
  if (!readings.some((r) => r.unreadable || (shrunk && count(r)))) return readings;
  const reader = pixelReader(image, grid, skin);
  if (!reader) return readings;
  const smallest = min(...skin.templates.map((t) => t.image.width));
  const countReader = shrunk
    ? pixelReader(image, grid, skin, (t) => OPEN.test(t.label) && t.image.width <= SIZE_SPREAD * smallest)
    : undefined;
  return readings.map((r) => {
    if (r.unreadable) return reader(r).reading ?? r;
    if (!countReader || !count(r) || r.distance <= CLEAR * skin.maxDistance || confirmed(countReader(r), r.cell, skin))
      return r;
    return { ...r, cell: '.', unreadable: true };
  });
}

/**
 * The open cells' labels: a count's own pixels are compared with these alone (a count is never near a hidden cell or
 * a flag).
 */
const OPEN = /^[0-8]$/;

/**
 * The sizes a board smaller than every template was drawn at: the skin's smallest and those up to this much larger
 * (KMines `default` draws 34 and 37 px cells, GNOME `bgcolors` 23 and 30; ace's next size, 24 px, is another font).
 */
const SIZE_SPREAD = 1.5;
/**
 * A count this near its template (share of the skin's limit) is read as drawn: a count the skin lacks sits further
 * than this from another count's.
 */
const CLEAR = 0.25;
const COUNT = /^[1-8]$/;

/**
 * Whether a count's own pixels say the same: the label nearest there, within CONFIRM of the skin's limit and at most
 * RATIO as far as any other. A count the skin lacks can sit nearer another count's template than the blank's when
 * both are area-averaged to a few pixels; on its own pixels it sits further than CONFIRM from that template, and
 * not clearly nearer it than the next label's (RATIO), while counts read right pass both. Found by measurement on
 * the held-out shots.
 */
function confirmed(on: OnPixels, label: Cell, skin: Skin): boolean {
  const [first, second] = on.nearest;
  return (
    first?.[0] === label && first[1] <= CONFIRM * skin.maxDistance && first[1] <= RATIO * (second?.[1] ?? Infinity)
  );
}

const CONFIRM = 0.5;

/** What a cell's own pixels say: each label's nearest shrunk template, nearest first, and the reading if decided. */
interface OnPixels {
  nearest: [Cell, number][];
  reading?: Reading;
}

/**
 * Reads cells on the screenshot's own pixels against the skin's templates larger than the grid's cells; none if it
 * has none.
 */
function pixelReader(
  image: RgbaImage,
  grid: Grid,
  skin: Skin,
  only?: (t: Template) => boolean,
): ((r: Reading) => OnPixels) | undefined {
  const templates = skin.templates
    .map((t, index) => ({ ...t, index }))
    .filter((t) => {
      const shrink = min(t.image.width / grid.pitchX, t.image.height / grid.pitchY);
      return shrink >= MIN_SHRINK && shrink <= MAX_SHRINK && (!only || only(t));
    });
  if (!templates.length) return undefined;
  const cache = shrunkCache(skin, grid);
  const shrunk = (t: number, k: number, qx: number, qy: number): Shrunk => {
    const { index, image: template } = templates[t];
    const key = ((index * KERNELS.length + k) * PHASES + qx) * PHASES + qy;
    let found = cache.get(key);
    if (!found)
      cache.set(key, (found = shrinkTemplate(template, KERNELS[k], qx / PHASES, qy / PHASES, grid, skin.inset)));
    return found;
  };
  const decided = (ranked: [Cell, number][]) => {
    const [first, second] = ranked;
    return first && first[1] <= SURE * skin.maxDistance && first[1] <= RATIO * (second?.[1] ?? Infinity);
  };
  const nearestAt = (left: number, top: number): [Cell, number][] => {
    const nearest = new Map<Cell, { distance: number; x: number; y: number }>();
    const tryAt = (x: number, y: number, label?: Cell) => {
      const [qx, qy] = [round((x - floor(x)) * PHASES) % PHASES, round((y - floor(y)) * PHASES) % PHASES];
      templates.forEach((t, i) => {
        if (label !== undefined && t.label !== label) return;
        for (let k = 0; k < KERNELS.length; k++) {
          const distance = distanceAt(image, shrunk(i, k, qx, qy), floor(x), floor(y));
          if (distance < (nearest.get(t.label)?.distance ?? Infinity)) nearest.set(t.label, { distance, x, y });
        }
      });
    };
    const search = (places: [number, number][]) => {
      for (const [dx, dy] of places) tryAt(round((left + dx) * PHASES) / PHASES, round((top + dy) * PHASES) / PHASES);
      for (const [label, { x, y }] of [...nearest])
        for (const [dx, dy] of AROUND) tryAt(x + dx / PHASES, y + dy / PHASES, label);
    };
    const ranked = (): [Cell, number][] =>
      [...nearest].map(([label, at]): [Cell, number] => [label, at.distance]).sort((a, b) => a[1] - b[1]);
    search(NEAR_PLACES);
    if (decided(ranked())) return ranked();
    search(FAR_PLACES);
    return ranked();
  };
  return (r) => {
    const nearest = nearestAt(cellLeft(grid, r.col), cellTop(grid, r.row));
    if (!decided(nearest)) return { nearest };
    const [[cell, distance], [runnerUp, runnerUpDistance] = ['.', Infinity]] = nearest;
    return { nearest, reading: { ...r, cell, best: cell, distance, runnerUp, runnerUpDistance, unreadable: false } };
  };
}

/**
 * The templates shrunk for a skin at one pitch, by template, kernel and phase: kept across screenshots (a folder of
 * one game's shots at one scale shrinks each once), for the last few pitches of each skin.
 */
function shrunkCache(skin: Skin, grid: Grid): Map<number, Shrunk> {
  let byPitch = shrunkTemplates.get(skin);
  if (!byPitch) shrunkTemplates.set(skin, (byPitch = new Map()));
  const key = `${grid.pitchX} ${grid.pitchY}`;
  let cache = byPitch.get(key);
  if (cache) byPitch.delete(key);
  byPitch.set(key, (cache ??= new Map()));
  for (const old of byPitch.keys()) if (byPitch.size > KEPT_PITCHES) byPitch.delete(old);
  return cache;
}

const shrunkTemplates = new WeakMap<Skin, Map<string, Map<number, Shrunk>>>();
const KEPT_PITCHES = 4;

/**
 * RMS distance (per channel, 0-255) between the shrunk template and the screenshot's pixels at the cell whose edge
 * pixel is (x, y).
 */
function distanceAt(image: RgbaImage, s: Shrunk, x: number, y: number): number {
  const [left, top] = [x + s.left, y + s.top];
  if (left < 0 || top < 0 || left + s.width > image.width || top + s.height > image.height || !s.width || !s.height)
    return Infinity;
  let sum = 0;
  for (let j = 0; j < s.height; j++) {
    for (let i = 0; i < s.width; i++) {
      const p = ((top + j) * image.width + left + i) * 4;
      const q = (j * s.width + i) * 3;
      for (let c = 0; c < 3; c++) sum += (image.data[p + c] - s.rgb[q + c]) ** 2;
    }
  }
  return sqrt(sum / (3 * s.width * s.height));
}

/**
 * The template shrunk onto the whole pixels inside a cell (less the skin's inset) whose left and top edges
 * fall `fx`, `fy` past a pixel boundary: each pixel the kernel-weighted mean of the template pixels around
 * its centre (edges repeated), in two passes, clamped to 0-255 as an 8-bit image is.
 */
function shrinkTemplate(
  template: RgbaImage,
  kernel: Kernel,
  fx: number,
  fy: number,
  grid: Grid,
  inset: number,
): Shrunk {
  const xs = pixelsAcross(fx, grid.pitchX, inset);
  const ys = pixelsAcross(fy, grid.pitchY, inset);
  const across = keptTaps(xs, fx, template.width / grid.pitchX, template.width, kernel);
  const down = keptTaps(ys, fy, template.height / grid.pitchY, template.height, kernel);
  const [width, height] = [xs.to - xs.from, ys.to - ys.from];
  const { data } = template;
  const rows = new Float64Array(template.height * width * 3);
  for (let ty = 0; ty < template.height; ty++) {
    for (let i = 0; i < width; i++) {
      const weighed = across[i];
      let r = 0;
      let g = 0;
      let b = 0;
      for (let t = 0; t < weighed.length; t++) {
        const w = weighed[t][1];
        const p = (ty * template.width + weighed[t][0]) * 4;
        r += w * data[p];
        g += w * data[p + 1];
        b += w * data[p + 2];
      }
      const q = (ty * width + i) * 3;
      rows[q] = r;
      rows[q + 1] = g;
      rows[q + 2] = b;
    }
  }
  const line = width * 3;
  const rgb = new Float64Array(line * height);
  for (let j = 0; j < height; j++) {
    const weighed = down[j];
    for (let t = 0; t < weighed.length; t++) {
      const w = weighed[t][1];
      const from = weighed[t][0] * line;
      for (let k = 0; k < line; k++) rgb[j * line + k] += w * rows[from + k];
    }
  }
  for (let k = 0; k < rgb.length; k++) rgb[k] = min(255, max(0, rgb[k]));
  return { rgb, width, height, left: xs.from, top: ys.from };
}

/** The whole pixels inside a cell (less the inset) whose edge falls `f` past pixel 0: [from, to). */
function pixelsAcross(f: number, pitch: number, inset: number): { from: number; to: number } {
  const from = ceil(f + inset * pitch);
  return { from, to: max(from, floor(f + (1 - inset) * pitch)) };
}

/** `taps`, kept: templates of one size shrunk at one pitch and phase share them. */
function keptTaps(
  pixels: { from: number; to: number },
  f: number,
  scale: number,
  length: number,
  kernel: Kernel,
): [number, number][][] {
  const key = `${KERNELS.indexOf(kernel)} ${pixels.from} ${pixels.to} ${f} ${scale} ${length}`;
  let found = tapsKept.get(key);
  if (!found) {
    if (tapsKept.size >= MAX_TAPS_KEPT) tapsKept.clear();
    tapsKept.set(key, (found = taps(pixels, f, scale, length, kernel)));
  }
  return found;
}

const tapsKept = new Map<string, [number, number][][]>();
const MAX_TAPS_KEPT = 4096;

/**
 * For each pixel, the template pixels the kernel weighs and their weights (summing to 1), template `scale` pixels to
 * one.
 */
function taps(
  pixels: { from: number; to: number },
  f: number,
  scale: number,
  length: number,
  kernel: Kernel,
): [number, number][][] {
  const out: [number, number][][] = [];
  for (let u = pixels.from; u < pixels.to; u++) {
    const centre = (u + 0.5 - f) * scale;
    const reach = kernel.radius * scale;
    const weights = new Map<number, number>();
    let total = 0;
    for (let i = floor(centre - reach); i <= ceil(centre + reach); i++) {
      const w = kernel.weight((i + 0.5 - centre) / scale);
      if (!w) continue;
      const at = min(length - 1, max(0, i));
      weights.set(at, (weights.get(at) ?? 0) + w);
      total += w;
    }
    out.push([...weights].map(([i, w]) => [i, w / total]));
  }
  return out;
}
