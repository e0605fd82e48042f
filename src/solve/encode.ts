// Turns a board into "exactly N of these cells are mines" constraints for the solver.
import { cellName } from '../common/board';
import type { Board, Constraint, Problem, Side } from '../common/types';

export interface EncodeOptions {
  /** Total mines in the game, flags included. undefined: use board.totalMines; null: no total. */
  totalMines?: number | null;
  /** Treat flags as known mines instead of hints. */
  trustFlags?: boolean;
  /**
   * Edges where the board may go on past the screenshot: the counts along them see unseen cells, so they
   * say nothing here, and no total holds for the cells shown.
   */
  cutSides?: Side[];
}

type Kind = 'unknown' | 'mine' | 'safe' | 'count';

function kindOf(cell: string, trustFlags: boolean): Kind {
  if (cell === '.' || cell === '?') return 'unknown';
  if (cell === 'F') return trustFlags ? 'mine' : 'unknown';
  if (cell === '*' || cell === 'X') return 'mine';
  if (cell === '!') return 'safe';
  if (/^[0-8]$/.test(cell)) return 'count';
  throw new Error(`cannot encode cell '${cell}'`);
}

export function encode(board: Board, options: EncodeOptions = {}): Problem {
  const trustFlags = options.trustFlags ?? false;
  const kinds = board.cells.map((row) => row.map((cell) => kindOf(cell, trustFlags)));
  const unknowns: string[] = [];
  const constraints: Constraint[] = [];
  let knownMines = 0;
  const cut = new Set(options.cutSides ?? []);
  const onCutEdge = (r: number, c: number) =>
    (r === 0 && cut.has('top')) ||
    (r === board.rows - 1 && cut.has('bottom')) ||
    (c === 0 && cut.has('left')) ||
    (c === board.cols - 1 && cut.has('right'));
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      if (kinds[r][c] === 'unknown') unknowns.push(cellName(r, c));
      if (kinds[r][c] === 'mine') knownMines++;
      if (kinds[r][c] === 'count' && !onCutEdge(r, c)) {
        const witness = witnessConstraint(board, kinds, r, c);
        if (witness !== null) constraints.push(witness);
      }
    }
  }
  const total = cut.size ? null : options.totalMines !== undefined ? options.totalMines : board.totalMines;
  if (total !== null && (unknowns.length > 0 || total !== knownMines)) {
    constraints.push({ cells: unknowns, count: total - knownMines, source: 'total' });
  }
  return { unknowns, constraints: dedupe(constraints) };
}

/**
 * "count minus known-mine neighbours of the unknown neighbours are mines". Kept even when impossible
 * (negative, too many, or a fully surrounded count that disagrees) so the solver reports inconsistent.
 */
function witnessConstraint(board: Board, kinds: Kind[][], row: number, col: number): Constraint | null {
  const cells: string[] = [];
  let mines = 0;
  // the neighbours in common/board.ts's `neighbours` order, without a pair made for each
  for (let r = Math.max(0, row - 1); r <= Math.min(board.rows - 1, row + 1); r++) {
    for (let c = Math.max(0, col - 1); c <= Math.min(board.cols - 1, col + 1); c++) {
      if (r === row && c === col) continue;
      if (kinds[r][c] === 'unknown') cells.push(cellName(r, c));
      if (kinds[r][c] === 'mine') mines++;
    }
  }
  const count = Number(board.cells[row][col]) - mines;
  if (cells.length === 0 && count === 0) return null;
  return { cells, count, source: cellName(row, col) };
}

function dedupe(constraints: Constraint[]): Constraint[] {
  const seen = new Set<string>();
  const unique: Constraint[] = [];
  for (const constraint of constraints) {
    const key = `${constraint.count}:${constraint.cells.join(',')}`;
    if (!seen.has(key)) unique.push(constraint);
    seen.add(key);
  }
  return unique;
}
