// The grid ends where the lattice of cells ends (issue 67). Google's Minesweeper at 125 %: our own outlines find
// two of its boards in part (8×9 of 8×10: the last column all hidden, flat green with no outline of its own; 8×18 of
// 14×18: the six all-hidden rows above). The cells past the part's side read as the board's own, so that side is
// in doubt: its counts are not used, and the board is read again from OpenCV's outlines, which find it whole.
import path from 'node:path';
import { analyzeImage, analyzeRead } from '../src/analyze/analyze';
import { decode } from '../src/image/decode';
import { fitGrid } from '../src/locate/grid';
import { locateAll } from '../src/locate/locate';
import { openSides } from '../src/read/open';
import { readBoard as readCells } from '../src/read/read';
import { FIXTURES, readBoard, trueMines } from './helpers';

const { falseOnPart } = require('../scripts/false-on-part.js') as {
  falseOnPart: (
    b: unknown,
    truth: unknown,
    d: { mines: string[]; safe: string[] },
    mines: Set<string>,
  ) => { false: number; dr: number; dc: number };
};

const PARTS: [shot: string, part: [number, number], side: string][] = [
  ['google/s2-01.png', [8, 9], 'right'],
  ['google/s2-02.png', [8, 18], 'top'],
];

test.each(PARTS)('%s: read whole, every cell right, every deduction true', async (shot) => {
  const { analysis } = await analyzeImage(path.join(FIXTURES, shot), shot);
  const truth = readBoard(path.join(FIXTURES, shot.replace(/\.png$/, '.board.txt')));
  expect([analysis.board?.rows, analysis.board?.cols]).toEqual([truth.rows, truth.cols]);
  expect(analysis.readings!.filter((r) => !r.unreadable && r.cell !== truth.cells[r.row][r.col])).toEqual([]);
  const mines = trueMines(shot);
  expect(analysis.deductions!.mines.filter((c) => !mines.has(c))).toEqual([]);
  expect(analysis.deductions!.safe.filter((c) => mines.has(c))).toEqual([]);
});

test.each(PARTS)('%s: the part our own outlines find is %j, its %s side in doubt', async (shot, part, side) => {
  const file = path.join(FIXTURES, shot);
  const image = await decode(file);
  const found = await locateAll(image, 'own');
  const read = await readCells(
    image,
    found.map((c) => ({ grid: () => fitGrid(image, c), boxes: () => c.boxes })),
    'google',
    {},
    1,
  );
  expect([read.grid.rows, read.grid.cols]).toEqual(part);
  expect(openSides(image, read.grid, read.skin, read.readings)).toContain(side);
  const analysis = await analyzeRead(image, read, shot, {});
  expect(analysis.notes.join(' ')).toMatch(new RegExp(`beyond the board's (\\w+ and )*${side}\\b`));
  // no count along that side is used: each deduction is one the part gives with that side's counts left out,
  // and true where the part lies on the board
  const truth = readBoard(file.replace(/\.png$/, '.board.txt'));
  expect(falseOnPart(analysis.board, truth, analysis.deductions!, trueMines(shot)).false).toBe(0);
  const withoutSide = await analyzeRead(image, read, shot, { openSides: [side as 'right'] });
  expect(analysis.deductions).toEqual(withoutSide.deductions);
});

// Read without a skin (the generic reader), the part is kept (OpenCV's whole board reads fewer cells), but its side
// is in doubt all the same: the cells beyond join the board's clusters of looks.
test('google/s2-01.png without a skin: read whole, or the right side in doubt', async () => {
  const { analysis } = await analyzeImage(path.join(FIXTURES, 'google/s2-01.png'), 'google/s2-01.png', {
    skin: 'none',
  });
  const whole = analysis.board?.rows === 8 && analysis.board?.cols === 10;
  expect(whole || /beyond the board's (\w+ and )*right\b/.test(analysis.notes.join(' '))).toBe(true);
});
