// A batch worker thread (workers.ts): analyses the files it is sent, one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeFile, type Input, type Job } from './batch';

const job = workerData as Job;
parentPort?.on('message', async ({ index, input }: { index: number; input: Input }) => {
  parentPort?.postMessage({ index, result: await analyzeFile(input, job) });
});
