// The read board in other solvers' text formats, so a user can go on there.
//   mine (JSMinesweeper's position file, as its getPositionData writes and newBoardFromString reads):
//     a header "<width>x<height>x<mines>", then one line per row: 0-8 open, F flag, H hidden.
//   minesweepr (mrgriscom/minesweepr's ascii board, minesweeper_util.Board): one line per row:
//     '.' blank (an open 0), 1-8 open count, '*' known mine, 'x' unknown. The total goes alongside.
import type { Board } from '../common/types';

export type ExportFormat = 'mine' | 'minesweepr';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['mine', 'minesweepr'];

export interface Exported {
  text: string;
  /** Things the user should know: an assumed total, what became of flags. */
  notes: string[];
}

/** Mines of the standard games by size (rows×cols), used in a .mine header when no total is known. */
const STANDARD: Record<string, number> = { '8x8': 10, '9x9': 10, '16x16': 40, '16x30': 99, '30x16': 99 };
const EXPERT_DENSITY = 99 / 480;

export function exportBoard(board: Board, format: ExportFormat, trustFlags = false): Exported {
  return format === 'mine' ? toMine(board) : toMinesweepr(board, trustFlags);
}

/** Shown mines (lost game) become flags, so JSMinesweeper counts them; a wrong flag becomes hidden. */
function toMine(board: Board): Exported {
  const notes: string[] = [];
  let mines = board.totalMines;
  if (mines === null) {
    mines = STANDARD[`${board.rows}x${board.cols}`] ?? Math.round(board.rows * board.cols * EXPERT_DENSITY);
    notes.push(
      `no total mine count known: the header says ${mines} ` +
        '(standard game of this size, or expert density); give --mines',
    );
  }
  const symbol = (ch: string) => (/^[0-8]$/.test(ch) ? ch : ch === 'F' || ch === '*' || ch === 'X' ? 'F' : 'H');
  const rows = board.cells.map((line) => line.map(symbol).join(''));
  return { text: [`${board.cols}x${board.rows}x${mines}`, ...rows].join('\n') + '\n', notes };
}

/** Untrusted flags are unknown ('x'); with trusted flags they are mines ('*'). */
function toMinesweepr(board: Board, trustFlags: boolean): Exported {
  const symbol = (ch: string) =>
    ch === '0' ? '.' : /^[1-8]$/.test(ch) ? ch : ch === '*' || ch === 'X' || (trustFlags && ch === 'F') ? '*' : 'x';
  const notes = [
    board.totalMines === null
      ? 'minesweepr also needs the total mine count (none known)'
      : `total mines for minesweepr: ${board.totalMines}`,
  ];
  if (!trustFlags && board.cells.some((line) => line.includes('F')))
    notes.push('flags exported as unknown (x); --trust-flags exports them as mines (*)');
  return { text: board.cells.map((line) => line.map(symbol).join('')).join('\n') + '\n', notes };
}
