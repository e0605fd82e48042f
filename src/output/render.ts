import type { Grid, Rect, RgbaImage } from '../common/types';
import type { Marks } from './marks';
import { legend } from './legend';
import { type Stamp, stampSheet } from './stamps';
import { encodePngOver, recyclePixels } from '../speed/png';
import type { DebugView } from './debug';
import { vips } from '../image/vips';
import { rawInfo } from '../image/encode';
import { keepTiles, storedTile, storedTiles } from './tilecache';

export type { Marks } from './marks';

export interface RenderOptions {
  /**
   * The caller has no further use for the screenshot's pixels: the marks are painted onto them rather than onto a
   * copy, the PNG's rows are then written over them, and the next screenshot of that size is decoded into them
   * (speed/png.ts `recyclePixels`). A batch worker then allocates two whole screenshots less per file, which lowers
   * its peak memory and the number of full garbage collections.
   */
  consume?: boolean;
}

/**
 * Draws the marks over the screenshot: the result is a PNG the size of the input. What is rasterised is a small
 * sheet (stamps.ts): each look of a cell's marks and each piece of the legend once, stamped wherever it goes
 * (rasterising an SVG of the whole board costs more than encoding the PNG); a tile drawn for an earlier
 * screenshot, or by an earlier run (tilecache.ts), is not drawn again (`drawnTiles`), and a sheet with no new tile
 * is not rasterised at all: sharp is then not loaded.
 */
export async function render(image: RgbaImage, grid: Grid, marks: Marks, options: RenderOptions = {}): Promise<Buffer> {
  const fromDisk = new Map<string, RgbaImage>();
  const sheet = stampSheet(
    grid,
    marks,
    legend(image, grid, marks).pieces,
    (tile) => drawnTiles.has(tile) || onDisk(tile, fromDisk),
  );
  const pictures = new Map<string, RgbaImage>();
  for (const { tile } of sheet.stamps)
    if (!sheet.tiles.has(tile) && !pictures.has(tile)) pictures.set(tile, fromDisk.get(tile) ?? recallTile(tile));
  for (const [tile, picture] of fromDisk) rememberTile(tile, picture);
  if (sheet.tiles.size > 0) {
    const { data, info } = await vips()(Buffer.from(sheet.svg)).raw().toBuffer({ resolveWithObject: true });
    const drawn = { width: info.width, height: info.height, data };
    const fresh = new Map<string, RgbaImage>();
    for (const [tile, at] of sheet.tiles) fresh.set(tile, rememberTile(tile, cropped(drawn, at)));
    for (const [tile, picture] of fresh) pictures.set(tile, picture);
    keepTiles(fresh);
  }
  const out = options.consume ? image.data : image.data.slice();
  for (const stamp of sheet.stamps) paintOver(out, image, pictures.get(stamp.tile) as RgbaImage, stamp);
  const png = encodePngOver({ ...image, data: out }, image.opaque === true);
  if (options.consume) recyclePixels(out);
  return png;
}

/**
 * Tiles rasterised before, by their size and SVG (`Stamp.tile`), most recently used last: a batch of one game's
 * screenshots draws the same few looks again and again, and rasterising them is costly. At most TILE_BYTES of
 * pictures.
 */
const drawnTiles = new Map<string, RgbaImage>();
let tileBytes = 0;
const TILE_BYTES = 4 << 20;

function recallTile(tile: string): RgbaImage {
  const picture = drawnTiles.get(tile) as RgbaImage;
  drawnTiles.delete(tile);
  drawnTiles.set(tile, picture);
  return picture;
}

/** Whether an earlier run drew the tile (tilecache.ts); its picture is then put in `found`. */
function onDisk(tile: string, found: Map<string, RgbaImage>): boolean {
  const picture = storedTile(tile);
  if (picture) found.set(tile, picture);
  return picture !== undefined;
}

function rememberTile(tile: string, picture: RgbaImage): RgbaImage {
  tileBytes += picture.data.length - (drawnTiles.get(tile)?.data.length ?? 0);
  drawnTiles.delete(tile);
  drawnTiles.set(tile, picture);
  for (const [old, { data }] of drawnTiles) {
    if (tileBytes <= TILE_BYTES) break;
    drawnTiles.delete(old);
    tileBytes -= data.length;
  }
  return picture;
}

function cropped(sheet: RgbaImage, { left, top, width, height }: Rect): RgbaImage {
  const data = new Uint8Array(4 * width * height);
  for (let y = 0; y < height; y++)
    data.set(
      sheet.data.subarray(4 * ((top + y) * sheet.width + left), 4 * ((top + y) * sheet.width + left + width)),
      4 * y * width,
    );
  return { width, height, data };
}

let warmed: Promise<unknown> | undefined;

/**
 * Starts libvips' first text on its own threads (fontconfig finding the fonts is slow in a fresh process), to be
 * done by the time an annotated image is drawn. Once per process; what fails here is the drawing's to report. Not
 * when earlier runs left tiles on disk: the drawing is then likely to need none, and sharp is not loaded.
 */
export function warmRender(): void {
  if (warmed === undefined && storedTiles().size > 0) warmed = Promise.resolve();
  const text =
    '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">' +
    '<text y="8" font-family="DejaVu Sans, Arial, sans-serif" font-size="8">0</text></svg>';
  warmed ??= vips()(Buffer.from(text))
    .raw()
    .toBuffer()
    .catch(() => undefined);
}

/**
 * A tile's picture (straight alpha) painted over the pixels `out` (the image's size) at the stamp's place, clipped
 * to the image. Done here rather than by libvips' composite, which blends every pixel of the image. Over an
 * opaque pixel the blend is a whole number over 255, rounded: `over255`, in integers (the same numbers).
 */
function paintOver(
  out: Uint8Array,
  image: { width: number; height: number },
  tile: RgbaImage,
  { left, top }: Stamp,
): void {
  const x0 = Math.max(0, -left);
  const y0 = Math.max(0, -top);
  const x1 = Math.min(tile.width, image.width - left);
  const y1 = Math.min(tile.height, image.height - top);
  const from = tile.data;
  for (let y = y0; y < y1; y++) {
    for (
      let x = x0, o = (y * tile.width + x) * 4, p = ((top + y) * image.width + left + x) * 4;
      x < x1;
      x++, o += 4, p += 4
    ) {
      const a = from[o + 3];
      if (a === 0) continue;
      if (out[p + 3] !== 255) {
        blendOver(out, p, from, o);
        continue;
      }
      const b = 255 - a;
      out[p] = over255(from[o] * a + out[p] * b);
      out[p + 1] = over255(from[o + 1] * a + out[p + 1] * b);
      out[p + 2] = over255(from[o + 2] * a + out[p + 2] * b);
    }
  }
}

/** Pixel p of `out` under pixel o of `tile`, straight alpha, each channel rounded. */
function blendOver(out: Uint8Array, p: number, tile: Uint8Array, o: number): void {
  const a = tile[o + 3];
  const below = (out[p + 3] * (255 - a)) / 255;
  const alpha = a + below;
  for (let c = 0; c < 3; c++) out[p + c] = Math.round((tile[o + c] * a + out[p + c] * below) / alpha);
  out[p + 3] = Math.round(alpha);
}

/** Math.round(n / 255) for a whole n from 0 to 255 × 255 (checked for each in test/render.test.ts). */
export function over255(n: number): number {
  const t = n + 128;
  return (t + (t >> 8)) >> 8;
}

/** The --debug picture: the view's crop of the screenshot, enlarged (nearest neighbour), under its SVG. */
export async function renderDebug(image: RgbaImage, view: DebugView): Promise<Buffer> {
  const { crop, scale } = view;
  const enlarged = await vips()(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: rawInfo(image),
  })
    .extract(crop)
    .resize({ width: Math.round(crop.width * scale), height: Math.round(crop.height * scale), kernel: 'nearest' })
    .png()
    .toBuffer();
  return vips()(enlarged)
    .composite([{ input: Buffer.from(view.svg), left: 0, top: 0 }])
    .png()
    .toBuffer();
}
