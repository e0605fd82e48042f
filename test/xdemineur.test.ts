import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';
import { FIXTURES, cellsDiffer, readBoard, scaled } from './helpers';

// Screenshots of real xdemineur games captured here (../shared/tools/live, seed 2) with exact ground
// truth; the built-in skin was learned from other games (fixtures/xdemineur/learn, seed 1).
const DIR = path.join(FIXTURES, 'xdemineur');
const SHOTS = readdirSync(DIR)
  .filter((f) => /^s2-\d+\.png$/.test(f))
  .sort();

function trueMines(shot: string): Set<string> {
  const rows = readFileSync(path.join(DIR, shot.replace(/\.png$/, '.mines.txt')), 'utf8')
    .trim()
    .split('\n');
  return new Set(rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '*' ? [`r${r}c${c}`] : []))));
}

test('there are at least 5 held-out fixture screenshots', () => {
  expect(SHOTS.length).toBeGreaterThanOrEqual(5);
});

describe.each([1, 1.5, 0.75])('built-in xdemineur skin at %d×', (factor) => {
  test.each(SHOTS)('%s: every cell right, every deduction true', async (shot) => {
    const { analysis } = await analyzeImage(await scaled(path.join(DIR, shot), factor), shot);
    expect(analysis.error).toBeUndefined();
    expect(analysis.skin).toBe('xdemineur');
    expect(cellsDiffer(analysis.board!, readBoard(path.join(DIR, shot.replace(/\.png$/, '.board.txt'))))).toEqual([]);
    expect(analysis.unreadable).toEqual([]);
    const mines = trueMines(shot);
    const { mines: certainMines, safe } = analysis.deductions!;
    expect(certainMines.filter((c) => !mines.has(c))).toEqual([]);
    expect(safe.filter((c) => mines.has(c))).toEqual([]);
    expect(certainMines.length + safe.length).toBeGreaterThan(0);
  });
});

test.each([0.45, 4.5])('at %d× (cells of 9.5 px and 94 px) every cell is read right too', async (factor) => {
  const shot = SHOTS[1];
  const { analysis } = await analyzeImage(await scaled(path.join(DIR, shot), factor), shot);
  expect(cellsDiffer(analysis.board!, readBoard(path.join(DIR, shot.replace(/\.png$/, '.board.txt'))))).toEqual([]);
  expect(analysis.unreadable).toEqual([]);
});
