import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Coord, Grid, RgbaImage } from './types';

/** What to draw: cells as [row, col]. */
export interface Marks {
  /** Certain mines not flagged yet, and certain safe cells. */
  mines: Coord[];
  safe: Coord[];
  unreadable: Coord[];
  /** Flags proven to be mines, and flags proven wrong (certainly safe). */
  provenFlags: Coord[];
  wrongFlags: Coord[];
  /** One line shown at the top of the legend, e.g. a status other than ok. */
  headline?: string;
}

const MINE = '#e0191b';
const SAFE = '#14b83c';
const UNREADABLE = '#ff9800';

/** Draws the marks over the screenshot: the result is a PNG the size of the input. */
export async function render(image: RgbaImage, grid: Grid, marks: Marks): Promise<Buffer> {
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">`,
    ...marks.mines.map((c) => mineMark(grid, c)),
    ...marks.safe.map((c) => safeMark(grid, c)),
    ...marks.unreadable.map((c) => unreadableMark(grid, c)),
    ...marks.provenFlags.map((c) => provenFlagMark(grid, c)),
    ...marks.wrongFlags.map((c) => wrongFlagMark(grid, c)),
    legend(image, grid, marks),
    '</svg>',
  ].join('');
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: rawInfo(image) })
    .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/** Writes atomically: a temp file beside the target, then a rename, so a killed run leaves no half PNG. */
export async function writeFileAtomic(target: string, bytes: Buffer | string): Promise<void> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

export async function writePng(image: RgbaImage, target: string): Promise<void> {
  const png = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: rawInfo(image) })
    .png()
    .toBuffer();
  await writeFileAtomic(target, png);
}

function rawInfo(image: RgbaImage): { width: number; height: number; channels: 4 } {
  return { width: image.width, height: image.height, channels: 4 };
}

function cellBox(grid: Grid, [row, col]: Coord): { x: number; y: number; w: number; h: number; cx: number; cy: number } {
  const x = grid.left + col * grid.pitchX;
  const y = grid.top + row * grid.pitchY;
  return { x, y, w: grid.pitchX, h: grid.pitchY, cx: x + grid.pitchX / 2, cy: y + grid.pitchY / 2 };
}

const f = (n: number): string => n.toFixed(1);

/** A certain mine: a red disc with a white ring and a dark outline — readable on light and dark skins. */
function mineMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const r = Math.min(b.w, b.h) * 0.3;
  const stroke = Math.max(1, r * 0.28);
  return `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r)}" fill="${MINE}" stroke="white" stroke-width="${f(stroke)}"/>`
    + `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r + stroke / 2 + 0.5)}" fill="none" stroke="#200" stroke-width="1"/>`;
}

/** A certain safe cell: a green check mark with a dark edge. */
function safeMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const s = Math.min(b.w, b.h);
  const d = `M${f(b.x + s * 0.2)},${f(b.y + s * 0.52)} L${f(b.x + s * 0.42)},${f(b.y + s * 0.74)} L${f(b.x + s * 0.8)},${f(b.y + s * 0.26)}`;
  const w = Math.max(1.5, s * 0.16);
  return `<path d="${d}" fill="none" stroke="#032" stroke-width="${f(w + 2)}" stroke-linecap="round" stroke-linejoin="round"/>`
    + `<path d="${d}" fill="none" stroke="${SAFE}" stroke-width="${f(w)}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** An unreadable cell: an orange dashed frame. */
function unreadableMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const w = Math.max(1, Math.min(b.w, b.h) * 0.1);
  return `<rect x="${f(b.x + w / 2)}" y="${f(b.y + w / 2)}" width="${f(b.w - w)}" height="${f(b.h - w)}" fill="none" `
    + `stroke="${UNREADABLE}" stroke-width="${f(w)}" stroke-dasharray="${f(w * 2)},${f(w)}"/>`;
}

/** A flag the counts prove: a thin red ring, so the flag itself stays visible. */
function provenFlagMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const r = Math.min(b.w, b.h) * 0.44;
  return `<circle cx="${f(b.cx)}" cy="${f(b.cy)}" r="${f(r)}" fill="none" stroke="${MINE}" stroke-width="${f(Math.max(1, r * 0.12))}"/>`;
}

/** A flag the counts prove wrong: a magenta cross over it. */
function wrongFlagMark(grid: Grid, cell: Coord): string {
  const b = cellBox(grid, cell);
  const s = Math.min(b.w, b.h);
  const d = `M${f(b.x + s * 0.2)},${f(b.y + s * 0.2)} L${f(b.x + s * 0.8)},${f(b.y + s * 0.8)} M${f(b.x + s * 0.8)},${f(b.y + s * 0.2)} L${f(b.x + s * 0.2)},${f(b.y + s * 0.8)}`;
  return `<path d="${d}" stroke="#d0f" stroke-width="${f(Math.max(1.5, s * 0.14))}" stroke-linecap="round"/>`;
}

/** Counts beside the marks' own symbols, in a box under the board (above it, or inside, when there is no room). */
function legend(image: RgbaImage, grid: Grid, marks: Marks): string {
  const size = Math.round(Math.min(Math.max(grid.pitchY * 0.6, 11), 22));
  const key: Grid = { rows: 1, cols: 1, left: 0, top: 0, pitchX: size * 1.3, pitchY: size * 1.3 };
  const items: [string, string][] = [
    [mineMark(key, [0, 0]), `${marks.mines.length} mines`],
    [safeMark(key, [0, 0]), `${marks.safe.length} safe`],
    ...(marks.unreadable.length ? [[unreadableMark(key, [0, 0]), `${marks.unreadable.length} unreadable`] as [string, string]] : []),
    ...(marks.wrongFlags.length ? [[wrongFlagMark(key, [0, 0]), `${marks.wrongFlags.length} wrong flags`] as [string, string]] : []),
  ];
  const widths = items.map(([, text]) => size * 1.6 + text.length * size * 0.66 + size * 1.4);
  const headline = marks.headline ? size * 0.62 * marks.headline.length + size : 0;
  const width = Math.min(image.width, Math.max(widths.reduce((a, b) => a + b, size * 0.4), headline));
  const height = size * (marks.headline ? 3.4 : 1.9);
  const bottom = grid.top + grid.rows * grid.pitchY;
  const top = bottom + height + 2 <= image.height ? bottom + 2 : grid.top - height - 2 >= 0 ? grid.top - height - 2 : image.height - height;
  const left = Math.max(0, Math.min(grid.left, image.width - width));
  const font = `font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" fill="white"`;
  let x = left + size * 0.4;
  const row = top + (marks.headline ? size * 1.5 : 0);
  const parts = items.map(([symbol, text], i) => {
    const at = x;
    x += widths[i];
    return `<g transform="translate(${f(at)},${f(row + size * 0.3)})">${symbol}</g><text x="${f(at + size * 1.6)}" y="${f(row + size * 1.3)}" ${font}>${text}</text>`;
  });
  const title = marks.headline ? `<text x="${f(left + size * 0.4)}" y="${f(top + size * 1.2)}" ${font} font-weight="bold">${escapeXml(marks.headline)}</text>` : '';
  return `<rect x="${f(left)}" y="${f(top)}" width="${f(width)}" height="${f(height)}" rx="${f(size / 3)}" fill="#000" fill-opacity="0.75"/>${title}${parts.join('')}`;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}
