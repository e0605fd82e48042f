import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { cellName, formatBoard } from '../src/common/board';
import { encode } from '../src/solve/encode';
import { solve } from '../src/solve/solve';
import { analyzeBoard } from '../src/analyze/analyze';
import { suggestRereadings } from '../src/solve/reread';
import type { Board, Problem, Reading } from '../src/common/types';
import { mulberry32, randomGame } from './brute';
import { FIXTURES, readBoard, SHARED } from './helpers';

const SEED = 777;
const show = (board: Board) => formatBoard(board).trimEnd();

interface Case {
  name: string;
  board: Board;
  total: number | null;
}

/** Real positions: the xdemineur fixtures, the seed's mine01, and random games at several stages. */
function positions(): Case[] {
  const dir = path.join(FIXTURES, 'xdemineur');
  const cases: Case[] = readdirSync(dir)
    .filter((f) => f.endsWith('.board.txt'))
    .map((f) => ({ name: f, board: readBoard(path.join(dir, f)), total: null }));
  const mine01 = path.join(SHARED, 'seed-expectations/mine01.board.txt');
  if (existsSync(mine01)) cases.push({ name: 'mine01', board: readBoard(mine01), total: null });
  for (let i = 0; i < 48; i++) {
    const rand = mulberry32(SEED + i);
    const [rows, cols, mines] = i % 3 === 0 ? [9, 9, 10] : i % 3 === 1 ? [16, 16, 40] : [16, 30, 99];
    cases.push({
      name: `game ${i}`,
      board: randomGame(rand, rows, cols, mines, 2 + (i % 6) * 3).board,
      total: i % 2 ? mines : null,
    });
  }
  return cases;
}

/** Every board made by changing one count by one, a few per position (seeded). */
function changedByOne(c: Case, perPosition: number): Case[] {
  const rand = mulberry32(SEED * 3 + c.name.length);
  const counts = c.board.cells.flatMap((row, r) => row.flatMap((ch, col) => (/^[0-8]$/.test(ch) ? [[r, col]] : [])));
  const out: Case[] = [];
  for (let k = 0; k < perPosition && counts.length > 0; k++) {
    const [r, col] = counts[Math.floor(rand() * counts.length)];
    const value = Number(c.board.cells[r][col]) + (rand() < 0.5 ? -1 : 1);
    if (value < 0 || value > 8) continue;
    const cells = c.board.cells.map((row) => [...row]);
    cells[r][col] = String(value);
    out.push({ name: `${c.name} ${cellName(r, col)}=${value}`, board: { ...c.board, cells }, total: c.total });
  }
  return out;
}

function coreOf(problem: Problem, sources: string[]): Problem {
  return { unknowns: problem.unknowns, constraints: problem.constraints.filter((c) => sources.includes(c.source)) };
}

describe('inconsistent boards: a count changed by one on real positions', () => {
  test('never reported as ok; a core of ≤ 4 cells in ≥ 95 % of cases; every core impossible and minimal', () => {
    const failures: string[] = [];
    let inconsistent = 0;
    let small = 0;
    for (const c of positions().flatMap((p) => changedByOne(p, 16))) {
      const problem = encode(c.board, { totalMines: c.total });
      const sat = solve(problem, { engine: 'sat' }).status;
      const analysis = analyzeBoard(c.board, c.name, { mines: c.total });
      if (analysis.status !== sat) failures.push(`${c.name}: ${analysis.status}, SAT says ${sat}\n${show(c.board)}`);
      if (sat !== 'inconsistent' || analysis.conflict === null) continue;
      inconsistent++;
      const sources = analysis.conflict.sources;
      if (sources.filter((s) => s !== 'total').length <= 4) small++;
      if (inconsistent % 3) continue;
      const core = coreOf(problem, sources);
      const minimal = sources.every(
        (s) =>
          solve(
            coreOf(
              problem,
              sources.filter((t) => t !== s),
            ),
            { engine: 'sat' },
          ).status === 'ok',
      );
      if (solve(core, { engine: 'sat' }).status !== 'inconsistent' || !minimal)
        failures.push(`${c.name}: core ${sources} not minimal or not impossible`);
    }
    expect(failures.slice(0, 3)).toEqual([]);
    expect(inconsistent).toBeGreaterThan(400);
    expect(small / inconsistent).toBeGreaterThanOrEqual(0.95);
  });

  test('the core names the changed count and its neighbour; the total can be part of it', () => {
    const board = readBoard(path.join(FIXTURES, 'xdemineur/s2-05.board.txt'));
    board.cells[4][18] = '3';
    const analysis = analyzeBoard(board, 's2-05 changed');
    expect(analysis.status).toBe('inconsistent');
    expect(analysis.conflict?.sources.sort()).toEqual(['r4c17', 'r4c18']);
    const endgame: Board = { rows: 2, cols: 3, totalMines: 4, cells: [[...'1..'], [...'1..']] };
    const withTotal = analyzeBoard(endgame, 'total');
    expect(withTotal.conflict?.sources.sort()).toEqual(['r0c0', 'total']);
    expect(withTotal.notes.join(' ')).toMatch(/total mine count is part of the contradiction/);
  });
});

describe('re-reading suggestions', () => {
  const reading = (row: number, col: number, cell: string, runnerUp: string): Reading => ({
    row,
    col,
    cell,
    best: cell,
    distance: 5,
    runnerUp,
    runnerUpDistance: 9,
    unreadable: false,
  });

  test('a count read as 3 whose runner-up is 2 makes the board consistent: suggested, not applied', () => {
    const board: Board = { rows: 2, cols: 3, totalMines: null, cells: [[...'3..'], [...'2..']] };
    const readings = board.cells.flatMap((row, r) =>
      row.map((ch, c) => reading(r, c, ch, r === 0 && c === 0 ? '2' : ch === '.' ? '1' : '.')),
    );
    const check = (b: Board) => solve(encode(b)).status === 'ok';
    expect(check(board)).toBe(false);
    const conflict = analyzeBoard(board, 'x').conflict;
    expect(conflict).not.toBeNull();
    const suggestions = suggestRereadings(board, readings, conflict!, check);
    expect(suggestions).toContainEqual({ cell: [0, 0], read: '3', consistentIf: '2', runnerUp: true });
    expect(board.cells[0][0]).toBe('3');
    for (const s of suggestions) {
      const cells = board.cells.map((row) => [...row]);
      cells[s.cell[0]][s.cell[1]] = s.consistentIf;
      expect(check({ ...board, cells })).toBe(true);
    }
  });
});
