// Images written as PNG files by libvips (a skin's templates), whole or not at all.
import type { RgbaImage } from '../common/types';
import { writeFileAtomic } from '../common/atomic';
import { vips } from './vips';

/** The image as a PNG by libvips (a skin's templates), without an alpha channel when the image had none. */
function pngOf(image: RgbaImage): Promise<Buffer> {
  const pixels = vips()(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: rawInfo(image),
  });
  return (image.opaque ? pixels.removeAlpha() : pixels).png().toBuffer();
}

export async function writePng(image: RgbaImage, target: string): Promise<void> {
  await writeFileAtomic(target, await pngOf(image));
}

export function rawInfo(image: RgbaImage): { width: number; height: number; channels: 4 } {
  return { width: image.width, height: image.height, channels: 4 };
}
