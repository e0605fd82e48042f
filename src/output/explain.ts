// One cell of an analysis in words (--explain r,c): what it is, and for a certain cell, the counts that
// force it, each spelled out as "N (more) mines among these cells".
import type { Analysis, Board, Coord } from '../common/types';
import { cellName, neighbours } from '../common/board';
import { percent, suggestionText } from './report';

export function explainCell(analysis: Analysis, [row, col]: Coord): string {
  const { board } = analysis;
  const name = cellName(row, col);
  if (analysis.status === 'error' || board === null) return `${analysis.file}: no board (${analysis.error ?? 'error'})`;
  if (row < 0 || col < 0 || row >= board.rows || col >= board.cols)
    return `${name} is outside the ${board.rows}×${board.cols} board`;
  if (analysis.status === 'inconsistent') return inconsistentText(analysis, board);
  const ch = board.cells[row][col];
  if (/^[0-8]$/.test(ch)) return `${name} is open: it shows ${ch}.`;
  if (ch === '*' || ch === 'X') return `${name} is a mine shown by the game.`;
  if (ch === 'F' && analysis.flags.trusted.length) return `${name} is a flag, trusted as a mine (--trust-flags).`;
  const reason = analysis.reasons.find((r) => r.cell === name);
  const flag = ch === 'F' ? flagText(analysis, [row, col]) : '';
  if (reason === undefined) return `${name}${flag} is not certain: ${oddsText(analysis, name)}.`;
  const verdict = `${name}${flag} is certainly ${reason.mine ? 'a mine' : 'safe'}.`;
  const because = `If it were ${reason.mine ? 'safe' : 'a mine'}, these could not all hold:`;
  const lines = reason.sources.map(
    (source) => `  ${source === 'total' ? totalText(analysis, board) : countText(analysis, board, source)}`,
  );
  return [verdict, because, ...lines].join('\n');
}

function inconsistentText(analysis: Analysis, board: Board): string {
  const sources = analysis.conflict?.sources ?? [];
  const lines = sources.map((s) => `  ${s === 'total' ? totalText(analysis, board) : countText(analysis, board, s)}`);
  const fixes = analysis.suggestions.map((s) => `  ${suggestionText(s)}`);
  return [
    'The board is inconsistent: these cannot all hold:',
    ...lines,
    ...(fixes.length ? ['Possible misreadings:', ...fixes] : []),
  ].join('\n');
}

function flagText(analysis: Analysis, [row, col]: Coord): string {
  const is = (list: Coord[]) => list.some(([r, c]) => r === row && c === col);
  const { proven, wrong, trusted } = analysis.flags;
  const state = is(trusted) ? 'trusted' : is(proven) ? 'proven right' : is(wrong) ? 'proven wrong' : 'unproven';
  return ` (a flag, ${state})`;
}

function oddsText(analysis: Analysis, name: string): string {
  const p = analysis.probabilities?.find((c) => c.cell === name)?.p;
  const guess = analysis.bestGuess === name ? ' — the best guess' : '';
  if (p == null)
    return analysis.probabilities
      ? 'no probability without the total mine count (give --mines)'
      : 'no probability computed';
  return `mine probability ${percent(p)}${guess}`;
}

/** "r2c6 shows 2 (1 known mine around it): 1 more mine among r3c5, r3c6, r3c7" */
function countText(analysis: Analysis, board: Board, source: string): string {
  const match = /^r(\d+)c(\d+)$/.exec(source);
  if (match === null) return source;
  const [row, col] = [Number(match[1]), Number(match[2])];
  const trust = analysis.flags.trusted.length > 0;
  const around = neighbours(board, row, col).map(([r, c]) => ({ name: cellName(r, c), ch: board.cells[r][c] }));
  const known = around.filter(({ ch }) => ch === '*' || ch === 'X' || (trust && ch === 'F')).length;
  const unknown = around.filter(({ ch }) => ch === '.' || ch === '?' || (!trust && ch === 'F')).map((n) => n.name);
  const left = Number(board.cells[row][col]) - known;
  const shows =
    `${source} shows ${board.cells[row][col]}` +
    (known ? ` (${known} known mine${known === 1 ? '' : 's'} around it)` : '');
  if (left < 0) return `${shows}: too many mines already`;
  const mines = `${left}${known ? ' more' : ''} mine${left === 1 ? '' : 's'}`;
  return `${shows}: ${mines} ${unknown.length ? `among ${unknown.join(', ')}` : 'but no unknown cell around it'}`;
}

function totalText(analysis: Analysis, board: Board): string {
  const trust = analysis.flags.trusted.length > 0;
  const cells = board.cells.flat();
  const known = cells.filter((ch) => ch === '*' || ch === 'X' || (trust && ch === 'F')).length;
  const unknown = cells.filter((ch) => ch === '.' || ch === '?' || (!trust && ch === 'F')).length;
  const total = board.totalMines ?? 0;
  return (
    `the total: ${total} mines in the game${known ? `, ${known} known` : ''} → ` +
    `${total - known} among the ${unknown} unknown cells`
  );
}
