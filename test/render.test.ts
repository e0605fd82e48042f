import path from 'node:path';
import sharp from 'sharp';
import { decode } from '../src/image/decode';
import { over255, render } from '../src/output/render';
import { stampSheet } from '../src/output/stamps';
import { legend } from '../src/output/legend';
import type { Marks } from '../src/output/marks';
import type { Grid, RgbaImage } from '../src/common/types';
import { FIXTURES, tileAlpha } from './helpers';

const SHOT = path.join(FIXTURES, 'xdemineur/s2-05.png');
/** A grid drawn over the shot at a known place: marks land where it says, whatever the shot shows. */
const GRID: Grid = { rows: 4, cols: 4, left: 200, top: 200, pitchX: 20, pitchY: 20 };
const NONE: Marks = { mines: [], safe: [], unreadable: [], provenFlags: [], wrongFlags: [] };
const MARKS = {
  mines: [[0, 0] as [number, number]],
  safe: [[3, 3] as [number, number]],
  unreadable: [],
  provenFlags: [],
  wrongFlags: [],
};

const pixel = (image: RgbaImage, x: number, y: number): number[] => [
  ...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];

describe('render', () => {
  test('a blend over an opaque pixel rounds n / 255 in integers as Math.round does, for every n it can be', () => {
    const wrong: number[] = [];
    for (let n = 0; n <= 255 * 255; n++) if (over255(n) !== Math.round(n / 255)) wrong.push(n);
    expect(wrong).toEqual([]);
  });

  test("marks painted over the cells; off the board and legend each pixel is the shot's; no alpha added", async () => {
    const shot = await decode(SHOT);
    const png = await render(shot, GRID, MARKS);
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height, meta.channels, meta.hasAlpha]).toEqual([shot.width, shot.height, 3, false]);
    const out = await decode(png);
    const [r, g, b] = pixel(out, 210, 210);
    expect(r).toBeGreaterThan(g + 80);
    expect(r).toBeGreaterThan(b + 80);
    const [sr, sg, sb] = pixel(out, 268, 274);
    expect(sg).toBeGreaterThan(sr + 60);
    expect(sg).toBeGreaterThan(sb + 60);
    let changedFar = 0;
    for (let y = 0; y < shot.height; y++) {
      for (let x = 0; x < shot.width; x++) {
        const far = x < 150 || x > 400 || y < 150 || y > 400;
        if (far && pixel(out, x, y).some((v, c) => v !== shot.data[(y * shot.width + x) * 4 + c])) changedFar++;
      }
    }
    expect(changedFar).toBe(0);
  });

  test('consumed, the screenshot is painted on directly (same PNG); not consumed, its pixels are kept', async () => {
    const shot = await decode(SHOT);
    const before = shot.data.slice();
    const copied = await render(shot, GRID, MARKS);
    expect(Buffer.from(shot.data).equals(Buffer.from(before))).toBe(true);
    const consumed = await render(shot, GRID, MARKS, { consume: true });
    expect(consumed.equals(copied)).toBe(true);
    expect(pixel(shot, 210, 210)).not.toEqual([
      ...before.subarray((210 * shot.width + 210) * 4, (210 * shot.width + 210) * 4 + 4),
    ]);
  });

  test('consumed pixels are reused for the next screenshot of its size, which decodes to its own pixels', async () => {
    const first = await decode(SHOT);
    await render(first, GRID, MARKS, { consume: true });
    const next = path.join(FIXTURES, 'xdemineur/s2-03.png');
    const reused = await decode(next);
    expect(reused.data.buffer).toBe(first.data.buffer);
    const fresh = await decode(next);
    expect(fresh.data.buffer).not.toBe(first.data.buffer);
    expect(Buffer.from(reused.data).equals(Buffer.from(fresh.data))).toBe(true);
    // not consumed: nothing is given back
    await render(fresh, GRID, MARKS);
    expect((await decode(next)).data.buffer).not.toBe(fresh.data.buffer);
  });

  // Tiles drawn for one screenshot are kept for the next: the PNG is byte for byte the one a fresh process draws,
  // whether all its tiles were drawn before, some, or none.
  test('tiles kept from earlier screenshots draw the same PNG as tiles drawn afresh', async () => {
    const shot = await decode(SHOT);
    const later: Marks = {
      ...NONE,
      mines: [
        [0, 0],
        [2, 1],
      ],
      safe: [
        [3, 3],
        [1, 1],
      ],
      unreadable: [[0, 3]],
      conflict: [[2, 2]],
    };
    const grid: Grid = { ...GRID, left: 200.4, pitchX: 20.3 };
    const fresh = (): typeof render => {
      let loaded: typeof render = render;
      jest.isolateModules(() => ({ render: loaded } = jest.requireActual('../src/output/render')));
      return loaded;
    };
    const cold = await fresh()(shot, grid, later);
    const warming = fresh();
    await warming(shot, grid, MARKS);
    expect((await warming(shot, grid, later)).equals(cold)).toBe(true);
    expect((await warming(shot, grid, later)).equals(cold)).toBe(true);
    // the same drawing (to 0.1 px) on a tile a pixel larger is a tile of its own
    const wider: Grid = { ...GRID, pitchX: 20.01, pitchY: 20.01 };
    await warming(shot, GRID, later);
    expect((await warming(shot, wider, later)).equals(await fresh()(shot, wider, later))).toBe(true);
    // over clear pixels a tile is painted as drawn: each pixel the sheet's, at the stamp's place
    const clear: RgbaImage = { width: 300, height: 300, data: new Uint8Array(300 * 300 * 4), opaque: false };
    const one: Marks = { ...NONE, mines: [[1, 1]] };
    const out = await decode(await warming(clear, GRID, one));
    const sheet = stampSheet(GRID, one, legend(clear, GRID, one).pieces);
    const { data, info } = await sharp(Buffer.from(sheet.svg)).raw().toBuffer({ resolveWithObject: true });
    const [stamp] = sheet.stamps;
    const at = sheet.tiles.get(stamp.tile) as { left: number; top: number; width: number; height: number };
    let painted = 0;
    for (let y = 0; y < at.height; y++) {
      for (let x = 0; x < at.width; x++) {
        const drawn = [
          ...data.subarray(
            4 * ((at.top + y) * info.width + at.left + x),
            4 * ((at.top + y) * info.width + at.left + x) + 4,
          ),
        ];
        expect(pixel(out, stamp.left + x, stamp.top + y)).toEqual(drawn[3] ? drawn : [0, 0, 0, 0]);
        if (drawn[3]) painted++;
      }
    }
    expect(painted).toBeGreaterThan(100);
  });

  test('a screenshot with transparency keeps it; a mark over a clear pixel is made opaque enough to see', async () => {
    const shot = await decode(SHOT);
    const clear = { ...shot, data: shot.data.slice(), opaque: false };
    for (let i = 3; i < clear.data.length; i += 4) clear.data[i] = 0;
    const png = await render(clear, GRID, MARKS);
    expect((await sharp(png).metadata()).hasAlpha).toBe(true);
    const out = await decode(png);
    expect(pixel(out, 210, 210)[3]).toBeGreaterThan(128);
    expect(pixel(out, 10, 10)[3]).toBe(0);
  });

  test("each look of a cell's marks is drawn once; every mark, at any size and offset, stays in its tile", async () => {
    const cell: [number, number] = [0, 0];
    const kinds: Marks[] = [
      { ...NONE, mines: [cell] },
      { ...NONE, safe: [cell] },
      { ...NONE, unreadable: [cell] },
      { ...NONE, provenFlags: [cell] },
      { ...NONE, unprovenFlags: [cell] },
      { ...NONE, wrongFlags: [cell] },
      { ...NONE, conflict: [cell] },
      { ...NONE, heat: [{ cell, p: 0.37 }], bestGuess: { cell, p: 0.37 } },
    ];
    for (const pitch of [5, 6.5, 9, 12.3, 18, 21, 31.01, 46, 60]) {
      for (const offset of [0, 0.25, 0.55, 0.95]) {
        const grid: Grid = { rows: 1, cols: 1, left: 10 + offset, top: 20 + offset, pitchX: pitch, pitchY: pitch };
        for (const marks of kinds) {
          const sheet = stampSheet(grid, marks, []);
          const { data, info } = await sharp(Buffer.from(sheet.svg)).raw().toBuffer({ resolveWithObject: true });
          const from = sheet.tiles.get(sheet.stamps[0].tile) as {
            left: number;
            top: number;
            width: number;
            height: number;
          };
          const { edge, inside } = tileAlpha({ data, width: info.width }, from);
          expect({
            pitch,
            offset,
            marks: Object.keys(marks).filter(
              (k) => JSON.stringify(marks[k as keyof Marks]) !== JSON.stringify(NONE[k as keyof Marks]),
            ),
            edge,
          }).toEqual(expect.objectContaining({ edge: 0 }));
          expect(inside).toBeGreaterThan(0);
        }
      }
    }
    const board: Grid = { rows: 3, cols: 3, left: 40, top: 40, pitchX: 20, pitchY: 20 };
    const sheet = stampSheet(
      board,
      {
        ...NONE,
        mines: [
          [0, 0],
          [1, 2],
          [2, 1],
        ],
        safe: [[0, 1]],
      },
      [],
    );
    expect(sheet.stamps.map((s) => [s.left, s.top])).toEqual([
      [37, 37],
      [77, 57],
      [57, 77],
      [57, 37],
    ]);
    expect(new Set(sheet.stamps.slice(0, 3).map((s) => s.tile)).size).toBe(1);
    expect(sheet.stamps[3].tile).not.toBe(sheet.stamps[0].tile);
    expect(sheet.tiles.size).toBe(2);
    const again = stampSheet(
      board,
      {
        ...NONE,
        mines: [
          [0, 0],
          [1, 2],
          [2, 1],
        ],
        safe: [[0, 1]],
      },
      [],
      (tile) => tile === sheet.stamps[0].tile,
    );
    expect([...again.tiles.keys()]).toEqual([sheet.stamps[3].tile]);
    expect(again.stamps.map((s) => [s.left, s.top, s.tile])).toEqual(sheet.stamps.map((s) => [s.left, s.top, s.tile]));
  });

  test('marks kept from earlier sheets are the marks a fresh process draws, whatever grids came before', () => {
    const marks: Marks = {
      ...NONE,
      mines: [
        [0, 0],
        [1, 1],
      ],
      safe: [[0, 1]],
      unreadable: [[1, 0]],
      provenFlags: [[2, 2]],
      conflict: [[2, 0]],
      heat: [{ cell: [2, 1], p: 0.4 }],
    };
    // the same cells a fraction of a pixel apart, or at a pitch a little off: each draws its marks otherwise
    const grids: Grid[] = [
      { rows: 3, cols: 3, left: 40.25, top: 40.5, pitchX: 20.1, pitchY: 19.9 },
      { rows: 3, cols: 3, left: 40.25, top: 40.75, pitchX: 20.1, pitchY: 19.9 },
      { rows: 3, cols: 3, left: 40.5, top: 40.5, pitchX: 20.1, pitchY: 19.9 },
      { rows: 3, cols: 3, left: 40.25, top: 40.5, pitchX: 20.2, pitchY: 19.9 },
      { rows: 3, cols: 3, left: 40.25, top: 40.5, pitchX: 20.1, pitchY: 20 },
    ];
    const fresh = grids.map((grid) => {
      let svg = '';
      jest.isolateModules(() => {
        svg = (require('../src/output/stamps') as typeof import('../src/output/stamps')).stampSheet(
          grid,
          marks,
          [],
        ).svg;
      });
      return svg;
    });
    expect(new Set(fresh).size).toBe(grids.length);
    expect(grids.map((grid) => stampSheet(grid, marks, []).svg)).toEqual(fresh);
    expect(grids.map((grid) => stampSheet(grid, marks, []).svg)).toEqual(fresh);
  });
});
