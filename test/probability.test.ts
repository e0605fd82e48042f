import { cellName, formatBoard } from '../src/common/board';
import { encode } from '../src/solve/encode';
import { solve } from '../src/solve/solve';
import { probabilities } from '../src/solve/probability';
import { analyzeBoard } from '../src/analyze/analyze';
import type { Board, CellProbability } from '../src/common/types';
import { bruteOdds, endgamePosition, mulberry32, offFrontier, randomGame, smallPosition } from './brute';

const SEED = 4242;
const show = (board: Board) => formatBoard(board).trimEnd();

function cellsOf(board: Board, totalMines: number | null, trustFlags: boolean): CellProbability[] {
  const result = probabilities(encode(board, { totalMines, trustFlags }));
  if (result.status !== 'ok') throw new Error(`probabilities: ${result.status}\n${show(board)}`);
  return result.cells;
}

describe('probabilities equal brute-force enumeration to 1e-9', () => {
  test('400 small positions and 100 endgames, with and without the total, flags as hints and trusted', () => {
    const failures: string[] = [];
    let compared = 0;
    let strict = 0;
    for (let i = 0; i < 500; i++) {
      const seed = SEED + i;
      const { board, mine } = i < 400 ? smallPosition(seed) : endgamePosition(seed);
      const total = mine.flat().filter(Boolean).length;
      for (const totalMines of [null, total]) {
        for (const trustFlags of board.cells.flat().includes('F') ? [false, true] : [false]) {
          const expected = bruteOdds(board, totalMines, trustFlags);
          if (expected === null) {
            const status = probabilities(encode(board, { totalMines, trustFlags })).status;
            if (status !== 'inconsistent')
              failures.push(`seed ${seed}: ${status}, brute force finds no layout\n${show(board)}`);
            continue;
          }
          const off = offFrontier(board, trustFlags);
          for (const { cell, p } of cellsOf(board, totalMines, trustFlags)) {
            const want = totalMines === null && off.has(cell) ? null : (expected.get(cell) ?? NaN);
            compared++;
            if (p !== null && p > 0 && p < 1) strict++;
            const ok = want === null ? p === null : p !== null && Math.abs(p - want) <= 1e-9;
            if (!ok)
              failures.push(
                `seed ${seed} total=${totalMines} trust=${trustFlags} ${cell}: ${p} vs ${want}\n${show(board)}`,
              );
          }
        }
      }
    }
    expect(failures.slice(0, 3)).toEqual([]);
    expect(strict).toBeGreaterThan(1500);
    expect(compared).toBeGreaterThan(8000);
  });

  test('one entry per unknown cell (hidden, ?, untrusted flag), in board order', () => {
    const board: Board = { rows: 2, cols: 3, totalMines: 1, cells: [[...'.1F'], [...'?1.']] };
    expect(cellsOf(board, 1, false)).toEqual([
      { cell: 'r0c0', p: 0.25 },
      { cell: 'r0c2', p: 0.25 },
      { cell: 'r1c0', p: 0.25 },
      { cell: 'r1c2', p: 0.25 },
    ]);
    expect(cellsOf(board, 1, true).map((c) => c.cell)).toEqual(['r0c0', 'r1c0', 'r1c2']);
  });
});

describe('certain cells come out exactly 0 and 1, agreeing with the SAT backbone', () => {
  test('40 expert boards (16×30) and 200 small positions, with and without the total', () => {
    const failures: string[] = [];
    let certain = 0;
    const boards: [Board, number][] = [];
    for (let i = 0; i < 40; i++)
      boards.push([randomGame(mulberry32(SEED * 7 + i), 16, 30, 99, 1 + (i % 10) * 3).board, 99]);
    for (let i = 0; i < 200; i++) {
      const { board, mine } = smallPosition(SEED * 11 + i);
      boards.push([board, mine.flat().filter(Boolean).length]);
    }
    boards.forEach(([board, total], i) => {
      for (const totalMines of [null, total]) {
        const problem = encode(board, { totalMines });
        const sat = solve(problem, { engine: 'sat' });
        const cells = cellsOf(board, totalMines, false);
        const zero = cells.filter((c) => c.p === 0).map((c) => c.cell);
        const one = cells.filter((c) => c.p === 1).map((c) => c.cell);
        certain += zero.length + one.length;
        if (JSON.stringify([one, zero]) !== JSON.stringify([sat.mines, sat.safe]))
          failures.push(`board ${i} total=${totalMines}\n${show(board)}`);
      }
    });
    expect(failures.slice(0, 2)).toEqual([]);
    expect(certain).toBeGreaterThan(1000);
  });
});

describe('large and adversarial boards finish, and say so when exact probabilities are too costly', () => {
  test('100×100 with 2000 mines: exact certain cells; probabilities or a note', () => {
    const { board } = randomGame(mulberry32(SEED), 100, 100, 2000, 60);
    const analysis = analyzeBoard(board, 'big', { mines: 2000 });
    expect(analysis.status).toBe('ok');
    const sat = solve(encode(board, { totalMines: 2000 }), { engine: 'sat' });
    expect(analysis.deductions).toEqual(sat);
    if (analysis.probabilities === null) expect(analysis.notes.join(' ')).toMatch(/probabilities skipped/);
    else expect(analysis.probabilities).toHaveLength(board.cells.flat().filter((ch) => ch === '.').length);
  });

  test('all hidden around a few counts, 100×100: probabilities away from the counts are the density', () => {
    const cells = Array.from({ length: 100 }, () => new Array<string>(100).fill('.'));
    cells[50][50] = '3';
    cells[10][90] = '1';
    cells[0][0] = '2';
    const board: Board = { rows: 100, cols: 100, totalMines: 2000, cells };
    const analysis = analyzeBoard(board, 'sparse');
    const odds = new Map(analysis.probabilities?.map((c) => [c.cell, c.p]));
    expect(odds.size).toBe(9997);
    const far = odds.get(cellName(70, 20)) as number;
    expect(far).toBeGreaterThan(0.19);
    expect(far).toBeLessThan(0.21);
    expect(odds.get(cellName(0, 1))).toBeGreaterThan(far);
    expect(analysis.bestGuess).not.toBeNull();
  });

  test('a checkerboard of open cells (one part far too wide) under a total: proven cells only, incomplete', () => {
    const { mine } = randomGame(mulberry32(SEED + 2), 100, 100, 2000, 0);
    const around = (r: number, c: number) =>
      [-1, 0, 1].flatMap((dr) => [-1, 0, 1].map((dc) => mine[r + dr]?.[c + dc] ?? false)).filter(Boolean).length;
    const cells = mine.map((row, r) =>
      row.map((isMine, c) => (!isMine && (r + c) % 2 === 0 ? String(around(r, c)) : '.')),
    );
    const analysis = analyzeBoard({ rows: 100, cols: 100, totalMines: 2000, cells }, 'checker');
    expect(analysis.status).toBe('ok');
    const d = analysis.deductions!;
    expect(d.complete).toBe(false);
    expect(analysis.probabilities).toBeNull();
    expect(analysis.notes.join(' ')).toMatch(/too large to decide every cell/);
    const truth = (name: string) => {
      const [, r, c] = /r(\d+)c(\d+)/.exec(name)!.map(Number);
      return mine[r][c];
    };
    expect(d.mines.filter((m) => !truth(m))).toEqual([]);
    expect(d.safe.filter(truth)).toEqual([]);
    expect(d.mines.length + d.safe.length).toBeGreaterThan(1500);
  });

  test('a wide part beyond the counting limits: no probabilities, certain cells still exact from SAT', () => {
    const { board } = randomGame(mulberry32(SEED + 1), 40, 40, 300, 25);
    const problem = encode(board, { totalMines: 300 });
    const tiny = { cells: 50, work: 1000 };
    expect(probabilities(problem, tiny)).toEqual({ status: 'too-costly' });
    const sat = solve(problem, { engine: 'sat' });
    expect(solve(problem, { limits: tiny })).toEqual(sat);
    expect(solve(problem)).toEqual(sat);
    expect(sat.mines.length + sat.safe.length).toBeGreaterThan(20);
  });
});
