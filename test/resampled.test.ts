import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';
import { decode } from '../src/image/decode';
import { readResampled } from '../src/read/resampled';
import { loadSkin } from '../src/skin/skin';
import { FIXTURES, readBoard, scaled } from './helpers';

// ace's 32×32 boards drawn with 12 px cells, saved at 50 %: 6 px cells, where a 2 and a 3 are a pixel
// apart. Compared with the 12 px templates shrunk onto the screenshot's own pixels (lanczos3 / bicubic,
// at the cell's place), each reads.
// Shrunk less (75–90 %: 9–11 px cells), the 12 px templates are shrunk onto them too, the cell's place tried a
// pixel either way (s3-05 at 75 %: its grid's start snapped 0.75 px off), and to an eighth of a pixel around each
// label's best place (seed 34's 05: its grid's pitch fitted 0.08 % short).
const SMALL = ['s2-03', 's2-05'];
const SHRUNK: [string, number][] = [
  ...SMALL.map((shot): [string, number] => [shot, 0.5]),
  ['s3-05', 0.75],
  ['s34-05', 0.75],
  ['s2-05', 0.8],
  ['s3-03', 0.9],
];
const fileOf = (shot: string) => path.join(FIXTURES, 'ace-minesweeper', `${shot}.png`);

test.each(SHRUNK)('ace %s at %p×: every cell read, none misread', async (shot, factor) => {
  const file = fileOf(shot);
  const { analysis } = await analyzeImage(await scaled(file, factor), file);
  const truth = readBoard(file.replace(/\.png$/, '.board.txt'));
  expect([analysis.board?.rows, analysis.board?.cols]).toEqual([truth.rows, truth.cols]);
  const wrong = analysis
    .readings!.filter((r) => r.cell !== truth.cells[r.row][r.col])
    .map((r) => `r${r.row}c${r.col} ${r.cell}`);
  expect(wrong).toEqual([]);
});

// The board's 2s handed to the resampled reading as unreadable: with the whole skin they read as 2; with a
// skin lacking its 2, none is read as anything (the 3 shrunk onto a 2 is far off, not merely second).
test('a label the skin lacks stays unreadable', async () => {
  const file = fileOf(SMALL[0]);
  const image = await decode(await scaled(file, 0.5));
  const truth = readBoard(file.replace(/\.png$/, '.board.txt'));
  const { analysis } = await analyzeImage(await scaled(file, 0.5), file);
  const grid = analysis.grid!;
  const skin = await loadSkin('ace-minesweeper');
  const isTwo = (r: { row: number; col: number }) => truth.cells[r.row][r.col] === '2';
  const readings = analysis.readings!.map((r) => (isTwo(r) ? { ...r, cell: '.', unreadable: true } : r));
  expect(readings.filter(isTwo).length).toBeGreaterThanOrEqual(20);
  const whole = readResampled(image, grid, skin, readings);
  expect(whole.filter(isTwo).map((r) => r.cell)).toEqual(readings.filter(isTwo).map(() => '2'));
  const lacking = readResampled(
    image,
    grid,
    { ...skin, templates: skin.templates.filter((t) => t.label !== '2') },
    readings,
  );
  expect(lacking.filter((r) => isTwo(r) && !r.unreadable)).toEqual([]);
});

// Templates shrunk for one screenshot are kept for the next of the same pitch (a folder of one game's shots at one
// scale): the next one's readings are the same as with templates shrunk afresh, also after a screenshot of another.
test('templates kept from a screenshot of the same pitch read the next one as shrinking afresh does', async () => {
  const skin = await loadSkin('ace-minesweeper');
  const shots = await Promise.all(
    [
      [SMALL[0], 0.6],
      [SMALL[0], 0.5],
      [SMALL[1], 0.5],
    ].map(async ([shot, scale]) => {
      const file = fileOf(shot as string);
      const bytes = await scaled(file, scale as number);
      const { analysis } = await analyzeImage(bytes, file);
      const truth = readBoard(file.replace(/\.png$/, '.board.txt'));
      const counts = (r: { row: number; col: number }) => /[1-8]/.test(truth.cells[r.row][r.col]);
      const readings = analysis.readings!.map((r) => (counts(r) ? { ...r, cell: '.' as const, unreadable: true } : r));
      return { image: await decode(bytes), grid: analysis.grid!, readings };
    }),
  );
  const [other, first, next] = shots;
  expect([next.grid.pitchX, next.grid.pitchY]).toEqual([first.grid.pitchX, first.grid.pitchY]);
  expect(other.grid.pitchX).not.toBe(first.grid.pitchX);
  const afresh = shots.map((shot) => {
    let read: ReturnType<typeof readResampled> = [];
    jest.isolateModules(() => {
      const isolated = require('../src/read/resampled') as typeof import('../src/read/resampled');
      read = isolated.readResampled(shot.image, shot.grid, skin, shot.readings);
    });
    return read;
  });
  const kept = shots.map((shot) => readResampled(shot.image, shot.grid, skin, shot.readings));
  expect(kept[2].filter((r) => !r.unreadable).length).toBeGreaterThan(100);
  expect(kept).toEqual(afresh);
});
