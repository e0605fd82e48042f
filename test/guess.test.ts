import { cellName, parseBoard, parseCellName } from '../src/common/board';
import { analyzeBoard } from '../src/analyze/analyze';
import { encode } from '../src/solve/encode';
import { solve } from '../src/solve/solve';
import type { Board } from '../src/common/types';
import { mulberry32, open, randomGame } from './brute';

describe('best guess', () => {
  test('none while a safe cell is certain', () => {
    const analysis = analyzeBoard(parseBoard('# mines=2\n1..\n1..\n...\n'), 'x');
    expect(analysis.deductions?.safe.length).toBeGreaterThan(0);
    expect(analysis.bestGuess).toBeNull();
  });

  test('a fresh board with the total: every cell equally likely, so a corner (most likely a 0)', () => {
    const board: Board = {
      rows: 9,
      cols: 9,
      totalMines: 10,
      cells: Array.from({ length: 9 }, () => new Array<string>(9).fill('.')),
    };
    const analysis = analyzeBoard(board, 'fresh');
    for (const { p } of analysis.probabilities ?? []) expect(p).toBeCloseTo(10 / 81, 12);
    expect(analysis.bestGuess).toBe('r0c0');
  });

  test('the lowest probability wins over a better chance of a 0', () => {
    // r0c0's 1 puts one mine among three cells; far cells hold 1 mine among 12 (total 2).
    const analysis = analyzeBoard(parseBoard('# mines=2\n1....\n.....\n.....\n'), 'x');
    const odds = new Map(analysis.probabilities?.map((c) => [c.cell, c.p as number]));
    expect(odds.get('r0c1')).toBeCloseTo(1 / 3, 9);
    expect(odds.get('r0c4')).toBeLessThan(1 / 3);
    expect(analysis.bestGuess).toBe('r0c4');
  });

  test('played until stuck on 30 expert games, the guess is a hidden cell of minimal probability', () => {
    let guessed = 0;
    for (let i = 0; i < 30; i++) {
      const game = randomGame(mulberry32(500 + i), 16, 30, 99, 1);
      for (let step = 0; step < 60; step++) {
        const { safe } = solve(encode(game.board, { totalMines: 99 }));
        for (const cell of safe) open(game.mine, game.board, ...parseCellName(cell));
        if (safe.length > 0) continue;
        const analysis = analyzeBoard(game.board, `game ${i}`, { mines: 99 });
        const hidden = (analysis.probabilities ?? []).filter((c) => c.p !== null && isHidden(game.board, c.cell));
        if (hidden.every((c) => c.p === 1)) break;
        guessed++;
        const lowest = Math.min(...hidden.map((c) => c.p as number));
        expect(hidden.find((c) => c.cell === analysis.bestGuess)?.p).toBeCloseTo(lowest, 9);
        break;
      }
    }
    expect(guessed).toBeGreaterThan(20);
  });
});

function isHidden(board: Board, cell: string): boolean {
  for (let r = 0; r < board.rows; r++)
    for (let c = 0; c < board.cols; c++) if (cellName(r, c) === cell) return board.cells[r][c] === '.';
  return false;
}
