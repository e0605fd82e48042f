import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';
import { decode } from '../src/image/decode';
import { locateAll } from '../src/locate/locate';
import { fitGrid } from '../src/locate/grid';
import { boundByLooks, latticeBeyond } from '../src/read/bounds';
import { FIXTURES } from './helpers';

// The skin-free reader bounds its own grid: rows and columns whose cells do not have the board's looks are not board.
test("a grid grown into xbomb's button strip is cut back to the board's 16×16 cells", async () => {
  const image = await decode(path.join(FIXTURES, 'xbomb/s2-02.png'));
  // our own outlines find xbomb's open cells only, and the grid's lines run on through the buttons above
  const [board] = await locateAll(image, 'own');
  const found = fitGrid(image, board);
  expect([found.rows, found.cols]).toEqual([17, 16]);
  const bounded = boundByLooks(image, found, board.boxes)!;
  expect([bounded.rows, bounded.cols]).toEqual([16, 16]);
  expect(bounded.top).toBeCloseTo(found.top + found.pitchY, 5);
  expect(bounded.left).toBe(found.left);
});

test('the lattice beyond a grid: the share of its outlines over half a cell outside', () => {
  const grid = { rows: 2, cols: 2, left: 0, top: 0, pitchX: 10, pitchY: 10 };
  const box = (left: number, top: number) => ({ left, top, width: 8, height: 8 });
  expect(latticeBeyond(grid, [box(1, 1), box(11, 11), box(21, 1), box(41, 1)])).toBe(0.25);
});

// A look no skin knows, read with every other skin tried first: a wrong skin reads part of xbomb's board (its hidden
// cells look like another game's), which is no reading; the skin-free reader reads the whole board.
test('xbomb without its skin is read skin-free, whole', async () => {
  const shot = 'xbomb/s4-03.png';
  const { analysis } = await analyzeImage(path.join(FIXTURES, shot), shot, { skin: { except: ['xbomb'] } });
  expect(analysis.skin).toBe('none (skin-free)');
  expect([analysis.board?.rows, analysis.board?.cols]).toEqual([16, 30]);
}, 60_000);
