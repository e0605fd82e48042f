// A batch worker's entry (analyze/workers.ts): the worker's bundle run from the code cache the build made of it in
// a worker (build/code-cache.js), as the CLI's bundle is run from its own: a worker neither parses nor compiles the
// functions every file runs, so its first result comes sooner. The cache must be made where it is used: V8 takes
// it only under the flags it was made under, and a batch sets one for its workers (analyze/workers.ts). With
// MINE_ASSIST_SAVE_WORKER_CACHE=n (the build's), a worker saves the cache of what it compiled once it has analysed
// n files.
import { parentPort } from 'node:worker_threads';
import { renameSync, writeFileSync } from 'node:fs';
import { debuglog } from 'node:util';
import { codeCacheOf, requireCached, WORKER_BUNDLE, WORKER_CACHE } from './codecache';

const loaded = requireCached(WORKER_BUNDLE, WORKER_CACHE);
debuglog('mine-assist')('worker loaded %s its code cache', loaded.cached ? 'with' : 'without');

const saveAfter = Number(process.env.MINE_ASSIST_SAVE_WORKER_CACHE);
if (saveAfter > 0 && parentPort) {
  const port = parentPort;
  const post = port.postMessage.bind(port);
  let analysed = 0;
  port.postMessage = (...args: Parameters<typeof post>) => {
    const [message] = args;
    if (typeof message === 'object' && message !== null && 'result' in message && ++analysed === saveAfter) {
      const temp = `${WORKER_CACHE}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      writeFileSync(temp, codeCacheOf(loaded, WORKER_BUNDLE));
      renameSync(temp, WORKER_CACHE);
    }
    post(...args);
  };
}
