// Linear memory for the kernels: grown on demand, never given back.

/** Grows memory to hold `end` bytes; traps (the JS side's "no memory left") when it cannot. */
export function reserve(end: usize): void {
  const have = (<usize>memory.size()) << 16;
  if (end <= have) return;
  const pages = <i32>((end - have + 0xffff) >> 16);
  if (memory.grow(pages) < 0) unreachable();
}
