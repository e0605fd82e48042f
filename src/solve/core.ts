// Small sets of constraints, for reasons and conflict cores: neighbourhoods of constraints that share
// cells, the sub-problem a set forms, and deletion-based minimisation. Pure JS; constraints by index.
import type { Constraint, Problem } from '../common/types';
import { consistent } from './certain';

/** A sub-problem's answer: false = no layout fits it; undefined = too costly to decide. */
export type Check = (problem: Problem) => boolean | undefined;

export class Constraints {
  readonly list: Constraint[];
  /** Index of the constraint over every unknown (the mine total), if any. */
  readonly total: number;
  private readonly unknowns: string[];
  private readonly byCell = new Map<string, number[]>();

  constructor(problem: Problem) {
    this.list = problem.constraints;
    this.unknowns = [...new Set([...problem.unknowns, ...problem.constraints.flatMap((c) => c.cells)])];
    this.total = this.list.findIndex((c) => c.cells.length > 0 && new Set(c.cells).size === this.unknowns.length);
    this.list.forEach((c, i) => {
      if (i !== this.total) for (const cell of c.cells) this.byCell.set(cell, [...(this.byCell.get(cell) ?? []), i]);
    });
  }

  /** Local constraints over `cell`. */
  containing(cell: string): number[] {
    return this.byCell.get(cell) ?? [];
  }

  /** Local constraints that share a cell with one of `set` and are not in it. */
  around(set: number[]): number[] {
    const inSet = new Set(set);
    const found = new Set<number>();
    for (const i of set) {
      for (const cell of i === this.total ? [] : this.list[i].cells) {
        for (const j of this.containing(cell)) if (!inSet.has(j)) found.add(j);
      }
    }
    return [...found];
  }

  /** The constraints of `set` (plus `extra`) over their own cells, or over every unknown with the total. */
  subproblem(set: number[], extra: Constraint[] = []): Problem {
    const constraints = [...set.map((i) => this.list[i]), ...extra];
    const unknowns = set.includes(this.total) ? this.unknowns : [...new Set(constraints.flatMap((c) => c.cells))];
    return { unknowns, constraints };
  }

  sources(set: number[]): string[] {
    return [...new Set(set.map((i) => this.list[i].source))];
  }
}

/**
 * Runs checks within a work budget (cells and constraints visited), so reasons and cores stay cheap on
 * huge boards. Past the budget nothing more is proven: callers then keep what they have (still sound).
 */
export class Checker {
  private work = 0;
  constructor(
    private readonly check: Check = (problem) => consistent(problem, { cells: 5_000, work: 500_000 }),
    private readonly budget = 400_000,
  ) {}

  get exhausted(): boolean {
    return this.work > this.budget;
  }

  /** True only when the check proves that no layout fits. */
  impossible(problem: Problem): boolean {
    if (this.exhausted) return false;
    this.work += problem.unknowns.length + problem.constraints.reduce((n, c) => n + c.cells.length + 1, 0);
    return this.check(problem) === false;
  }
}

/**
 * Deletion-based minimisation: tries to drop each member, last added first; keeps it when the rest is
 * no longer proven impossible. The result is impossible, and minimal when every check was decided.
 */
export function shrink(set: number[], impossible: (set: number[]) => boolean): number[] {
  let kept = [...set];
  for (const i of [...set].reverse()) {
    const without = kept.filter((j) => j !== i);
    if (impossible(without)) kept = without;
  }
  return kept;
}
