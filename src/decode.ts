import sharp from 'sharp';
import type { RgbaImage } from './types';

/** Larger images are refused before their pixels are decoded (a decompression bomb declares a huge size). */
export const MAX_PIXELS = 64_000_000;

export class DecodeError extends Error {}

/** Decodes any image sharp reads (PNG, JPEG, WebP, GIF's first frame, …) into RGBA pixels. */
export async function decode(input: string | Buffer): Promise<RgbaImage> {
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (err) {
    throw new DecodeError(`not a readable image: ${describe(err)}`);
  }
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0].replace(/^Input (file|buffer) /, '');
}
