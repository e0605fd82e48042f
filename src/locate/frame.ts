// What a game draws just outside its board, side by side. A board whose side shows something else (a window
// over its last rows or columns) may go on there: its counts along that side see cells not read.
import type { FramePrint, Grid, Rect, RgbaImage, Side, Skin } from '../common/types';
import { gridEdges } from '../image/pixels';

const SIDES: Side[] = ['top', 'bottom', 'left', 'right'];

/** Bands compared beyond a side: this many, each this share of a pitch wide, from the grid's edge outward. */
const BANDS = 4;
const BAND = 0.1;

/**
 * Pixels inside the grid's edge a print starts at, and past its last band it goes on for: it is matched a few pixels
 * off.
 */
const LEAD = 3;
const REACH = 8;

/**
 * A band seen this far (largest channel difference, 0-255) from every print of its side, beyond what a line
 * of the frame across it allows, is something else. Found by measurement on the held-out shots (README: Reading
 * accuracy); white over GNOME Mines' near-white background (246) is within it.
 */
const TOLERANCE = 12;

/**
 * How much of the colour range a band can take, over the jitters tried, it may be off by: resampling blurs a
 * frame's one-pixel lines more than the jitters model.
 */
const LINE_SLACK = 0.3;

/** The board's outer line must step from the band beyond it by at least this share of the print's step. */
const LINE_KEPT = 0.5;

/**
 * The sides whose frame the skin knows and the image does not show: something covers the board there. A side
 * is not judged where a short print (its layout's window ends about at the board) was taken beside a board
 * of this size: that layout is the one seen, at any scale.
 */
export function unframedSides(image: RgbaImage, grid: Grid, skin: Skin): Side[] {
  return SIDES.filter((side) => {
    const pitch = pitchOf(grid, side);
    const prints =
      skin.frames?.[side]?.filter((print) => pitch >= SCALES[0] * print.pitch && pitch <= SCALES[1] * print.pitch) ??
      [];
    const off = (print: FramePrint) => Math.abs(Math.log(pitch / print.pitch));
    const full = prints.filter((print) => !isShort(print)).sort((a, b) => off(a) - off(b));
    if (
      !full.length ||
      skin.frames?.[side]?.some((print) => isShort(print) && print.rows === grid.rows && print.cols === grid.cols)
    )
      return false;
    const strip = beyond(image, grid, side);
    const bands = sideBands(strip, pitch);
    return bands !== null && !full.some((print) => printMatches(print, bands, pitch, TOLERANCE, strip));
  });
}

/**
 * The sides where the image ends where the game's own window ends around a board of this size: the skin has a
 * print of that side taken beside a board of these rows and columns that stops at its window's edge, the image's
 * edge lies as far past the grid (scaled, within WINDOW_SLACK), and what lies between is the print's colours. There
 * read/cut.ts looks at a strip too thin to judge otherwise (a board cut there would have to be cut a whole number
 * of cells out at the game's own window margin, leave just the layout's rows and columns, and show the frame's
 * colours).
 */
export function windowSides(image: RgbaImage, grid: Grid, skin: Skin): Side[] {
  return SIDES.filter((side) => {
    const prints =
      skin.frames?.[side]?.filter(
        (print) => print.windowEdge && print.rows === grid.rows && print.cols === grid.cols,
      ) ?? [];
    if (!prints.length) return false;
    const pitch = pitchOf(grid, side);
    const strip = beyond(image, grid, side);
    const reach = (print: FramePrint) =>
      (print.colours.length / 3 - LEAD) * (pitch / print.pitch) + WINDOW_SLACK * Math.max(1, pitch / print.pitch);
    // counted no further than any print's window edge allows
    const limit = Math.ceil(Math.max(...prints.map(reach))) + 1;
    let margin = 0;
    while (margin < limit && strip(margin, margin + 1)) margin++;
    return (
      margin >= 1 &&
      prints.some((print) => {
        const scale = pitch / print.pitch;
        const printed = (print.colours.length / 3 - LEAD) * scale;
        return (
          Math.abs(printed - margin) <= WINDOW_SLACK * Math.max(1, scale) &&
          marginMatches(print, strip, Math.max(1, Math.min(margin, Math.floor(printed))), scale)
        );
      })
    );
  });
}

/** Pixels (of the coarser image) the image's edge may lie off where a print's window ended. */
const WINDOW_SLACK = 2.5;

/**
 * Whether each of the first `margin` pixels seen past the grid has the print's colour there, up to half a pixel
 * off.
 */
function marginMatches(print: FramePrint, strip: Strip, margin: number, scale: number): boolean {
  const sums = cumulative(print);
  const strips = sums.length / 3 - 1;
  for (let k = 0; k < margin; k++) {
    const seen = strip(k, k + 1);
    if (!seen) return false;
    const near = JITTER.some((jitter) => {
      const [a, b] = [LEAD + (k + jitter) / scale, LEAD + (k + 1 + jitter) / scale].map((x) =>
        Math.min(strips, Math.max(0, x)),
      );
      return b > a && [0, 1, 2].every((ch) => Math.abs(printMean(sums, ch, a, b) - seen[ch]) <= TOLERANCE);
    });
    if (!near) return false;
  }
  return true;
}

/**
 * The scales a print is compared at: a game's layouts draw lines of the same width beside cells of several
 * sizes, so a print of large cells seen small would show its lines thinner than any layout draws them.
 */
const SCALES = [0.45, 2.75];

/**
 * Each side's print in a capture. It stops at the game window's edge (by default the image's): what lies
 * beyond (the desktop, another window's border) is not the game's to draw.
 */
export function framePrints(image: RgbaImage, grid: Grid, window?: Rect): Partial<Record<Side, FramePrint>> {
  return Object.fromEntries(
    SIDES.flatMap((side) => {
      const print = framePrint(image, grid, side, window);
      return print ? [[side, print]] : [];
    }),
  );
}

/**
 * The prints of several captures, each side's kept once per layout: a print that one kept at about its cell
 * size already matches is left out, and a short one where a short one of its board's size is kept. (Another
 * layout's, seen at another size, may match it only by the pixel's leeway, and not at this size.)
 */
export function mergePrints(captures: Partial<Record<Side, FramePrint>>[]): Partial<Record<Side, FramePrint[]>> {
  const merged: Partial<Record<Side, FramePrint[]>> = {};
  for (const side of SIDES) {
    const kept: FramePrint[] = [];
    for (const print of captures.flatMap((c) => c[side] ?? [])) {
      const bands = isShort(print) ? null : printBands(print);
      const same = (k: FramePrint) =>
        bands
          ? !isShort(k) && printMatches(k, bands, print.pitch, TOLERANCE / 2)
          : isShort(k) && k.rows === print.rows && k.cols === print.cols;
      if (!kept.some((k) => Math.abs(k.pitch / print.pitch - 1) < 0.1 && same(k))) kept.push(print);
    }
    if (kept.length) merged[side] = kept;
  }
  return merged;
}

type Strip = (from: number, to: number) => number[] | null;

const pitchOf = (grid: Grid, side: Side): number => (side === 'left' || side === 'right' ? grid.pitchX : grid.pitchY);

/**
 * The mean colour (r, g, b) of what lies `from` to `to` pixels beyond the side's edge (negative: inside the
 * grid), along the side's middle (half a pitch in from each end: a frame's corners differ); null past the
 * image, or past the window when given.
 */
function beyond(image: RgbaImage, grid: Grid, side: Side, window?: Rect): Strip {
  const { left, top, right, bottom } = gridEdges(grid);
  const vertical = side === 'left' || side === 'right';
  const [start, end] = vertical
    ? [top + grid.pitchY / 2, bottom - grid.pitchY / 2]
    : [left + grid.pitchX / 2, right - grid.pitchX / 2];
  const along = [Math.round(start), Math.round(end)] as const;
  const edge = { left, right, top, bottom }[side];
  const outward = side === 'left' || side === 'top' ? -1 : 1;
  const limit = vertical ? image.width : image.height;
  const [low, high] = window
    ? vertical
      ? [Math.max(0, window.left), Math.min(limit, window.left + window.width)]
      : [Math.max(0, window.top), Math.min(limit, window.top + window.height)]
    : [0, limit];
  return (from, to) => {
    const [a, b] = [edge + outward * from, edge + outward * to].sort((p, q) => p - q);
    return a < low || b > high ? null : stripMean(image, vertical, a, b, along);
  };
}

/** Mean colour (r, g, b after one another) of each band beyond the side; null when a band lies past the image. */
function sideBands(strip: Strip, pitch: number): number[] | null {
  const bands: number[] = [];
  for (let k = 0; k < BANDS; k++) {
    const band = strip(k * BAND * pitch, (k + 1) * BAND * pitch);
    if (!band) return null;
    bands.push(...band);
  }
  return bands;
}

/**
 * The side's print: a pixel-wide strip at a time, from LEAD pixels inside the edge to past the last band, or
 * to the window's edge; null when the edge itself lies past it.
 */
function framePrint(image: RgbaImage, grid: Grid, side: Side, window?: Rect): FramePrint | null {
  const strip = beyond(image, grid, side, window);
  const pitch = pitchOf(grid, side);
  const colours: number[] = [];
  let windowEdge = false;
  for (let i = -LEAD; i < Math.ceil(BANDS * BAND * pitch) + REACH && !windowEdge; i++) {
    const pixel = strip(i, i + 1);
    if (pixel) colours.push(...pixel.map((v) => Math.round(v)));
    else windowEdge = true;
  }
  if (colours.length < 3 * LEAD) return null;
  const print = { pitch: Math.round(pitch * 100) / 100, colours, rows: grid.rows, cols: grid.cols };
  return windowEdge ? { ...print, windowEdge } : print;
}

/**
 * Whether a print stops short of the board's outer line and the band beyond it, unshifted: its layout's window
 * ends there. (Bands past the end of a longer print are not compared.)
 */
const isShort = (print: FramePrint): boolean => print.colours.length / 3 < LEAD + 2 * BAND * print.pitch;

/** The bands a print shows at its own pitch; NaN past its end. */
function printBands(print: FramePrint): number[] {
  const sums = cumulative(print);
  const strips = sums.length / 3 - 1;
  return Array.from({ length: BANDS }, (_, k) =>
    [0, 1, 2].map((ch) => {
      const [a, b] = [k * BAND * print.pitch + LEAD, (k + 1) * BAND * print.pitch + LEAD];
      return b > strips ? NaN : printMean(sums, ch, a, b);
    }),
  ).flat();
}

/**
 * Shifts tried between a print and what is seen, in pixels of the coarser of the two images, nearest first:
 * the grid's edge is found to within two (a JPEG's or a rescaled copy's grid drifts by that much). Each band
 * may then move by up to JITTER more: resampling moves a frame's lines by part of a pixel.
 */
const SHIFTS = [0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75, -1, 1, -1.25, 1.25, -1.5, 1.5, -1.75, 1.75, -2, 2];
const JITTER = [-0.5, -0.25, 0, 0.25, 0.5];

/**
 * The shifts are held to this share of a cell: on a board shown small (10 px cells) two pixels are a fifth of a
 * cell, enough for a grey window to match a grey frame shifted past its bevel.
 */
const MAX_SHIFT = 0.1;

/**
 * Whether the bands seen are within `tolerance` of the print as it would look at `pitch`, at some shift. The
 * first band holds the board's own outer line, whose colour follows its cells (xbomb draws it green beside
 * open cells once a game is lost) and whose width follows the scale KMines draws at: of it, only the step to
 * the next band is asked for, at least LINE_KEPT of the print's. Each other band: its largest channel
 * difference at its best jitter, less LINE_SLACK of the range it takes over the jitters (a band across a
 * line of the frame can so take colours near the line's sides; where the frame is plain it must show its
 * colour). Jitters that take a band past a print's end are left out; a band past it at every one is not compared.
 */
function printMatches(print: FramePrint, bands: number[], pitch: number, tolerance: number, strip?: Strip): boolean {
  const sums = cumulative(print);
  const strips = sums.length / 3 - 1;
  const blur = 0.5 * Math.max(0, 1 / print.pitch - 1 / pitch);
  const pixel = Math.max(1 / pitch, 1 / print.pitch);
  const bandAt = (k: number, at: number, ch: number): number | null => {
    const [a, b] = [(k * BAND - blur + at) * print.pitch + LEAD, ((k + 1) * BAND + blur + at) * print.pitch + LEAD];
    return a < 0 || b > strips ? null : printMean(sums, ch, a, b);
  };
  const seenStep = Math.max(...[0, 1, 2].map((ch) => Math.abs(bands[ch] - bands[3 + ch])));
  return SHIFTS.filter((shift) => Math.abs(shift) * pixel <= MAX_SHIFT + 1e-9).some((shift) => {
    let step = Infinity;
    for (const jitter of JITTER) {
      let jittered = 0;
      for (let ch = 0; ch < 3; ch++) {
        const [line, next] = [bandAt(0, (shift + jitter) * pixel, ch), bandAt(1, (shift + jitter) * pixel, ch)];
        jittered = line === null || next === null ? Infinity : Math.max(jittered, Math.abs(line - next));
      }
      step = Math.min(step, jittered);
    }
    if (!(seenStep >= LINE_KEPT * step - tolerance)) return false;
    for (let k = 1; k < BANDS; k++) {
      if (Number.isNaN(bands[3 * k])) continue;
      let nearest = Infinity;
      const [low, high] = [
        [Infinity, Infinity, Infinity],
        [-Infinity, -Infinity, -Infinity],
      ];
      jitters: for (const jitter of JITTER) {
        let off = 0;
        for (let ch = 0; ch < 3; ch++) {
          const seen = bandAt(k, (shift + jitter) * pixel, ch);
          if (seen === null) continue jitters;
          off = Math.max(off, Math.abs(seen - bands[3 * k + ch]));
          [low[ch], high[ch]] = [Math.min(low[ch], seen), Math.max(high[ch], seen)];
        }
        nearest = Math.min(nearest, off);
      }
      if (low[0] === Infinity) continue;
      const range = Math.max(0, high[0] - low[0], high[1] - low[1], high[2] - low[2]);
      if (!(nearest - LINE_SLACK * range <= tolerance)) return false;
    }
    return !(print.windowEdge && strip && marginGoesOn(print, strip, pitch, shift * pixel, tolerance));
  });
}

/**
 * Whether the frame's margin is seen going on past where the print's window ended: what is seen a pixel past
 * that edge (half a pixel off it) has the colour of what is seen a pixel inside it, or of the print's last pixel
 * but one (its last can be the window's own border line) — a window over the board (past the game's window lies
 * its border or the desktop). Nothing seen there (past the image) is no sign either way. `at`: the shift, in
 * pitches.
 */
function marginGoesOn(print: FramePrint, strip: Strip, pitch: number, at: number, tolerance: number): boolean {
  const edge = (print.colours.length / 3 - LEAD - at * print.pitch) * (pitch / print.pitch);
  const past = strip(edge + 0.5, edge + 1.5);
  const inside = strip(edge - 1.5, edge - 0.5);
  const margin = print.colours.slice(-6, -3);
  const like = (colour: number[] | null) =>
    colour !== null && past !== null && [0, 1, 2].every((ch) => Math.abs(colour[ch] - past[ch]) <= tolerance);
  return like(inside) || like(margin);
}

/** Mean colour over the image's strips [a, b) across (fractional pixels weighed by their share) and `along`. */
function stripMean(
  image: RgbaImage,
  vertical: boolean,
  a: number,
  b: number,
  along: readonly [number, number],
): number[] {
  const sum = [0, 0, 0];
  let weight = 0;
  const step = vertical ? image.width * 4 : 4;
  for (let across = Math.floor(a); across < Math.ceil(b); across++) {
    const w = Math.min(b, across + 1) - Math.max(a, across);
    if (w <= 0) continue;
    let [r, g, bl] = [0, 0, 0];
    const start = vertical ? (along[0] * image.width + across) * 4 : (across * image.width + along[0]) * 4;
    for (let at = along[0], p = start; at < along[1]; at++, p += step) {
      r += image.data[p];
      g += image.data[p + 1];
      bl += image.data[p + 2];
    }
    [sum[0], sum[1], sum[2]] = [sum[0] + w * r, sum[1] + w * g, sum[2] + w * bl];
    weight += w * (along[1] - along[0]);
  }
  return sum.map((s) => s / weight);
}

const sumsOf = new WeakMap<FramePrint, Float64Array>();

/** A print's running sums: entry 3i + ch is channel ch summed over its strips before the i-th. */
function cumulative(print: FramePrint): Float64Array {
  let sums = sumsOf.get(print);
  if (!sums) {
    sums = new Float64Array(print.colours.length + 3);
    for (let i = 3; i < sums.length; i++) sums[i] = sums[i - 3] + print.colours[i - 3];
    sumsOf.set(print, sums);
  }
  return sums;
}

/** A print's mean in one channel over [a, b) of its strips (within them), fractional strips weighed by their share. */
function printMean(sums: Float64Array, ch: number, a: number, b: number): number {
  const upTo = (x: number) => {
    const i = Math.floor(x);
    const whole = sums[3 * i + ch];
    return x === i ? whole : whole + (x - i) * (sums[3 * (i + 1) + ch] - whole);
  };
  return (upTo(b) - upTo(a)) / (b - a);
}
