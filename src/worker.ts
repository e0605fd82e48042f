// A batch worker thread (workers.ts): analyses the files it is sent, one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { analyzeFile, type Input, type Job } from './batch';

// The workers already keep every core busy: libvips splitting each image across the cores as well only adds
// contention (the setting is the process's, and in a batch only the workers call libvips). sharp starts at 1 by
// itself on glibc, but not when MALLOC_ARENA_MAX is set (as Usage suggests for big batches) nor on musl.
sharp.concurrency(1);
const job = workerData as Job;
parentPort?.on('message', async ({ index, input }: { index: number; input: Input }) => {
  parentPort?.postMessage({ index, result: await analyzeFile(input, job) });
});
