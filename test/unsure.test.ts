// A cell the reader could not read is taken as hidden (only facts are lost), but it may be open: it is never
// marked. The certain cells, their reasons and the best guess leave it out; what is left is as without it.
import path from 'node:path';
import sharp from 'sharp';
import { analyzeBoard, analyzeImage } from '../src/analyze/analyze';
import { parseBoard } from '../src/common/board';
import { FIXTURES, readBoard } from './helpers';

const BOARD = readBoard(path.join(FIXTURES, 'xdemineur', 's2-05.board.txt'));

test('unsure cells are left out of the certain cells, their reasons and the best guess; the rest is unchanged', () => {
  const full = analyzeBoard(BOARD, 'x', { mines: 90 });
  const certain = [...(full.deductions?.mines ?? []), ...(full.deductions?.safe ?? [])];
  expect(certain.length).toBeGreaterThan(20);
  const hidden = BOARD.cells.flatMap((row, r) => [...row].flatMap((ch, c) => (ch === '.' ? [`r${r}c${c}`] : [])));
  // every third certain cell, and hidden cells that are not certain
  const unsure = [...certain.filter((_, i) => i % 3 === 0), ...hidden.filter((c) => !certain.includes(c)).slice(0, 5)];
  const marked = analyzeBoard(BOARD, 'x', { mines: 90, unsure });
  const sure = (cells: string[] = []) => cells.filter((c) => !unsure.includes(c));
  expect(marked.deductions?.mines).toEqual(sure(full.deductions?.mines));
  expect(marked.deductions?.safe).toEqual(sure(full.deductions?.safe));
  expect(marked.reasons).toEqual(full.reasons.filter((r) => !unsure.includes(r.cell)));
  const left = certain.filter((c) => unsure.includes(c)).length;
  expect(marked.notes).toContain(`${left} certain cells could not be read (they may be open): not marked`);
  expect(marked.probabilities).toEqual(full.probabilities);
});

test('the best guess is never an unsure cell', () => {
  // one count, no certain safe cell: every hidden neighbour of the 1 is as likely a mine
  const board = parseBoard('...\n.1.\n...\n');
  const full = analyzeBoard(board, 'x', { mines: 1 });
  expect(full.bestGuess).not.toBeNull();
  const unsure = [full.bestGuess as string];
  const guess = analyzeBoard(board, 'x', { mines: 1, unsure }).bestGuess;
  expect(guess).not.toBeNull();
  expect(unsure).not.toContain(guess);
});

test('a screenshot whose certain cells are smudged: they read as unreadable and are not marked', async () => {
  const file = path.join(FIXTURES, 'xdemineur', 's2-05.png');
  const clean = (await analyzeImage(file, file)).analysis;
  const grid = clean.grid as NonNullable<typeof clean.grid>;
  const smudged = [...(clean.deductions?.safe ?? []).slice(0, 3), ...(clean.deductions?.mines ?? []).slice(0, 3)];
  expect(smudged).toHaveLength(6);
  const blot = await sharp({
    create: {
      width: Math.round(grid.pitchX / 2),
      height: Math.round(grid.pitchY / 2),
      channels: 3,
      background: '#f0f',
    },
  })
    .png()
    .toBuffer();
  const shot = await sharp(file)
    .composite(
      smudged.map((cell) => {
        const [, row, col] = /r(\d+)c(\d+)/.exec(cell)!.map(Number);
        const left = Math.round(grid.left + (col + 0.25) * grid.pitchX);
        return { input: blot, left, top: Math.round(grid.top + (row + 0.25) * grid.pitchY) };
      }),
    )
    .png()
    .toBuffer();
  const { analysis } = await analyzeImage(shot, 'smudged.png');
  const unreadable = analysis.unreadable.map(([r, c]) => `r${r}c${c}`).sort();
  expect(unreadable).toEqual([...smudged].sort());
  const marked = [...(analysis.deductions?.mines ?? []), ...(analysis.deductions?.safe ?? [])];
  expect(marked.length).toBeGreaterThan(10);
  expect(marked.filter((c) => unreadable.includes(c))).toEqual([]);
  expect(analysis.notes.some((n) => /could not be read .*not marked/.test(n))).toBe(true);
});
