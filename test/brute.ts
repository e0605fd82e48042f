// Test-only oracles and random positions. Deliberately naive: they share no code with src/.
import type { Board, Deductions, Problem } from '../src/common/types';

/** Seeded PRNG in [0, 1), so a failing case reproduces from its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Rule {
  cells: number[];
  count: number;
}

/**
 * Enumerates every assignment of `names` (pruning only on rules already broken) and counts the
 * consistent ones, and per name the consistent ones where it is a mine.
 */
function explore(names: string[], rules: Rule[]): { layouts: number; mines: number[] } {
  const value: boolean[] = [];
  const mines = names.map(() => 0);
  let layouts = 0;
  const broken = (): boolean =>
    rules.some((rule) => {
      const set = rule.cells.filter((i) => i < value.length);
      const mines = set.filter((i) => value[i]).length;
      return mines > rule.count || mines + rule.cells.length - set.length < rule.count;
    });
  const visit = (): void => {
    if (broken()) return;
    if (value.length === names.length) {
      layouts++;
      value.forEach((v, i) => (mines[i] += v ? 1 : 0));
      return;
    }
    for (const v of [false, true]) {
      value.push(v);
      visit();
      value.pop();
    }
  };
  visit();
  return { layouts, mines };
}

/** Certain = same value in every consistent layout; inconsistent = none. */
function enumerate(names: string[], rules: Rule[]): Deductions {
  const { layouts, mines } = explore(names, rules);
  if (layouts === 0) return { status: 'inconsistent', mines: [], safe: [] };
  return {
    status: 'ok',
    mines: names.filter((_, i) => mines[i] === layouts),
    safe: names.filter((_, i) => mines[i] === 0),
  };
}

/** Brute force straight from a Problem. Unknown names come out in Problem order. */
export function bruteProblem(problem: Problem): Deductions {
  const index = new Map(problem.unknowns.map((name, i) => [name, i]));
  return enumerate(
    problem.unknowns,
    problem.constraints.map((c) => ({ cells: c.cells.map((name) => index.get(name) ?? -1), count: c.count })),
  );
}

/**
 * Brute force straight from the board, by the rules of the game: every count equals its mine neighbours,
 * and the total (if any) equals all mines. Hidden '.', '?' and untrusted 'F' are the unknowns.
 */
export function bruteBoard(board: Board, total: number | null, trustFlags: boolean): Deductions {
  const { names, rules } = boardRules(board, total, trustFlags);
  return enumerate(names, rules);
}

/**
 * Mine probability of each unknown (hidden '.', '?', untrusted 'F'), every consistent layout of all
 * unknowns equally likely; null when no layout is consistent.
 */
export function bruteOdds(board: Board, total: number | null, trustFlags: boolean): Map<string, number> | null {
  const { names, rules } = boardRules(board, total, trustFlags);
  const { layouts, mines } = explore(names, rules);
  return layouts === 0 ? null : new Map(names.map((name, i) => [name, mines[i] / layouts]));
}

/** Unknowns that are in no count's neighbourhood. */
export function offFrontier(board: Board, trustFlags: boolean): Set<string> {
  const { names, rules } = boardRules(board, null, trustFlags);
  const touched = new Set(rules.flatMap((rule) => rule.cells));
  return new Set(names.filter((_, i) => !touched.has(i)));
}

function boardRules(board: Board, total: number | null, trustFlags: boolean): { names: string[]; rules: Rule[] } {
  const names: string[] = [];
  const at = new Map<string, number>();
  const isMine = (ch: string) => ch === '*' || ch === 'X' || (trustFlags && ch === 'F');
  const isUnknown = (ch: string) => ch === '.' || ch === '?' || (!trustFlags && ch === 'F');
  let knownMines = 0;
  board.cells.forEach((row, r) =>
    row.forEach((ch, c) => {
      if (isUnknown(ch)) at.set(`${r},${c}`, names.push(`r${r}c${c}`) - 1);
      if (isMine(ch)) knownMines++;
    }),
  );
  const rules: Rule[] = [];
  board.cells.forEach((row, r) =>
    row.forEach((ch, c) => {
      if (!/[0-8]/.test(ch)) return;
      const rule: Rule = { cells: [], count: Number(ch) };
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const n = board.cells[r + dr]?.[c + dc];
          if ((dr === 0 && dc === 0) || n === undefined) continue;
          if (isMine(n)) rule.count--;
          if (isUnknown(n)) rule.cells.push(at.get(`${r + dr},${c + dc}`) ?? -1);
        }
      rules.push(rule);
    }),
  );
  if (total !== null) rules.push({ cells: names.map((_, i) => i), count: total - knownMines });
  return { names, rules };
}

export interface Game {
  /** mine[row][col] */
  mine: boolean[][];
  board: Board;
}

/** A random game after some clicks; zeros flood-fill like a real game. */
export function randomGame(rand: () => number, rows: number, cols: number, mines: number, clicks: number): Game {
  const cellsAll = Array.from({ length: rows * cols }, (_, i) => i);
  for (let i = cellsAll.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [cellsAll[i], cellsAll[j]] = [cellsAll[j], cellsAll[i]];
  }
  const mineSet = new Set(cellsAll.slice(0, mines));
  const mine = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => mineSet.has(r * cols + c)),
  );
  const board: Board = { rows, cols, cells: mine.map((row) => row.map(() => '.')), totalMines: null };
  for (let k = 0; k < clicks; k++) {
    const hidden = safeHidden({ mine, board });
    if (hidden.length === 0) break;
    const zeros = hidden.filter(([r, c]) => around(mine, r, c) === 0);
    const pool = k === 0 && zeros.length > 0 ? zeros : hidden;
    const [r, c] = pool[Math.floor(rand() * pool.length)];
    open(mine, board, r, c);
  }
  return { mine, board };
}

export function safeHidden({ mine, board }: Game): [number, number][] {
  const result: [number, number][] = [];
  board.cells.forEach((row, r) =>
    row.forEach((ch, c) => {
      if (ch === '.' && !mine[r][c]) result.push([r, c]);
    }),
  );
  return result;
}

function around(mine: boolean[][], r: number, c: number): number {
  let n = 0;
  for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) if (mine[r + dr]?.[c + dc]) n++;
  return n;
}

/** Opens a safe cell; a zero opens its neighbours too. */
export function open(mine: boolean[][], board: Board, row: number, col: number): void {
  const stack: [number, number][] = [[row, col]];
  while (stack.length > 0) {
    const [r, c] = stack.pop() as [number, number];
    if (board.cells[r]?.[c] !== '.' || mine[r][c]) continue;
    const n = around(mine, r, c);
    board.cells[r][c] = String(n);
    if (n === 0) for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) stack.push([r + dr, c + dc]);
  }
}

/** Flags (some wrong), question marks and shown mines, sprinkled on hidden cells. */
function decorate(rand: () => number, { mine, board }: Game): void {
  const flagMine = rand() * 0.6;
  const flagSafe = rand() < 0.3 ? 0.15 : 0;
  const question = rand() * 0.2;
  const shown = rand() < 0.1 ? 0.3 : 0;
  board.cells.forEach((row, r) =>
    row.forEach((ch, c) => {
      if (ch !== '.') return;
      const p = rand();
      if (mine[r][c] && p < flagMine) row[c] = 'F';
      else if (mine[r][c] && p < flagMine + shown) row[c] = p < flagMine + shown / 2 ? '*' : 'X';
      else if (!mine[r][c] && p < flagSafe) row[c] = shown > 0 ? '!' : 'F';
      else if (p > 1 - question) row[c] = '?';
    }),
  );
}

/** 4x4 to 6x7, at most 18 hidden cells before decorating. */
export function smallPosition(seed: number): Game {
  const rand = mulberry32(seed);
  const rows = 4 + Math.floor(rand() * 3);
  const cols = 4 + Math.floor(rand() * 4);
  const mines = Math.max(1, Math.round(rows * cols * (0.1 + rand() * 0.2)));
  const game = randomGame(rand, rows, cols, mines, 1);
  const limit = mines + Math.floor(rand() * 10);
  while (hiddenCount(game.board) > Math.min(limit, 18)) {
    const hidden = safeHidden(game);
    const [r, c] = hidden[Math.floor(rand() * hidden.length)];
    open(game.mine, game.board, r, c);
  }
  decorate(rand, game);
  return game;
}

const hiddenCount = (board: Board) => board.cells.flat().filter((ch) => ch === '.').length;

/**
 * An endgame: every safe cell open, then a small rectangle hidden again (its counts unknown), mines as
 * hidden cells or flags. Cells deep in the rectangle touch no count, so the total often decides them.
 */
export function endgamePosition(seed: number): Game {
  const rand = mulberry32(seed);
  const rows = 4 + Math.floor(rand() * 3);
  const cols = 4 + Math.floor(rand() * 4);
  const mines = Math.max(1, Math.round(rows * cols * (0.08 + rand() * 0.12)));
  const game = randomGame(rand, rows, cols, mines, 1);
  for (let hidden = safeHidden(game); hidden.length > 0; hidden = safeHidden(game))
    open(game.mine, game.board, ...hidden[0]);
  const [height, width] = [1 + Math.floor(rand() * 3), 1 + Math.floor(rand() * 4)];
  const [top, left] = [Math.floor(rand() * (rows - height + 1)), Math.floor(rand() * (cols - width + 1))];
  for (let r = top; r < top + height; r++) for (let c = left; c < left + width; c++) game.board.cells[r][c] = '.';
  decorate(rand, game);
  return game;
}
