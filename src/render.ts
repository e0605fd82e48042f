import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Grid, Rect, RgbaImage } from './types';
import { gridEdges } from './pixels';
import { conflictMark, guessMark, HEAT_GRADIENT, heatMark, type Marks, mineMark, provenFlagMark, safeMark, unprovenFlagMark, unreadableMark, wrongFlagMark } from './marks';
import { legend } from './legend';
import type { DebugView } from './debug';

export type { Marks } from './marks';

export interface RenderOptions {
  /**
   * The caller has no further use for the screenshot's pixels: the marks are painted onto them rather than onto a
   * copy (a batch worker then allocates a whole screenshot less per file, ~20 MB of peak memory at --jobs 2).
   */
  consume?: boolean;
}

/**
 * Draws the marks over the screenshot: the result is a PNG the size of the input. The SVG covers only the
 * board and the legend (rasterising a whole desktop-sized SVG costs more than encoding the PNG).
 */
export async function render(image: RgbaImage, grid: Grid, marks: Marks, options: RenderOptions = {}): Promise<Buffer> {
  const key = legend(image, grid, marks);
  const area = overlayArea(image, grid, key.box);
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${area.width}" height="${area.height}">`,
    HEAT_GRADIENT,
    `<g transform="translate(${-area.left},${-area.top})">`,
    ...(marks.heat ?? []).map(({ cell, p }) => heatMark(grid, cell, p)),
    ...marks.mines.map((c) => mineMark(grid, c)),
    ...marks.safe.map((c) => safeMark(grid, c)),
    ...marks.unreadable.map((c) => unreadableMark(grid, c)),
    ...marks.provenFlags.map((c) => provenFlagMark(grid, c)),
    ...(marks.unprovenFlags ?? []).map((c) => unprovenFlagMark(grid, c)),
    ...marks.wrongFlags.map((c) => wrongFlagMark(grid, c)),
    ...(marks.conflict ?? []).map((c) => conflictMark(grid, c)),
    ...(marks.bestGuess ? [guessMark(grid, marks.bestGuess.cell)] : []),
    key.svg,
    '</g></svg>',
  ].join('');
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  const overlay = { width: info.width, height: info.height, data };
  return pngOf({ ...image, data: paintedOver(image, overlay, area, options.consume ?? false) });
}

let warmed: Promise<unknown> | undefined;

/**
 * Starts libvips' first text and first PNG on its own threads (fontconfig finding the fonts, the encoder set up:
 * ~10 ms of a fresh process), to be done by the time an annotated image is drawn. Once per process; what fails
 * here is the drawing's to report.
 */
export function warmRender(): void {
  const text = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><text y="8" font-family="DejaVu Sans, Arial, sans-serif" font-size="8">0</text></svg>';
  warmed ??= Promise.all([
    sharp(Buffer.from(text)).raw().toBuffer(),
    sharp(Buffer.alloc(4), { raw: { width: 1, height: 1, channels: 4 } }).removeAlpha().png().toBuffer(),
  ]).catch(() => undefined);
}

/**
 * The image's pixels (a copy, unless `inPlace`) with the overlay (straight alpha) painted over at `at`. Done here
 * rather than by libvips' composite, which blends every pixel of the image: half the drawing time of a 1280×1024 shot.
 */
function paintedOver(image: RgbaImage, overlay: RgbaImage, at: Rect, inPlace: boolean): Uint8Array {
  const out = inPlace ? image.data : image.data.slice();
  const width = Math.min(overlay.width, image.width - at.left);
  const height = Math.min(overlay.height, image.height - at.top);
  for (let y = 0; y < height; y++) {
    for (let x = 0, o = y * overlay.width * 4, p = ((at.top + y) * image.width + at.left) * 4; x < width; x++, o += 4, p += 4) {
      const a = overlay.data[o + 3];
      if (a === 0) continue;
      const below = (out[p + 3] * (255 - a)) / 255;
      const alpha = a + below;
      for (let c = 0; c < 3; c++) out[p + c] = Math.round((overlay.data[o + c] * a + out[p + c] * below) / alpha);
      out[p + 3] = Math.round(alpha);
    }
  }
  return out;
}

/** The image as a PNG, without an alpha channel when the screenshot had none (an annotated shot ~40 % smaller). */
function pngOf(image: RgbaImage): Promise<Buffer> {
  const pixels = sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: rawInfo(image) });
  return (image.opaque ? pixels.removeAlpha() : pixels).png().toBuffer();
}

/** The board (and a cell around it, for marks' strokes) and the legend, within the image, in whole pixels. */
function overlayArea(image: RgbaImage, grid: Grid, legendBox: Rect): Rect {
  const board = gridEdges(grid);
  const left = Math.max(0, Math.floor(Math.min(board.left - grid.pitchX, legendBox.left)));
  const top = Math.max(0, Math.floor(Math.min(board.top - grid.pitchY, legendBox.top)));
  const right = Math.min(image.width, Math.ceil(Math.max(board.right + grid.pitchX, legendBox.left + legendBox.width)));
  const bottom = Math.min(image.height, Math.ceil(Math.max(board.bottom + grid.pitchY, legendBox.top + legendBox.height)));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/** The --debug picture: the view's crop of the screenshot, enlarged (nearest neighbour), under its SVG. */
export async function renderDebug(image: RgbaImage, view: DebugView): Promise<Buffer> {
  const { crop, scale } = view;
  const enlarged = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: rawInfo(image) })
    .extract(crop)
    .resize({ width: Math.round(crop.width * scale), height: Math.round(crop.height * scale), kernel: 'nearest' })
    .png()
    .toBuffer();
  return sharp(enlarged).composite([{ input: Buffer.from(view.svg), left: 0, top: 0 }]).png().toBuffer();
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
  await writeFileAtomic(target, await pngOf(image));
}

function rawInfo(image: RgbaImage): { width: number; height: number; channels: 4 } {
  return { width: image.width, height: image.height, channels: 4 };
}
