// PNGs read and written here rather than by sharp where that is cheaper. Read: plain PNGs (8-bit RGB or RGBA, not
// interlaced, no colour profile), as sharp writes a skin's templates: a skin is hundreds of tiny PNGs, and through
// sharp each costs two calls across threads (~0.6 ms, 0.45 s for the built-in skins and one counter); anything
// else is left to sharp (decode.ts). Written: the annotated screenshot (encodePngOver).
import { constants, crc32, deflateSync, inflateSync, type ZlibOptions } from 'node:zlib';
import type { RgbaImage } from './types';
import { Kernel } from './kernel';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Chunks that change no pixel: a PNG with any other besides IHDR, IDAT and IEND is not plain. */
const HARMLESS = new Set(['pHYs', 'tEXt', 'zTXt', 'iTXt', 'tIME', 'sRGB', 'bKGD']);

/** The pixels of a plain PNG, or null when the PNG is not plain (or not well formed): then sharp decides. */
export function readPlainPng(bytes: Buffer): RgbaImage | null {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(SIGNATURE)) return null;
  let header: { width: number; height: number; channels: number } | null = null;
  const data: Buffer[] = [];
  for (let at = 8; ; ) {
    if (at + 12 > bytes.length) return null;
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (body.length !== length) return null;
    at += 12 + length;
    if (type === 'IHDR') header = plainHeader(body);
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    else if (!HARMLESS.has(type)) return null;
    if (type === 'IHDR' && header === null) return null;
  }
  if (header === null || !data.length) return null;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(data));
  } catch {
    return null;
  }
  return unfiltered(raw, header);
}

function plainHeader(body: Buffer): { width: number; height: number; channels: number } | null {
  if (body.length !== 13) return null;
  const [depth, colour, compression, filter, interlace] = body.subarray(8, 13);
  const channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
  if (depth !== 8 || !channels || compression || filter || interlace) return null;
  const width = body.readUInt32BE(0);
  const height = body.readUInt32BE(4);
  return width > 0 && height > 0 && width * height <= MAX_PLAIN_PIXELS ? { width, height, channels } : null;
}

/** Plain PNGs read here are small (templates, glyphs); a larger one goes to sharp and its pixel limit. */
const MAX_PLAIN_PIXELS = 1 << 20;

/** Undoes each row's filter (None, Sub, Up, Average, Paeth) and widens RGB to RGBA. */
function unfiltered(raw: Buffer, { width, height, channels }: { width: number; height: number; channels: number }): RgbaImage | null {
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) return null;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const at = y * stride;
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? rows[at + i - channels] : 0;
      const up = y > 0 ? rows[at - stride + i] : 0;
      const upLeft = y > 0 && i >= channels ? rows[at - stride + i - channels] : 0;
      const predicted = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : -1;
      if (predicted < 0) return null;
      rows[at + i] = (line[i] + predicted) & 0xff;
    }
  }
  if (channels === 4) return { width, height, data: rows };
  const data = new Uint8Array(width * height * 4);
  for (let p = 0, q = 0; p < rows.length; p += 3, q += 4) {
    data[q] = rows[p];
    data[q + 1] = rows[p + 1];
    data[q + 2] = rows[p + 2];
    data[q + 3] = 255;
  }
  return { width, height, data };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * The image as a PNG, RGB when `opaque` (its alpha dropped), else RGBA; the image's pixels are used up. RGB
 * scanlines are written over them (a band of rows is copied out before its scanlines, shorter than its pixels,
 * are written back), so no second buffer of the image's size is made. Each row filtered by Up (in WebAssembly,
 * assembly/png.ts), then deflated at level 1: on the fixtures' screenshots ~3 ms of CPU where libvips' PNG (no
 * filter, level 6) takes ~7, for files ~40 % larger; on a screenshot of gradients (Windows 7's) smaller. A noisy
 * image is run-length coded instead (`deflateOptions`).
 */
export function encodePngOver(image: RgbaImage, opaque: boolean): Buffer {
  const { width, height, data } = image;
  const channels = opaque ? 3 : 4;
  const kernel = rowKernel.get();
  try {
    const line = 1 + channels * width;
    const scanlines = opaque ? Buffer.from(data.buffer, data.byteOffset, line * height) : Buffer.allocUnsafe(line * height);
    const at = kernel.start(width, channels);
    const rows = kernel.BAND_ROWS.value;
    for (let top = 0; top < height; top += rows) {
      const count = Math.min(rows, height - top);
      new Uint8Array(kernel.memory.buffer, at, 4 * width * count).set(data.subarray(4 * width * top, 4 * width * (top + count)));
      scanlines.set(new Uint8Array(kernel.memory.buffer, kernel.upRows(count), line * count), line * top);
    }
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header.set([8, opaque ? 2 : 6, 0, 0, 0], 8);
    const compressed = deflateSync(scanlines, deflateOptions(scanlines, line, height));
    const png = Buffer.allocUnsafe(SIGNATURE.length + 3 * 12 + header.length + compressed.length);
    SIGNATURE.copy(png);
    let end = SIGNATURE.length;
    for (const [type, body] of [['IHDR', header], ['IDAT', compressed], ['IEND', Buffer.alloc(0)]] as const) end = writeChunk(png, end, type, body);
    return png;
  } finally {
    if (rowKernel.oversized()) rowKernel.drop();
  }
}

/**
 * Level 1 unless the scanlines are noisy (dithered gradients, a JPEG's pixels): there level 1's search for
 * repeats finds few and costs most of its time (Windows 7's mine01, 600 KB of scanlines: 7–8 ms for 333 KB),
 * where run-length coding takes ~5 ms for ~10 % more (363 KB). Noisy: a band of rows from the middle does not
 * deflate to under NOISY of its size. The fixtures' screenshots deflate to 1–15 %, where run-length coding
 * would make files 2–4 times as large.
 */
export function deflateOptions(scanlines: Uint8Array, line: number, height: number): ZlibOptions {
  const rows = Math.min(height, SAMPLE_ROWS);
  const from = ((height - rows) >> 1) * line;
  const sample = scanlines.subarray(from, from + rows * line);
  return deflateSync(sample, { level: 1 }).length > NOISY * sample.length ? { level: 1, strategy: constants.Z_RLE } : { level: 1 };
}

const SAMPLE_ROWS = 16;
const NOISY = 0.3;

/** The chunk (length, type, body, CRC) written into `png` at `at`; returns where it ends. */
function writeChunk(png: Buffer, at: number, type: string, body: Buffer): number {
  png.writeUInt32BE(body.length, at);
  png.write(type, at + 4, 'latin1');
  body.copy(png, at + 8);
  png.writeUInt32BE(crc32(png.subarray(at + 4, at + 8 + body.length)), at + 8 + body.length);
  return at + 12 + body.length;
}

/** The exports of assembly/png.ts. */
interface PngKernel {
  memory: WebAssembly.Memory;
  BAND_ROWS: { value: number };
  start(width: number, channels: number): number;
  upRows(count: number): number;
}

/** A band of rows of a very wide image can grow the kernel's memory past this: it is then made anew. */
const KEEP_MEMORY = 16 << 20;

const rowKernel = new Kernel<PngKernel>('png.wasm', KEEP_MEMORY);
