import path from 'node:path';
import sharp from 'sharp';
import { analyzeImage } from '../src/analyze/analyze';
import { legend } from '../src/output/legend';
import { stampSheet } from '../src/output/stamps';
import type { Marks } from '../src/output/marks';
import type { Grid, Rect, RgbaImage } from '../src/common/types';
import { FIXTURES, scaled, tileAlpha } from './helpers';

const overlap = (a: Rect, b: Rect) =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
const image = (width: number, height: number): RgbaImage => ({
  width,
  height,
  data: new Uint8Array(width * height * 4),
});
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

// Each piece of the legend is drawn once and stamped on later screenshots: it must look the same wherever it goes
// (whole pixels), counts must share their digits, and nothing drawn may be cut off at a piece's edge.
test("legend pieces sit on whole pixels, share count digits; no text or symbol reaches a piece's edge", async () => {
  const every: Marks = {
    mines: [[0, 0]],
    safe: Array.from({ length: 305 }, () => [0, 1] as [number, number]),
    unreadable: [[0, 2]],
    provenFlags: [
      [0, 3],
      [0, 4],
    ],
    unprovenFlags: [[0, 5]],
    wrongFlags: [[0, 6]],
    conflict: [[0, 7]],
    bestGuess: { cell: [1, 0], p: 0.375 },
    heat: [{ cell: [1, 0], p: 0.375 }],
    headline: 'Inconsistent board: these counts cannot all hold (r3c4 = 2?)',
  };
  for (let size = 11; size <= 22; size++) {
    const { pieces, box } = legend(image(3000, 600), { ...grid, pitchY: size / 0.6 }, every);
    expect(pieces.flatMap((p) => [p.left, p.top, p.width, p.height]).every(Number.isInteger)).toBe(true);
    const boxPieces = pieces.filter((p) => p.svg.includes('fill-opacity="0.75"'));
    expect(pieces.slice(0, boxPieces.length)).toEqual(boxPieces);
    expect(boxPieces.every((p) => p.top === box.top && p.height === box.height)).toBe(true);
    expect(boxPieces.map((p) => p.left)).toEqual(
      boxPieces.map((_, i) => box.left + boxPieces.slice(0, i).reduce((sum, q) => sum + q.width, 0)),
    );
    expect(boxPieces.reduce((sum, p) => sum + p.width, 0)).toBe(box.width);
    const sheet = stampSheet(grid, marks, pieces.slice(boxPieces.length));
    const { data, info } = await sharp(Buffer.from(sheet.svg)).raw().toBuffer({ resolveWithObject: true });
    for (const [tile, at] of sheet.tiles) {
      const { edge, inside } = tileAlpha({ data, width: info.width }, at);
      expect({ size, tile, edge }).toEqual({ size, tile, edge: 0 });
      expect(inside).toBeGreaterThan(0);
    }
  }
  const drawings = (mines: number) =>
    new Set(
      legend(image(400, 400), grid, {
        ...marks,
        mines: Array.from({ length: mines }, () => [0, 0] as [number, number]),
      }).pieces.map((p) => p.svg),
    );
  expect(drawings(12)).toEqual(drawings(21));
  expect(drawings(12).size).toBe(drawings(1).size + 1);
});

test("the legend's box stamped from its ends and middle columns is, byte for byte, the box drawn whole", async () => {
  for (const [size, width] of [
    [11, 400],
    [14, 927],
    [22, 1173],
    [17, 40],
  ]) {
    const { pieces, box } = legend(
      image(3000, 600),
      { ...grid, pitchY: size / 0.6 },
      { ...marks, headline: 'x'.repeat(Math.round(width / size / 0.62)) },
    );
    const boxPieces = pieces.filter((p) => p.svg.includes('fill-opacity="0.75"'));
    expect(new Set(boxPieces.map((p) => p.svg)).size).toBeLessThanOrEqual(4);
    expect(boxPieces.length).toBeLessThan(box.width / 8);
    const whole = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${box.width}" height="${box.height}">` +
          `<rect width="${box.width}" height="${box.height}" rx="${(size / 3).toFixed(1)}" ` +
          'fill="#000" fill-opacity="0.75"/></svg>',
      ),
    )
      .raw()
      .toBuffer();
    const sheet = stampSheet(grid, marks, boxPieces);
    const { data, info } = await sharp(Buffer.from(sheet.svg)).raw().toBuffer({ resolveWithObject: true });
    const stamped = Buffer.alloc(whole.length);
    for (const stamp of sheet.stamps) {
      const at = sheet.tiles.get(stamp.tile) as Rect;
      for (let y = 0; y < at.height; y++) {
        const from = 4 * ((at.top + y) * info.width + at.left);
        data.copy(stamped, 4 * (y * box.width + stamp.left - box.left), from, from + 4 * at.width);
      }
    }
    expect({ size, width: box.width, same: stamped.equals(whole) }).toEqual({ size, width: box.width, same: true });
  }
});
