import path from 'node:path';
import sharp from 'sharp';
import { decode, DecodeError } from '../src/decode';
import { FIXTURES } from './helpers';

const SHOT = path.join(FIXTURES, 'xdemineur/s2-01.png');

describe('decode', () => {
  test.each(['png', 'jpeg', 'webp'] as const)('reads %s into RGBA pixels of the right size', async (format) => {
    const bytes = await sharp(SHOT).toFormat(format).toBuffer();
    const image = await decode(bytes);
    expect([image.width, image.height]).toEqual([1280, 1024]);
    expect(image.data.length).toBe(1280 * 1024 * 4);
    expect(image.data[3]).toBe(255);
  });

  test('rejects text with a clear one-line error', async () => {
    await expect(decode(Buffer.from('hello, not an image'))).rejects.toThrow(DecodeError);
    await expect(decode(Buffer.from('hello'))).rejects.toThrow(/^not a readable image: [^\n]+$/);
  });

  test('rejects a truncated PNG', async () => {
    const bytes = await sharp(SHOT).png().toBuffer();
    await expect(decode(bytes.subarray(0, bytes.length >> 1))).rejects.toThrow(DecodeError);
  });
});
