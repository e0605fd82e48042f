import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeImage } from '../src/analyze';
import { FIXTURES, readBoard } from './helpers';

// Held-out screenshots (seed 2) of every game with a built-in skin; the skins were learned from the
// seed-1 captures in fixtures/<game>/learn. A cell may be unreadable (read as hidden, so it can only
// cost deductions) but never read as something it is not, and no deduction may contradict the layout.
const GAMES = ['ace-minesweeper', 'gnome-mines', 'kmines', 'xbomb', 'xdemineur'];
const SHOTS = GAMES.flatMap((game) =>
  readdirSync(path.join(FIXTURES, game)).filter((f) => /^s2-\d+\.png$/.test(f)).map((f) => path.join(game, f)));

function trueMines(shot: string): Set<string> {
  const rows = readFileSync(path.join(FIXTURES, shot.replace(/\.png$/, '.mines.txt')), 'utf8').trim().split('\n');
  return new Set(rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '*' ? [`r${r}c${c}`] : []))));
}

test('every game has held-out screenshots', () => {
  for (const game of GAMES) expect(SHOTS.filter((s) => s.startsWith(game + path.sep)).length).toBeGreaterThanOrEqual(4);
});

test.each(SHOTS)('%s: the right skin, no cell misread, ≥ 98 %% read, every deduction true', async (shot) => {
  const { analysis } = await analyzeImage(path.join(FIXTURES, shot), shot);
  expect(analysis.error).toBeUndefined();
  expect(analysis.skin?.startsWith(shot.split(path.sep)[0])).toBe(true);
  const truth = readBoard(path.join(FIXTURES, shot.replace(/\.png$/, '.board.txt')));
  const readings = analysis.readings!;
  expect([analysis.board!.rows, analysis.board!.cols]).toEqual([truth.rows, truth.cols]);
  const misread = readings.filter((r) => !r.unreadable && r.cell !== truth.cells[r.row][r.col]);
  expect(misread).toEqual([]);
  expect(readings.filter((r) => r.unreadable).length).toBeLessThanOrEqual(0.02 * readings.length);
  const mines = trueMines(shot);
  expect(analysis.deductions!.mines.filter((c) => !mines.has(c))).toEqual([]);
  expect(analysis.deductions!.safe.filter((c) => mines.has(c))).toEqual([]);
});
