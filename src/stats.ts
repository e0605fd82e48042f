// Sums, means and medians of plain number arrays, shared by the stages. Loops and module functions: a callback made
// per call would have its optimised code dropped at each full collection of a batch.

export const ascending = (a: number, b: number): number => a - b;

/** Added in order from the first. */
export function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i];
  return total;
}

/** 0 for none. */
export function mean(values: number[]): number {
  return sum(values) / Math.max(1, values.length);
}

/** The upper median (the middle of an odd count, the higher of the middle two of an even one); 0 for none. */
export function median(values: number[]): number {
  return [...values].sort(ascending)[Math.floor(values.length / 2)] ?? 0;
}
