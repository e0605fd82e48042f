import { cellName, formatBoard } from '../src/common/board';
import { inRowColOrder } from '../src/solve/certain';
import { encode } from '../src/solve/encode';
import { solve } from '../src/solve/solve';
import type { Board, Deductions } from '../src/common/types';
import { bruteBoard, endgamePosition, type Game, randomGame, mulberry32, smallPosition } from './brute';

const SEED = 31337;
const show = (board: Board) => formatBoard(board).trimEnd();
const same = (a: Deductions, b: Deductions) => JSON.stringify(a) === JSON.stringify(b);

interface Tally {
  positions: number;
  failures: string[];
  /** Cells certain with the total that the counts alone leave open. */
  byCountOnly: number;
  rightFlags: number;
  wrongFlags: number;
}

/** Every engine against brute force on one position, with the true total, flags as hints and trusted. */
function check(game: Game, seed: number, tally: Tally, engines: ('auto' | 'sat' | 'count')[]): void {
  const { board, mine } = game;
  const total = mine.flat().filter(Boolean).length;
  tally.positions++;
  board.cells.forEach((row, r) =>
    row.forEach((ch, c) => {
      if (ch === 'F') mine[r][c] ? tally.rightFlags++ : tally.wrongFlags++;
    }),
  );
  for (const trustFlags of board.cells.flat().includes('F') ? [false, true] : [false]) {
    const expected = bruteBoard(board, total, trustFlags);
    for (const engine of engines) {
      const actual = solve(encode(board, { totalMines: total, trustFlags }), { engine });
      if (!same(actual, expected)) {
        tally.failures.push(
          `seed ${seed} ${engine} trustFlags=${trustFlags}\n${show(board)}\n` +
            `${JSON.stringify(actual)}\n${JSON.stringify(expected)}`,
        );
      }
    }
    const without = bruteBoard(board, null, trustFlags);
    tally.byCountOnly += expected.mines.length + expected.safe.length - without.mines.length - without.safe.length;
  }
}

describe('certain cells equal brute force, with the total and with flags (some wrong)', () => {
  test('1000 small positions and 400 endgames; default and counting engines on all, bare SAT on every 4th', () => {
    const fresh = (): Tally => ({ positions: 0, failures: [], byCountOnly: 0, rightFlags: 0, wrongFlags: 0 });
    const tally = fresh();
    for (let i = 0; i < 1000; i++)
      check(smallPosition(SEED + i), SEED + i, tally, i % 4 ? ['auto', 'count'] : ['auto', 'count', 'sat']);
    const endgames = fresh();
    for (let i = 0; i < 400; i++)
      check(
        endgamePosition(SEED * 3 + i),
        SEED * 3 + i,
        endgames,
        i % 4 ? ['auto', 'count'] : ['auto', 'count', 'sat'],
      );
    expect(tally.failures.concat(endgames.failures).slice(0, 3)).toEqual([]);
    expect(tally.positions + endgames.positions).toBe(1400);
    expect(endgames.byCountOnly).toBeGreaterThan(250);
    expect(tally.byCountOnly).toBeGreaterThan(500);
    expect(tally.rightFlags).toBeGreaterThan(1000);
    expect(tally.wrongFlags).toBeGreaterThan(100);
  });

  test('a count-only endgame: the last mine is accounted for, so every other hidden cell is safe', () => {
    const board: Board = { rows: 2, cols: 4, totalMines: 1, cells: [[...'1...'], [...'1...']] };
    expect(solve(encode(board, { totalMines: null }))).toEqual({ status: 'ok', mines: [], safe: [] });
    const safe = ['r0c2', 'r0c3', 'r1c2', 'r1c3'];
    expect(solve(encode(board))).toEqual({ status: 'ok', mines: [], safe });
    expect(solve(encode(board), { engine: 'sat' })).toEqual({ status: 'ok', mines: [], safe });
  });
});

describe('the counting engine, and the default (counting checked by SAT), agree with the SAT backbone', () => {
  test('40 boards (16×30, 99 mines), with and without the total', () => {
    const failures: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { board } = randomGame(mulberry32(SEED * 5 + i), 16, 30, 99, 1 + (i % 10) * 3);
      for (const totalMines of [null, 99]) {
        const problem = encode(board, { totalMines });
        const sat = solve(problem, { engine: 'sat' });
        if (!same(solve(problem, { engine: 'count' }), sat) || !same(solve(problem), sat))
          failures.push(`board ${i} total=${totalMines}\n${show(board)}`);
      }
    }
    expect(failures.slice(0, 2)).toEqual([]);
  });
});

describe('cell names in row, then column order', () => {
  test('sorted as numbers: r2c10 after r2c9, r10c0 after both; a name not r<row>c<col> last; ties by text', () => {
    const random = mulberry32(SEED);
    const names: string[] = [];
    for (let row = 0; row < 300; row += 7) for (let col = 0; col < 300; col += 11) names.push(cellName(row, col));
    const shuffled = [...names].sort(() => random() - 0.5);
    expect(inRowColOrder(shuffled)).toEqual(names);
    expect(inRowColOrder(['r10c0', 'r2c10', 'r2c9'])).toEqual(['r2c9', 'r2c10', 'r10c0']);
    expect(inRowColOrder(['outside', 'r1c01', 'r1c2', 'r0c5', 'r1c1'])).toEqual([
      'r0c5',
      'r1c01',
      'r1c1',
      'r1c2',
      'outside',
    ]);
    expect(inRowColOrder([`r1c${2 ** 26}`, 'r2c0', 'r1c5'])).toEqual(['r1c5', `r1c${2 ** 26}`, 'r2c0']);
  });

  test('a name is made once for the process (below 256 rows and columns) and always reads r<row>c<col>', () => {
    expect(cellName(3, 4)).toBe('r3c4');
    expect(cellName(3, 4)).toBe(cellName(3, 4));
    expect(cellName(255, 0)).toBe('r255c0');
    expect(cellName(300, 1000)).toBe('r300c1000');
    expect(cellName(300, 1000)).toBe('r300c1000');
  });
});
