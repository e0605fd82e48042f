// A board that may go on past the image: cut off by the edge of the screenshot. Its counts along that side see
// cells not read, so they cannot be used, nor a mine total.
import type { Grid, Reading, Rect, RgbaImage, Side } from '../common/types';
import { cellLeft, cellTop, gridEdges } from '../image/pixels';
import { debuglog } from 'node:util';

const trace = debuglog('mine-assist');

export type { Side };

/**
 * The sides on which the board may go on past the image: less than a cell between the grid and the
 * image's edge, and that strip is not plain or is crossed at the grid's lines. A frame or window border is
 * plain along its length, or a fine pattern that repeats every few pixels (ace's dotted backdrop); a strip
 * of cut cells is crossed by their borders every pitch, even where the cells are flat tiles with faint gaps
 * (GNOME Mines) and the strip is plain on the whole; or some of it looks like the edge of a covered cell
 * (`showsCells`). A strip too thin to tell counts as cut, but where the skin knows the game's window ends there
 * (`windowed`: locate/frame.ts `windowSides`) a pixel is enough to look at.
 */
export function cutSides(image: RgbaImage, grid: Grid, readings: Reading[] = [], windowed: Side[] = []): Side[] {
  const { left, top, right, bottom } = gridEdges(grid);
  const least = (side: Side) => (windowed.includes(side) ? 1 : MIN_STRIP);
  // from the edge, the gap, or less where a strip of the least width would not be left (a windowed side: down to none)
  const [gapX, gapY] = [GAP * grid.pitchX, GAP * grid.pitchY].map((g) => Math.max(1, Math.round(g)));
  const near = (side: Side, edge: number, far: number, gap: number) =>
    edge +
    Math.sign(far - edge) *
      Math.max(windowed.includes(side) ? 0 : 1, Math.min(gap, Math.abs(far - edge) - least(side)));
  const strips: Strip[] = [
    {
      side: 'left',
      from: 0,
      to: near('left', Math.floor(left), 0, gapX),
      alongFrom: top,
      alongTo: bottom,
      vertical: true,
    },
    {
      side: 'right',
      from: near('right', Math.ceil(right), image.width, gapX),
      to: image.width,
      alongFrom: top,
      alongTo: bottom,
      vertical: true,
    },
    {
      side: 'top',
      from: 0,
      to: near('top', Math.floor(top), 0, gapY),
      alongFrom: left,
      alongTo: right,
      vertical: false,
    },
    {
      side: 'bottom',
      from: near('bottom', Math.ceil(bottom), image.height, gapY),
      to: image.height,
      alongFrom: left,
      alongTo: right,
      vertical: false,
    },
  ];
  return strips
    .filter((s) => s.to - s.from < (s.vertical ? grid.pitchX : grid.pitchY))
    .filter((s) => {
      if (s.to - s.from < least(s.side)) return true;
      const framed = windowed.includes(s.side);
      // the game's own frame may hold text (a menu bar): not plain, and stepped at lines here and there; half a
      // cell or more of it, matched pixel row by pixel row up to the window's edge, is not cut cells
      const lag = plainLag(image, s, s.vertical ? grid.pitchY : grid.pitchX) ?? (framed ? 1 : null);
      if (lag === null) return true;
      const deepFrame = framed && s.to - s.from >= (s.vertical ? grid.pitchX : grid.pitchY) / 2;
      return (!deepFrame && crossedAtLines(image, s, grid, lag)) || showsCells(image, s, grid, readings);
    })
    .map((s) => s.side);
}

/** Columns [from, to) over rows alongFrom–alongTo (vertical), or rows [from, to) over columns alongFrom–alongTo. */
interface Strip {
  side: Side;
  from: number;
  to: number;
  alongFrom: number;
  alongTo: number;
  vertical: boolean;
}

/**
 * The strip starts this share of a pitch (at least a pixel) from the grid's edge: a board scaled up blurs its outer
 * line out past the edge.
 */
const GAP = 0.04;

/** A strip thinner than this (pixels) cannot be told from the edge of a cell. */
const MIN_STRIP = 2;

/**
 * Mean grey step along a strip, at some lag of at most MAX_PERIOD pixels (a sixth of a cell on boards drawn
 * larger: a backdrop's pattern scales with the display), up to which it is plain.
 */
const PLAIN = 12;
const MAX_PERIOD = 6;

/**
 * The lag at which the strip varies least (its pattern's period; 1 for a flat strip) if it is plain there, else
 * null.
 */
function plainLag(image: RgbaImage, strip: Strip, pitch: number): number | null {
  let best = { lag: 1, variation: Infinity };
  for (let lag = 1; lag <= Math.max(MAX_PERIOD, Math.round(pitch / 6)); lag++) {
    const v = variation(image, strip, lag);
    if (v < best.variation - 1e-9) best = { lag, variation: v };
  }
  return best.variation <= PLAIN ? best.lag : null;
}

/** Mean absolute grey step between pixels `lag` apart along the strip. */
function variation(image: RgbaImage, strip: Strip, lag: number): number {
  const [start, end] = alongRange(image, strip);
  let [sum, n] = [0, 0];
  for (let across = Math.max(0, strip.from); across < strip.to; across++) {
    for (let along = start; along < end - lag; along++) {
      sum += Math.abs(step(image, strip, across, along, lag));
      n++;
    }
  }
  return n ? sum / n : 0;
}

/**
 * Whether a visible grey step (between pixels `lag` apart: a plain pattern's period) lies within a few pixels
 * of most of the grid's inner lines where they cross the strip: the borders or gaps of cut cells. Text
 * in a menu bar steps at some lines, not at most; a fine backdrop pattern does not step at its own period.
 */
function crossedAtLines(image: RgbaImage, strip: Strip, grid: Grid, lag: number): boolean {
  const lines = strip.vertical
    ? Array.from({ length: grid.rows - 1 }, (_, k) => cellTop(grid, k + 1))
    : Array.from({ length: grid.cols - 1 }, (_, k) => cellLeft(grid, k + 1));
  const [start, end] = alongRange(image, strip);
  const reach = Math.max(LINE_REACH, Math.round(LINE_SHARE * (strip.vertical ? grid.pitchY : grid.pitchX)));
  const crossed = lines.filter((line) => {
    for (
      let along = Math.max(start, Math.round(line) - reach - lag + 1);
      along <= Math.min(end - lag - 1, Math.round(line) + reach);
      along++
    ) {
      for (let across = Math.max(0, strip.from); across < strip.to; across++)
        if (Math.abs(step(image, strip, across, along, lag)) >= LINE_STEP) return true;
    }
    return false;
  });
  return lines.length >= MIN_LINES && crossed.length >= LINES_CROSSED * lines.length;
}

/**
 * Pixels each way of a line a step is looked for: two, or this share of a cell on boards drawn larger (GNOME's gaps
 * between tiles, 8 px at 46 px cells, put the tiles' edges 4 px from the line).
 */
const LINE_REACH = 2;
const LINE_SHARE = 0.08;
const LINE_STEP = 12;
const MIN_LINES = 3;
const LINES_CROSSED = 0.7;

function alongRange(image: RgbaImage, strip: Strip): [number, number] {
  const limit = strip.vertical ? image.height : image.width;
  return [Math.max(0, Math.round(strip.alongFrom)), Math.min(limit - 1, Math.round(strip.alongTo))];
}

/** Grey at `along + lag` less grey at `along`, `across` the strip. */
function step(image: RgbaImage, strip: Strip, across: number, along: number, lag: number): number {
  return strip.vertical
    ? gray(image, across, along + lag) - gray(image, across, along)
    : gray(image, along + lag, across) - gray(image, along, across);
}

function gray(image: RgbaImage, x: number, y: number): number {
  const p = (y * image.width + x) * 4;
  return 0.3 * image.data[p] + 0.59 * image.data[p + 1] + 0.11 * image.data[p + 2];
}

/**
 * Whether the strip is not one thing along its length and some of it looks like the same slice of a covered cell
 * (hidden or flagged) in the grid: cells cut by the image's edge, only some of them covered. Open cells can look
 * like the backdrop around the board (ace draws both with one dotted pattern), so a strip of cut open cells may be
 * plain and uncrossed but for the few covered ones among them.
 */
function showsCells(image: RgbaImage, strip: Strip, grid: Grid, readings: Reading[]): boolean {
  const boxes = stripSegments(strip, grid);
  const segments = boxes.map((box) => meanOf(image, box)).filter((m) => !Number.isNaN(m[0]));
  const spread = Math.max(
    ...[0, 1, 2].map((ch) => Math.max(...segments.map((m) => m[ch])) - Math.min(...segments.map((m) => m[ch]))),
  );
  trace('strip %s: segments spread %s', strip.side, spread.toFixed(1));
  if (!(spread > SPREAD)) return false;
  const covered = readings.filter((r) => !r.unreadable && (r.cell === '.' || r.cell === 'F'));
  const sample = covered.filter((_, i) => i % Math.ceil(covered.length / MAX_SAMPLE) === 0);
  const slices = sample.flatMap((r) =>
    SLICE_SHIFTS.map((shift) =>
      meanOf(image, sliceOf(strip, grid, boxes[strip.vertical ? r.row : r.col], r.row, r.col, shift)),
    ),
  );
  const alike = (a: number[], b: number[]) => [0, 1, 2].every((ch) => Math.abs(a[ch] - b[ch]) <= ALIKE);
  return segments.some((segment) => slices.some((slice) => alike(segment, slice)));
}

/** Segments along a strip whose means differ by more than this (0-255, any channel) are not one frame. */
const SPREAD = 10;
/** A segment this near (0-255, each channel) a covered cell's slice shows that cell. */
const ALIKE = 8;
/** Covered cells sampled, and the slices taken a pixel each way (the grid's fractional place). */
const MAX_SAMPLE = 48;
const SLICE_SHIFTS = [-1, 0, 1];

/** The part of the strip beside each cell of the grid's edge, less the pixels near the grid's lines. */
function stripSegments(strip: Strip, grid: Grid): Rect[] {
  const count = strip.vertical ? grid.rows : grid.cols;
  const at = (k: number) => (strip.vertical ? cellTop(grid, k) : cellLeft(grid, k));
  return Array.from({ length: count }, (_, k) => {
    const [a, b] = [Math.ceil(at(k) + LINE_REACH + 1), Math.floor(at(k + 1) - LINE_REACH - 1)];
    return strip.vertical
      ? { left: strip.from, width: strip.to - strip.from, top: a, height: b - a }
      : { left: a, width: b - a, top: strip.from, height: strip.to - strip.from };
  });
}

/**
 * Where the strip's segment beside cell (row, col) (`segment`: in line with it) would lie in that cell, `shift` pixels
 * across: the same offsets from the cell's corner as from the corner of the cell cut off beyond the grid.
 */
function sliceOf(strip: Strip, grid: Grid, segment: Rect, row: number, col: number, shift: number): Rect {
  const { left, top, right, bottom } = gridEdges(grid);
  const beyondX = strip.side === 'left' ? left - grid.pitchX : strip.side === 'right' ? right : 0;
  const beyondY = strip.side === 'top' ? top - grid.pitchY : strip.side === 'bottom' ? bottom : 0;
  return strip.vertical
    ? { ...segment, left: strip.from + Math.round(cellLeft(grid, col) - beyondX) + shift }
    : { ...segment, top: strip.from + Math.round(cellTop(grid, row) - beyondY) + shift };
}

/** Mean r, g, b over the rectangle (clipped to the image). */
function meanOf(image: RgbaImage, box: Rect): number[] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.max(0, box.top); y < Math.min(image.height, box.top + box.height); y++) {
    for (let x = Math.max(0, box.left); x < Math.min(image.width, box.left + box.width); x++) {
      const p = (y * image.width + x) * 4;
      sum[0] += image.data[p];
      sum[1] += image.data[p + 1];
      sum[2] += image.data[p + 2];
      n++;
    }
  }
  return n ? sum.map((v) => v / n) : [NaN, NaN, NaN];
}
