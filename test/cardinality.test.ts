import { atLeast, atMost, type Clauses, requireExactly, sumBits } from '../src/cardinality';
import { MiniSat } from '../src/minisat';

/** Clauses straight into one MiniSat, none guarded. */
function clausesOf(sat: MiniSat): Clauses {
  return { yes: sat.yes, fresh: () => sat.newVariable(), need: (...clause) => sat.addClause(clause) };
}

/** Whether the clauses hold with these variables so and `literal` true: one assumption fixes them all. */
function holds(sat: MiniSat, variables: number[], values: boolean[], ...literals: number[]): boolean {
  const given = sat.newVariable();
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
    const to = clausesOf(sat);
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
        if (!holds(sat, variables, values, ...binary)) failures.push(`n=${n} ${values}: the sum is not ${count}`);
        bounds.forEach((k, i) => {
          checks++;
          if (holds(sat, variables, values, least[i]) !== count >= k || holds(sat, variables, values, -least[i]) !== count < k) {
            failures.push(`n=${n} ${values}: at least ${k}`);
          }
          if (holds(sat, variables, values, most[i]) !== count <= k || holds(sat, variables, values, -most[i]) !== count > k) {
            failures.push(`n=${n} ${values}: at most ${k}`);
          }
        });
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(checks).toBeGreaterThan(10_000);
  });

  test('requireExactly allows exactly the layouts with that count, plain clauses and adder alike (1 to 11 cells)', () => {
    const failures: string[] = [];
    for (let n = 1; n <= 11; n++) {
      for (let k = 0; k <= n + 1; k++) {
        const sat = new MiniSat();
        const variables = Array.from({ length: n }, () => sat.newVariable());
        requireExactly(clausesOf(sat), variables, k);
        for (const values of everyLayout(n)) {
          if (holds(sat, variables, values) !== (values.filter(Boolean).length === k)) failures.push(`n=${n} k=${k} ${values}`);
        }
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });
});
