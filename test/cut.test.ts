import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { analyzeImage } from '../src/analyze/analyze';
import { parseCellName } from '../src/common/board';
import { FIXTURES } from './helpers';

// A screenshot that cuts the board: the counts along the cut see cells the image does not show, so they are set
// aside (else a count at the cut "needs" its mine among the cells shown). Crops through the middle of a cell, from
// the top-left corner.
const SHOTS = ['xdemineur/s2-05.png', 'xbomb/s2-03.png'];

// GNOME Mines draws flat tiles with faint gaps: a strip of cut tiles is plain on the whole, but stepped at every
// row line, so plainness alone would take it for the frame.
test.each([
  [6, 12, 0.5],
  [9, 12, 0.1],
  [12, 12, 0.1],
])(
  'GNOME Mines s2-02 cut after %d rows and %d columns (+%d of a cell): the right edge is cut',
  async (rows, cols, part) => {
    const file = path.join(FIXTURES, 'gnome-mines/s2-02.png');
    const meta = JSON.parse(readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8')).board;
    const crop = await sharp(file)
      .extract({
        left: 0,
        top: 0,
        width: Math.round(meta.col_x[cols] + part * meta.col_w[cols]),
        height: Math.round(meta.row_y[rows] + part * meta.row_h[rows]),
      })
      .png()
      .toBuffer();
    const { analysis } = await analyzeImage(crop, 'gnome-mines/s2-02.png');
    expect(analysis.notes.join(' ')).toMatch(/may go on past the image's (bottom and )?right|right and bottom/);
    const mines = readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
      .trim()
      .split('\n');
    const truth = (name: string) => {
      const [r, c] = parseCellName(name);
      return mines[r][c];
    };
    expect(analysis.grid?.left).toBeLessThan(meta.x0 + 2);
    for (const cell of analysis.deductions?.mines ?? []) expect(`${cell} ${truth(cell)}`).toBe(`${cell} *`);
    for (const cell of analysis.deductions?.safe ?? []) expect(`${cell} ${truth(cell)}`).toBe(`${cell} -`);
  },
);

// A crop whose cut column fits the skin better than the board's first columns: the grid read starts three
// columns in, and the counts along its left side see cells left out. Cells beyond it read as counts.
test('xdemineur s2-03 cut after 6 rows and 6 columns (+0.9 cell): the side the grid left out is open', async () => {
  const file = path.join(FIXTURES, 'xdemineur/s2-03.png');
  const meta = JSON.parse(readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8')).board;
  const crop = await sharp(file)
    .extract({
      left: 0,
      top: 0,
      width: Math.round(meta.x0 + 6.9 * meta.tile_w),
      height: Math.round(meta.y0 + 6.9 * meta.tile_h),
    })
    .png()
    .toBuffer();
  const { analysis } = await analyzeImage(crop, 'xdemineur/s2-03.png');
  const mines = readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
    .trim()
    .split('\n');
  const top = Math.round((analysis.grid!.top - meta.y0) / meta.tile_h);
  const left = Math.round((analysis.grid!.left - meta.x0) / meta.tile_w);
  if (left > 0) expect(analysis.notes.join(' ')).toMatch(/cells beyond the board's left/);
  const truth = (name: string) => {
    const [r, c] = parseCellName(name);
    return mines[r + top][c + left];
  };
  for (const cell of analysis.deductions?.mines ?? []) expect(`${cell} ${truth(cell)}`).toBe(`${cell} *`);
  for (const cell of analysis.deductions?.safe ?? []) expect(`${cell} ${truth(cell)}`).toBe(`${cell} -`);
});

describe.each(SHOTS)('%s cut by the image edge', (shot) => {
  const file = path.join(FIXTURES, shot);
  const meta = JSON.parse(readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8')).board;
  const mines = readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
    .trim()
    .split('\n');
  const cuts = [
    [5, 9],
    [9, 13],
    [13, 7],
    [8, 20],
  ].filter(([r, c]) => r < meta.rows && c < meta.cols);

  test.each(cuts)('cut after %d rows and %d columns: every deduction true, and the cut said', async (rows, cols) => {
    const crop = await sharp(file)
      .extract({
        left: 0,
        top: 0,
        width: Math.round(meta.x0 + (cols + 0.5) * meta.tile_w),
        height: Math.round(meta.y0 + (rows + 0.5) * meta.tile_h),
      })
      .png()
      .toBuffer();
    const { analysis } = await analyzeImage(crop, shot);
    expect(['ok', 'inconsistent']).toContain(analysis.status);
    if (analysis.status !== 'ok' || !analysis.grid || !analysis.deductions) return;
    expect(analysis.notes.join(' ')).toMatch(/may go on past the image's (right|bottom)/);
    expect(analysis.counter?.used ?? false).toBe(false);
    const top = Math.round((analysis.grid.top - meta.y0) / meta.tile_h);
    const left = Math.round((analysis.grid.left - meta.x0) / meta.tile_w);
    const truth = (name: string) => {
      const [r, c] = parseCellName(name);
      return mines[r + top][c + left];
    };
    for (const cell of analysis.deductions.mines) expect(`${cell} ${truth(cell)}`).toBe(`${cell} *`);
    for (const cell of analysis.deductions.safe) expect(`${cell} ${truth(cell)}`).toBe(`${cell} -`);
  });
});

// ace's level-1 window sits at the screen's left edge; at 250 % its board is 10 px from it, over the
// backdrop's dots, which then repeat every 15 px: a pattern, not cut cells.
test('ace level 1 at 2.5×, 10 px from the screen edge over the dotted backdrop: not cut, counter used', async () => {
  const file = path.join(FIXTURES, 'ace-minesweeper/s2-01.png');
  const { width = 0 } = await sharp(file).metadata();
  const { analysis } = await analyzeImage(
    await sharp(file)
      .resize({ width: Math.round(width * 2.5) })
      .png()
      .toBuffer(),
    'ace-minesweeper/s2-01.png',
  );
  expect(analysis.notes.join(' ')).not.toMatch(/may go on/);
  expect(analysis.counter?.used).toBe(true);
});

// ace's 11×11 level sits in a window at the screen's top-left corner, 2–3 px of its backdrop between the board and
// the image's left edge: too thin a strip to tell from a cut cell, but the skin knows the game's window ends there
// for a board of this size (its frame print), so that pixel or two is looked at and found to be the frame.
describe.each(['s2-01', 's3-01', 's4-01'])("ace 11×11 %s at the screen's corner", (name) => {
  const file = path.join(FIXTURES, `ace-minesweeper/${name}.png`);
  const mines = readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
    .trim()
    .split('\n');
  const total = JSON.parse(readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8')).mines;
  test.each([
    ['as taken', 1],
    ['at 50 %', 0.5],
  ])('%s: not cut, the counter used, every deduction true', async (_, scale) => {
    const { width = 0 } = await sharp(file).metadata();
    const bytes =
      scale === 1
        ? readFileSync(file)
        : await sharp(file)
            .resize({ width: Math.round(width * scale) })
            .png()
            .toBuffer();
    const { analysis } = await analyzeImage(bytes, file);
    expect(analysis.notes.join(' ')).not.toMatch(/may go on/);
    expect(analysis.counter).toMatchObject({ used: true, total });
    const truth = (cell: string) => {
      const [r, c] = parseCellName(cell);
      return mines[r][c];
    };
    expect(analysis.deductions!.mines.length + analysis.deductions!.safe.length).toBeGreaterThan(0);
    for (const cell of analysis.deductions!.mines) expect(`${cell} ${truth(cell)}`).toBe(`${cell} *`);
    for (const cell of analysis.deductions!.safe) expect(`${cell} ${truth(cell)}`).toBe(`${cell} -`);
  });
});

// A bigger board scaled to a smaller level's cell size and cut to that level's rows × columns with the margins its
// window leaves (scripts/eval-window-crops.js): the skin's frame print for that level must not vouch for an edge that
// cuts cells. ace: where the cut column is open, a 3 px strip of it is the backdrop's dotted pattern, plain and
// uncrossed but where covered cells lie beyond; their edges show the side is cut. GNOME at 200 %: the gaps between
// its tiles are 8 px wide, and the tiles' edges 4 px from the grid's lines. xbomb: 29 px of cut cells where its 8×8
// level's menu bar would be must not pass for it.
test.each([
  ['ace-minesweeper/s2-01', 'ace-minesweeper/s3-04', 4, 4, 'left'],
  ['ace-minesweeper/s2-01', 'ace-minesweeper/s2-04', 1, 3, 'right'],
  ['ace-minesweeper/s2-01', 'ace-minesweeper/s4-04', 4, 5, 'right'],
  ['gnome-mines/s2-01', 'gnome-mines/s2-04', 0, 6, 'right'],
  ['xbomb/s2-01', 'xbomb/s2-03', 2, 9, 'top'],
])(
  "%s's layout cut from %s from row %d, column %d: the %s edge is cut, every deduction true",
  async (layoutName, name, row0, col0, side) => {
    const metaOf = (n: string) => JSON.parse(readFileSync(path.join(FIXTURES, `${n}.meta.json`), 'utf8'));
    const [layout, meta] = [metaOf(layoutName), metaOf(name)];
    const [pitch, rows, cols] = [layout.board.tile_w, layout.board.rows, layout.board.cols];
    const scale = pitch / meta.board.tile_w;
    const mines = readFileSync(path.join(FIXTURES, `${name}.mines.txt`), 'utf8')
      .trim()
      .split('\n');
    const image = await sharp(path.join(FIXTURES, `${name}.png`))
      .resize({ width: Math.round(meta.screen[0] * scale) })
      .png()
      .toBuffer();
    const [x0, y0] = [meta.board_px.x * scale, meta.board_px.y * scale];
    const left = Math.round(x0 + col0 * pitch - (layout.board_px.x - layout.window.x));
    const top = Math.round(y0 + row0 * pitch - (layout.board_px.y - layout.window.y));
    const right = Math.round(
      x0 + (col0 + cols) * pitch + layout.window.x + layout.window.w - (layout.board_px.x + layout.board_px.w),
    );
    const bottom = Math.round(
      y0 + (row0 + rows) * pitch + layout.window.y + layout.window.h - (layout.board_px.y + layout.board_px.h),
    );
    const crop = await sharp(image)
      .extract({ left, top, width: right - left, height: bottom - top })
      .png()
      .toBuffer();
    const { analysis } = await analyzeImage(crop, `${name}.png`);
    expect(analysis.notes.join(' ')).toMatch(new RegExp(`may go on past the image's [a-z ]*${side}`));
    const [r0, c0] = [
      Math.round((analysis.grid!.top - (y0 - top)) / pitch),
      Math.round((analysis.grid!.left - (x0 - left)) / pitch),
    ];
    const truth = (cell: string) => {
      const [r, c] = parseCellName(cell);
      return mines[r + r0][c + c0];
    };
    expect(analysis.deductions!.mines.length + analysis.deductions!.safe.length).toBeGreaterThan(0);
    for (const cell of analysis.deductions!.mines) expect(`${cell} ${truth(cell)}`).toBe(`${cell} *`);
    for (const cell of analysis.deductions!.safe) expect(`${cell} ${truth(cell)}`).toBe(`${cell} -`);
  },
);

// xbomb's 8×8 level cut out as its window (as Alt+PrintScreen takes it): its menu bar, 29 px over 50 px cells, is
// text that steps at most of the grid's lines; the skin's print of that side for this level, which ends at the
// window's edge, matches it pixel row by pixel row over more than half a cell, so the lines' steps are not asked.
test.each(['s2-01', 's3-01', 's4-01'])(
  'xbomb %s cut out as its window: not cut, the counter used, every deduction true',
  async (name) => {
    const file = path.join(FIXTURES, `xbomb/${name}.png`);
    const meta = JSON.parse(readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8'));
    const mines = readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
      .trim()
      .split('\n');
    const crop = await sharp(file)
      .extract({ left: meta.window.x, top: meta.window.y, width: meta.window.w, height: meta.window.h })
      .png()
      .toBuffer();
    const { analysis } = await analyzeImage(crop, file);
    expect(analysis.notes.join(' ')).not.toMatch(/may go on/);
    expect(analysis.counter).toMatchObject({ used: true, total: meta.mines });
    const truth = (cell: string) => {
      const [r, c] = parseCellName(cell);
      return mines[r][c];
    };
    for (const cell of analysis.deductions!.mines) expect(`${cell} ${truth(cell)}`).toBe(`${cell} *`);
    for (const cell of analysis.deductions!.safe) expect(`${cell} ${truth(cell)}`).toBe(`${cell} -`);
  },
);
