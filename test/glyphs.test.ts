import { percentile, wordsIn } from '../src/counter/glyphs';
import type { RgbaImage } from '../src/common/types';

/** A generator of the same numbers on every run (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sorted = (values: Float32Array, q: number) =>
  Float32Array.from(values).sort()[Math.min(values.length - 1, Math.floor(q * values.length))];

describe('percentile', () => {
  test('of whole numbers 0-255 (ink distances), counted: the value a sort puts at that rank, any size or rank', () => {
    const next = random(7);
    for (let trial = 0; trial < 300; trial++) {
      const spread = 1 + Math.floor(next() * 256);
      const values = Float32Array.from({ length: 1 + Math.floor(next() * 2000) }, () => Math.floor(next() * spread));
      for (const q of [0, 0.5, 0.95, 0.99, 1, next()]) expect(percentile(values, q)).toBe(sorted(values, q));
    }
  });

  test('of other numbers (fractions, negatives, past 255), sorted as before', () => {
    const next = random(11);
    for (let trial = 0; trial < 50; trial++) {
      const values = Float32Array.from({ length: 1 + Math.floor(next() * 500) }, () => (next() - 0.2) * 400);
      for (const q of [0, 0.5, 0.99, 1]) expect(percentile(values, q)).toBe(sorted(values, q));
    }
    expect(percentile(Float32Array.of(3, 256, 1), 0.99)).toBe(256);
    expect(percentile(Float32Array.of(3, 2.5, 1), 0.5)).toBe(2.5);
  });
});

/** Black bars (x, y, width, height) on a white image. */
function bars(width: number, height: number, rects: [number, number, number, number][]): RgbaImage {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const [x0, y0, w, h] of rects) {
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  }
  return { width, height, data } as RgbaImage;
}

describe('wordsIn', () => {
  // an LCD "14" whose 4 came apart when resampled: its upper-left bar, its middle bar, its right-hand bars
  const one: [number, number, number, number] = [4, 4, 3, 24];
  const four: [number, number, number, number][] = [
    [13, 5, 2, 11],
    [16, 14, 8, 3],
    [25, 4, 3, 24],
  ];

  test('a digit come apart into bars a pixel apart is one glyph, not a 1 beside dropped specks', () => {
    const [word] = wordsIn(bars(34, 32, [one, ...four]), { left: 0, top: 0, width: 34, height: 32 });
    expect(word.map((g) => [g.rect.left, g.rect.width])).toEqual([
      [4, 3],
      [13, 15],
    ]);
  });

  test('a short mark two pixels or more from any glyph is still dropped (a colon, a speck)', () => {
    const [word] = wordsIn(bars(40, 32, [one, [10, 10, 2, 2], [10, 18, 2, 2], [14, 4, 3, 24]]), {
      left: 0,
      top: 0,
      width: 40,
      height: 32,
    });
    expect(word.map((g) => g.rect.left)).toEqual([4, 14]);
  });
});
