// What node offers only in modules a run would otherwise load for nothing: node:worker_threads (~10 modules) to
// ask whether this is a worker, node:perf_hooks (~12) for a clock.

let batchWorker = false;

/** Whether this thread is a batch's worker (analyze/worker.ts): it has nothing to do but its file, one at a time. */
export const inBatchWorker = (): boolean => batchWorker;

export function becomeBatchWorker(): void {
  batchWorker = true;
}

/** Milliseconds on a monotonic clock, as performance.now(). */
export const now = (): number => Number(process.hrtime.bigint()) / 1e6;
