import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { snapToPixels } from '../src/read/align';
import { decode } from '../src/image/decode';
import { loadSkin } from '../src/skin/skin';
import { analyzeImage } from '../src/analyze/analyze';
import type { Board, Grid } from '../src/common/types';
import { FIXTURES, cellsDiffer, readBoard, scaled } from './helpers';

const jpegOf = async (game: string, shot: string) =>
  decode(
    await sharp(path.join(FIXTURES, game, `${shot}.png`))
      .jpeg({ quality: 75 })
      .toBuffer(),
  );

// KMines' green theme as JPEG (q=75): the grid fitted on it drifts (left 1.5 px off, pitch 0.2 % off each way);
// on the grass, half a pixel off already doubles the distance to every template, leaving many cells unreadable.
// The cells sit a whole 29 px apart, from x=156, y=289.
test('a drifted grid on KMines green as JPEG snaps to the whole-pixel grid the game drew', async () => {
  const image = await jpegOf('kmines', 's4-03');
  const drifted: Grid = { rows: 16, cols: 30, left: 154.497, top: 289.178, pitchX: 29.0647, pitchY: 28.902 };
  const snapped = snapToPixels(image, drifted, await loadSkin('kmines-green'));
  expect(snapped).toEqual({ rows: 16, cols: 30, left: 156, top: 289, pitchX: 29, pitchY: 29 });
});

// GNOME Mines draws its cells a fraction of a pixel apart (here 22.9 px down): a whole pitch fits a little
// better in places and worse in others, and the grid is left as fitted.
test('a grid a fraction of a pixel apart (GNOME Mines) is left as fitted', async () => {
  const image = await jpegOf('gnome-mines', 's2-04');
  const fitted: Grid = { rows: 16, cols: 30, left: 223, top: 428.01, pitchX: 23, pitchY: 22.956 };
  expect(snapToPixels(image, fitted, await loadSkin('gnome-mines-classic'))).toEqual(fitted);
});

// xbomb's 20 px cells shrunk to 80 %: the cells start at x=244.8, y=55.2. Half-pixel starts with a whole pitch
// put the plain cells' median nearest at x=245.5, where every 1 sits no nearer its template than a 2's: the
// snap must not trade the glyphs for the plain cells.
test('a snap that fits the plain cells better and the glyphs worse (xbomb at 80 %) is not taken', async () => {
  const image = await decode(await scaled(path.join(FIXTURES, 'xbomb', 's2-05.png'), 0.8));
  const fitted: Grid = { rows: 16, cols: 30, left: 244.239, top: 55.406, pitchX: 16.013, pitchY: 15.919 };
  const snapped = snapToPixels(image, fitted, await loadSkin('xbomb'));
  expect(Math.abs(snapped.left - 244.8)).toBeLessThan(0.6);
});

test('xbomb at 80 % reads whole: every cell as the game drew it', async () => {
  const shot = path.join(FIXTURES, 'xbomb', 's2-05.png');
  const { analysis } = await analyzeImage(await scaled(shot, 0.8), shot);
  expect(analysis.unreadable).toEqual([]);
  expect(cellsDiffer(analysis.board as Board, readBoard(shot.replace(/\.png$/, '.board.txt')))).toEqual([]);
});

// ace at its own cell sizes: at 12 px its dotted plain cells fit a grid a pixel off as well as the right one, and
// the outline fit (or at 36 px the climb, in steps of 1.8 px) can leave the grid a pixel or so from where the game
// drew its counts. At the skin's own cell size the grid is tried on whole pixels, and every count is exact but the
// 36 px 3s (the skin has no 36 px 3; the 24 px one stands in).
const aceShots = fs.readdirSync(path.join(FIXTURES, 'ace-minesweeper')).filter((f) => /^s\d+-\d+\.png$/.test(f));
test.each(aceShots)('ace %s at 100 %%: every count sits exactly on its template', async (shot) => {
  const file = path.join(FIXTURES, 'ace-minesweeper', shot);
  const { analysis } = await analyzeImage(file, file);
  const counts = analysis.readings!.filter(
    (r) => /[1-8]/.test(r.cell) && !(r.cell === '3' && analysis.grid?.pitchX === 36),
  );
  expect(counts.length).toBeGreaterThan(10);
  expect(
    counts.filter((r) => r.distance > 0).map((r) => `r${r.row}c${r.col} ${r.cell} ${r.distance.toFixed(1)}`),
  ).toEqual([]);
  expect(analysis.board?.cells).toEqual(readBoard(file.replace(/\.png$/, '.board.txt')).cells);
});

test('the held-out ace shots are all there', () => {
  expect(aceShots.length).toBeGreaterThanOrEqual(16);
});

// KMines classic's 31 px board fitted at 30.95 px: its sample of mostly plain cells fits well enough to count as
// aligned, though at that size its 1s lie far from their template.
test('a board fitted a fraction off a template size is read at that size (KMines classic s3-04)', async () => {
  const file = path.join(FIXTURES, 'kmines', 's3-04.png');
  const { analysis } = await analyzeImage(file, file);
  expect(analysis.grid).toMatchObject({ pitchX: 31, pitchY: 31 });
  const counts = analysis.readings!.filter((r) => /[1-8]/.test(r.cell));
  expect(counts.length).toBeGreaterThan(50);
  expect(Math.max(...counts.map((r) => r.distance))).toBeLessThan(10);
  expect(analysis.board?.cells).toEqual(readBoard(file.replace(/\.png$/, '.board.txt')).cells);
});
