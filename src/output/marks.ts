// The shape of each mark, as SVG over one cell: distinct colour and shape, readable on light and dark skins.
import type { Coord, Grid, Rect } from '../common/types';
import { cellLeft, cellTop } from '../image/pixels';

/** What to draw: cells as [row, col]. */
export interface Marks {
  /** Certain mines not flagged yet, and certain safe cells. */
  mines: Coord[];
  safe: Coord[];
  unreadable: Coord[];
  /** Flags proven to be mines, flags the counts leave open, and flags proven wrong (certainly safe). */
  provenFlags: Coord[];
  unprovenFlags?: Coord[];
  wrongFlags: Coord[];
  /** One line shown at the top of the legend, e.g. a status other than ok. */
  headline?: string;
  /** Open cells whose counts cannot all hold (an inconsistent board). */
  conflict?: Coord[];
  /** The cell to try when nothing is certainly safe, and its mine probability. */
  bestGuess?: { cell: Coord; p: number } | null;
  /** Heat map: mine probability of the hidden cells that are not certain. */
  heat?: { cell: Coord; p: number }[];
  /** A part of the screenshot the legend should not cover: the mine counter as read. */
  keepClear?: Rect | null;
}

const MINE = '#e0191b';
const SAFE = '#14b83c';
const UNREADABLE = '#ff9800';
const CONFLICT = '#ffd400';
const GUESS = '#1e88e5';

function cellBox(
  grid: Grid,
  [row, col]: Coord,
): { x: number; y: number; w: number; h: number; cx: number; cy: number } {
  const x = cellLeft(grid, col);
  const y = cellTop(grid, row);
  return { x, y, w: grid.pitchX, h: grid.pitchY, cx: x + grid.pitchX / 2, cy: y + grid.pitchY / 2 };
}

export const f = (n: number): string => n.toFixed(1);

/** A certain mine: a red disc with a white ring and a dark outline — readable on light and dark skins. */
export function mineMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const r = Math.min(b.w, b.h) * 0.3;
  const stroke = Math.max(1, r * 0.28);
  return (
    `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r)}" fill="${MINE}" stroke="white" stroke-width="${f(stroke)}"/>` +
    `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r + stroke / 2 + 0.5)}" ` +
    'fill="none" stroke="#200" stroke-width="1"/>'
  );
}

/** A certain safe cell: a green check mark with a dark edge. */
export function safeMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const s = Math.min(b.w, b.h);
  const d =
    `M${f(b.x + s * 0.2)},${f(b.y + s * 0.52)} L${f(b.x + s * 0.42)},${f(b.y + s * 0.74)} ` +
    `L${f(b.x + s * 0.8)},${f(b.y + s * 0.26)}`;
  const w = Math.max(1.5, s * 0.16);
  return (
    `<path d="${d}" fill="none" stroke="#032" stroke-width="${f(w + 2)}" ` +
    'stroke-linecap="round" stroke-linejoin="round"/>' +
    `<path d="${d}" fill="none" stroke="${SAFE}" stroke-width="${f(w)}" ` +
    'stroke-linecap="round" stroke-linejoin="round"/>'
  );
}

/** An unreadable cell: an orange dashed frame. */
export function unreadableMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const w = Math.max(1, Math.min(b.w, b.h) * 0.1);
  return (
    `<rect x="${f(b.x + w / 2)}" y="${f(b.y + w / 2)}" width="${f(b.w - w)}" height="${f(b.h - w)}" fill="none" ` +
    `stroke="${UNREADABLE}" stroke-width="${f(w)}" stroke-dasharray="${f(w * 2)},${f(w)}"/>`
  );
}

/** A flag the counts prove: a thin red ring, so the flag itself stays visible. */
export function provenFlagMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const r = Math.min(b.w, b.h) * 0.44;
  return (
    `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r)}" fill="none" stroke="${MINE}" ` +
    `stroke-width="${f(Math.max(1, r * 0.12))}"/>`
  );
}

/** A flag the counts neither prove nor refute: a dashed white ring. */
export function unprovenFlagMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const r = Math.min(b.w, b.h) * 0.44;
  const w = Math.max(1, r * 0.12);
  return (
    `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r)}" fill="none" stroke="#000" stroke-width="${f(w + 1.5)}"/>` +
    `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r)}" fill="none" stroke="white" stroke-width="${f(w)}" ` +
    `stroke-dasharray="${f(w * 2.5)},${f(w * 1.5)}"/>`
  );
}

/** A flag the counts prove wrong: a magenta cross over it. */
export function wrongFlagMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const s = Math.min(b.w, b.h);
  const d =
    `M${f(b.x + s * 0.2)},${f(b.y + s * 0.2)} L${f(b.x + s * 0.8)},${f(b.y + s * 0.8)} ` +
    `M${f(b.x + s * 0.8)},${f(b.y + s * 0.2)} L${f(b.x + s * 0.2)},${f(b.y + s * 0.8)}`;
  return `<path d="${d}" stroke="#d0f" stroke-width="${f(Math.max(1.5, s * 0.14))}" stroke-linecap="round"/>`;
}

/** Probability as green → yellow → red, drawn translucent so the cell stays readable. */
export const HEAT_GRADIENT =
  '<defs><linearGradient id="heat"><stop offset="0" stop-color="hsl(120,85%,45%)"/>' +
  '<stop offset="0.5" stop-color="hsl(60,85%,45%)"/><stop offset="1" stop-color="hsl(0,85%,45%)"/>' +
  '</linearGradient></defs>';

export function heatMark(grid: Grid, cell: Coord, p: number): string {
  const b = cellBox(grid, cell);
  const fill =
    `<rect x="${f(b.x + 1)}" y="${f(b.y + 1)}" width="${f(b.w - 2)}" height="${f(b.h - 2)}" ` +
    `fill="hsl(${f(120 * (1 - p))},85%,45%)" fill-opacity="0.6"/>`;
  if (Math.min(b.w, b.h) < 18) return fill;
  const size = Math.min(b.w, b.h) * 0.42;
  const text = p < 0.005 ? '<1' : p > 0.995 ? '>99' : String(Math.round(p * 100));
  return (
    `${fill}<text x="${f(b.cx)}" y="${f(b.cy + size * 0.36)}" font-family="DejaVu Sans, Arial, sans-serif" ` +
    `font-size="${f(size)}" font-weight="bold" text-anchor="middle" fill="white" stroke="#000" ` +
    `stroke-width="${f(size * 0.18)}" paint-order="stroke">${text}</text>`
  );
}

/** The heat map's key: its colours from safe to mine, in a strip across the middle of the key's cell. */
export function heatKey(key: Grid): string {
  return (
    `<rect x="${f(key.left)}" y="${f(key.top + key.pitchY * 0.25)}" width="${f(key.pitchX)}" ` +
    `height="${f(key.pitchY * 0.5)}" fill="url(#heat)" stroke="#000" stroke-width="0.5"/>`
  );
}

/** A count in a conflict: a thick yellow frame with a dark edge. */
export function conflictMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const w = Math.max(1.5, Math.min(b.w, b.h) * 0.14);
  const frame = (inset: number, stroke: string, width: number) =>
    `<rect x="${f(b.x + inset)}" y="${f(b.y + inset)}" width="${f(b.w - 2 * inset)}" height="${f(b.h - 2 * inset)}" ` +
    `fill="none" stroke="${stroke}" stroke-width="${f(width)}"/>`;
  return frame(w / 2, '#000', w + 2) + frame(w / 2, CONFLICT, w);
}

/** The best guess: a blue ring with a question mark. */
export function guessMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const r = Math.min(b.w, b.h) * 0.4;
  const size = r * 1.3;
  return (
    `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r)}" fill="${GUESS}" fill-opacity="0.85" stroke="white" ` +
    `stroke-width="${f(Math.max(1, r * 0.18))}"/>` +
    `<text x="${f(b.cx)}" y="${f(b.cy + size * 0.36)}" font-family="DejaVu Sans, Arial, sans-serif" ` +
    `font-size="${f(size)}" font-weight="bold" text-anchor="middle" fill="white">?</text>`
  );
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}
