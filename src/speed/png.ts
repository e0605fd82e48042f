// PNGs read and written here rather than by sharp where that is cheaper. Read: plain PNGs (8-bit RGB or RGBA, not
// interlaced, no colour profile), as screenshots and a skin's templates mostly are: a screenshot costs more CPU
// through sharp than inflating it (zlib) and undoing its row filters (WebAssembly, wasm/png.ts) here, and a skin
// is hundreds of tiny PNGs, each two calls across threads through sharp. Anything else is left to sharp
// (image/decode.ts). Written: the annotated screenshot (encodePngOver).
import { promisify } from 'node:util';
import { constants, crc32, deflateSync, inflate, inflateSync, type ZlibOptions } from 'node:zlib';
import { codeHeld, type CoderKernel } from './deflate';
import type { RgbaImage } from '../common/types';
import { Kernel } from './kernel';
import { drive, keptEngine } from './zlibengine';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Chunks that change no pixel: a PNG with any other besides IHDR, IDAT and IEND is not plain. */
const HARMLESS = new Set(['pHYs', 'tEXt', 'zTXt', 'iTXt', 'tIME', 'sRGB', 'bKGD']);

/**
 * Larger images are refused before their pixels are decoded (a decompression bomb declares a huge size): a
 * plain PNG is then left to sharp, and image/decode.ts says so.
 */
export const MAX_PIXELS = 64_000_000;

interface Header {
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * The pixels of a plain PNG, or null when the PNG is not plain or not well formed (a chunk's CRC wrong, its
 * data short or long): then sharp decides. Inflated on this thread.
 */
export function readPlainPng(bytes: Buffer): RgbaImage | null {
  const parts = plainParts(bytes);
  if (!parts) return null;
  try {
    return unfiltered(
      parts.header,
      (target) =>
        inflatedInto(parts.data, target) || copiedInto(inflateSync(parts.data, inflateOptions(parts.header)), target),
    );
  } catch {
    return null;
  }
}

const inflating = promisify(inflate);

/** The same, inflated on node's thread pool. */
export async function readPlainPngAsync(bytes: Buffer): Promise<RgbaImage | null> {
  const parts = plainParts(bytes);
  if (!parts) return null;
  try {
    const scanlines = await inflating(parts.data, inflateOptions(parts.header));
    return unfiltered(parts.header, (target) => copiedInto(scanlines, target));
  } catch {
    return null;
  }
}

/** A plain PNG's header and its IDAT chunks' data, or null. */
function plainParts(bytes: Buffer): { header: Header; data: Buffer } | null {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(SIGNATURE)) return null;
  let header: Header | null = null;
  const data: Buffer[] = [];
  for (let at = 8; ;) {
    if (at + 12 > bytes.length) return null;
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (
      at + 12 + length > bytes.length ||
      crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)
    )
      return null;
    const body = bytes.subarray(at + 8, at + 8 + length);
    at += 12 + length;
    if (type === 'IHDR') header = plainHeader(body);
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    else if (!HARMLESS.has(type)) return null;
    if (type === 'IHDR' && header === null) return null;
  }
  if (header === null || !data.length) return null;
  const joined = data.length === 1 ? data[0] : Buffer.concat(data);
  return scanlineBytes(header) <= MOST_INFLATED * joined.length + 1024 ? { header, data: joined } : null;
}

/**
 * Deflate packs 258 bytes into 2 bits at best: data shorter than its image's scanlines over this cannot hold
 * them (a decompression bomb's tiny PNG declaring a vast image), and no buffer of their size is made for it.
 */
const MOST_INFLATED = 1032;

function plainHeader(body: Buffer): Header | null {
  if (body.length !== 13) return null;
  const [depth, colour, compression, filter, interlace] = body.subarray(8, 13);
  const channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
  if (depth !== 8 || !channels || compression || filter || interlace) return null;
  const width = body.readUInt32BE(0);
  const height = body.readUInt32BE(4);
  return width > 0 && height > 0 && width * height <= MAX_PIXELS ? { width, height, channels } : null;
}

function scanlineBytes({ width, height, channels }: Header): number {
  return height * (1 + channels * width);
}

/**
 * The scanlines inflated into one buffer, and no more. zlib's default makes 16 KB buffers one after another, then
 * joins them; one of exactly their size, once filled, is followed by another (unused): a byte to spare avoids it.
 * Each buffer counts towards V8's next full collection.
 */
function inflateOptions(header: Header): ZlibOptions {
  const size = scanlineBytes(header);
  return { maxOutputLength: size, chunkSize: Math.max(size + 1, constants.Z_MIN_CHUNK) };
}

/**
 * The image's scanlines, as `fill` writes them into the kernel's memory, with each row's filter undone there (a
 * band of rows at a time) and RGB widened to RGBA; null when `fill` finds they are not exactly the image's, or a
 * row's filter is none of PNG's five. `fill` is given room for a byte more than the scanlines.
 */
function unfiltered(header: Header, fill: (target: Uint8Array) => boolean): RgbaImage | null {
  const { width, height, channels } = header;
  const kernel = rowKernel.get();
  try {
    const at = kernel.startReading(width, height, channels);
    if (!fill(new Uint8Array(kernel.memory.buffer, at, scanlineBytes(header) + 1))) return null;
    const data = reusedPixels(width * height * 4);
    const rows = kernel.BAND_ROWS.value;
    for (let top = 0; top < height; top += rows) {
      const count = Math.min(rows, height - top);
      const band = kernel.unfilterRows(count);
      if (band === 0) return null;
      data.set(new Uint8Array(kernel.memory.buffer, band, 4 * width * count), 4 * width * top);
    }
    return { width, height, data, opaque: channels === 3 };
  } finally {
    if (rowKernel.oversized()) rowKernel.drop();
  }
}

/**
 * The scanlines inflated straight into `target` by the kept engine (zlibengine.ts): whether they were exactly one
 * byte less than its room (else inflateSync decides). One call, with all the input.
 */
function inflatedInto(data: Buffer, target: Uint8Array): boolean {
  const engine = keptEngine('inflate');
  const left = engine && drive(engine, constants.Z_FINISH, data, 0, target, 0);
  return left?.room === 1 && left.input === 0;
}

/** The scanlines copied into `target` when they are one byte less than its room. */
function copiedInto(scanlines: Uint8Array, target: Uint8Array): boolean {
  if (scanlines.length !== target.length - 1) return false;
  target.set(scanlines);
  return true;
}

/** Pixels given back (`recyclePixels`), kept for the next image of the same size. */
let spare: Uint8Array | null = null;

/**
 * A screenshot's pixels its owner has no further use for: the next decoded image of that size is written into them
 * instead of a new buffer (a batch worker then allocates a screenshot less per file).
 */
export function recyclePixels(data: Uint8Array): void {
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) spare = data;
}

function reusedPixels(bytes: number): Uint8Array {
  const data = spare?.length === bytes ? spare : new Uint8Array(bytes);
  spare = null;
  return data;
}

/**
 * The image as a PNG, RGB when `opaque` (its alpha dropped), else RGBA; the image's pixels are used up. Rows are
 * filtered in WebAssembly (wasm/png.ts), a band at a time. Most screenshots: each row filtered by Up, its
 * scanlines written over the image's own pixels (a band is copied out before its scanlines, shorter than its
 * pixels, are written back), then deflated at level 1: far less CPU than libvips' PNG (no filter, level 6), for
 * somewhat larger files. Noisy ones (`isNoisy`): each row filtered by Paeth, then Huffman-coded alone (deflate.ts).
 */
export function encodePngOver(image: RgbaImage, opaque: boolean): Buffer {
  const channels = opaque ? 3 : 4;
  const kernel = rowKernel.get();
  try {
    const idat = isNoisy(kernel, image, channels)
      ? packedScanlines(kernel, image, channels)
      : deflatedScanlines(kernel, image, channels);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(image.width, 0);
    header.writeUInt32BE(image.height, 4);
    header.set([8, opaque ? 2 : 6, 0, 0, 0], 8);
    const png = Buffer.allocUnsafe(SIGNATURE.length + 3 * 12 + header.length + idat.length);
    SIGNATURE.copy(png);
    let end = SIGNATURE.length;
    for (const [type, body] of [
      ['IHDR', header],
      ['IDAT', idat],
      ['IEND', Buffer.alloc(0)],
    ] as const)
      end = writeChunk(png, end, type, body);
    return png;
  } finally {
    if (rowKernel.oversized()) rowKernel.drop();
  }
}

/**
 * Up's scanlines deflated at level 1 by the kept engine (zlibengine.ts), band by band as the kernel makes them,
 * into a buffer kept for the next image: a view of it.
 */
function deflatedScanlines(kernel: PngKernel, image: RgbaImage, channels: number): Uint8Array {
  const deflater = keptDeflater();
  if (!deflater) return deflatedAtOnce(kernel, image, channels);
  const { width, height, data } = image;
  const line = 1 + channels * width;
  const at = kernel.start(width, channels);
  const rows = kernel.BAND_ROWS.value;
  for (let top = 0; top < height; top += rows) {
    const count = Math.min(rows, height - top);
    new Uint8Array(kernel.memory.buffer, at, 4 * width * count).set(
      data.subarray(4 * width * top, 4 * width * (top + count)),
    );
    deflater.write(new Uint8Array(kernel.memory.buffer, kernel.upRows(count), line * count));
  }
  return deflater.end();
}

/**
 * A stream deflated at level 1 by the kept engine into the kept buffer: each piece written, then the end (a view
 * of the buffer). Null where node's engine cannot be driven.
 */
function keptDeflater(): { write(input: Uint8Array): void; end(): Uint8Array } | null {
  const engine = keptEngine('deflate');
  if (!engine) return null;
  let produced = 0;
  const send = (input: Uint8Array, flush: number) => {
    for (let offset = 0; ;) {
      if (produced === deflated.length) deflated = grown(deflated, produced);
      const left = drive(engine, flush, input, offset, deflated, produced);
      if (!left) throw new Error('zlib failed to deflate the annotated image');
      const moved = deflated.length - left.room - produced + (input.length - left.input - offset);
      produced = deflated.length - left.room;
      offset = input.length - left.input;
      if (left.room > 0 && left.input === 0) return;
      // with room left, zlib takes all the input: a call that moved nothing would be made again for ever
      if (moved === 0) throw new Error('zlib made no progress deflating the annotated image');
    }
  };
  return {
    write: (input) => send(input, constants.Z_NO_FLUSH),
    end: () => {
      send(new Uint8Array(0), constants.Z_FINISH);
      return deflated.subarray(0, produced);
    },
  };
}

let deflated: Buffer = Buffer.allocUnsafe(1 << 16);

/** The buffer twice as large, its first `used` bytes kept. */
function grown(buffer: Buffer, used: number): Buffer {
  const larger = Buffer.allocUnsafe(2 * buffer.length);
  buffer.copy(larger, 0, 0, used);
  return larger;
}

/** Up's scanlines, written over the image's pixels, deflated at level 1 by deflateSync. */
function deflatedAtOnce(kernel: PngKernel, image: RgbaImage, channels: number): Buffer {
  const { width, height, data } = image;
  const line = 1 + channels * width;
  const scanlines =
    channels === 3 ? Buffer.from(data.buffer, data.byteOffset, line * height) : Buffer.allocUnsafe(line * height);
  const at = kernel.start(width, channels);
  const rows = kernel.BAND_ROWS.value;
  for (let top = 0; top < height; top += rows) {
    const count = Math.min(rows, height - top);
    new Uint8Array(kernel.memory.buffer, at, 4 * width * count).set(
      data.subarray(4 * width * top, 4 * width * (top + count)),
    );
    scanlines.set(new Uint8Array(kernel.memory.buffer, kernel.upRows(count), line * count), line * top);
  }
  return deflateSync(scanlines, { level: 1 });
}

/** Paeth's scanlines, kept in the kernel, Huffman-coded there: a view of the kernel's memory. */
function packedScanlines(kernel: PngKernel, image: RgbaImage, channels: number): Uint8Array {
  const { width, height, data } = image;
  const at = kernel.startPacked(width, height, channels);
  const rows = kernel.BAND_ROWS.value;
  for (let top = 0; top < height; top += rows) {
    const count = Math.min(rows, height - top);
    new Uint8Array(kernel.memory.buffer, at, 4 * width * count).set(
      data.subarray(4 * width * top, 4 * width * (top + count)),
    );
    kernel.packRows(count);
  }
  return codeHeld(kernel, height * (1 + channels * width));
}

/**
 * Whether the image is noisy (dithered gradients, a JPEG's pixels): a band of rows from its middle, filtered by Up,
 * does not deflate at level 1 to under NOISY of its size. There level 1's search for repeats finds few and costs
 * most of its time, where Paeth and Huffman coding are faster and pack tighter. The fixtures' screenshots deflate
 * to 1–15 %, where coding bytes alone would make files many times as large.
 */
function isNoisy(kernel: PngKernel, image: RgbaImage, channels: number): boolean {
  const { width, height, data } = image;
  const rows = Math.min(height, SAMPLE_ROWS);
  const first = (height - rows) >> 1;
  // the row above the band goes first, as Up's reference; its own scanline is not part of the sample
  const from = Math.max(0, first - 1);
  const at = kernel.start(width, channels);
  new Uint8Array(kernel.memory.buffer, at, 4 * width * (first + rows - from)).set(
    data.subarray(4 * width * from, 4 * width * (first + rows)),
  );
  const line = 1 + channels * width;
  const lines = kernel.upRows(first + rows - from) + line * (first - from);
  const sample = new Uint8Array(kernel.memory.buffer, lines, line * rows);
  const deflater = keptDeflater();
  deflater?.write(sample);
  return (deflater ? deflater.end() : deflateSync(sample, { level: 1 })).length > NOISY * sample.length;
}

const SAMPLE_ROWS = 16;
const NOISY = 0.3;

/** The chunk (length, type, body, CRC) written into `png` at `at`; returns where it ends. */
function writeChunk(png: Buffer, at: number, type: string, body: Uint8Array): number {
  png.writeUInt32BE(body.length, at);
  png.write(type, at + 4, 'latin1');
  png.set(body, at + 8);
  png.writeUInt32BE(crc32(png.subarray(at + 4, at + 8 + body.length)), at + 8 + body.length);
  return at + 12 + body.length;
}

/** The exports of wasm/png.ts. */
export interface PngKernel extends CoderKernel {
  memory: WebAssembly.Memory;
  BAND_ROWS: { value: number };
  start(width: number, channels: number): number;
  upRows(count: number): number;
  startPacked(width: number, height: number, channels: number): number;
  packRows(count: number): void;
  startReading(width: number, height: number, channels: number): number;
  unfilterRows(count: number): number;
}

/**
 * Past this the kernel is made anew after an image: a screenshot read holds all its scanlines (a 4K screenshot's
 * ~33 MB), one written noisy all its scanlines and their codes.
 */
const KEEP_MEMORY = 48 << 20;

export const rowKernel = new Kernel<PngKernel>('png.wasm', KEEP_MEMORY);
