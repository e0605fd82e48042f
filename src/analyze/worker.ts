// A batch worker thread (workers.ts): analyses the files it is sent, one at a time, in the order sent.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeFile } from './batch';
import type { Input, Job } from './job';
import { findOpenCvOutlinesWith } from '../locate/locate';
import type { Rect, RgbaImage } from '../common/types';
import { takeTiles } from '../output/tilecache';
import { becomeBatchWorker } from '../common/runtime';

becomeBatchWorker();
const job = workerData as Job;

/** OpenCV's outlines come from the main thread (workers.ts): one OpenCV for all workers, not one each. */
const asked = new Map<number, { resolve: (outlines: Rect[]) => void; reject: (err: Error) => void }>();
let lastAsked = 0;
findOpenCvOutlinesWith(
  ({ width, height, data }: RgbaImage) =>
    new Promise((resolve, reject) => {
      const id = ++lastAsked;
      asked.set(id, { resolve, reject });
      const pixels = data.slice();
      parentPort?.postMessage({ opencv: id, width, height, data: pixels }, [pixels.buffer]);
    }),
);

type Message = { index: number; input: Input } | { opencv: number; outlines?: Rect[]; error?: string };
parentPort?.on('message', async (message: Message) => {
  if ('opencv' in message) {
    const waiting = asked.get(message.opencv);
    asked.delete(message.opencv);
    if (message.outlines) waiting?.resolve(message.outlines);
    else waiting?.reject(new Error(message.error ?? 'OpenCV failed'));
    return;
  }
  files.push(message);
  if (files.length > 1) return; // the loop below is running and will come to it
  while (files.length > 0) {
    const { index, input } = files[0];
    const result = await analyzeFile(input, job);
    parentPort?.postMessage({ index, result, tiles: takeTiles() });
    files.shift();
  }
});

/** Files sent, the first being analysed: one at a time, so that a worker holds one screenshot. */
const files: { index: number; input: Input }[] = [];
