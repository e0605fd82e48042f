// sharp (libvips) is slow to load, so it is loaded on first use. A batch's main thread, which hands every file to
// the workers, never loads it, nor does a run whose marks were all drawn before (output/tilecache.ts).
import type Sharp from 'sharp';
import { inBatchWorker } from '../common/runtime';

let loaded: typeof Sharp | undefined;

export function vips(): typeof Sharp {
  if (loaded === undefined) {
    loaded = require('sharp') as typeof Sharp;
    // The workers already keep every core busy: libvips splitting each image across the cores as well only adds
    // contention (the setting is the process's, and in a batch only the workers call libvips). sharp starts at 1 by
    // itself on glibc, but not when MALLOC_ARENA_MAX is set (as Usage suggests for big batches) nor on musl.
    if (inBatchWorker()) loaded.concurrency(1);
  }
  return loaded;
}
