import { inflateSync } from 'node:zlib';
import { canonicalCodes, codeLengths, deflateLiterals } from '../src/speed/deflate';
import { rowKernel } from '../src/speed/png';

/** Kraft's sum of the lengths: 1 for a complete prefix code. */
function kraft(lengths: Uint8Array): number {
  return lengths.reduce((sum, l) => sum + (l > 0 ? 2 ** -l : 0), 0);
}

function fibonacci(count: number): number[] {
  const out = [1, 1];
  while (out.length < count) out.push(out[out.length - 1] + out[out.length - 2]);
  return out;
}

// Huffman's lengths where none is past the limit: the cost of the code is optimal (checked against the sum of the
// joined weights, which is what a Huffman tree costs).
test("code lengths under the limit are Huffman's: complete, and as short as a prefix code gets", () => {
  const counts = [5, 9, 12, 13, 16, 45, 0, 0, 3];
  const lengths = codeLengths(counts, 15);
  expect(kraft(lengths)).toBe(1);
  expect(lengths[6]).toBe(0);
  expect(lengths[7]).toBe(0);
  const cost = counts.reduce((sum, c, i) => sum + c * lengths[i], 0);
  // Huffman's cost: the weights made by joining the two lightest, summed
  const queue = counts.filter((c) => c > 0);
  let joined = 0;
  while (queue.length > 1) {
    queue.sort((a, b) => a - b);
    const [a, b] = queue.splice(0, 2);
    joined += a + b;
    queue.push(a + b);
  }
  expect(cost).toBe(joined);
});

// Fibonacci counts make the deepest Huffman trees: 30 symbols want codes of up to 29 bits.
test.each([15, 7])('code lengths past the limit %i are cut to it and the code stays complete', (limit) => {
  const counts = limit === 7 ? fibonacci(19) : fibonacci(30);
  const lengths = codeLengths(counts, limit);
  expect(Math.max(...lengths)).toBe(limit);
  expect(kraft(lengths)).toBe(1);
  // the heavier a symbol, the shorter (or as short) its code
  for (let i = 1; i < counts.length; i++) expect(lengths[i]).toBeLessThanOrEqual(lengths[i - 1]);
});

test('a single symbol, or none, still gets a complete code of two', () => {
  for (const counts of [[0, 0, 7, 0], [0, 0, 0, 0], [3]]) {
    const lengths = codeLengths(counts.length > 1 ? counts : [...counts, 0], 15);
    expect(kraft(lengths)).toBe(1);
    expect(lengths.filter((l) => l > 0)).toHaveLength(2);
  }
});

test('canonical codes are prefix-free and in order of length then symbol, sent least significant bit first', () => {
  const lengths = new Uint8Array([3, 3, 3, 3, 3, 2, 4, 4]);
  // RFC 1951 3.2.2's example: F = 00, A..E = 010..110, G = 1110, H = 1111
  const expected = ['010', '011', '100', '101', '110', '00', '1110', '1111'];
  const codes = canonicalCodes(lengths);
  codes.forEach((code, i) =>
    expect(code.toString(2).padStart(lengths[i], '0').split('').reverse().join('')).toBe(expected[i]),
  );
});

function noise(length: number, spread: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0, seed = 11; i < length; i++)
    bytes[i] = ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24) % spread;
  return bytes;
}

/** Bytes whose values occur in Fibonacci proportions: codes up to the 15-bit limit. */
function skewed(): Uint8Array {
  const counts = fibonacci(26);
  const bytes = new Uint8Array(counts.reduce((a, b) => a + b, 0));
  let at = 0;
  counts.forEach((c, value) => bytes.fill(value * 9, at, (at += c)));
  return bytes;
}

// What zlib inflates (checking the block headers, the codes and the Adler-32 sum) is what went in: nothing, a
// byte, one value over and over, two values, noise over every value across several blocks, and skewed counts.
test.each([
  ['nothing', new Uint8Array(0)],
  ['one byte', new Uint8Array([200])],
  ['one value', new Uint8Array(5000).fill(3)],
  ['two values', noise(70_000, 2)],
  ['noise over all 256 values, past three blocks', noise(400_000, 256)],
  ['a noisy dozen values', noise(300_001, 12)],
  ['Fibonacci counts', skewed()],
])('Huffman-coded bytes inflate to themselves: %s', (_, bytes) => {
  const stream = deflateLiterals(rowKernel.get(), bytes);
  expect(inflateSync(stream).equals(Buffer.from(bytes))).toBe(true);
  // a value among 2^k equally likely ones takes about k bits
  if (bytes.length > 10_000) {
    const values = new Set(bytes).size;
    expect(stream.length).toBeLessThan((bytes.length * Math.ceil(Math.log2(values) + 0.01)) / 8 + 2000);
  }
});
