// Sums, means and medians of plain number arrays, shared by the stages. Loops and module functions: a callback made
// per call would have its optimised code dropped at each full collection of a batch.

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
export function median(values: ArrayLike<number>): number {
  // sorted as a Float64Array, compared natively: a comparator is passed each double boxed
  const sorted = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) sorted[i] = values[i];
  return sorted.sort()[values.length >> 1] ?? 0;
}
