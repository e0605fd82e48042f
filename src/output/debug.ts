// The --debug picture, for a bug report: the located region, the fitted grid, and per cell what was read
// and by how much it beat the runner-up. Drawn on the board's area of the screenshot, enlarged so that
// even 9 px cells carry legible labels.
import type { Analysis, Grid, Reading, Rect, RgbaImage } from '../common/types';
import { escapeXml, f } from './marks';
import { cellLeft, cellTop } from '../image/pixels';

export interface DebugView {
  /** The part of the screenshot shown, and how much it is enlarged. */
  crop: Rect;
  scale: number;
  /** SVG of the crop's enlarged size. */
  svg: string;
}

/** Room above the board for the caption, in screenshot pixels. */
const CAPTION = 44;
/** Cells are drawn at least this big. */
const MIN_PITCH = 40;
/** The enlarged picture stays within this many pixels a side. */
const MAX_SIDE = 4000;

export function debugView(image: RgbaImage, analysis: Analysis): DebugView | null {
  const { grid } = analysis;
  if (grid === null) return null;
  const pitch = Math.min(grid.pitchX, grid.pitchY);
  const margin = Math.max(12, pitch);
  const crop = clip(image, {
    left: Math.floor(grid.left - margin),
    top: Math.floor(grid.top - margin - CAPTION),
    width: Math.ceil(grid.cols * grid.pitchX + 2 * margin),
    height: Math.ceil(grid.rows * grid.pitchY + 2 * margin + CAPTION),
  });
  const scale = Math.max(1, Math.min(MIN_PITCH / pitch, MAX_SIDE / Math.max(crop.width, crop.height)));
  const at = (x: number, y: number): [number, number] => [(x - crop.left) * scale, (y - crop.top) * scale];
  const parts = [
    regionBox(analysis, at),
    gridLines(grid, at),
    ...(analysis.readings ?? []).map((r) => cellLabel(grid, r, at, pitch * scale)),
    caption(analysis, crop.width * scale),
  ];
  const [width, height] = [Math.round(crop.width * scale), Math.round(crop.height * scale)];
  return {
    crop,
    scale,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`,
  };
}

type At = (x: number, y: number) => [number, number];

function clip(image: RgbaImage, r: Rect): Rect {
  const left = Math.max(0, r.left);
  const top = Math.max(0, r.top);
  return {
    left,
    top,
    width: Math.max(1, Math.min(image.width, r.left + r.width) - left),
    height: Math.max(1, Math.min(image.height, r.top + r.height) - top),
  };
}

function regionBox({ region }: Analysis, at: At): string {
  if (region === null) return '';
  const [x0, y0] = at(region.left, region.top);
  const [x1, y1] = at(region.left + region.width, region.top + region.height);
  return (
    `<rect x="${f(x0 - 3)}" y="${f(y0 - 3)}" width="${f(x1 - x0 + 6)}" height="${f(y1 - y0 + 6)}" ` +
    `fill="none" stroke="#f0f" stroke-width="3"/>`
  );
}

function gridLines(grid: Grid, at: At): string {
  const lines: string[] = [];
  const [, y0] = at(0, cellTop(grid, 0));
  const [, y1] = at(0, cellTop(grid, grid.rows - 1) + grid.pitchY);
  const [x0] = at(cellLeft(grid, 0), 0);
  const [x1] = at(cellLeft(grid, grid.cols - 1) + grid.pitchX, 0);
  for (let c = 0; c < grid.cols; c++) lines.push(`M${f(at(cellLeft(grid, c), 0)[0])},${f(y0)}V${f(y1)}`);
  for (let r = 0; r < grid.rows; r++) lines.push(`M${f(x0)},${f(at(0, cellTop(grid, r))[1])}H${f(x1)}`);
  lines.push(`M${f(x1)},${f(y0)}V${f(y1)}M${f(x0)},${f(y1)}H${f(x1)}`);
  return `<path d="${lines.join('')}" stroke="#0ff" stroke-width="1" fill="none" opacity="0.8"/>`;
}

/**
 * The label read (top left; orange "?best" when unreadable) and the margin: how much farther (RMS, 0-255)
 * the runner-up template is than the best (bottom right; red when the best is not well ahead).
 */
function cellLabel(grid: Grid, r: Reading, at: At, size: number): string {
  const [x, y] = at(cellLeft(grid, r.col), cellTop(grid, r.row));
  const font = Math.max(9, size * 0.3);
  const label = r.unreadable ? `?${r.best}` : r.cell;
  const margin = r.runnerUpDistance - r.distance;
  const ahead = r.distance / r.runnerUpDistance;
  const colour = r.unreadable ? '#ff9800' : ahead > 0.5 ? '#ff5252' : ahead > 0.25 ? '#ffd400' : '#69f0ae';
  const text = (tx: number, ty: number, s: string, fill: string, anchor: string) =>
    `<text x="${f(tx)}" y="${f(ty)}" font-family="DejaVu Sans Mono, monospace" font-size="${f(font)}" ` +
    `font-weight="bold" text-anchor="${anchor}" ` +
    `fill="${fill}" stroke="#000" stroke-width="${f(font * 0.22)}" paint-order="stroke">${escapeXml(s)}</text>`;
  return (
    text(x + 2, y + font, label, r.unreadable ? '#ff9800' : '#fff', 'start') +
    text(x + size - 2, y + size - 3, Number.isFinite(margin) ? margin.toFixed(0) : '-', colour, 'end')
  );
}

function caption(analysis: Analysis, width: number): string {
  const { grid, skin, skinFit } = analysis;
  const words = [
    grid
      ? `${grid.rows}×${grid.cols} at (${grid.left.toFixed(1)}, ${grid.top.toFixed(1)}) ` +
        `pitch ${grid.pitchX.toFixed(2)}×${grid.pitchY.toFixed(2)}`
      : '',
    skin
      ? `skin ${skin}` +
        (skinFit ? ` mean distance ${skinFit.meanDistance.toFixed(1)} / limit ${skinFit.maxDistance}` : '')
      : '',
    counterWords(analysis),
    analysis.error ?? analysis.status,
  ].filter(Boolean);
  const lines: string[] = [];
  for (const w of words) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last].length + w.length + 3) * 7.2 < width - 12) lines[last] += ` · ${w}`;
    else lines.push(w);
  }
  return (
    `<rect width="${f(width)}" height="${4 + 18 * lines.length}" fill="#000" fill-opacity="0.8"/>` +
    lines
      .map(
        (line, i) =>
          `<text x="6" y="${16 + 18 * i}" font-family="DejaVu Sans, sans-serif" font-size="13" fill="#fff">` +
          `${escapeXml(line)}</text>`,
      )
      .join('')
  );
}

function counterWords({ counter }: Analysis): string {
  if (!counter) return '';
  const box = counter.box ? ` at (${counter.box.left.toFixed(0)}, ${counter.box.top.toFixed(0)})` : '';
  return counter.text === null
    ? 'counter not read'
    : `counter '${counter.text}'${box}${counter.used ? ` → ${counter.total} mines` : ' not used'}`;
}
