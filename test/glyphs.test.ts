import { percentile } from '../src/glyphs';

/** A generator of the same numbers on every run (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sorted = (values: Float32Array, q: number) => Float32Array.from(values).sort()[Math.min(values.length - 1, Math.floor(q * values.length))];

describe('percentile', () => {
  test('of whole numbers 0-255 (ink distances), counted: the value a sort puts at that rank, for any size and rank', () => {
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
