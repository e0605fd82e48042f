// One part of a problem as a layered graph for dynamic programming. The classes are placed one at a time;
// a state is what the started, unfinished rules still need. Equal states merge, so a long frontier costs
// states × classes instead of its (exponential) number of layouts.
import type { Part, Space } from './space';

export interface Edge {
  /** Mines put in the class of this step. */
  k: number;
  /** State reached in the next level. */
  to: number;
}

/** The states before one step: the range of mines placed so far, and (except at the end) the edges out. */
export interface Level {
  lo: number[];
  hi: number[];
  edges: Edge[][];
}

export interface Chain {
  /** Class placed at each step, and its size. */
  order: number[];
  sizes: number[];
  /** levels[i] = states before step i; the last level holds at most one state (every rule met). */
  levels: Level[];
}

/** Shared by every chain of one problem: how many more (state, mine count) pairs may be created. */
export interface Budget {
  cells: number;
}

/** Null when the part needs more than the budget has left. */
export function buildChain(space: Space, part: Part, budget: Budget): Chain | null {
  const order = orderClasses(space, part);
  const sizes: number[] = [];
  for (const c of order) sizes.push(space.classes[c].cells.length);
  const last = new Map<number, number>();
  for (let step = 0; step < order.length; step++) for (const r of space.classes[order[step]].rules) last.set(r, step);
  const room = new Map<number, number>();
  for (const r of part.rules) {
    let cells = 0;
    for (const c of space.rules[r].classes) cells += space.classes[c].cells.length;
    room.set(r, cells);
  }
  const levels: Level[] = [{ lo: [0], hi: [0], edges: [] }];
  let frontier: Frontier = { active: [], needs: [[]] };
  for (let step = 0; step < order.length; step++) {
    const rules = space.classes[order[step]].rules;
    for (const r of rules) room.set(r, (room.get(r) as number) - sizes[step]);
    const { level, next } = advance(space, frontier, levels[step], { rules, size: sizes[step], step, last, room });
    for (let s = 0; s < level.lo.length; s++) budget.cells -= level.hi[s] - level.lo[s] + 1;
    if (budget.cells < 0) return null;
    levels.push(level);
    frontier = next;
  }
  return { order, sizes, levels };
}

/** The started, unfinished rules, and per state what each still needs. */
interface Frontier {
  active: number[];
  needs: number[][];
}

/** One step: the class placed (its rules and size), each rule's last step, and the cells rules have left after it. */
interface Placement {
  rules: number[];
  size: number;
  step: number;
  last: Map<number, number>;
  room: Map<number, number>;
}

/** Whether a rule may still be met when `need` more mines are needed after this step. */
function fits(place: Placement, rule: number, need: number): boolean {
  return need >= 0 && (place.last.get(rule) === place.step ? need === 0 : need <= (place.room.get(rule) as number));
}

/** Whether this step places the rule's last class. */
function done(place: Placement, rule: number): boolean {
  return place.last.get(rule) === place.step;
}

/**
 * Places one class with every possible number of mines: the edges out of `level`, and the next level. Loops,
 * not closures: V8 would compile a closure again after nearly every full collection of a batch.
 */
function advance(space: Space, frontier: Frontier, level: Level, place: Placement): { level: Level; next: Frontier } {
  const extended = [...frontier.active];
  for (const r of place.rules) if (!frontier.active.includes(r)) extended.push(r);
  const active: number[] = [];
  for (const r of extended) if (!done(place, r)) active.push(r);
  const at = indicesIn(extended, place.rules);
  const keep = indicesIn(extended, active);
  const index = new Map<string, number>();
  const following: Level = { lo: [], hi: [], edges: [] };
  const needs: number[][] = [];
  for (let s = 0; s < frontier.needs.length; s++) {
    const state = frontier.needs[s];
    const base = [...state];
    for (let i = state.length; i < extended.length; i++) base.push(space.rules[extended[i]].count);
    level.edges[s] = [];
    for (let k = 0; k <= place.size; k++) {
      const after = [...base];
      for (const i of at) after[i] -= k;
      if (!allFit(place, after, at)) continue;
      const key: number[] = [];
      for (const i of keep) key.push(after[i]);
      const name = key.join(',');
      let to = index.get(name);
      if (to === undefined) {
        to = needs.push(key) - 1;
        index.set(name, to);
        following.lo.push(Infinity);
        following.hi.push(-Infinity);
      }
      following.lo[to] = Math.min(following.lo[to], level.lo[s] + k);
      following.hi[to] = Math.max(following.hi[to], level.hi[s] + k);
      level.edges[s].push({ k, to });
    }
  }
  return { level: following, next: { active, needs } };
}

function indicesIn(all: number[], items: number[]): number[] {
  const indices: number[] = [];
  for (const r of items) indices.push(all.indexOf(r));
  return indices;
}

/** Whether every rule of the step may still be met, `after[at[j]]` being what rule j still needs. */
function allFit(place: Placement, after: number[], at: number[]): boolean {
  for (let j = 0; j < place.rules.length; j++) if (!fits(place, place.rules[j], after[at[j]])) return false;
  return true;
}

/**
 * Keeps the set of started, unfinished rules small: start at one end of the part, then always place
 * the class that finishes the most rules, starts the fewest, and touches the newest ones.
 */
function orderClasses(space: Space, part: Part): number[] {
  const remaining = new Map(part.rules.map((r) => [r, space.rules[r].classes.length]));
  const started = new Map<number, number>();
  const placed = new Set<number>();
  const order: number[] = [];
  let candidates = new Set<number>([farthest(space, part.classes[0])]);
  while (order.length < part.classes.length) {
    let best = -1;
    let bestScore: number[] = [];
    for (const c of candidates) {
      const rules = space.classes[c].rules;
      const score = [
        rules.filter((r) => remaining.get(r) === 1).length,
        -rules.filter((r) => !started.has(r)).length,
        Math.max(...rules.map((r) => started.get(r) ?? -1)),
      ];
      if (best < 0 || compare(score, bestScore) > 0) [best, bestScore] = [c, score];
    }
    if (best < 0) best = part.classes.find((c) => !placed.has(c)) as number;
    order.push(best);
    placed.add(best);
    candidates.delete(best);
    for (const r of space.classes[best].rules) {
      remaining.set(r, (remaining.get(r) as number) - 1);
      if (!started.has(r)) started.set(r, order.length);
      for (const c of space.rules[r].classes) if (!placed.has(c)) candidates.add(c);
    }
    if (candidates.size === 0) candidates = new Set(part.classes.filter((c) => !placed.has(c)).slice(0, 1));
  }
  return order;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The class farthest (in shared rules) from `start`: one end of a long frontier. */
function farthest(space: Space, start: number): number {
  const seen = new Set([start]);
  let frontier = [start];
  let last = start;
  while (frontier.length > 0) {
    last = frontier[0];
    const next: number[] = [];
    for (const c of frontier) {
      for (const r of space.classes[c].rules) {
        for (const d of space.rules[r].classes) if (!seen.has(d)) (seen.add(d), next.push(d));
      }
    }
    frontier = next;
  }
  return last;
}
