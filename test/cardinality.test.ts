import { atLeast, atMost, type Clauses, requireExactly, sumBits } from '../src/solve/cardinality';
import { MiniSat } from '../src/solve/minisat';

/** Clauses into one MiniSat, each guarded by `active` (assumed by `holds`), as src/solve/solve.ts guards a call's. */
function clausesOf(sat: MiniSat, active: number): Clauses {
  return { yes: sat.yes, fresh: () => sat.newVariable(), need: (...clause) => sat.addClause([...clause, -active]) };
}

/** Whether the clauses under `active` hold with these variables so and `literals` true: one assumption. */
function holds(sat: MiniSat, active: number, variables: number[], values: boolean[], ...literals: number[]): boolean {
  const given = sat.newVariable();
  sat.addClause([-given, active]);
  variables.forEach((v, i) => sat.addClause([-given, values[i] ? v : -v]));
  for (const literal of literals) sat.addClause([-given, literal]);
  const found = sat.solveAssuming(given);
  sat.retire(given);
  return found;
}

const everyLayout = (n: number) =>
  Array.from({ length: 2 ** n }, (_, bits) => Array.from({ length: n }, (_, i) => ((bits >> i) & 1) === 1));

describe('cardinality clauses, against every layout', () => {
  test('sumBits is the count in binary; atLeast and atMost hold exactly when the count is so (0 to 9 cells)', () => {
    const sat = new MiniSat();
    const active = sat.newVariable();
    const to = clausesOf(sat, active);
    const failures: string[] = [];
    let checks = 0;
    for (let n = 0; n <= 9; n++) {
      const variables = Array.from({ length: n }, () => sat.newVariable());
      const bits = sumBits(to, variables);
      const bounds = Array.from({ length: n + 4 }, (_, i) => i - 1);
      const least = bounds.map((k) => atLeast(to, bits, k));
      const most = bounds.map((k) => atMost(to, bits, k));
      for (const values of everyLayout(n)) {
        const count = values.filter(Boolean).length;
        const binary = bits.map((_, i) => ((count >> i) & 1 ? bits[i] : -bits[i]));
        if (!holds(sat, active, variables, values, ...binary))
          failures.push(`n=${n} ${values}: the sum is not ${count}`);
        bounds.forEach((k, i) => {
          checks++;
          if (
            holds(sat, active, variables, values, least[i]) !== count >= k ||
            holds(sat, active, variables, values, -least[i]) !== count < k
          ) {
            failures.push(`n=${n} ${values}: at least ${k}`);
          }
          if (
            holds(sat, active, variables, values, most[i]) !== count <= k ||
            holds(sat, active, variables, values, -most[i]) !== count > k
          ) {
            failures.push(`n=${n} ${values}: at most ${k}`);
          }
        });
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(checks).toBeGreaterThan(10_000);
  });

  test('requireExactly allows exactly the layouts with that count, plain clauses or adder (1 to 11 cells)', () => {
    const failures: string[] = [];
    for (let n = 1; n <= 11; n++) {
      for (let k = 0; k <= n + 1; k++) {
        const sat = new MiniSat();
        const active = sat.newVariable();
        const variables = Array.from({ length: n }, () => sat.newVariable());
        requireExactly(clausesOf(sat, active), variables, k);
        for (const values of everyLayout(n)) {
          if (holds(sat, active, variables, values) !== (values.filter(Boolean).length === k))
            failures.push(`n=${n} k=${k} ${values}`);
        }
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });
});

describe('MiniSat', () => {
  test('says when a clause makes the clauses unsatisfiable whatever is assumed, not UNSAT from then on', () => {
    const sat = new MiniSat();
    const [x, guard] = [sat.newVariable(), sat.newVariable()];
    sat.addClause([x]);
    sat.addClause([-x, -guard]);
    expect(sat.solveAssuming(guard)).toBe(false);
    expect(sat.solveAssuming(x)).toBe(true);
    expect(() => sat.addClause([-x])).toThrow(/cannot hold whatever is assumed/);
  });
});
