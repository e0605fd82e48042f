// "Exactly / at least / at most n of these cells are mines" as clauses: plain clauses over few cells, a binary
// adder and a comparator over more. Each gate's variable is defined both ways, so a literal that says "the sum is
// at least n" can be assumed, required or denied.

/** Where clauses go: `need` adds one (a list of literals, one of which holds); `yes` is a literal always true. */
export interface Clauses {
  readonly yes: number;
  fresh(): number;
  need(...clause: number[]): void;
}

/** Exactly `count` of `variables`: plain clauses for a witness (≤ 8 cells), an adder otherwise. */
export function requireExactly(to: Clauses, variables: number[], count: number): void {
  if (variables.length > 8) {
    const bits = sumBits(to, variables);
    to.need(atLeast(to, bits, count));
    to.need(-atLeast(to, bits, count + 1));
    return;
  }
  // At most count: no count+1 of them are all mines. At least count: no n−count+1 of them are all safe.
  needOfEvery(to, variables, count + 1, -1);
  if (count > 0) needOfEvery(to, variables, variables.length - count + 1, 1);
}

/**
 * For every `size` of `variables`, the clause of their literals times `sign`; in the order of their places (the
 * first differing place least first), each made only as it is needed.
 */
function needOfEvery(to: Clauses, variables: number[], size: number, sign: 1 | -1): void {
  const n = variables.length;
  if (size > n) return;
  const at: number[] = [];
  for (let k = 0; k < size; k++) at.push(k);
  for (;;) {
    const clause: number[] = [];
    for (let k = 0; k < size; k++) clause.push(sign * variables[at[k]]);
    to.need(...clause);
    let k = size - 1;
    while (k >= 0 && at[k] === n - size + k) k--;
    if (k < 0) return;
    at[k]++;
    for (let j = k + 1; j < size; j++) at[j] = at[j - 1] + 1;
  }
}

/** How many of `literals` hold, in binary (least significant bit first): full adders, then half adders. */
export function sumBits(to: Clauses, literals: number[]): number[] {
  const bits: number[] = [];
  let column = [...literals];
  while (column.length > 0) {
    const carries: number[] = [];
    while (column.length > 1) {
      const [a, b, c] = column.splice(0, column.length >= 3 ? 3 : 2);
      const sum = c === undefined ? xor2(to, a, b) : xor3(to, a, b, c);
      carries.push(c === undefined ? and(to, a, b) : majority(to, a, b, c));
      column.push(sum);
    }
    bits.push(column[0]);
    column = carries;
  }
  return bits;
}

/** A literal that holds exactly when the number `bits` is at least n. */
export function atLeast(to: Clauses, bits: number[], n: number): number {
  if (n <= 0) return to.yes;
  if (n >= 2 ** bits.length) return -to.yes;
  // From the least significant bit: bits[0..i] ≥ n's bits[0..i] exactly when bit i is set and n's is not, or
  // bit i equals n's and the bits below are at least n's.
  let below = to.yes;
  bits.forEach((bit, i) => {
    below = (n >> i) & 1 ? and(to, bit, below) : or(to, bit, below);
  });
  return below;
}

/** A literal that holds exactly when the number `bits` is at most n. */
export const atMost = (to: Clauses, bits: number[], n: number): number => -atLeast(to, bits, n + 1);

function and(to: Clauses, a: number, b: number): number {
  if (a === to.yes) return b;
  if (b === to.yes) return a;
  const g = to.fresh();
  to.need(-g, a);
  to.need(-g, b);
  to.need(g, -a, -b);
  return g;
}

function or(to: Clauses, a: number, b: number): number {
  if (a === to.yes || b === to.yes) return to.yes;
  return -and(to, -a, -b);
}

function xor2(to: Clauses, a: number, b: number): number {
  const g = to.fresh();
  to.need(-g, a, b);
  to.need(-g, -a, -b);
  to.need(g, -a, b);
  to.need(g, a, -b);
  return g;
}

function xor3(to: Clauses, a: number, b: number, c: number): number {
  const g = to.fresh();
  for (const sa of [1, -1]) {
    for (const sb of [1, -1]) {
      for (const sc of [1, -1]) {
        const odd = (sa < 0 ? 1 : 0) + (sb < 0 ? 1 : 0) + (sc < 0 ? 1 : 0);
        // Where a, b, c take the values that falsify these three, g must be their parity (odd: true).
        to.need(odd % 2 === 1 ? g : -g, sa * a, sb * b, sc * c);
      }
    }
  }
  return g;
}

function majority(to: Clauses, a: number, b: number, c: number): number {
  const g = to.fresh();
  to.need(-g, a, b);
  to.need(-g, a, c);
  to.need(-g, b, c);
  to.need(g, -a, -b);
  to.need(g, -a, -c);
  to.need(g, -b, -c);
  return g;
}
