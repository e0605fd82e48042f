import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib, { constants, crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { decode } from '../src/image/decode';
import { encodePngOver, readPlainPng, readPlainPngAsync } from '../src/speed/png';
import type { RgbaImage } from '../src/common/types';
import * as zlibEngine from '../src/speed/zlibengine';

const SKINS = path.resolve(__dirname, '../skins');
const samples = readdirSync(SKINS, { withFileTypes: true }).flatMap((skin) =>
  !skin.isDirectory()
    ? []
    : readdirSync(path.join(SKINS, skin.name))
        .filter((f) => f.endsWith('.png'))
        .slice(0, 12)
        .map((f) => path.join(SKINS, skin.name, f)),
);

/** What sharp reads: RGBA pixels, and whether the PNG has no alpha. */
async function bySharp(png: Buffer): Promise<{ width: number; height: number; data: Buffer; opaque: boolean }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data, opaque: !(await sharp(png).metadata()).hasAlpha };
}

function expectSame(
  plain: RgbaImage | null,
  reference: { width: number; height: number; data: Buffer; opaque: boolean },
): void {
  expect(plain).not.toBeNull();
  expect([plain!.width, plain!.height, plain!.opaque]).toEqual([reference.width, reference.height, reference.opaque]);
  expect(Buffer.from(plain!.data.buffer, plain!.data.byteOffset, plain!.data.length).equals(reference.data)).toBe(true);
}

// A skin's templates and glyphs are read without sharp (hundreds per skin): pixel for pixel what sharp reads.
test.each(samples)('%s reads as sharp reads it', async (file) => {
  const bytes = readFileSync(file);
  expectSame(readPlainPng(bytes), await bySharp(bytes));
});

// Rows written with each filter by hand (sharp's encoder picks only some), read back as sharp reads them: RGB
// and RGBA, widths that leave 0-3 pixels after the kernel's groups of four, heights inside, at and past its
// bands of 32 rows (rows under Paeth go four or two at a time, the rest alone); then the screenshot's path (decode).
test.each([0, 1, 2, 3, 4])('rows filtered with filter %i read as sharp reads them', async (filter) => {
  for (const [width, height] of [
    [1, 1],
    [13, 9],
    [6, 32],
    [7, 33],
    [300, 70],
  ]) {
    for (const channels of [3, 4] as const) {
      // varied bytes (sums past 255), and a few small levels (ties between Paeth's predictors)
      for (const level of [
        (i: number) => (i * 97 + ((i * i) % 13) * 19 + (i >> 7) * 41) & 0xff,
        (i: number) => (i * i + (i >> 3)) % 7,
      ]) {
        const pixels = Buffer.alloc(width * height * channels);
        for (let i = 0; i < pixels.length; i++) pixels[i] = level(i);
        const png = pngOf(width, height, channels, pixels, () => filter);
        const reference = await bySharp(png);
        expectSame(readPlainPng(png), reference);
        expectSame(await readPlainPngAsync(png), reference);
        expectSame(await decode(png), reference);
      }
    }
  }
});

// Runs of one to six rows under Paeth between rows under the other filters, across a band's end, on rows of four
// pixels (the fewest the kernel takes four rows at a time) and more: as sharp reads them.
test('runs of one to six rows under Paeth among other filters read as sharp reads them', async () => {
  const filters: number[] = [];
  for (let run = 1; filters.length < 45; run = (run % 6) + 1) filters.push(...new Array(run).fill(4), run % 4);
  for (const width of [3, 4, 5, 8, 301]) {
    for (const channels of [3, 4] as const) {
      const pixels = Buffer.alloc(width * filters.length * channels);
      for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 97 + ((i * i) % 13) * 19 + (i >> 7) * 41) & 0xff;
      const png = pngOf(width, filters.length, channels, pixels, (y) => filters[y]);
      expectSame(readPlainPng(png), await bySharp(png));
    }
  }
});

test('a screenshot with a different filter on each row, read from its file, is what sharp reads', async () => {
  const [width, height] = [97, 101];
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % 300) * 7 + (i % 29) * ((i / 300) | 0)) & 0xff;
  const png = pngOf(width, height, 3, pixels, (y) => (y * 7) % 5);
  const dir = mkdtempSync(path.join(tmpdir(), 'png-'));
  writeFileSync(path.join(dir, 'shot.png'), png);
  expectSame(await decode(path.join(dir, 'shot.png')), await bySharp(png));
  rmSync(dir, { recursive: true });
});

// A flipped bit anywhere, a row's filter type past 4, or data too short for the size declared (a decompression
// bomb), and the PNG is not read here: sharp decides (and refuses a wrong CRC).
test('a PNG with a wrong CRC, data too short or too long, or an unknown filter type is left to sharp', () => {
  const [width, height] = [9, 5];
  const pixels = Buffer.alloc(width * height * 3, 77);
  const good = pngOf(width, height, 3, pixels, () => 1);
  expect(readPlainPng(good)).not.toBeNull();
  for (const at of [20, 40, good.length - 20]) {
    const flipped = Buffer.from(good);
    flipped[at] ^= 4;
    expect(readPlainPng(flipped)).toBeNull();
  }
  expect(readPlainPng(pngOf(width, height, 3, pixels, () => 5))).toBeNull();
  const vast = pngOf(1, 1, 3, Buffer.alloc(3), () => 0);
  vast.writeUInt32BE(7000, 16);
  vast.writeUInt32BE(7000, 20);
  vast.writeUInt32BE(crc32(vast.subarray(12, 29)), 29);
  const inflating = jest.spyOn(zlib, 'inflateSync');
  expect(readPlainPng(vast)).toBeNull();
  expect(inflating).not.toHaveBeenCalled();
  inflating.mockRestore();
  expect(readPlainPng(pngOf(width, height, 3, pixels, () => 0, -1))).toBeNull();
  expect(readPlainPng(pngOf(width, height, 3, pixels, () => 0, 1))).toBeNull();
});

/** Deterministic noise: bytes with no repeats for deflate to find. */
function noise(length: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  return bytes;
}

/** The filter type of each scanline of a PNG written here (one IDAT chunk). */
function filtersOf(png: Buffer, width: number, height: number, channels: number): number[] {
  const idat = png.indexOf('IDAT');
  const scanlines = zlib.inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
  return Array.from({ length: height }, (_, y) => scanlines[y * (1 + channels * width)]);
}

// The annotated screenshot's encoder: widths that leave 0-3 pixels after the kernel's groups of four, heights
// that end inside, at and past its bands of 32 rows, RGB and RGBA, smooth pixels (Up, deflated) and noise (Paeth,
// Huffman-coded); what libvips reads back (it checks each chunk's CRC) is the image, its alpha dropped when opaque.
test.each([
  [1, 1],
  [5, 31],
  [6, 32],
  [7, 33],
  [8, 70],
  [601, 35],
])('a %i×%i image written as PNG reads back as itself, RGB and RGBA, smooth and noisy', async (width, height) => {
  // wide bands of colour, two shades a row apart
  const smooth = new Uint8Array(width * height * 4);
  for (let i = 0; i < smooth.length; i++)
    smooth[i] = ((((i >> 2) % width) >> 2) * 37 + (i & 3) * 50 + (((i >> 2) / width) & 1) * 9) & 0xff;
  for (const [data, filter] of [
    [smooth, 2],
    [noise(width * height * 4), 4],
  ] as const) {
    for (const opaque of [true, false]) {
      const png = encodePngOver({ width, height, data: data.slice() }, opaque);
      // a single pixel deflates to more than itself: noisy
      expect(filtersOf(png, width, height, opaque ? 3 : 4)).toEqual(
        new Array(height).fill(width * height === 1 ? 4 : filter),
      );
      const { data: read, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([width, height, opaque ? 3 : 4]);
      const expected = opaque ? Buffer.from(data.filter((_, i) => i % 4 !== 3)) : Buffer.from(data);
      expect(read.equals(expected)).toBe(true);
    }
  }
});

// Noisy pixels (level 1 finds few repeats in them, slowly) are filtered by Paeth and Huffman-coded alone: smaller
// than run-length coding makes them. Flat cells and lines are deflated at level 1, where coding bytes alone would
// make them many times as large. Either way the PNG reads back as the image.
test('noisy pixels are Huffman-coded after Paeth, flat ones deflated at level 1: both read back', async () => {
  const [width, height] = [301, 40];
  // a dithered gradient: each byte its column's shade plus noise of ±3
  const jitter = noise(width * height * 4);
  const noisy = jitter.map((j, i) => ((i >> 2) % width) / 2 + (j % 7));
  const flat = new Uint8Array(width * height * 4).fill(192);
  for (let i = 0; i < flat.length; i += 4 * 17) flat.fill(40, i, i + 4);
  for (const [data, filter] of [
    [noisy, 4],
    [flat, 2],
  ] as const) {
    const png = encodePngOver({ width, height, data: data.slice() }, true);
    expect(filtersOf(png, width, height, 3)).toEqual(new Array(height).fill(filter));
    const rgb = Buffer.from(data.filter((_, i) => i % 4 !== 3));
    const line = 1 + 3 * width;
    const upRows = Buffer.alloc(line * height);
    for (let y = 0; y < height; y++) {
      upRows[y * line] = 2;
      for (let x = 0; x < 3 * width; x++)
        upRows[y * line + 1 + x] = rgb[y * 3 * width + x] - (y ? rgb[(y - 1) * 3 * width + x] : 0);
    }
    const runLengths = deflateSync(upRows, { level: 1, strategy: constants.Z_RLE }).length;
    if (filter === 4) expect(png.length).toBeLessThan(runLengths);
    else expect(png.length).toBe(57 + deflateSync(upRows, { level: 1 }).length);
    const { data: read } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(read.equals(rgb)).toBe(true);
    expect(Buffer.from(readPlainPng(png)!.data).equals(Buffer.from(data.map((v, i) => (i % 4 === 3 ? 255 : v))))).toBe(
      true,
    );
  }
});

/**
 * An 8-bit RGB or RGBA PNG, each row under the filter `filterOf(y)`; `extra` bytes of scanlines cut off (< 0) or
 * added.
 */
function pngOf(
  width: number,
  height: number,
  channels: 3 | 4,
  pixels: Buffer,
  filterOf: (y: number) => number,
  extra = 0,
): Buffer {
  const stride = width * channels;
  const at = (x: number, y: number) => (x < 0 || y < 0 ? 0 : pixels[y * stride + x]);
  const rows = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const filter = filterOf(y);
    rows[y * (stride + 1)] = filter;
    for (let x = 0; x < stride; x++) {
      const [a, b, c] = [at(x - channels, y), at(x, y - 1), at(x - channels, y - 1)];
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter] ?? 0;
      rows[y * (stride + 1) + 1 + x] = (at(x, y) - predicted) & 0xff;
    }
  }
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), body])));
    return Buffer.concat([head, Buffer.from(type, 'latin1'), body, tail]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 3 ? 2 : 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const data = extra < 0 ? rows.subarray(0, rows.length + extra) : Buffer.concat([rows, Buffer.alloc(extra)]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(data)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// A batch reads thousands of screenshots: each is inflated by the engine kept from the last straight into the
// kernel's memory, not into a new buffer of its size (inflateSync's). Corrupt data between good images, and bytes
// after the stream's end, read as inflateSync reads them.
test('the kept engine inflates into the kernel; a corrupt stream, bytes past its end: as inflateSync', async () => {
  const [width, height] = [40, 30];
  const pixels = Buffer.from(noise(width * height * 3));
  const large = pngOf(width, height, 3, pixels, (y) => y % 5);
  const small = pngOf(9, 5, 3, pixels.subarray(0, 9 * 5 * 3), () => 2);
  expectSame(readPlainPng(large), await bySharp(large));
  const inflating = jest.spyOn(zlib, 'inflateSync');
  const allocating = jest.spyOn(Buffer, 'allocUnsafe');
  expectSame(readPlainPng(large), await bySharp(large));
  expectSame(readPlainPng(small), await bySharp(small));
  expect(inflating).not.toHaveBeenCalled();
  expect(allocating.mock.calls.filter(([bytes]) => bytes >= 9 * 5 * 3)).toEqual([]);
  allocating.mockRestore();
  const corrupt = withIdat(large, (data) =>
    Buffer.concat([data.subarray(0, 40), Buffer.from(noise(data.length - 40, 3))]),
  );
  expect(readPlainPng(corrupt)).toBeNull();
  expect(inflating).toHaveBeenCalledTimes(1);
  expectSame(readPlainPng(small), await bySharp(small));
  expect(inflating).toHaveBeenCalledTimes(1);
  const trailing = withIdat(large, (data) => Buffer.concat([data, Buffer.from('past the end')]));
  expect(Buffer.from(readPlainPng(trailing)!.data).equals(Buffer.from(readPlainPng(large)!.data))).toBe(true);
  expect(inflating).toHaveBeenCalledTimes(2);
  // where node's engine cannot be driven: inflateSync
  const engines = jest.spyOn(zlibEngine, 'keptEngine').mockReturnValue(null);
  expectSame(readPlainPng(large), await bySharp(large));
  expect(inflating).toHaveBeenCalledTimes(3);
  engines.mockRestore();
  inflating.mockRestore();
});

/** The PNG (as pngOf writes it: IHDR, one IDAT, IEND) with its IDAT's data changed, its CRC made right. */
function withIdat(png: Buffer, change: (data: Buffer) => Buffer): Buffer {
  const at = png.indexOf('IDAT') - 4;
  const data = change(png.subarray(at + 8, at + 8 + png.readUInt32BE(at)));
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('IDAT', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return Buffer.concat([png.subarray(0, at), chunk, png.subarray(at + 12 + png.readUInt32BE(at))]);
}

// The annotated image's scanlines are deflated band by band by the engine kept from the last image, into a buffer
// kept too (grown when an image needs more), as is the sample that tells how to code them: the same bytes as
// deflateSync makes of them all at once, which is what runs where node's engine cannot be driven so.
test('the kept engine deflates into a kept buffer as deflateSync deflates whole; without it, deflateSync', async () => {
  const [width, height] = [1000, 600];
  // a flat image with a pixel in twenty of noise: level 1 packs it to ~15 %, ~300 KB, past the kept buffer's 64 KB
  const data = new Uint8Array(width * height * 4).fill(180);
  const speckle = noise(width * height);
  for (let p = 0; p < width * height; p++) if (speckle[p] < 13) data.fill(speckle[p] * 19, 4 * p, 4 * p + 3);
  const deflating = jest.spyOn(zlib, 'deflateSync');
  const kept = encodePngOver({ width, height, data: data.slice() }, true);
  expect(deflating).not.toHaveBeenCalled();
  expect(kept.length).toBeGreaterThan(1 << 17);
  const engines = jest.spyOn(zlibEngine, 'keptEngine').mockReturnValue(null);
  const whole = encodePngOver({ width, height, data: data.slice() }, true);
  expect(deflating).toHaveBeenCalledTimes(2);
  expect(whole.equals(kept)).toBe(true);
  const flat = { width: 40, height: 30, data: new Uint8Array(40 * 30 * 4).fill(90) };
  const flatWhole = encodePngOver({ ...flat, data: flat.data.slice() }, false);
  engines.mockRestore();
  deflating.mockRestore();
  expect(encodePngOver({ ...flat, data: flat.data.slice() }, false).equals(flatWhole)).toBe(true);
  const { data: read } = await sharp(kept).raw().toBuffer({ resolveWithObject: true });
  expect(read.equals(Buffer.from(data.filter((_, i) => i % 4 !== 3)))).toBe(true);
});

test('PNGs that are not plain are left to sharp', async () => {
  const pixels = Buffer.alloc(8 * 8 * 4, 200);
  const raw = { raw: { width: 8, height: 8, channels: 4 as const } };
  expect(readPlainPng(await sharp(pixels, raw).png({ palette: true }).toBuffer())).toBeNull();
  expect(readPlainPng(await sharp(pixels, raw).png({ progressive: true }).toBuffer())).toBeNull();
  expect(readPlainPng(await sharp(pixels, raw).toColourspace('rgb16').png().toBuffer())).toBeNull();
  expect(readPlainPng(await sharp(pixels, raw).withMetadata({ icc: 'p3' }).png().toBuffer())).toBeNull();
  const good = await sharp(pixels, raw).png().toBuffer();
  expect(readPlainPng(good.subarray(0, good.length - 20))).toBeNull();
  expect(readPlainPng(Buffer.from('not a png at all'))).toBeNull();
});
