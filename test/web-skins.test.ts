import { readdirSync } from 'node:fs';
import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';
import { FIXTURES, readBoard, trueMines } from './helpers';

// Held-out screenshots (seeds 2001 on, named s2-*) of the web clones in ../shared/games, captured with
// ../shared/tools/web at scales 1 to 2, some lost (mines shown, the exploded one, wrong flags) and some with
// question marks. The built-in skins were learned from other games (fixtures/<game>/learn, seeds 1 on): both
// Windows 2000 clones are read by one skin, `windows-classic`, Google's Minesweeper by `google`.
const SKIN_OF: Record<string, string> = {
  'classic-2000': 'windows-classic',
  'classic-brandon': 'windows-classic',
  google: 'google',
};
const SHOTS = Object.keys(SKIN_OF).flatMap((game) =>
  readdirSync(path.join(FIXTURES, game))
    .filter((f) => /^s2-\d+\.png$/.test(f))
    .sort()
    .map((f) => path.join(game, f)),
);

test('every web look has at least 4 held-out screenshots', () => {
  for (const game of Object.keys(SKIN_OF))
    expect(SHOTS.filter((s) => s.startsWith(game + path.sep)).length).toBeGreaterThanOrEqual(4);
});

test.each(SHOTS)('%s: its built-in skin, every cell right, every deduction true', async (shot) => {
  const { analysis } = await analyzeImage(path.join(FIXTURES, shot), shot);
  expect(analysis.error).toBeUndefined();
  expect(analysis.skin).toBe(SKIN_OF[shot.split(path.sep)[0]]);
  const truth = readBoard(path.join(FIXTURES, shot.replace(/\.png$/, '.board.txt')));
  expect([analysis.board!.rows, analysis.board!.cols]).toEqual([truth.rows, truth.cols]);
  const readings = analysis.readings!;
  const misread = readings.filter((r) => !r.unreadable && r.cell !== truth.cells[r.row][r.col]);
  expect(misread).toEqual([]);
  expect(readings.filter((r) => r.unreadable).length).toBeLessThanOrEqual(2);
  const mines = trueMines(shot);
  expect(analysis.deductions!.mines.filter((c) => !mines.has(c))).toEqual([]);
  expect(analysis.deductions!.safe.filter((c) => mines.has(c))).toEqual([]);
});
