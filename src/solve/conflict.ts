// A small set of counts that cannot all hold, for an inconsistent problem: a minimal unsatisfiable core
// over the constraints. Looks for impossible neighbourhoods first (a constraint and those sharing its
// cells, then wider), minimises the smallest few by deletion, and keeps the smallest core. Pure JS.
import type { Conflict, Problem } from '../common/types';
import { type Check, Checker, Constraints, shrink } from './core';

const RADII = 3;
/** Impossible neighbourhoods minimised per radius; the smallest core wins. */
const TRIES = 6;

export function findConflict(problem: Problem, check?: Check): Conflict {
  const constraints = new Constraints(problem);
  const checker = new Checker(check);
  const impossible = (set: number[]) => checker.impossible(constraints.subproblem(set));
  const alone = constraints.list.findIndex((c) => c.count < 0 || c.count > new Set(c.cells).size);
  if (alone >= 0) return { sources: constraints.sources([alone]) };
  const locals = constraints.list.map((_, i) => i).filter((i) => i !== constraints.total);
  for (let radius = 1; radius <= RADII; radius++) {
    const balls = neighbourhoods(constraints, locals, radius).filter(impossible);
    if (balls.length > 0) {
      const cores = balls
        .sort((a, b) => a.length - b.length)
        .slice(0, TRIES)
        .map((ball) => shrink(ball, impossible));
      return { sources: constraints.sources(cores.sort((a, b) => a.length - b.length)[0]) };
    }
  }
  const all = impossible(locals) ? locals : constraints.list.map((_, i) => i);
  return { sources: constraints.sources(shrink(all, impossible)) };
}

/** Each local constraint with those within `radius` steps of shared cells: centre first, farthest last. */
function neighbourhoods(constraints: Constraints, locals: number[], radius: number): number[][] {
  const seen = new Set<string>();
  const balls: number[][] = [];
  for (const centre of locals) {
    const rings = [[centre]];
    for (let r = 0; r < radius; r++) rings.push(constraints.around(rings.flat()));
    const ball = rings.flat();
    const key = [...ball].sort((a, b) => a - b).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    balls.push(ball);
  }
  return balls;
}
