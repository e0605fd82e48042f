import { existsSync } from 'node:fs';
import path from 'node:path';
import { formatBoard } from '../src/common/board';
import { encode } from '../src/solve/encode';
import { solve } from '../src/solve/solve';
import { findReasons } from '../src/solve/reasons';
import { analyzeBoard } from '../src/analyze/analyze';
import { explainCell } from '../src/output/explain';
import type { Board, Problem, Reason } from '../src/common/types';
import { bruteProblem, endgamePosition, smallPosition } from './brute';
import { readBoard, SHARED } from './helpers';

const SEED = 9001;
const show = (board: Board) => formatBoard(board).trimEnd();

/** The reason's constraints alone, over their own cells (every unknown when the total is one of them). */
function alone(problem: Problem, reason: Reason, sources: string[]): Problem {
  const constraints = problem.constraints.filter((c) => sources.includes(c.source));
  const cells = sources.includes('total')
    ? problem.unknowns
    : [...new Set([reason.cell, ...constraints.flatMap((c) => c.cells)])];
  return { unknowns: cells, constraints };
}

/** Brute force: do these constraints force the cell to the reason's value? */
function forces(problem: Problem, reason: Reason, sources: string[]): boolean {
  const result = bruteProblem(alone(problem, reason, sources));
  return result.status === 'ok' && (reason.mine ? result.mines : result.safe).includes(reason.cell);
}

describe('reasons: a small set of counts that already forces each certain cell', () => {
  test('300 small positions and 100 endgames, with the total: sufficient and minimal by brute force', () => {
    const failures: string[] = [];
    let reasons = 0;
    let withTotal = 0;
    for (let i = 0; i < 400; i++) {
      const { board, mine } = i < 300 ? smallPosition(SEED + i) : endgamePosition(SEED + i);
      const problem = encode(board, { totalMines: mine.flat().filter(Boolean).length });
      const deductions = solve(problem);
      if (deductions.status !== 'ok') continue;
      const { reasons: found, unexplained } = findReasons(problem, deductions);
      const certain = [...deductions.mines, ...deductions.safe].sort();
      if (unexplained || JSON.stringify(found.map((r) => r.cell).sort()) !== JSON.stringify(certain))
        failures.push(`seed ${SEED + i}: not one reason per certain cell`);
      for (const reason of found) {
        reasons++;
        if (reason.sources.includes('total')) withTotal++;
        const minimal = reason.sources.every(
          (s) =>
            !forces(
              problem,
              reason,
              reason.sources.filter((t) => t !== s),
            ),
        );
        if (!forces(problem, reason, reason.sources) || !minimal)
          failures.push(`seed ${SEED + i} ${JSON.stringify(reason)}\n${show(board)}`);
      }
    }
    expect(failures.slice(0, 3)).toEqual([]);
    expect(reasons).toBeGreaterThan(2000);
    expect(withTotal).toBeGreaterThan(100);
  });

  const mine01 = path.join(SHARED, 'seed-expectations/mine01.board.txt');
  (existsSync(mine01) ? test : test.skip)(
    'mine01: every one of the 70 certain cells has a reason of at most 5 counts that the SAT backbone confirms',
    () => {
      const board = readBoard(mine01);
      const problem = encode(board, { totalMines: null });
      const deductions = solve(problem);
      const { reasons } = findReasons(problem, deductions);
      expect(reasons).toHaveLength(70);
      for (const reason of reasons) {
        expect(reason.sources.length).toBeLessThanOrEqual(5);
        const sub = alone(problem, reason, reason.sources);
        const sat = solve(sub, { engine: 'sat' });
        expect(reason.mine ? sat.mines : sat.safe).toContain(reason.cell);
      }
    },
  );

  test('--explain words: the counts, what each needs, and the verdict', () => {
    const board: Board = { rows: 3, cols: 4, totalMines: null, cells: [[...'1...'], [...'1F..'], [...'1...']] };
    const analysis = analyzeBoard(board, 'x');
    expect(explainCell(analysis, [0, 1])).toBe(
      [
        'r0c1 is certainly safe.',
        'If it were a mine, these could not all hold:',
        '  r1c0 shows 1: 1 mine among r0c1, r1c1, r2c1',
        '  r2c0 shows 1: 1 mine among r1c1, r2c1',
      ].join('\n'),
    );
    expect(explainCell(analysis, [1, 1])).toMatch(/^r1c1 \(a flag, proven right\) is certainly a mine\./);
    expect(explainCell(analysis, [0, 3])).toBe(
      'r0c3 is not certain: no probability without the total mine count (give --mines).',
    );
    expect(explainCell(analysis, [1, 0])).toBe('r1c0 is open: it shows 1.');
    expect(explainCell(analyzeBoard(board, 'x', { mines: 2 }), [0, 3])).toMatch(
      /^r0c3 is not certain: mine probability 16\.7%/,
    );
  });
});

test('without reasons (the text output): the same deductions and probabilities, no reasons searched', () => {
  for (let seed = SEED; seed < SEED + 20; seed++) {
    const { board } = smallPosition(seed);
    const full = analyzeBoard(board, 'x', { mines: board.totalMines });
    const bare = analyzeBoard(board, 'x', { mines: board.totalMines, reasons: false });
    expect(bare.deductions).toEqual(full.deductions);
    expect(bare.probabilities).toEqual(full.probabilities);
    expect(bare.reasons).toEqual([]);
    if (full.deductions?.status === 'ok')
      expect(full.reasons.length).toBe(full.deductions.mines.length + full.deductions.safe.length);
  }
});
