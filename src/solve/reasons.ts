// Why each certain cell is certain: a small set of constraints that already forces it. Grows a
// neighbourhood of constraints around the cell until, with the cell flipped, no layout fits; then drops
// every constraint that is not needed. Cells with the same constraints share one reason (they are
// interchangeable). Pure JS.
import type { Deductions, Problem, Reason } from '../common/types';
import { type Check, Checker, Constraints, shrink } from './core';

/** Rings of neighbouring constraints tried in the first, cheap pass. */
const NARROW = 2;
/** A reason that needs the total is minimised only up to this many constraints (each check is costly). */
const MINIMISE_WITH_TOTAL = 60;

export interface Explanation {
  reasons: Reason[];
  /**
   * Cells whose reason is every constraint: the search ran out of budget, or it needs the total and too many
   * counts.
   */
  unexplained: number;
}

export function findReasons(problem: Problem, deductions: Deductions, check?: Check): Explanation {
  const constraints = new Constraints(problem);
  const checker = new Checker(check);
  const certain: [string, boolean][] = [
    ...deductions.mines.map((c): [string, boolean] => [c, true]),
    ...deductions.safe.map((c): [string, boolean] => [c, false]),
  ];
  const keyOf = (cell: string, mine: boolean) => `${mine}:${constraints.containing(cell).join(',')}`;
  const groups = new Map(certain.map(([cell, mine]) => [keyOf(cell, mine), { cell, mine }]));
  const found = new Map<string, number[] | null>();
  for (const wide of [false, true]) {
    for (const [key, { cell, mine }] of groups) {
      if (!found.get(key)) found.set(key, checker.exhausted ? null : forcing(constraints, checker, cell, mine, wide));
    }
  }
  const everything = constraints.list.map((_, i) => i);
  let unexplained = 0;
  const reasons = certain.map(([cell, mine]): Reason => {
    const set = found.get(keyOf(cell, mine));
    if (!set) unexplained++;
    return { cell, mine, sources: constraints.sources(set ?? everything) };
  });
  return { reasons, unexplained };
}

/**
 * The constraints that force `cell` to be a mine (`mine`) or safe; null when not found. Narrow: only
 * neighbourhoods up to NARROW rings around the cell (cheap, done first for every cell). Wide: any
 * neighbourhood, then the total with every other constraint.
 */
function forcing(
  constraints: Constraints,
  checker: Checker,
  cell: string,
  mine: boolean,
  wide: boolean,
): number[] | null {
  const flipped = { cells: [cell], count: mine ? 0 : 1, source: cell };
  const impossible = (set: number[]) => checker.impossible(constraints.subproblem(set, [flipped]));
  let set = constraints.containing(cell);
  for (let ring = 0; !impossible(set); ring++) {
    const more = constraints.around(set);
    if (checker.exhausted || set.includes(constraints.total) || (!wide && ring >= NARROW)) return null;
    if (more.length > 0) set = [...set, ...more];
    else if (constraints.total >= 0 && wide) set = withTotal(constraints, set);
    else return null;
  }
  return set.includes(constraints.total) && set.length > MINIMISE_WITH_TOTAL ? null : shrink(set, impossible);
}

/** The total, then every other constraint: what a deduction from the mine count may need. */
function withTotal(constraints: Constraints, set: number[]): number[] {
  const seen = new Set(set);
  return [
    ...set,
    constraints.total,
    ...constraints.list.map((_, i) => i).filter((i) => !seen.has(i) && i !== constraints.total),
  ];
}
