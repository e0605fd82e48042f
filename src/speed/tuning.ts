// V8's settings for a long batch. Its flags are the whole process's, so they are set by a batch that has many
// files (runBatch, analyze/batch.ts), never on import, and once. Changing any flag slows a fresh process (code
// cached for the old flags no longer matches them): a single screenshot, or a short batch, runs with V8's defaults.
import { setFlagsFromString } from 'node:v8';

/**
 * Optimised functions inline less: a batch spends much of its CPU compiling, much of it functions compiled again
 * and again, and less inlining makes each compilation cheaper, in workers and in turn. Only the cumulative
 * limit: a compile job reads it once, as it starts. The per-function limit
 * (--max-inlined-bytecode-size) is read twice by a job, as it picks its candidates and as it inlines them, and
 * changed between the two (this thread's jobs run on V8's own threads) V8 aborts the whole process ("Check failed:
 * inlineability == SharedFunctionInfo::kHasOptimizationDisabled").
 */
const INLINING = ['--max-inlined-bytecode-size-cumulative=150'];

/**
 * Functions are optimised only after 8 times V8's default interrupt budget (66 KB of their bytecode run). With the
 * default, TurboFan compiles many functions that run only a few times a file (cellDrawings, wordsIn, render,
 * encode, …), each at a high cost in CPU, where the baseline compiler serves them well enough; 8 is a factor
 * found by measurement on batches of the fixtures (docs/performance.md). Set here, not on node's command
 * line, so that the workers' code cache (made by a batch, build/code-cache.js) is made under it.
 */
const OPTIMISE_LATER = ['--interrupt-budget=540672'];

/**
 * In this thread (files in turn) V8's incremental marking runs nearly all the time: with the main thread's large
 * young generation it starts after every idle-time scavenge, every two or three shots, and each full collection
 * also drops the optimised code of closures that are not alive then. Without it a batch in turn needs much less
 * CPU. Not for workers: their small young generation keeps them out of that, and without it their old
 * generations grow a batch past its 300 MB target.
 */
const IN_TURN = ['--no-incremental-marking'];

let tuned = false;

/** Sets the flags for a batch of many files, in worker threads or in this one; only the first call counts. */
export function tuneForBatch(inWorkers: boolean): void {
  if (tuned) return;
  tuned = true;
  for (const flag of [...INLINING, ...OPTIMISE_LATER, ...(inWorkers ? [] : IN_TURN)]) setFlagsFromString(flag);
}
