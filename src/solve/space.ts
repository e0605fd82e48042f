// The shape of a problem, before any search: cells forced by a single constraint (propagated to a fixed
// point), interchangeable cells grouped into classes, and independent parts. Pure JS, no geometry.
import type { Constraint, Problem } from '../common/types';
import { root, singletons } from '../common/unionfind';

/** Cells that lie in exactly the same local rules: any layout stays a layout when two of them swap. */
export interface CellClass {
  cells: string[];
  rules: number[];
}

/** "count of the cells of these classes are mines", after the fixed cells are taken out. */
export interface Rule {
  count: number;
  classes: number[];
}

/** Classes and rules that share no cell with any other part. */
export interface Part {
  classes: number[];
  rules: number[];
}

export interface Space {
  /** Unknowns forced by propagation: true = mine. */
  fixed: Map<string, boolean>;
  classes: CellClass[];
  rules: Rule[];
  parts: Part[];
  /** Unknowns in no local rule: only the total (if any) speaks of them. */
  outside: string[];
  /** Mines still to place among the classes and outside cells; null without a total. */
  total: number | null;
}

interface Counting {
  cells: string[];
  need: number;
  free: number;
}

/**
 * A constraint over every unknown is the total; the others are local. Null when propagation finds a
 * constraint that cannot hold (the problem is inconsistent).
 */
export function buildSpace(problem: Problem): Space | null {
  const universe = [...new Set([...problem.unknowns, ...problem.constraints.flatMap((c) => c.cells)])];
  const locals: Counting[] = [];
  const totals = new Set<number>();
  for (const constraint of problem.constraints) {
    const cells = [...new Set(constraint.cells)];
    if (cells.length === universe.length && cells.length > 0) totals.add(constraint.count);
    else locals.push({ cells, need: constraint.count, free: cells.length });
  }
  if (totals.size > 1) return null;
  const total: Counting | null = totals.size ? { cells: universe, need: [...totals][0], free: universe.length } : null;
  const fixed = propagate(locals, total);
  if (fixed === null) return null;
  return shape(universe, locals, fixed, total === null ? null : total.need);
}

/**
 * Fixes every cell a single constraint forces, until nothing changes; each rule's need and free count
 * (the total's too) end up counting only what is not fixed. Null on a constraint that cannot hold.
 */
function propagate(locals: Counting[], total: Counting | null): Map<string, boolean> | null {
  const all = total ? [...locals, total] : locals;
  const containing = new Map<string, Counting[]>();
  for (const rule of all) {
    for (const cell of rule.cells) {
      const rules = containing.get(cell);
      if (rules) rules.push(rule);
      else containing.set(cell, [rule]);
    }
  }
  const fixed = new Map<string, boolean>();
  const queue = [...all];
  while (queue.length > 0) {
    const rule = queue.pop() as Counting;
    if (rule.need < 0 || rule.need > rule.free) return null;
    if (rule.free === 0 || (rule.need > 0 && rule.need < rule.free)) continue;
    const mine = rule.need > 0;
    for (const cell of rule.cells) {
      if (fixed.has(cell)) continue;
      fixed.set(cell, mine);
      for (const other of containing.get(cell) ?? []) {
        other.free--;
        if (mine) other.need--;
        queue.push(other);
      }
    }
  }
  return fixed;
}

function shape(universe: string[], locals: Counting[], fixed: Map<string, boolean>, total: number | null): Space {
  const rules: Rule[] = [];
  const byCell = new Map<string, number[]>();
  const seen = new Set<string>();
  for (const local of locals) {
    const cells = local.cells.filter((cell) => !fixed.has(cell));
    const key = `${local.need}:${[...cells].sort().join(',')}`;
    if (cells.length === 0 || seen.has(key)) continue;
    seen.add(key);
    for (const cell of cells) {
      const ruleIds = byCell.get(cell);
      if (ruleIds) ruleIds.push(rules.length);
      else byCell.set(cell, [rules.length]);
    }
    rules.push({ count: local.need, classes: [] });
  }
  const classes: CellClass[] = [];
  const classOf = new Map<string, number>();
  for (const [cell, ruleIds] of byCell) {
    const key = ruleIds.join(',');
    if (!classOf.has(key)) {
      classOf.set(key, classes.length);
      classes.push({ cells: [], rules: ruleIds });
      for (const r of ruleIds) rules[r].classes.push(classes.length - 1);
    }
    classes[classOf.get(key) as number].cells.push(cell);
  }
  return {
    fixed,
    classes,
    rules,
    parts: partsOf(classes, rules.length),
    outside: universe.filter((cell) => !fixed.has(cell) && !byCell.has(cell)),
    total,
  };
}

function partsOf(classes: CellClass[], ruleCount: number): Part[] {
  const parent = singletons(ruleCount);
  for (const cls of classes) for (const r of cls.rules) parent[root(parent, r)] = root(parent, cls.rules[0]);
  const parts = new Map<number, Part>();
  for (let index = 0; index < classes.length; index++) {
    const at = root(parent, classes[index].rules[0]);
    if (!parts.has(at)) parts.set(at, { classes: [], rules: [] });
    (parts.get(at) as Part).classes.push(index);
  }
  for (let r = 0; r < ruleCount; r++) parts.get(root(parent, r))?.rules.push(r);
  return [...parts.values()];
}

/**
 * The problem without the cells propagation fixed (`fixed`, its space's): each constraint loses them and their
 * mines.
 */
export function reduce(problem: Problem, fixed: Map<string, boolean>): Problem {
  const constraints: Constraint[] = [];
  for (const c of problem.constraints) {
    const cells: string[] = [];
    let mines = 0;
    for (const x of c.cells) {
      if (!fixed.has(x)) cells.push(x);
      else if (fixed.get(x) === true) mines++;
    }
    if (cells.length > 0 || c.count - mines !== 0) constraints.push({ ...c, cells, count: c.count - mines });
  }
  const unknowns: string[] = [];
  for (const x of problem.unknowns) if (!fixed.has(x)) unknowns.push(x);
  return { unknowns, constraints };
}

/**
 * Unknowns in no local constraint ("outside" the frontier) appear only in global constraints, which cover
 * every unknown: they are interchangeable, one subject whose mine count is total − frontier mines.
 */
export interface Shape {
  local: Constraint[];
  frontier: string[];
  outside: string[];
  total: number | null;
}

/** For the SAT backbone: constraints split into local and global; null when one alone is impossible. */
export function shapeOf(problem: Problem): Shape | null {
  const universe = [...new Set([...problem.unknowns, ...problem.constraints.flatMap((c) => c.cells)])];
  const local: Constraint[] = [];
  const totals = new Set<number>();
  for (const constraint of problem.constraints) {
    const size = new Set(constraint.cells).size;
    if (constraint.count < 0 || constraint.count > size) return null;
    if (size === 0) continue;
    if (size === universe.length) totals.add(constraint.count);
    else local.push(constraint);
  }
  if (totals.size > 1) return null;
  const onFrontier = new Set(local.flatMap((c) => c.cells));
  return {
    local,
    frontier: universe.filter((cell) => onFrontier.has(cell)),
    outside: universe.filter((cell) => !onFrontier.has(cell)),
    total: totals.size === 1 ? [...totals][0] : null,
  };
}
