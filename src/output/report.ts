import type { Analysis, Coord, Reason, Rereading } from '../common/types';
import { formatBoard, parseCellName } from '../common/board';

/** A reason in JSON: the witnesses (open cells) whose counts force the cell, and whether the total is needed. */
export interface JsonReason {
  cell: Coord;
  mine: boolean;
  witnesses: Coord[];
  total: boolean;
}

/** A conflict in JSON: open cells whose counts cannot all hold (with the total, when it is one of them). */
export interface JsonConflict {
  cells: Coord[];
  total: boolean;
}

/** The JSON that --json prints, one per input: a contract (stable: extend, don't rename). */
export interface JsonResult {
  file: string;
  status: Analysis['status'];
  error?: string;
  skin: string | null;
  /** How well the skin's templates match the cells (meanDistance, maxDistance, fit from 0 to 1). */
  skinFit: Analysis['skinFit'];
  region: Analysis['region'];
  grid: Analysis['grid'];
  board: string[] | null;
  mines: Coord[];
  safe: Coord[];
  totalMines: number | null;
  /** False when the board was too large to decide every cell (the listed cells are still proven). */
  complete: boolean;
  unreadable: Coord[];
  flags: Analysis['flags'];
  /** [row, col, p] for every unknown cell (hidden, '?', untrusted flag); p null when nothing is known of it. */
  probabilities: [number, number, number | null][] | null;
  bestGuess: Coord | null;
  reasons: JsonReason[];
  conflict: JsonConflict | null;
  suggestions: Rereading[];
  notes: string[];
  /** The game's mine counter: read (text, mines left, the total it gives) and whether that total was used. */
  counter: {
    read: boolean;
    text: string | null;
    remaining: number | null;
    total: number | null;
    used: boolean;
    note: string | null;
  } | null;
  output: string | null;
  /** The board in another solver's format (--export). */
  export?: string;
  /** The --debug picture written. */
  debug?: string;
}

export function toJson(analysis: Analysis, output: string | null): JsonResult {
  const d = analysis.deductions;
  return {
    file: analysis.file,
    status: analysis.status,
    ...(analysis.error !== undefined ? { error: analysis.error } : {}),
    skin: analysis.skin,
    skinFit: analysis.skinFit && {
      ...analysis.skinFit,
      meanDistance: round(analysis.skinFit.meanDistance, 2),
      fit: round(analysis.skinFit.fit, 3),
    },
    region: analysis.region,
    grid: analysis.grid,
    board: analysis.board ? analysis.board.cells.map((row) => row.join('')) : null,
    mines: d ? d.mines.map(parseCellName) : [],
    safe: d ? d.safe.map(parseCellName) : [],
    totalMines: analysis.board?.totalMines ?? null,
    complete: d?.complete ?? true,
    unreadable: analysis.unreadable,
    flags: analysis.flags,
    probabilities:
      analysis.probabilities?.map(({ cell, p }): [number, number, number | null] => [...parseCellName(cell), p]) ??
      null,
    bestGuess: analysis.bestGuess === null ? null : parseCellName(analysis.bestGuess),
    reasons: analysis.reasons.map(jsonReason),
    conflict: analysis.conflict && split(analysis.conflict.sources),
    suggestions: analysis.suggestions,
    notes: analysis.notes,
    counter: analysis.counter
      ? {
          read: analysis.counter.read,
          text: analysis.counter.text,
          remaining: analysis.counter.remaining,
          total: analysis.counter.total,
          used: analysis.counter.used,
          note: analysis.counter.note,
        }
      : null,
    output,
  };
}

function jsonReason(reason: Reason): JsonReason {
  const { cells, total } = split(reason.sources);
  return { cell: parseCellName(reason.cell), mine: reason.mine, witnesses: cells, total };
}

function split(sources: string[]): JsonConflict {
  return { cells: sources.filter((s) => s !== 'total').map(parseCellName), total: sources.includes('total') };
}

/** "r3c7 read as 3, consistent if 2" */
export function suggestionText({ cell: [row, col], read, consistentIf }: Rereading): string {
  return `r${row}c${col} read as ${read}, consistent if ${consistentIf}`;
}

/**
 * The read board with certain mines (m) and safe cells (s) overlaid on hidden cells, as board text; for a
 * screenshot, a header line says its size, the total, and which skin read it and how well it fit.
 */
export function boardText(analysis: Analysis): string {
  const { board, deductions: d } = analysis;
  if (!board) return '';
  const hidden = ([row, col]: Coord): boolean => board.cells[row][col] === '.' || board.cells[row][col] === '?';
  const overlay = d
    ? { mines: d.mines.map(parseCellName).filter(hidden), safe: d.safe.map(parseCellName).filter(hidden) }
    : undefined;
  const header = [
    `rows=${board.rows}`,
    `cols=${board.cols}`,
    board.totalMines === null ? '' : `mines=${board.totalMines}`,
    skinText(analysis, true),
  ];
  if (!analysis.skin) return formatBoard(board, overlay);
  return `# ${header.filter(Boolean).join(' ')}\n` + formatBoard({ ...board, totalMines: null }, overlay);
}

/** "skin=xbomb fit=93%" for a header, "skin xbomb (fit 93%)" for a person. */
function skinText({ skin, skinFit }: Analysis, header: boolean): string {
  if (!skin) return '';
  const fit = skinFit ? `${Math.round(skinFit.fit * 100)}%` : '';
  if (header) return `skin=${skin}${fit ? ` fit=${fit}` : ''}`;
  return `skin ${skin}${fit ? ` (fit ${fit})` : ''}`;
}

/** "counter 9 → 20 mines", or why the counter is not used. */
function counterText({ counter }: Analysis): string {
  if (!counter) return '';
  if (counter.used) return `counter ${counter.text} → ${counter.total} mines`;
  return counter.read ? `counter ${counter.text} not used (${counter.note})` : 'counter not read';
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** One line a person reads: what was found and where the picture went. */
export function summaryLine(analysis: Analysis, output: string | null, debug: string | null = null): string {
  const debugText = debug ? ` (debug picture: ${debug})` : '';
  if (analysis.status === 'error') return `${analysis.file}: error: ${analysis.error}${debugText}`;
  const b = analysis.board;
  const d = analysis.deductions;
  const parts = [
    b ? `${b.rows}×${b.cols}` : '',
    skinText(analysis, false),
    counterText(analysis),
    analysis.status === 'inconsistent' ? 'INCONSISTENT board (no count layout fits what was read)' : '',
    analysis.conflict ? `conflict: ${analysis.conflict.sources.join(' ')}` : '',
    analysis.suggestions.length ? `maybe ${analysis.suggestions.map(suggestionText).join('; ')}` : '',
    d && analysis.status === 'ok' ? `${d.mines.length} certain mines, ${d.safe.length} certain safe` : '',
    guessText(analysis),
    analysis.unreadable.length ? `${analysis.unreadable.length} unreadable` : '',
    analysis.frames ? `the first of ${analysis.frames} frames read` : '',
  ].filter(Boolean);
  return `${analysis.file}: ${parts.join(', ')}${output ? ` → ${output}` : ''}${debugText}`;
}

function guessText(analysis: Analysis): string {
  const p = analysis.probabilities?.find((c) => c.cell === analysis.bestGuess)?.p;
  return analysis.bestGuess && p != null ? `best guess ${analysis.bestGuess} (${percent(p)} mine)` : '';
}

export function percent(p: number): string {
  return p > 0 && p < 0.001 ? '<0.1%' : p < 1 && p > 0.999 ? '>99.9%' : `${(p * 100).toFixed(1)}%`;
}

/** "4 files: 3 ok, 0 inconsistent, 1 error (median 310 ms a file)" */
export function batchSummary(results: { analysis: Analysis; ms: number }[]): string {
  const count = (status: Analysis['status']) => results.filter((r) => r.analysis.status === status).length;
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  return (
    `${results.length} files: ${count('ok')} ok, ${count('inconsistent')} inconsistent, ${count('error')} error ` +
    `(median ${Math.round(median)} ms a file)`
  );
}
