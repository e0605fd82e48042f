// The board model: board text format (README.md), neighbours and cell names.
import type { Board, Cell, Coord } from './types';

const CELLS = new Set(['.', '0', '1', '2', '3', '4', '5', '6', '7', '8', 'F', '?', '*', 'X', '!']);
/** Solved overlays (certain mine / certain safe) are hidden cells. */
const OVERLAYS = new Set(['m', 's']);

/** Parses board text. Throws an Error with a one-line message on a malformed board. */
export function parseBoard(text: string): Board {
  const header = new Map<string, number>();
  const cells: Cell[][] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line === '') continue;
    if (line.startsWith('#')) readHeader(line, header);
    else cells.push(parseRow(line, cells.length));
  }
  if (cells.length === 0) throw new Error('board text has no rows');
  const rows = cells.length;
  const cols = cells[0].length;
  cells.forEach((row, r) => {
    if (row.length !== cols) throw new Error(`board row ${r} has ${row.length} cells, row 0 has ${cols}`);
  });
  checkHeader(header, 'rows', rows);
  checkHeader(header, 'cols', cols);
  return { rows, cols, cells, totalMines: header.get('mines') ?? null };
}

function parseRow(line: string, row: number): Cell[] {
  return [...line].map((ch, col) => {
    if (OVERLAYS.has(ch)) return '.';
    if (!CELLS.has(ch)) throw new Error(`board row ${row} col ${col}: unknown cell '${ch}'`);
    return ch;
  });
}

function readHeader(line: string, header: Map<string, number>): void {
  for (const [, key, value] of line.matchAll(/(\w+)=(\d+)/g)) header.set(key, Number(value));
}

function checkHeader(header: Map<string, number>, key: string, actual: number): void {
  const stated = header.get(key);
  if (stated !== undefined && stated !== actual) {
    throw new Error(`board header says ${key}=${stated} but the board has ${actual}`);
  }
}

/** Board text, one line per row, each line ending in '\n'; the overlay puts m/s on the listed cells. */
export function formatBoard(board: Board, overlay?: { mines: Coord[]; safe: Coord[] }): string {
  const rows = board.cells.map((row) => [...row]);
  for (const [r, c] of overlay?.mines ?? []) rows[r][c] = 'm';
  for (const [r, c] of overlay?.safe ?? []) rows[r][c] = 's';
  const header = board.totalMines === null ? [] : [`# rows=${board.rows} cols=${board.cols} mines=${board.totalMines}`];
  return [...header, ...rows.map((row) => row.join(''))].map((line) => line + '\n').join('');
}

/** The up to 8 cells touching (row, col), in row-major order. */
export function neighbours(board: Board, row: number, col: number): Coord[] {
  const result: Coord[] = [];
  for (let r = Math.max(0, row - 1); r <= Math.min(board.rows - 1, row + 1); r++) {
    for (let c = Math.max(0, col - 1); c <= Math.min(board.cols - 1, col + 1); c++) {
      if (r !== row || c !== col) result.push([r, c]);
    }
  }
  return result;
}

/** The SAT variable name of a cell: 'r<row>c<col>'. */
export function cellName(row: number, col: number): string {
  const known = names[row]?.[col];
  if (known !== undefined) return known;
  const name = `r${row}c${col}`;
  if (Number.isInteger(row) && Number.isInteger(col) && row >= 0 && col >= 0 && row < NAMED && col < NAMED)
    (names[row] ??= [])[col] = name;
  return name;
}

/**
 * Names made, by row and column, kept for the process: a board names each cell many times (its constraints, the
 * solver's maps, the deductions), and every board of a batch the same cells.
 */
const names: string[][] = [];
const NAMED = 256;

export function parseCellName(name: string): Coord {
  const match = /^r(\d+)c(\d+)$/.exec(name);
  if (match === null) throw new Error(`not a cell name: '${name}'`);
  return [Number(match[1]), Number(match[2])];
}
