import path from 'node:path';
import sharp from 'sharp';
import { analyzeBoard, analyzeImage, failed } from '../src/analyze/analyze';
import { parseBoard } from '../src/common/board';
import type { Analysis } from '../src/common/types';
import { mulberry32 } from './brute';
import { FIXTURES } from './helpers';

// Hostile input: every result is ok, inconsistent, or an error with a one-line message — no throw, no hang.
function wellFormed(a: Analysis): boolean {
  if (a.status === 'error') return typeof a.error === 'string' && a.error.length > 0 && !a.error.includes('\n');
  return (a.status === 'ok' || a.status === 'inconsistent') && a.board !== null && a.deductions !== null;
}

type Mutation = (bytes: Buffer, rand: () => number) => Buffer;

const flipBits: Mutation = (bytes, rand) => {
  const out = Buffer.from(bytes);
  for (let k = 1 + Math.floor(rand() * 8); k > 0; k--)
    out[Math.floor(rand() * out.length)] ^= 1 << Math.floor(rand() * 8);
  return out;
};
const truncate: Mutation = (bytes, rand) => bytes.subarray(0, Math.floor(rand() * bytes.length));
/** PNG chunks after the signature, in a shuffled order (or one dropped, or one repeated). */
const shuffleChunks: Mutation = (bytes, rand) => {
  const chunks: Buffer[] = [];
  for (let at = 8; at + 12 <= bytes.length;) {
    const end = at + 12 + bytes.readUInt32BE(at);
    chunks.push(bytes.subarray(at, end));
    at = end;
  }
  const i = Math.floor(rand() * chunks.length);
  const j = Math.floor(rand() * chunks.length);
  const pick = rand();
  if (pick < 0.4) [chunks[i], chunks[j]] = [chunks[j], chunks[i]];
  else if (pick < 0.7) chunks.splice(i, 1);
  else chunks.splice(i, 0, chunks[j]);
  return Buffer.concat([bytes.subarray(0, 8), ...chunks]);
};

describe('fuzzing', () => {
  test('1200 mutated screenshots: bit flips, truncations, chunk shuffles', async () => {
    const shot = path.join(FIXTURES, 'xdemineur/s2-01.png');
    const bytes = await sharp(shot).extract({ left: 40, top: 40, width: 283, height: 348 }).png().toBuffer();
    const rand = mulberry32(2026);
    const mutations = [flipBits, truncate, shuffleChunks];
    const bad: string[] = [];
    const seen = { ok: 0, inconsistent: 0, error: 0 };
    for (let n = 0; n < 1200; n++) {
      const input = mutations[n % 3](bytes, rand);
      const analysis = await analyzeImage(input, `mutant ${n}`).then(
        (r) => r.analysis,
        (err) => failed(`mutant ${n}`, `threw: ${err}`),
      );
      seen[analysis.status]++;
      if (!wellFormed(analysis) || /threw/.test(analysis.error ?? ''))
        bad.push(`mutant ${n}: ${analysis.status} ${analysis.error}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(seen.error).toBeGreaterThan(300);
    expect(seen.ok + seen.inconsistent).toBeGreaterThan(50);
  }, 600_000);

  test('1200 random text boards: parsed or refused in one line, then solved', () => {
    const rand = mulberry32(77);
    const alphabet = '..........0123456788FF?*X!ms';
    const invalid = '# =x\t';
    let [solved, refused] = [0, 0];
    const bad: string[] = [];
    for (let n = 0; n < 1200; n++) {
      const rows = 1 + Math.floor(rand() * 12);
      const cols = 1 + Math.floor(rand() * 14);
      const ragged = rand() < 0.1;
      const lines = Array.from({ length: rows }, () =>
        Array.from(
          { length: ragged ? 1 + Math.floor(rand() * cols) : cols },
          () => alphabet[Math.floor(rand() * alphabet.length)],
        ).join(''),
      );
      if (rand() < 0.15) {
        const r = Math.floor(rand() * rows);
        lines[r] = lines[r].slice(0, 1) + invalid[Math.floor(rand() * invalid.length)] + lines[r].slice(1);
      }
      const text = (rand() < 0.2 ? `# mines=${Math.floor(rand() * 40)}\n` : '') + lines.join('\n');
      let analysis: Analysis;
      try {
        analysis = analyzeBoard(parseBoard(text), `board ${n}`);
        solved++;
      } catch (err) {
        analysis = failed(`board ${n}`, err);
        refused++;
      }
      if (!wellFormed(analysis)) bad.push(`board ${n}:\n${text}\n${analysis.status} ${analysis.error}`);
    }
    expect(bad.slice(0, 3)).toEqual([]);
    expect(solved).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(100);
  });
});
