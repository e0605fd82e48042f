// Union–find over 0..n−1 as a plain parent array: no closures, so V8 keeps its optimised code across a batch.

/** Each item its own set. */
export function singletons(n: number): number[] {
  const parent: number[] = [];
  for (let i = 0; i < n; i++) parent.push(i);
  return parent;
}

/** The root of i's set, compressing the path on the way. */
export function root(parent: number[], i: number): number {
  return parent[i] === i ? i : (parent[i] = root(parent, parent[i]));
}
