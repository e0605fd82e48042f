import type { Analysis, Coord } from './types';
import { formatBoard, parseCellName } from './board';

/** The JSON contract of DESIGN.md (stable: extend, don't rename). */
export interface JsonResult {
  file: string;
  status: Analysis['status'];
  error?: string;
  skin: string | null;
  region: Analysis['region'];
  grid: Analysis['grid'];
  board: string[] | null;
  mines: Coord[];
  safe: Coord[];
  totalMines: number | null;
  unreadable: Coord[];
  flags: Analysis['flags'];
  probabilities: null;
  bestGuess: null;
  output: string | null;
}

export function toJson(analysis: Analysis, output: string | null): JsonResult {
  const d = analysis.deductions;
  return {
    file: analysis.file,
    status: analysis.status,
    ...(analysis.error !== undefined ? { error: analysis.error } : {}),
    skin: analysis.skin,
    region: analysis.region,
    grid: analysis.grid,
    board: analysis.board ? analysis.board.cells.map((row) => row.join('')) : null,
    mines: d ? d.mines.map(parseCellName) : [],
    safe: d ? d.safe.map(parseCellName) : [],
    totalMines: analysis.board?.totalMines ?? null,
    unreadable: analysis.unreadable,
    flags: analysis.flags,
    probabilities: null,
    bestGuess: null,
    output,
  };
}

/** The read board with certain mines (m) and safe cells (s) overlaid on hidden cells, as board text. */
export function boardText(analysis: Analysis): string {
  const { board, deductions: d } = analysis;
  if (!board) return '';
  const hidden = ([row, col]: Coord): boolean => board.cells[row][col] === '.' || board.cells[row][col] === '?';
  const overlay = d ? { mines: d.mines.map(parseCellName).filter(hidden), safe: d.safe.map(parseCellName).filter(hidden) } : undefined;
  return formatBoard(board, overlay);
}

/** One line a person reads: what was found and where the picture went. */
export function summaryLine(analysis: Analysis, output: string | null): string {
  if (analysis.status === 'error') return `${analysis.file}: error: ${analysis.error}`;
  const b = analysis.board;
  const d = analysis.deductions;
  const parts = [
    b ? `${b.rows}×${b.cols}` : '',
    analysis.skin ? `skin ${analysis.skin}` : '',
    analysis.status === 'inconsistent' ? 'INCONSISTENT board (no count layout fits what was read)' : '',
    d && analysis.status === 'ok' ? `${d.mines.length} certain mines, ${d.safe.length} certain safe` : '',
    analysis.unreadable.length ? `${analysis.unreadable.length} unreadable` : '',
  ].filter(Boolean);
  return `${analysis.file}: ${parts.join(', ')}${output ? ` → ${output}` : ''}`;
}
