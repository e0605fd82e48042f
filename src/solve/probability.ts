// Exact mine probabilities: every layout that fits the counts (and the total) is equally likely. Layouts
// are counted in log-space (LOG ring), so C(U, M − k) for thousands of cells never overflows; certain
// cells come from the exact BOOL sweep, so they are exactly 0 or 1. Pure JS.
import type { CellProbability, Problem } from '../common/types';
import { LOG, type Occupancy, sweep } from './sweep';
import { count, LIMITS } from './certain';

export type ProbabilityResult =
  | { status: 'ok'; cells: CellProbability[] }
  | { status: 'inconsistent' }
  /** Too many states or parts for the limits: no probabilities (certain cells are still exact). */
  | { status: 'too-costly' };

/**
 * One entry per unknown, in Problem order. Without a total, cells outside the frontier get null (nothing
 * is known of them) and frontier layouts count once each.
 */
export function probabilities(problem: Problem, limits = LIMITS, counted = count(problem, limits)): ProbabilityResult {
  const { space, chains, exact } = counted;
  if (space === null) return { status: 'inconsistent' };
  if (!chains || !exact) return { status: 'too-costly' };
  if (!exact.consistent) return { status: 'inconsistent' };
  const odds = sweep(space, chains, LOG, limits.work / 10);
  if (!odds) return { status: 'too-costly' };
  const p = new Map<string, number | null>();
  for (const [cell, mine] of space.fixed) p.set(cell, mine ? 1 : 0);
  for (let c = 0; c < space.classes.length; c++) {
    const value = share(exact.classes[c], odds.classes[c]);
    for (const cell of space.classes[c].cells) p.set(cell, value);
  }
  const outside = exact.outside && odds.outside ? share(exact.outside, odds.outside) : null;
  for (const cell of space.outside) p.set(cell, outside);
  const cells: { cell: string; p: number | null }[] = [];
  for (const cell of problem.unknowns) {
    const value = p.get(cell) ?? null;
    if (value !== null && !Number.isFinite(value)) return { status: 'too-costly' };
    cells.push({ cell, p: value });
  }
  return { status: 'ok', cells };
}

/** Exactly 0 or 1 when certain; otherwise mine weight / all weight (log-space). */
function share(exact: Occupancy, odds: Occupancy): number {
  if (exact.mine === 0) return 0;
  if (exact.safe === 0) return 1;
  const lead = Math.max(odds.mine, odds.safe);
  const mine = Math.exp(odds.mine - lead);
  return mine / (mine + Math.exp(odds.safe - lead));
}
