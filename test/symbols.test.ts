import { readdirSync } from 'node:fs';
import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';
import { symbolShape } from '../src/read/symbols';
import { readWithoutSkin } from '../src/read/skinless';
import { FIXTURES, readBoard } from './helpers';

// Counts read by their shape against the bank of fonts and skins (skins/symbols.json), each game's own skins left
// out, as if its look were never taught: on the true grid (found with the skins), every count whose shape is clear
// must be read right, and most must be clear. Two held-out shots of each game with counts drawn as digits (KMines'
// sprite theme draws signposts, not digits), whole in the picture (Google's s2-01 to s2-03 are not).
const LOOKS: Record<string, string[]> = {
  xdemineur: ['xdemineur'],
  'ace-minesweeper': ['ace-minesweeper'],
  xbomb: ['xbomb'],
  'gnome-mines': ['gnome-mines-bgcolors', 'gnome-mines-classic', 'gnome-mines-default'],
  kmines: ['kmines-classic', 'kmines-default', 'kmines-green'],
  'classic-2000': ['windows-classic'],
  'classic-brandon': ['windows-classic'],
  google: ['google'],
};
const SHOTS = Object.keys(LOOKS).flatMap((game) =>
  readdirSync(path.join(FIXTURES, game))
    .filter((f) => (game === 'google' ? /^s2-0[45]\.png$/ : /^s2-0[12]\.png$/).test(f))
    .map((f) => path.join(game, f)),
);

/** Whether a shape reading is clear enough to use: as read/skinless.ts's SHAPE. */
const clear = (s: { distance: number; runnerUpDistance: number }) =>
  s.distance <= 0.28 && s.runnerUpDistance >= 1.2 * s.distance;

test.each(SHOTS)('%s: counts read by shape, its own skins left out', async (shot) => {
  const game = path.dirname(shot);
  const { analysis, image } = await analyzeImage(path.join(FIXTURES, shot), shot);
  const truth = readBoard(path.join(FIXTURES, shot.replace(/\.png$/, '.board.txt')));
  const grid = analysis.grid!;
  expect([grid.rows, grid.cols]).toEqual([truth.rows, truth.cols]);
  let counts = 0;
  const wrong: string[] = [];
  let right = 0;
  for (let r = 0; r < truth.rows; r++) {
    for (let c = 0; c < truth.cols; c++) {
      if (!/[1-8]/.test(truth.cells[r][c])) continue;
      counts++;
      const shape = symbolShape(image!, grid, r, c, LOOKS[game]);
      if (!shape || !clear(shape)) continue;
      if (shape.label === truth.cells[r][c]) right++;
      else wrong.push(`r${r}c${c} ${truth.cells[r][c]}→${shape.label}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(counts).toBeGreaterThan(10);
  expect(right / counts).toBeGreaterThanOrEqual(0.9);
});

// The skin-free reader on the same grid, the same skins left out: nothing misread, and most cells read.
test.each(SHOTS)('%s: the skin-free reader on the true grid misreads nothing', async (shot) => {
  const game = path.dirname(shot);
  const { analysis, image } = await analyzeImage(path.join(FIXTURES, shot), shot);
  const truth = readBoard(path.join(FIXTURES, shot.replace(/\.png$/, '.board.txt')));
  const readings = readWithoutSkin(image!, analysis.grid!, 0, LOOKS[game]);
  const misread = readings.filter((r) => !r.unreadable && r.cell !== truth.cells[r.row][r.col]);
  expect(misread.map((r) => `r${r.row}c${r.col} ${truth.cells[r.row][r.col]}→${r.cell}`)).toEqual([]);
  const right = readings.length - readings.filter((r) => r.unreadable).length;
  expect(right / readings.length).toBeGreaterThanOrEqual(0.75);
});
