// For an inconsistent board read from a screenshot: which single cell, read differently, would make the
// board consistent. Only cells the conflict involves can matter: its counts and the cells they cover.
// First each such cell read as its runner-up template (the likeliest misreading), then each count of the
// conflict read as another number, nearest first. Suggestions only — the board is never changed.
import type { Board, Conflict, Reading, Rereading } from '../common/types';
import { cellName, neighbours, parseCellName } from '../common/board';

const LABELS = new Set(['.', '0', '1', '2', '3', '4', '5', '6', '7', '8', 'F', '?', '*', 'X', '!']);
/** At most this many alternative boards are checked, and this many suggestions kept. */
const MAX_TRIES = 60;
const MAX_SUGGESTIONS = 6;

export function suggestRereadings(
  board: Board,
  readings: Reading[],
  conflict: Conflict,
  isConsistent: (board: Board) => boolean,
): Rereading[] {
  const reading = new Map(readings.map((r) => [cellName(r.row, r.col), r]));
  const suspects = new Set<string>();
  for (const source of conflict.sources) {
    if (source === 'total' || !reading.has(source)) continue;
    suspects.add(source);
    const [row, col] = parseCellName(source);
    for (const [r, c] of neighbours(board, row, col))
      if (!/^[0-8]$/.test(board.cells[r][c])) suspects.add(cellName(r, c));
  }
  const tries = [...suspects].flatMap((name) => {
    const r = reading.get(name) as Reading;
    const counts = conflict.sources.includes(name) ? otherCounts(r.cell) : [];
    return [
      ...runnerUps(r).map((label) => ({ r, label, runnerUp: true })),
      ...counts.map((label) => ({ r, label, runnerUp: false })),
    ];
  });
  const seen = new Set<string>();
  const suggestions: Rereading[] = [];
  for (const { r, label, runnerUp } of tries
    .sort((a, b) => Number(b.runnerUp) - Number(a.runnerUp))
    .slice(0, MAX_TRIES)) {
    if (suggestions.length >= MAX_SUGGESTIONS || seen.has(`${r.row},${r.col},${label}`)) continue;
    seen.add(`${r.row},${r.col},${label}`);
    const cells = board.cells.map((line) => [...line]);
    cells[r.row][r.col] = label;
    if (isConsistent({ ...board, cells }))
      suggestions.push({ cell: [r.row, r.col], read: r.cell, consistentIf: label, runnerUp });
  }
  return suggestions;
}

/** The runner-up template's label, and for an unreadable cell (read as hidden) its best label too. */
function runnerUps(r: Reading): string[] {
  const labels = r.unreadable ? [r.best, r.runnerUp] : [r.runnerUp];
  return [...new Set(labels)].filter((label) => label !== r.cell && LABELS.has(label));
}

/** The other numbers a count could be, nearest first. */
function otherCounts(cell: string): string[] {
  if (!/^[0-8]$/.test(cell)) return [];
  const n = Number(cell);
  return [1, 2, 3, 4, 5, 6, 7, 8]
    .flatMap((d) => [n - d, n + d])
    .filter((v) => v >= 0 && v <= 8)
    .map(String);
}
