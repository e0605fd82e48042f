// Batches on worker threads: each worker loads the SAT solver and the skins once, then takes files one at a time;
// OpenCV, when a file needs it, is loaded once, in the main thread, and serves them all. Results come back in
// input order whatever order they finish in.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { FileResult, Input, Job } from './job';
import { failed } from './analyze';
import { openCvOutlines } from '../locate/locate';
import { addTiles, type NewTiles } from '../output/tilecache';
import { DIST, FROM_SOURCES } from '../common/paths';

export const availableParallelism = (): number => (os.availableParallelism?.() ?? os.cpus().length) || 1;

/**
 * The worker entry in dist/: the bundle's (speed/build/bundle.js), run from its code cache by speed/workerstart.js,
 * else analyze/worker.js as compiled; null when running the .ts sources (jest), which then batch in turn.
 */
export function workerScript(): string | null {
  if (FROM_SOURCES) return null;
  if (existsSync(path.join(DIST, 'worker.bundle.js'))) return path.join(DIST, 'speed', 'workerstart.js');
  const compiled = path.join(DIST, 'analyze', 'worker.js');
  return existsSync(compiled) ? compiled : null;
}

/**
 * A worker's young generation, in MB. Left to itself V8 grows it to 48 MB (and keeps it) under an image's
 * short-lived patches and arrays; this keeps a batch's peak memory well under its 300 MB target
 * (docs/performance.md), where a larger one is a little faster but peaks too near it.
 */
const YOUNG_GENERATION_MB = 8;

/**
 * A worker's old generation starts this large, in MB. V8 starts it near what is live, so what each image leaves
 * in it would set off a full collection nearly every image. A V8 flag, read as a worker's heap is made (its
 * resourceLimits have no such field); the running isolate is not changed.
 */
const INITIAL_OLD_GENERATION_MB = 32;

/**
 * A worker's file done (and the marks' tiles it drew), or its request for OpenCV's outlines of an image
 * (worker.ts).
 */
type Reply =
  | { index: number; result: FileResult; tiles: NewTiles | null }
  | { opencv: number; width: number; height: number; data: Uint8Array };

/**
 * A worker is sent a file more than it is analysing, so that it never waits for this thread between files; it
 * analyses them one at a time.
 */
const SENT_AHEAD = 1;

/**
 * The workers running, and whether the batch is being stopped (`stopWorkers`): a worker that exits then is not
 * replaced.
 */
const live = new Set<Worker>();
let stopping = false;

/** Stops every worker at once, whatever it is doing, and resolves once their threads have ended. */
export async function stopWorkers(): Promise<void> {
  stopping = true;
  await Promise.all([...live].map((worker) => worker.terminate()));
}

/**
 * A worker that fails (an uncaught error, its heap's limit) or stops (its thread exits) while analysing a file
 * reports that file failed; the files it was sent but had not begun go to a new worker. `script` is the worker's
 * entry: worker.js, or a test's stand-in. `results` is filled as files finish, in any order.
 */
export function runInWorkers(
  inputs: Input[],
  jobs: number,
  job: Job,
  onResult?: (r: FileResult) => void,
  script = workerScript() as string,
  results: (FileResult | undefined)[] = new Array(inputs.length),
): Promise<FileResult[]> {
  let next = 0;
  /** Files a failed worker was sent but had not begun: the next worker takes them first. */
  const again: number[] = [];
  let reported = 0;
  return new Promise((resolve) => {
    const settle = (index: number, result: FileResult) => {
      results[index] = result;
      for (; reported < inputs.length && results[reported]; reported++) onResult?.(results[reported] as FileResult);
      if (reported === inputs.length) resolve(results as FileResult[]);
    };
    const take = (): number | undefined => again.shift() ?? (next < inputs.length ? next++ : undefined);
    setFlagsFromString(`--initial-old-space-size=${INITIAL_OLD_GENERATION_MB}`);
    // loaded here, not with this module: node:worker_threads loads ~10 modules, which a run without workers spares
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const start = () => {
      const worker = new Worker(script, {
        workerData: job,
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
      live.add(worker);
      /** In the order sent: the worker is analysing the first. */
      const sent: number[] = [];
      const feed = () => {
        while (sent.length <= SENT_AHEAD) {
          const index = take();
          if (index === undefined) break;
          sent.push(index);
          worker.postMessage({ index, input: inputs[index] });
        }
        if (sent.length === 0) void worker.terminate();
      };
      worker.on('message', (reply: Reply) => {
        if ('opencv' in reply) return void outlinesFor(worker, reply);
        sent.splice(sent.indexOf(reply.index), 1);
        if (reply.tiles) addTiles(reply.tiles);
        settle(reply.index, reply.result);
        feed();
      });
      // A failure is settled at 'exit', not at 'error': node sends the error on another port than the results, so
      // the results the worker posted before it failed can come after the error, but never after 'exit' (node
      // delivers them first). By then the file it was analysing is the first of those sent and not answered.
      let error: string | undefined;
      worker.on('error', (err) => (error = `worker failed: ${err.message}`));
      worker.on('exit', (code) => {
        live.delete(worker);
        if (stopping) return;
        const [failing, ...waiting] = sent.splice(0);
        if (failing === undefined) return;
        settle(failing, {
          analysis: failed(inputs[failing].file, error ?? `worker stopped (exit code ${code})`),
          output: null,
          debug: null,
          ms: 0,
        });
        again.push(...waiting);
        if (again.length > 0 || next < inputs.length) start();
      });
      feed();
    };
    for (let w = 0; w < jobs; w++) start();
  });
}

/**
 * OpenCV's outlines of a worker's image, found here: the main thread is idle in a batch, and one OpenCV (~130 MB)
 * then serves every worker. Requests are answered in turn.
 */
function outlinesFor(
  worker: Worker,
  { opencv, width, height, data }: { opencv: number; width: number; height: number; data: Uint8Array },
): void {
  openCvOutlines({ width, height, data }).then(
    (outlines) => worker.postMessage({ opencv, outlines }),
    (err: unknown) => worker.postMessage({ opencv, error: err instanceof Error ? err.message : String(err) }),
  );
}
