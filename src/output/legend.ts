// The legend: each mark's symbol and how many there are, in a dark box under the board. It is laid out on whole
// pixels as pieces — the box's two ends and columns of its middle, each symbol, each digit of a count, each word —
// that look the same wherever they go, so render draws each piece once and stamps it on every later screenshot (a
// batch then rasterises no text).
import type { Grid, Rect, RgbaImage } from '../common/types';
import {
  conflictMark,
  escapeXml,
  guessMark,
  heatKey,
  type Marks,
  mineMark,
  provenFlagMark,
  safeMark,
  unprovenFlagMark,
  unreadableMark,
  wrongFlagMark,
} from './marks';

/** An SVG drawn on a picture `width` × `height`, whose top left corner goes at (left, top) on the screenshot. */
export interface Piece {
  svg: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Counts beside the marks' own symbols, in a box under the board (above it, or inside, when there is no room):
 * the box, then what is written in it, in the order to paint them.
 */
export function legend(image: RgbaImage, grid: Grid, marks: Marks): { box: Rect; pieces: Piece[] } {
  const size = Math.round(Math.min(Math.max(grid.pitchY * 0.6, 11), 22));
  const key: Grid = { rows: 1, cols: 1, left: PAD, top: PAD, pitchX: size * 1.3, pitchY: size * 1.3 };
  const items: [string, string][] = [
    [mineMark(key, [0, 0]), count(marks.mines.length, 'mine')],
    [safeMark(key, [0, 0]), `${marks.safe.length} safe`],
    ...(marks.unreadable.length
      ? [[unreadableMark(key, [0, 0]), `${marks.unreadable.length} unreadable`] as [string, string]]
      : []),
    ...(marks.provenFlags.length
      ? [[provenFlagMark(key, [0, 0]), `${count(marks.provenFlags.length, 'flag')} proven`] as [string, string]]
      : []),
    ...(marks.unprovenFlags?.length
      ? [[unprovenFlagMark(key, [0, 0]), `${count(marks.unprovenFlags.length, 'flag')} unproven`] as [string, string]]
      : []),
    ...(marks.wrongFlags.length
      ? [[wrongFlagMark(key, [0, 0]), count(marks.wrongFlags.length, 'wrong flag')] as [string, string]]
      : []),
    ...(marks.conflict?.length
      ? [[conflictMark(key, [0, 0]), count(marks.conflict.length, 'conflicting count')] as [string, string]]
      : []),
    ...(marks.bestGuess
      ? [[guessMark(key, [0, 0]), `best guess ${percentText(marks.bestGuess.p)}`] as [string, string]]
      : []),
    ...(marks.heat?.length ? [[heatKey(key), 'mine chance 0→100%'] as [string, string]] : []),
  ];
  const widths = items.map(([, text]) => size * 1.6 + text.length * size * 0.66 + size * 1.4);
  const headline = marks.headline ? size * 0.62 * marks.headline.length + size : 0;
  const width = Math.round(
    Math.min(
      image.width,
      Math.max(
        widths.reduce((a, b) => a + b, size * 0.4),
        headline,
      ),
    ),
  );
  const height = Math.round(size * (marks.headline ? 3.4 : 1.9));
  const left = Math.max(0, Math.min(Math.round(grid.left), image.width - width));
  const top = Math.round(legendTop(image, grid, { left, width, height }, marks.keepClear));
  const pieces: Piece[] = boxPieces(left, top, width, height, size / 3);
  if (marks.headline)
    pieces.push(textPiece(marks.headline, left + Math.round(size * 0.4), top + Math.round(size * 1.2), size, true));
  const row = top + (marks.headline ? Math.round(size * 1.5) : 0);
  const symbolSide = Math.ceil(size * 1.3) + 1 + 2 * PAD;
  let x = left + size * 0.4;
  items.forEach(([symbol, text], i) => {
    const at = Math.round(x);
    pieces.push(
      { svg: symbol, left: at - PAD, top: row + Math.round(size * 0.3) - PAD, width: symbolSide, height: symbolSide },
      ...written(text, at + Math.round(size * 1.6), row + Math.round(size * 1.3), size),
    );
    x += widths[i];
  });
  return { box: { left, top, width, height }, pieces };
}

/**
 * The box, a translucent rounded rectangle, as its two ends (rounded corners and a column past them) and columns of
 * its middle stamped across, MIDDLE at a time and then one at a time: each a clip of the same rectangle drawn just
 * wider than its two ends and MIDDLE columns. Drawn whole, a box would be a large tile of its own for each width (a
 * count gaining a digit widens it), kept (render.ts, tilecache.ts) beside a few small ones of marks.
 */
function boxPieces(left: number, top: number, width: number, height: number, rx: number): Piece[] {
  const end = Math.ceil(rx) + 1;
  if (width <= 2 * end + 1) return [{ svg: roundedBox(0, width, height, rx), left, top, width, height }];
  const clip = (from: number, w: number) =>
    `<svg width="${w}" height="${height}">${roundedBox(-from, 2 * end + MIDDLE, height, rx)}</svg>`;
  const pieces: Piece[] = [{ svg: clip(0, end), left, top, width: end, height }];
  let x = end;
  for (const step of [MIDDLE, 1]) {
    const middle = clip(end, step);
    for (; x + step <= width - end; x += step) pieces.push({ svg: middle, left: left + x, top, width: step, height });
  }
  pieces.push({ svg: clip(end + MIDDLE, end), left: left + width - end, top, width: end, height });
  return pieces;
}

/** Columns of the box's middle stamped at once. */
const MIDDLE = 16;

function roundedBox(x: number, width: number, height: number, rx: number): string {
  return (
    `<rect${x ? ` x="${x}"` : ''} width="${width}" height="${height}" rx="${rx.toFixed(1)}" ` +
    `fill="#000" fill-opacity="0.75"/>`
  );
}

/** Pixels around a piece's drawing, for its antialiased edges and the marks' outlines. */
const PAD = 3;

/** DejaVu Sans' advances, in ems: every digit's, and a space's. */
const DIGIT_ADVANCE = 1303 / 2048;
const SPACE_ADVANCE = 651 / 2048;

/**
 * A text whose baseline starts at (x, baseline): a count that leads it as a piece per digit, then the rest as one
 * piece; any other text as one piece.
 */
function written(text: string, x: number, baseline: number, size: number): Piece[] {
  const [, digits, rest] = /^(\d*)(.*)$/.exec(text) as RegExpExecArray;
  const pieces = [...digits].map((digit, i) =>
    textPiece(digit, x + Math.round(i * DIGIT_ADVANCE * size), baseline, size),
  );
  const after = digits.length * DIGIT_ADVANCE * size + (digits && rest.startsWith(' ') ? SPACE_ADVANCE * size : 0);
  const words = digits ? rest.trimStart() : rest;
  return words ? [...pieces, textPiece(words, x + Math.round(after), baseline, size)] : pieces;
}

/** White text on a piece wide enough for an em a character (no glyph of DejaVu Sans is wider; bold a tenth more). */
function textPiece(text: string, x: number, baseline: number, size: number, bold = false): Piece {
  const above = size + PAD;
  const font =
    `font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" fill="white"` +
    (bold ? ' font-weight="bold"' : '');
  return {
    svg: `<text x="${PAD}" y="${above}" ${font}>${escapeXml(text)}</text>`,
    left: x - PAD,
    top: baseline - above,
    width: Math.ceil(text.length * size * (bold ? 1.1 : 1)) + 2 * PAD,
    height: above + Math.ceil(size * 0.3) + PAD,
  };
}

/**
 * Under the board, else above it, else at the image's foot. A place that covers the mine counter gives way
 * to one under the counter (clear of the board), then to the next that fits.
 */
function legendTop(
  image: RgbaImage,
  grid: Grid,
  box: { left: number; width: number; height: number },
  keepClear: Rect | null | undefined,
): number {
  const { height } = box;
  const board: Rect = {
    left: grid.left,
    top: grid.top,
    width: grid.cols * grid.pitchX,
    height: grid.rows * grid.pitchY,
  };
  const fits = (y: number) => y >= 0 && y + height <= image.height;
  const clear = (y: number) => !overlaps({ ...box, top: y }, keepClear) && !overlaps({ ...box, top: y }, board);
  const below = board.top + board.height + 2;
  const places = [below, ...(keepClear ? [keepClear.top + 1.5 * keepClear.height] : []), grid.top - height - 2].filter(
    fits,
  );
  const usual = [below, grid.top - height - 2].filter(fits);
  return places.find(clear) ?? usual[0] ?? image.height - height;
}

function overlaps(a: Rect, b: Rect | null | undefined): boolean {
  return (
    !!b &&
    a.left < b.left + b.width &&
    b.left < a.left + a.width &&
    a.top < b.top + b.height &&
    b.top < a.top + a.height
  );
}

function percentText(p: number): string {
  return p > 0 && p < 0.001 ? '<0.1%' : `${(p * 100).toFixed(1)}%`;
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
