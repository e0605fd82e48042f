import path from 'node:path';
import { analyzeImage } from '../src/analyze';
import { legend } from '../src/legend';
import type { Grid, Rect, RgbaImage } from '../src/types';
import { FIXTURES, scaled } from './helpers';

const overlap = (a: Rect, b: Rect) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
const image = (width: number, height: number): RgbaImage => ({ width, height, data: new Uint8Array(width * height * 4) });
const marks = { mines: [], safe: [], unreadable: [], provenFlags: [], wrongFlags: [] };
const grid: Grid = { rows: 8, cols: 8, left: 40, top: 60, pitchX: 20, pitchY: 20 };
const board: Rect = { left: 40, top: 60, width: 160, height: 160 };

test('the legend goes under the board, or above it when there is no room under it', () => {
  const under = legend(image(400, 400), grid, marks).box;
  expect(under.top).toBeGreaterThanOrEqual(board.top + board.height);
  const above = legend(image(400, 225), grid, marks).box;
  expect(above.top + above.height).toBeLessThanOrEqual(board.top);
});

test('a legend that would cover the mine counter goes under the counter, clear of the board', () => {
  const counter: Rect = { left: 120, top: 224, width: 30, height: 14 };
  const box = legend(image(400, 400), grid, { ...marks, keepClear: counter }).box;
  expect(overlap(box, counter)).toBe(false);
  expect(overlap(box, board)).toBe(false);
});

test('xbomb at 1.5×: the legend leaves the "UXB : 10" counter under the board readable', async () => {
  const file = path.join(FIXTURES, 'xbomb', 's3-01.png');
  const { analysis, image: picture } = await analyzeImage(await scaled(file, 1.5), file);
  const counter = analysis.counter?.box;
  expect(counter).toBeTruthy();
  const plain = legend(picture!, analysis.grid!, marks).box;
  expect(overlap(plain, counter!)).toBe(true);
  const box = legend(picture!, analysis.grid!, { ...marks, keepClear: counter }).box;
  expect(overlap(box, counter!)).toBe(false);
});
