import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { decode, DecodeError } from '../src/image/decode';
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
    await expect(decode(Buffer.from('hello'))).rejects.toThrow(/^not an image [^\n]+$/);
  });

  test('rejects a truncated PNG', async () => {
    const bytes = await sharp(SHOT).png().toBuffer();
    await expect(decode(bytes.subarray(0, bytes.length >> 1))).rejects.toThrow(DecodeError);
  });

  test('an empty file, random bytes, a missing file: each its own one-line reason', async () => {
    await expect(decode(Buffer.alloc(0))).rejects.toThrow(/^empty file \(0 bytes\)$/);
    await expect(decode(Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251)))).rejects.toThrow(
      /^not an image/,
    );
    await expect(decode('/no/such/file.png')).rejects.toThrow(/^cannot read the file/);
  });

  // A named pipe is never opened (that waits for a writer): refused from what stat says it is.
  test('a folder or a named pipe given as an image: a one-line reason, at once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'decode-'));
    try {
      execFileSync('mkfifo', [path.join(dir, 'pipe.png')]);
      await expect(decode(path.join(dir, 'pipe.png'))).rejects.toThrow(
        /^not a file but a pipe or a device: give - to read an image from standard input$/,
      );
      await expect(decode(dir)).rejects.toThrow(DecodeError);
    } finally {
      rmSync(dir, { recursive: true });
    }
  }, 10_000);

  test('a decompression bomb (a tiny PNG declaring 40000×40000) is refused from its header', async () => {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(40000, 0);
    ihdr.writeUInt32BE(40000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const png = Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.alloc(1000))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(png.length).toBeLessThan(200);
    await expect(decode(png)).rejects.toThrow(/^image too large: 40000×40000 is 1600 Mpx, the limit is 64 Mpx$/);
  });
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
