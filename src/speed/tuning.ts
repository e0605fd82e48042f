// V8's settings for a long batch. Its flags are the whole process's, so they are set by a batch that has many
// files (runBatch), never on import, and once. Changing any flag costs a fresh process ~25 ms (code cached for
// the old flags no longer matches them; mine01's whole run 262 -> 289 ms): a single screenshot, or a short
// batch, runs with V8's defaults.
import { setFlagsFromString } from 'node:v8';

/**
 * Optimised functions inline less. In a batch ~30 % of the CPU went to compiling (perf), much of it functions
 * compiled again and again; with less inlining a 200-shot batch needed ~10 % less CPU, in workers and in turn.
 * Only the cumulative limit: a compile job reads it once, as it starts. The per-function limit
 * (--max-inlined-bytecode-size) is read twice by a job, as it picks its candidates and as it inlines them, and
 * changed between the two (this thread's jobs run on V8's own threads) V8 aborts the whole process ("Check failed:
 * inlineability == SharedFunctionInfo::kHasOptimizationDisabled"): 7 in 200 starts of a 1000-file batch here.
 */
const INLINING = ['--max-inlined-bytecode-size-cumulative=150'];

/**
 * Functions are optimised only after 8 times V8's default interrupt budget (66 KB of their bytecode run). With the
 * default, TurboFan compiled ~200 functions in a worker's first 100 files, 1.2 s of CPU (10–65 ms each: cellDrawings,
 * wordsIn, render, encode, … run a few times a file; batches of 200 to 1000 files ran faster without that); with
 * this, 67 and 0.4 s, the rest left to the baseline compiler. Set here, not on node's command line, so that the workers' code
 * cache (made by a batch, src/speed/build/code-cache.js) is made under it: 200 xdemineur shots at --jobs 2 ~8 % faster, at
 * --jobs 1 ~14 %, 1000 mine01 copies ~9 %, the fixtures' 342 screenshots ~5 % (docs/performance.md, Stop 48). ×2
 * and ×4 gained less; ×16 and ×32 no more than ×8.
 */
const OPTIMISE_LATER = ['--interrupt-budget=540672'];

/**
 * In this thread (files in turn) V8's incremental marking ran nearly all the time: with the main thread's large
 * young generation it starts after every idle-time scavenge, every two or three shots, and each full collection
 * also drops the optimised code of closures that are not alive then. Without it a 200-shot batch in turn needs
 * ~35 % less CPU. Not for workers: their small young generation keeps them out of that, and without it their
 * old generations grow a batch at --jobs 2 past 300 MB.
 */
const IN_TURN = ['--no-incremental-marking'];

let tuned = false;

/** Sets the flags for a batch of many files, in worker threads or in this one; only the first call counts. */
export function tuneForBatch(inWorkers: boolean): void {
  if (tuned) return;
  tuned = true;
  for (const flag of [...INLINING, ...OPTIMISE_LATER, ...(inWorkers ? [] : IN_TURN)]) setFlagsFromString(flag);
}
