import { exportBoard } from '../src/output/export';
import { encode } from '../src/solve/encode';
import { solve } from '../src/solve/solve';
import type { Board, Problem } from '../src/common/types';
import { bruteProblem, smallPosition } from './brute';

/** JSMinesweeper's newBoardFromString, in short: "WxHxM" header, then F/M flag, 0-8 open, anything else hidden. */
function readMine(text: string): { width: number; height: number; mines: number; cells: string[][] } {
  const lines = text.split('\n');
  const [width, height, mines] = lines[0].split('x').map((n) => parseInt(n, 10));
  const cells = Array.from({ length: height }, (_, y) =>
    Array.from({ length: width }, (_, x) => {
      const ch = lines[y + 1].charAt(x);
      return ch === 'F' || ch === 'M' ? 'flag' : /^[0-8]$/.test(ch) ? ch : 'hidden';
    }),
  );
  return { width, height, mines, cells };
}

/**
 * minesweepr's minesweeper_util: '.' = 0, '*' = mine, 'x' = unknown, N = count; a rule per count over its
 * unknown and mine neighbours, and the total over the unknowns plus the mines.
 */
function minesweeprProblem(text: string, total: number): Problem {
  const lines = text.trim().split(/\s+/);
  const at = (r: number, c: number) => lines[r]?.[c];
  const name = (r: number, c: number) => `r${r}c${c}`;
  const unknowns: string[] = [];
  const constraints: Problem['constraints'] = [];
  let mines = 0;
  lines.forEach((line, r) =>
    [...line].forEach((ch, c) => {
      if (ch === 'x') unknowns.push(name(r, c));
      if (ch === '*') mines++;
      if (!/^[.0-8]$/.test(ch)) return;
      const count = ch === '.' ? 0 : Number(ch);
      const around: string[] = [];
      let known = 0;
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          if (at(r + dr, c + dc) === 'x') around.push(name(r + dr, c + dc));
          if (at(r + dr, c + dc) === '*') known++;
        }
      constraints.push({ cells: around, count: count - known, source: name(r, c) });
    }),
  );
  constraints.push({ cells: unknowns, count: total - mines, source: 'total' });
  return { unknowns, constraints };
}

describe('exports', () => {
  const board: Board = { rows: 2, cols: 5, totalMines: 3, cells: [[...'01F?.'], [...'0*X!2']] };

  test('.mine: header WxHxM, digits, F for flags and shown mines, H for the rest', () => {
    const { text, notes } = exportBoard(board, 'mine');
    expect(text).toBe('5x2x3\n01FHH\n0FFH2\n');
    expect(notes).toEqual([]);
    const read = readMine(text);
    expect([read.width, read.height, read.mines]).toEqual([5, 2, 3]);
    expect(read.cells[0]).toEqual(['0', '1', 'flag', 'hidden', 'hidden']);
  });

  test('.mine without a known total: the standard count for the size, and a note', () => {
    const expert: Board = {
      rows: 16,
      cols: 30,
      totalMines: null,
      cells: Array.from({ length: 16 }, () => new Array<string>(30).fill('.')),
    };
    const { text, notes } = exportBoard(expert, 'mine');
    expect(text.split('\n')[0]).toBe('30x16x99');
    expect(notes.join(' ')).toMatch(/no total mine count known/);
  });

  test('minesweepr: . for 0, x unknown, * mines (flags only when trusted)', () => {
    expect(exportBoard(board, 'minesweepr').text).toBe('.1xxx\n.**x2\n');
    expect(exportBoard(board, 'minesweepr', true).text).toBe('.1*xx\n.**x2\n');
  });

  test('the minesweepr file, read the way minesweepr reads it, has the same certain cells (100 positions)', () => {
    let compared = 0;
    for (let i = 0; i < 100; i++) {
      const { board: position, mine } = smallPosition(600 + i);
      if (position.cells.flat().includes('!')) continue;
      const total = mine.flat().filter(Boolean).length;
      for (const trustFlags of [false, true]) {
        const ours = solve(encode(position, { totalMines: total, trustFlags }));
        const theirs = bruteProblem(minesweeprProblem(exportBoard(position, 'minesweepr', trustFlags).text, total));
        expect(theirs).toEqual(ours);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(150);
  });
});
