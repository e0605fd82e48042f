import { readFileSync, type Stats, statSync } from 'node:fs';
import * as fs from '../common/files';
import { inBatchWorker } from '../common/runtime';
import type { Metadata } from 'sharp';
import type { RgbaImage } from '../common/types';
import { MAX_PIXELS, readPlainPng, readPlainPngAsync } from '../speed/png';
import { vips } from './vips';

export class DecodeError extends Error {}

/**
 * Decodes any image sharp reads (PNG, JPEG, WebP, GIF's first frame, …) into RGBA pixels; a plain PNG (speed/png.ts)
 * without sharp. The header is read first, so an image declaring more than MAX_PIXELS is refused before any
 * pixel is decoded. On the main thread a PNG is inflated on the thread pool, while the caller loads skins and
 * warms the solver (a single screenshot's run); a batch worker has nothing else to do meanwhile, and inflates it
 * on its own thread.
 */
export async function decode(input: string | Buffer): Promise<RgbaImage> {
  const bytes = typeof input === 'string' ? await readSmallFile(input) : input;
  const plain = bytes && (inBatchWorker() ? readPlainPng(bytes) : await readPlainPngAsync(bytes));
  return plain ?? decodeBySharp(bytes ?? input);
}

/**
 * A regular file's bytes when it can be read and is not past READ_AT_ONCE; else null, and sharp is given its path
 * (and says what is wrong). Not opened unless it is a regular file: opening a named pipe waits for a writer. A
 * batch worker, which has nothing else to do meanwhile, reads without going through node's thread pool.
 */
async function readSmallFile(file: string): Promise<Buffer | null> {
  const small = (stat: Stats) => stat.isFile() && stat.size > 0 && stat.size <= READ_AT_ONCE;
  try {
    if (inBatchWorker()) return small(statSync(file)) ? readFileSync(file) : null;
    return small(await fs.stat(file)) ? await fs.readFile(file) : null;
  } catch {
    return null;
  }
}

export const READ_AT_ONCE = 256 << 20;

async function decodeBySharp(input: string | Buffer): Promise<RgbaImage> {
  const { width = 0, height = 0, hasAlpha, pages = 1 } = await header(input);
  if (width * height > MAX_PIXELS) {
    throw new DecodeError(
      `image too large: ${width}×${height} is ${Math.round((width * height) / 1e6)} Mpx, ` +
        `the limit is ${MAX_PIXELS / 1e6} Mpx`,
    );
  }
  try {
    const { data, info } = await vips()(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image: RgbaImage = {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      opaque: !hasAlpha,
    };
    return pages > 1 ? { ...image, frames: pages } : image;
  } catch (err) {
    throw new DecodeError(`corrupt or truncated image: ${describe(err)}`);
  }
}

/**
 * An image of a skin (a template, a counter glyph): read as a plain PNG when it is one (speed/png.ts), else by
 * `decode`.
 */
export async function decodeSkinImage(file: string): Promise<RgbaImage> {
  return decodeSkinBytes(readSkinFile(file), file);
}

/** The same, for a file already read (`readSkinFile`). */
export async function decodeSkinBytes(bytes: Buffer | null, file: string): Promise<RgbaImage> {
  return (bytes && readPlainPng(bytes)) ?? decode(bytes ?? file);
}

/**
 * A skin's file read at once (a few hundred bytes: a read through the thread pool costs more than it), or null
 * when it cannot be (decode then says why).
 */
export function readSkinFile(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

async function header(input: string | Buffer): Promise<Metadata> {
  const found = Buffer.isBuffer(input) ? null : await fs.stat(input).catch(() => null);
  if (found && !found.isFile() && !found.isDirectory())
    throw new DecodeError('not a file but a pipe or a device: give - to read an image from standard input');
  const bytes = Buffer.isBuffer(input) ? input.length : found ? found.size : -1;
  if (bytes === 0) throw new DecodeError('empty file (0 bytes)');
  if (bytes < 0) throw new DecodeError('cannot read the file (missing or not readable)');
  try {
    return await vips()(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    const message = describe(err);
    if (/unsupported image format/.test(message))
      throw new DecodeError('not an image (no format sharp reads: PNG, JPEG, WebP, GIF, TIFF, AVIF)');
    throw new DecodeError(`not a readable image: ${message}`);
  }
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0].replace(/^Input (file|buffer) /, '');
}

/**
 * Whether the image is in a format that is mostly saved lossily (JPEG, WebP, AVIF/HEIF: its header says so), whose
 * blocks may break faint outlines; false when it cannot be read.
 */
export async function isLossy(input: string | Buffer): Promise<boolean> {
  return vips()(input)
    .metadata()
    .then(
      (m) => LOSSY.includes(m.format ?? ''),
      () => false,
    );
}

const LOSSY = ['jpeg', 'webp', 'heif'];

/** The pixels blurred (Gaussian, `sigma` px). */
export async function blurred(image: RgbaImage, sigma: number): Promise<RgbaImage> {
  const { width, height } = image;
  const input = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
  const data = await vips()(input, { raw: { width, height, channels: 4 } })
    .blur(sigma)
    .raw()
    .toBuffer();
  return { width, height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}
