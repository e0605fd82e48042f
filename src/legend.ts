// The legend: each mark's symbol and how many there are, in a dark box under the board.
import type { Grid, Rect, RgbaImage } from './types';
import { conflictMark, escapeXml, f, guessMark, heatKey, type Marks, mineMark, provenFlagMark, safeMark, unprovenFlagMark, unreadableMark, wrongFlagMark } from './marks';

/** Counts beside the marks' own symbols, in a box under the board (above it, or inside, when there is no room). */
export function legend(image: RgbaImage, grid: Grid, marks: Marks): { svg: string; box: Rect } {
  const size = Math.round(Math.min(Math.max(grid.pitchY * 0.6, 11), 22));
  const key: Grid = { rows: 1, cols: 1, left: 0, top: 0, pitchX: size * 1.3, pitchY: size * 1.3 };
  const items: [string, string][] = [
    [mineMark(key, [0, 0]), count(marks.mines.length, 'mine')],
    [safeMark(key, [0, 0]), `${marks.safe.length} safe`],
    ...(marks.unreadable.length ? [[unreadableMark(key, [0, 0]), `${marks.unreadable.length} unreadable`] as [string, string]] : []),
    ...(marks.provenFlags.length ? [[provenFlagMark(key, [0, 0]), `${count(marks.provenFlags.length, 'flag')} proven`] as [string, string]] : []),
    ...(marks.unprovenFlags?.length ? [[unprovenFlagMark(key, [0, 0]), `${count(marks.unprovenFlags.length, 'flag')} unproven`] as [string, string]] : []),
    ...(marks.wrongFlags.length ? [[wrongFlagMark(key, [0, 0]), count(marks.wrongFlags.length, 'wrong flag')] as [string, string]] : []),
    ...(marks.conflict?.length ? [[conflictMark(key, [0, 0]), count(marks.conflict.length, 'conflicting count')] as [string, string]] : []),
    ...(marks.bestGuess ? [[guessMark(key, [0, 0]), `best guess ${percentText(marks.bestGuess.p)}`] as [string, string]] : []),
    ...(marks.heat?.length ? [[heatKey(key), 'mine chance 0→100%'] as [string, string]] : []),
  ];
  const widths = items.map(([, text]) => size * 1.6 + text.length * size * 0.66 + size * 1.4);
  const headline = marks.headline ? size * 0.62 * marks.headline.length + size : 0;
  const width = Math.min(image.width, Math.max(widths.reduce((a, b) => a + b, size * 0.4), headline));
  const height = size * (marks.headline ? 3.4 : 1.9);
  const left = Math.max(0, Math.min(grid.left, image.width - width));
  const top = legendTop(image, grid, { left, width, height }, marks.keepClear);
  const font = `font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" fill="white"`;
  let x = left + size * 0.4;
  const row = top + (marks.headline ? size * 1.5 : 0);
  const parts = items.map(([symbol, text], i) => {
    const at = x;
    x += widths[i];
    return `<g transform="translate(${f(at)},${f(row + size * 0.3)})">${symbol}</g><text x="${f(at + size * 1.6)}" y="${f(row + size * 1.3)}" ${font}>${text}</text>`;
  });
  const title = marks.headline ? `<text x="${f(left + size * 0.4)}" y="${f(top + size * 1.2)}" ${font} font-weight="bold">${escapeXml(marks.headline)}</text>` : '';
  const svg = `<rect x="${f(left)}" y="${f(top)}" width="${f(width)}" height="${f(height)}" rx="${f(size / 3)}" fill="#000" fill-opacity="0.75"/>${title}${parts.join('')}`;
  return { svg, box: { left, top, width, height } };
}

/**
 * Under the board, else above it, else at the image's foot. A place that covers the mine counter gives way
 * to one under the counter (clear of the board), then to the next that fits.
 */
function legendTop(image: RgbaImage, grid: Grid, box: { left: number; width: number; height: number }, keepClear: Rect | null | undefined): number {
  const { height } = box;
  const board: Rect = { left: grid.left, top: grid.top, width: grid.cols * grid.pitchX, height: grid.rows * grid.pitchY };
  const fits = (y: number) => y >= 0 && y + height <= image.height;
  const clear = (y: number) => !overlaps({ ...box, top: y }, keepClear) && !overlaps({ ...box, top: y }, board);
  const below = board.top + board.height + 2;
  const places = [below, ...(keepClear ? [keepClear.top + 1.5 * keepClear.height] : []), grid.top - height - 2].filter(fits);
  const usual = [below, grid.top - height - 2].filter(fits);
  return places.find(clear) ?? usual[0] ?? image.height - height;
}

function overlaps(a: Rect, b: Rect | null | undefined): boolean {
  return !!b && a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

function percentText(p: number): string {
  return p > 0 && p < 0.001 ? '<0.1%' : `${(p * 100).toFixed(1)}%`;
}


const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
