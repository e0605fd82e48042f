// Everything the solver stages say about one position: deductions, flags, probabilities, best guess,
// reasons — or, for an impossible board, the conflict and the re-readings that would fix it.
// The solver half of analyze/analyze.ts (which chains it after the vision stages).
import type {
  Board,
  CellProbability,
  Conflict,
  Deductions,
  FlagReport,
  Reading,
  Reason,
  Rereading,
  Side,
} from '../common/types';
import { encode } from './encode';
import { satisfiable, solve } from './solve';
import { probabilities } from './probability';
import { count, LIMITS } from './certain';
import { findReasons } from './reasons';
import { findConflict } from './conflict';
import { bestGuess } from './guess';
import { suggestRereadings } from './reread';
import { cellName } from '../common/board';

export interface PositionOptions {
  /** Total mines in the game, flags included; null when unknown. */
  totalMines: number | null;
  trustFlags: boolean;
  /** Edges where the board may go on past the screenshot (encode.ts). */
  cutSides?: Side[];
  /** Sides of the grid beyond which cells read as board: treated as cut. */
  openSides?: Side[];
  /** Sides where the image does not show the game's frame: treated as cut. */
  coveredSides?: Side[];
  /** Find the counts that prove each certain cell (default true; a costly part of a board's analysis). */
  reasons?: boolean;
  /**
   * Cells taken as hidden only because they could not be read (they may be open): constrained as hidden, which
   * only removes facts, but never marked: left out of the certain cells, their reasons and the best guess.
   */
  unsure?: string[];
}

export interface Position {
  deductions: Deductions;
  flags: FlagReport;
  probabilities: CellProbability[] | null;
  bestGuess: string | null;
  reasons: Reason[];
  conflict: Conflict | null;
  notes: string[];
}

export function analyzePosition(board: Board, options: PositionOptions): Position {
  const problem = encodeWith(board, options);
  const counted = count(problem);
  const proven = solve(problem, { counted });
  const flags = flagReport(board, proven, options.trustFlags);
  const unsure = new Set(options.unsure);
  const deductions = withoutUnsure(proven, unsure);
  const notes =
    options.trustFlags && flags.trusted.length
      ? [`${flags.trusted.length} flags trusted as mines (--trust-flags), not checked`]
      : [];
  if (options.cutSides?.length)
    notes.push(
      `the board may go on past the image's ${options.cutSides.join(' and ')} edge: ` +
        'the counts along it and the mine total are not used',
    );
  if (options.openSides?.length)
    notes.push(
      `cells beyond the board's ${options.openSides.join(' and ')} side read as cells of the board: ` +
        'the board may go on there, so the counts along it and the mine total are not used',
    );
  if (options.coveredSides?.length)
    notes.push(
      `the board's ${options.coveredSides.join(' and ')} side does not show the game's frame ` +
        '(is a window over it?): the board may go on there, so the counts along it and the mine total are not used',
    );
  const unmarked = proven.mines.length + proven.safe.length - deductions.mines.length - deductions.safe.length;
  if (unmarked) notes.push(`${unmarked} certain cells could not be read (they may be open): not marked`);
  if (deductions.status === 'inconsistent') {
    const conflict = findConflict(problem);
    if (conflict.sources.includes('total')) notes.push('the total mine count is part of the contradiction');
    return { deductions, flags, probabilities: null, bestGuess: null, reasons: [], conflict, notes };
  }
  if (deductions.complete === false)
    notes.push(
      'board too large to decide every cell in time: the certain cells shown are proven, others may be certain too',
    );
  const odds = probabilities(problem, LIMITS, counted);
  if (odds.status !== 'ok')
    notes.push('exact probabilities skipped: too many layouts to count here (certain cells are still exact)');
  const cells = odds.status === 'ok' ? odds.cells : null;
  if (cells?.some((c) => c.p === null))
    notes.push(
      'no total mine count: cells away from the numbers have no probability' +
        (options.cutSides?.length || options.openSides?.length || options.coveredSides?.length
          ? ''
          : ' (give --mines)'),
    );
  const { reasons, unexplained } =
    options.reasons === false ? { reasons: [], unexplained: 0 } : findReasons(problem, deductions);
  if (unexplained) notes.push(`${unexplained} certain cells list every count as their reason (search limit reached)`);
  const guess = cells && bestGuess(board, cells, deductions, options.trustFlags, unsure);
  return { deductions, flags, probabilities: cells, bestGuess: guess, reasons, conflict: null, notes };
}

function withoutUnsure(deductions: Deductions, unsure: ReadonlySet<string>): Deductions {
  if (unsure.size === 0) return deductions;
  const sure = (cells: string[]) => cells.filter((cell) => !unsure.has(cell));
  return { ...deductions, mines: sure(deductions.mines), safe: sure(deductions.safe) };
}

/** Single re-readings (runner-up templates) that would make an inconsistent board consistent. */
export function rereadings(
  board: Board,
  readings: Reading[],
  conflict: Conflict,
  options: PositionOptions,
): Rereading[] {
  return suggestRereadings(board, readings, conflict, (b) => satisfiable(encodeWith(b, options)));
}

/** Open and covered sides are encoded as cut ones: their counts see cells not read. */
function encodeWith(board: Board, options: PositionOptions) {
  return encode(board, {
    ...options,
    cutSides: [...(options.cutSides ?? []), ...(options.openSides ?? []), ...(options.coveredSides ?? [])],
  });
}

/** Flags as hints: proven / unproven / wrong. Trusted flags are facts, listed as trusted. */
function flagReport(board: Board, deductions: Deductions, trustFlags: boolean): FlagReport {
  const mines = new Set(deductions.mines);
  const safe = new Set(deductions.safe);
  const report: FlagReport = { proven: [], unproven: [], wrong: [], trusted: [] };
  board.cells.forEach((line, row) =>
    line.forEach((cell, col) => {
      if (cell !== 'F') return;
      const name = cellName(row, col);
      const list = trustFlags
        ? report.trusted
        : mines.has(name)
          ? report.proven
          : safe.has(name)
            ? report.wrong
            : report.unproven;
      list.push([row, col]);
    }),
  );
  return report;
}
