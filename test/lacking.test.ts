import path from 'node:path';
import { analyzeImage } from '../src/analyze';
import { loadSkin } from '../src/skin';
import { FIXTURES, readBoard, scaled } from './helpers';

// A KMines game played here (seed 32, default theme, 34 px cells) with a 6 at r6c6. Its skin had no 6 until
// this capture gave it one; read without it, shrunk to 50 %, the 6 sat 0.75 of the limit from the 5 and
// clear of the runner-up 3, and was read as a 5.
const FILE = path.join(FIXTURES, 'kmines', 'learn', 's32-05.png');
const SIX: [number, number] = [6, 6];

test.each([1, 0.5])('at %s×: a count the skin lacks (a 6) is unreadable, not read as its look-alike (a 5)', async (factor) => {
  const skin = await loadSkin('kmines-default');
  const lacking = { ...skin, templates: skin.templates.filter((t) => t.label !== '6') };
  const { analysis } = await analyzeImage(factor === 1 ? FILE : await scaled(FILE, factor), FILE, { skin: lacking });
  const truth = readBoard(FILE.replace(/\.png$/, '.board.txt'));
  expect(truth.cells[SIX[0]][SIX[1]]).toBe('6');
  const six = analysis.readings!.find((r) => r.row === SIX[0] && r.col === SIX[1]);
  expect([six?.best, six?.unreadable]).toEqual(['5', true]);
  expect(analysis.readings!.filter((r) => !r.unreadable && r.cell !== truth.cells[r.row][r.col])).toEqual([]);
});

test.each([1, 0.5])('at %s×: with the 6 this capture gave the skin, every cell reads', async (factor) => {
  const { analysis } = await analyzeImage(factor === 1 ? FILE : await scaled(FILE, factor), FILE);
  const truth = readBoard(FILE.replace(/\.png$/, '.board.txt'));
  expect(analysis.skin).toBe('kmines-default');
  expect(analysis.board?.cells).toEqual(truth.cells);
});
