// Exact deductions without a SAT solver: propagation, then a complete dynamic programme over every part
// (BOOL ring). A cell is certain exactly when no layout consistent with every constraint gives it the
// other value — the same definition as the SAT backbone, decided by exhaustive (merged) enumeration.
import type { Deductions, Problem } from '../common/types';
import { cellName } from '../common/board';
import { buildSpace, type Space } from './space';
import { buildChain, type Chain } from './layers';
import { BOOL, buildChains, type Sweep, sweep } from './sweep';

/** Default work limits: DP cells over all chains, and steps to combine parts through the total. */
export const LIMITS = { cells: 400_000, work: 40_000_000 };

const inconsistent = (): Deductions => ({ status: 'inconsistent', mines: [], safe: [] });

/**
 * The exact dynamic programme over one problem: its space (null when propagation finds a constraint that cannot
 * hold), its chains and their BOOL sweep (null past the limits). Made once for a position and shared by its
 * deductions, the SAT check's reduced problem and its probabilities.
 */
export interface Count {
  space: Space | null;
  chains: Chain[] | null;
  exact: Sweep | null;
}

export function count(problem: Problem, limits = LIMITS): Count {
  const space = buildSpace(problem);
  const chains = space && buildChains(space, { cells: limits.cells });
  const exact = space && chains && sweep(space, chains, BOOL, limits.work);
  return { space, chains, exact };
}

/** Undefined when the problem is too large for the limits (the caller then needs another method). */
export function deduce(problem: Problem, limits = LIMITS, counted = count(problem, limits)): Deductions | undefined {
  const { space, exact: result } = counted;
  if (space === null) return inconsistent();
  if (result === null) return undefined;
  if (!result.consistent) return inconsistent();
  const mines: string[] = [];
  const safe: string[] = [];
  for (const [cell, mine] of space.fixed) (mine ? mines : safe).push(cell);
  result.classes.forEach((occupancy, c) => {
    if (occupancy.mine === 0) safe.push(...space.classes[c].cells);
    else if (occupancy.safe === 0) mines.push(...space.classes[c].cells);
  });
  if (result.outside?.mine === 0) safe.push(...space.outside);
  else if (result.outside?.safe === 0) mines.push(...space.outside);
  return { status: 'ok', mines: inRowColOrder(mines), safe: inRowColOrder(safe) };
}

/**
 * What is cheap to prove when the whole problem is too costly: propagation, and each part narrow enough
 * for the dynamic programme, without the total (a constraint less only removes deductions, so all of
 * these hold). Marked incomplete: other cells may be certain too, and an inconsistency may go unseen.
 */
export function deducePartial(problem: Problem, limits = LIMITS): Deductions {
  const space = buildSpace(problem);
  if (space === null) return inconsistent();
  const budget = { cells: limits.cells };
  const narrow = space.parts.flatMap((part) => {
    const chain = buildChain(space, part, budget);
    return chain ? [{ part, chain }] : [];
  });
  const local: Space = { ...space, parts: narrow.map((n) => n.part), outside: [], total: null };
  const result = sweep(
    local,
    narrow.map((n) => n.chain),
    BOOL,
    limits.work,
  );
  if (result && !result.consistent) return inconsistent();
  const mines: string[] = [];
  const safe: string[] = [];
  result?.classes.forEach((occupancy, c) => {
    if (occupancy?.mine === 0) safe.push(...space.classes[c].cells);
    else if (occupancy?.safe === 0) mines.push(...space.classes[c].cells);
  });
  return { ...withFixed({ status: 'ok', mines, safe }, space.fixed), complete: false };
}

/** Adds the cells fixed by propagation to deductions made without them. */
export function withFixed(deductions: Deductions, fixed: Map<string, boolean>): Deductions {
  if (deductions.status !== 'ok') return deductions;
  const mines = [...deductions.mines, ...[...fixed].filter(([, mine]) => mine).map(([cell]) => cell)];
  const safe = [...deductions.safe, ...[...fixed].filter(([, mine]) => !mine).map(([cell]) => cell)];
  return { ...deductions, mines: inRowColOrder(mines), safe: inRowColOrder(safe) };
}

/** Whether some layout meets every constraint; undefined when that is too costly to decide here. */
export function consistent(problem: Problem, limits = LIMITS): boolean | undefined {
  const space: Space | null = buildSpace(problem);
  if (space === null) return false;
  const chains = buildChains(space, { cells: limits.cells });
  return chains === null ? undefined : sweep(space, chains, BOOL, limits.work)?.consistent;
}

function rowCol(name: string): number[] {
  const match = /^r(\d+)c(\d+)$/.exec(name);
  return match ? [Number(match[1]), Number(match[2])] : [Infinity, Infinity];
}

/** Row, then col; a name that is not r<row>c<col> sorts last. */
function byRowCol(a: string, b: string): number {
  const [[ra, ca], [rb, cb]] = [rowCol(a), rowCol(b)];
  return ra - rb || ca - cb || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The names sorted in place as by `byRowCol`. Names as `cellName` makes them are each parsed once and sorted as
 * numbers (the comparator parses two names a comparison); any other name sends them all to the comparator.
 */
export function inRowColOrder(names: string[]): string[] {
  const keys = new Float64Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const [row, col] = rowCol(names[i]);
    if (cellName(row, col) !== names[i] || row >= ROW_KEY || col >= ROW_KEY) return names.sort(byRowCol);
    keys[i] = row * ROW_KEY + col;
  }
  keys.sort();
  for (let i = 0; i < keys.length; i++) {
    const row = Math.floor(keys[i] / ROW_KEY);
    names[i] = cellName(row, keys[i] - row * ROW_KEY);
  }
  return names;
}

/** A cell's sort key is row × ROW_KEY + col: exact, and one cell's alone, while both are under ROW_KEY. */
const ROW_KEY = 2 ** 26;
