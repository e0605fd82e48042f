// Dynamic programming over the chains of a problem, in a semiring: BOOL says what is possible (exact
// certainty), LOG counts layouts in log-space (exact probabilities without overflow). The parts are
// independent except through the total, which weighs a frontier with F mines by C(U, total − F).
import { type Budget, buildChain, type Chain } from './layers';
import type { Space } from './space';

export interface Ring {
  zero: number;
  one: number;
  add(a: number, b: number): number;
  mul(a: number, b: number): number;
  /** Ways to put k mines among n interchangeable cells. */
  ways(n: number, k: number): number;
  /** A multiplicity n as a ring value. */
  count(n: number): number;
}

export const BOOL: Ring = {
  zero: 0,
  one: 1,
  add: Math.max,
  mul: Math.min,
  ways: () => 1,
  count: (n) => (n > 0 ? 1 : 0),
};
export const LOG: Ring = {
  zero: -Infinity,
  one: 0,
  add: logAdd,
  mul: (a, b) => a + b,
  ways: logChoose,
  count: (n) => (n > 0 ? Math.log(n) : -Infinity),
};

/** Ring values indexed by a mine count: v[i] is for lo + i mines. */
interface Poly {
  lo: number;
  v: Float64Array;
}

/** How much weight puts a mine / leaves a cell safe, per class (and for the outside cells as one). */
export interface Occupancy {
  mine: number;
  safe: number;
}

export interface Sweep {
  consistent: boolean;
  classes: Occupancy[];
  /** Null without a total (nothing is known of the outside cells) or when there are none. */
  outside: Occupancy | null;
}

/** Null when the state budget runs out. */
export function buildChains(space: Space, budget: Budget): Chain[] | null {
  const chains: Chain[] = [];
  for (const part of space.parts) {
    const chain = buildChain(space, part, budget);
    if (chain === null) return null;
    chains.push(chain);
  }
  return chains;
}

/** Null when combining the parts would cost more than `maxWork` steps. */
export function sweep(space: Space, chains: Chain[], ring: Ring, maxWork = Infinity): Sweep | null {
  const forwards = chains.map((chain) => forward(chain, ring));
  const totals = forwards.map((f, p) => f[chains[p].levels.length - 1][0] ?? null);
  const empty: Sweep = { consistent: false, classes: [], outside: null };
  if (totals.some((t) => t === null)) return empty;
  const width = totals.reduce((n, t) => n + (t as Poly).v.length, 1);
  if (width * width > maxWork) return null;
  const { total, outside } = space;
  const end = (f: number): number =>
    total === null
      ? ring.one
      : total - f < 0 || total - f > outside.length
        ? ring.zero
        : ring.ways(outside.length, total - f);
  const { each, frontier } = combine(totals as Poly[], ring, end);
  if (frontier.v.every((x) => x === ring.zero)) return empty;
  const classes: Occupancy[] = new Array(space.classes.length);
  for (let p = 0; p < chains.length; p++) {
    const backwards = backward(chains[p], ring, each[p]);
    const { order } = chains[p];
    for (let step = 0; step < order.length; step++)
      classes[order[step]] = occupancy(chains[p], ring, forwards[p], backwards, step);
  }
  const room = outside.length;
  const rest = total === null || room === 0 ? null : spread(frontier, ring, (f) => [total - f, room - total + f]);
  return { consistent: true, classes, outside: rest };
}

// The passes below are loops rather than forEach: V8 drops the optimised code of closures made per call at
// nearly every full collection, and would compile them again and again in a batch.
function forward(chain: Chain, ring: Ring): Poly[][] {
  const values = zeros(chain, ring);
  values[0][0].v[0] = ring.one;
  for (let i = 0; i < chain.levels.length - 1; i++) {
    const { edges: fromEach } = chain.levels[i];
    for (let s = 0; s < fromEach.length; s++) {
      const from = values[i][s];
      for (const { k, to } of fromEach[s]) {
        const w = ring.ways(chain.sizes[i], k);
        const target = values[i + 1][to];
        for (let a = 0; a < from.v.length; a++) {
          const at = from.lo + a + k - target.lo;
          target.v[at] = ring.add(target.v[at], ring.mul(from.v[a], w));
        }
      }
    }
  }
  return values;
}

/** values[i][s](a): weight of finishing from state s with a mines placed before step i. */
function backward(chain: Chain, ring: Ring, end: Poly): Poly[][] {
  const last = chain.levels.length - 1;
  const values = zeros(chain, ring);
  const ends = values[last][0];
  for (let a = 0; a < ends.v.length; a++) ends.v[a] = at(end, ends.lo + a, ring);
  for (let i = last - 1; i >= 0; i--) {
    const { edges: fromEach } = chain.levels[i];
    for (let s = 0; s < fromEach.length; s++) {
      const mine = values[i][s];
      for (const { k, to } of fromEach[s]) {
        const w = ring.ways(chain.sizes[i], k);
        const next = values[i + 1][to];
        for (let a = 0; a < mine.v.length; a++)
          mine.v[a] = ring.add(mine.v[a], ring.mul(w, next.v[mine.lo + a + k - next.lo]));
      }
    }
  }
  return values;
}

/** Per level and state, a polynomial of zeros over the state's mine counts so far. */
function zeros(chain: Chain, ring: Ring): Poly[][] {
  const values: Poly[][] = [];
  for (const { lo, hi } of chain.levels) {
    const level: Poly[] = [];
    for (let s = 0; s < lo.length; s++) level.push(filled(lo[s], hi[s], ring.zero));
    values.push(level);
  }
  return values;
}

function occupancy(chain: Chain, ring: Ring, forwards: Poly[][], backwards: Poly[][], step: number): Occupancy {
  const size = chain.sizes[step];
  let mine = ring.zero;
  let safe = ring.zero;
  const { edges: fromEach } = chain.levels[step];
  for (let s = 0; s < fromEach.length; s++) {
    const from = forwards[step][s];
    for (const { k, to } of fromEach[s]) {
      const w = ring.ways(size, k);
      const next = backwards[step + 1][to];
      for (let a = 0; a < from.v.length; a++) {
        const t = ring.mul(ring.mul(from.v[a], w), next.v[from.lo + a + k - next.lo]);
        mine = ring.add(mine, ring.mul(t, ring.count(k)));
        safe = ring.add(safe, ring.mul(t, ring.count(size - k)));
      }
    }
  }
  return { mine, safe };
}

/**
 * For each part, the weight of every way the other parts and the outside cells can complete it
 * (prefix products times suffix sums), and the weight of each frontier mine count.
 */
function combine(totals: Poly[], ring: Ring, end: (f: number) => number): { each: Poly[]; frontier: Poly } {
  const prefix: Poly[] = [{ lo: 0, v: Float64Array.of(ring.one) }];
  for (const t of totals) prefix.push(convolve(prefix[prefix.length - 1], t, ring));
  const n = totals.length;
  let suffix = mapPoly(prefix[n], (f) => end(f));
  const frontier = mapPoly(prefix[n], (f, x) => ring.mul(x, end(f)));
  const each: Poly[] = new Array(n);
  for (let p = n - 1; p >= 0; p--) {
    const later = suffix;
    each[p] = mapPoly(totals[p], (j) =>
      prefix[p].v.reduce((acc, x, a) => ring.add(acc, ring.mul(x, at(later, prefix[p].lo + a + j, ring))), ring.zero),
    );
    suffix = mapPoly(prefix[p], (f) =>
      totals[p].v.reduce((acc, x, j) => ring.add(acc, ring.mul(x, at(later, f + totals[p].lo + j, ring))), ring.zero),
    );
  }
  return { each, frontier };
}

/** Mine and safe weight of the outside cells, given each frontier mine count's share of them. */
function spread(frontier: Poly, ring: Ring, split: (f: number) => [number, number]): Occupancy {
  let mine = ring.zero;
  let safe = ring.zero;
  frontier.v.forEach((x, i) => {
    const [mines, safes] = split(frontier.lo + i);
    mine = ring.add(mine, ring.mul(x, ring.count(mines)));
    safe = ring.add(safe, ring.mul(x, ring.count(safes)));
  });
  return { mine, safe };
}

function convolve(a: Poly, b: Poly, ring: Ring): Poly {
  const out = filled(a.lo + b.lo, a.lo + b.lo + a.v.length + b.v.length - 2, ring.zero);
  a.v.forEach((x, i) => b.v.forEach((y, j) => (out.v[i + j] = ring.add(out.v[i + j], ring.mul(x, y)))));
  return out;
}

function mapPoly(p: Poly, f: (count: number, value: number) => number): Poly {
  return { lo: p.lo, v: p.v.map((x, i) => f(p.lo + i, x)) };
}

function filled(lo: number, hi: number, value: number): Poly {
  return { lo, v: new Float64Array(Math.max(0, hi - lo + 1)).fill(value) };
}

function at(p: Poly, count: number, ring: Ring): number {
  const i = count - p.lo;
  return i >= 0 && i < p.v.length ? p.v[i] : ring.zero;
}

function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}

const logFactorials = [0];

function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return -Infinity;
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1] + Math.log(i));
  return logFactorials[n] - logFactorials[k] - logFactorials[n - k];
}
