// The best guess when nothing is certainly safe: the hidden cell least likely to be a mine; among equals
// (within 1e-9), the one most likely to be a 0 — it opens an area, so it tells the most; then reading order.
import type { Board, CellProbability, Deductions } from '../common/types';
import { cellName, neighbours, parseCellName } from '../common/board';

const TIE = 1e-9;

/**
 * Null when a safe cell is certain (open that instead), when no hidden cell has a known probability, or
 * when every hidden cell is a certain mine. An `unsure` cell (hidden only for want of a reading) is never the
 * guess. The chance of a 0 is estimated as the product of (1 − p) over
 * the cell and its unknown neighbours, as if they were independent; a neighbour known to be a mine makes it 0.
 */
export function bestGuess(
  board: Board,
  odds: CellProbability[],
  deductions: Deductions,
  trustFlags = false,
  unsure: ReadonlySet<string> = new Set(),
): string | null {
  if (deductions.safe.length > 0) return null;
  const p = new Map(odds.map(({ cell, p: value }) => [cell, value]));
  const candidates = odds.filter(
    ({ cell, p: value }) => value !== null && value < 1 && isHidden(board, cell) && !unsure.has(cell),
  );
  if (candidates.length === 0) return null;
  const lowest = Math.min(...candidates.map((c) => c.p as number));
  const ties = candidates.filter((c) => (c.p as number) <= lowest + TIE);
  const zero = (cell: string) => chanceOfZero(board, cell, p, trustFlags);
  return ties.reduce((best, c) => (zero(c.cell) > zero(best.cell) + TIE ? c : best)).cell;
}

function isHidden(board: Board, cell: string): boolean {
  const [row, col] = parseCellName(cell);
  return board.cells[row][col] === '.' || board.cells[row][col] === '?';
}

function chanceOfZero(board: Board, cell: string, p: Map<string, number | null>, trustFlags: boolean): number {
  const [row, col] = parseCellName(cell);
  let chance = 1 - (p.get(cell) ?? 0.5);
  for (const [r, c] of neighbours(board, row, col)) {
    const ch = board.cells[r][c];
    if (ch === '*' || ch === 'X' || (trustFlags && ch === 'F')) return 0;
    const name = cellName(r, c);
    if (p.has(name)) chance *= 1 - (p.get(name) ?? 0.5);
  }
  return chance;
}
