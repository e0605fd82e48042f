// libuv's thread pool is sized once, when it starts, and it starts as sharp loads: the CLI imports this module
// before anything that loads sharp. A size already in the environment is kept.
import { availableParallelism } from 'node:os';

/**
 * One thread per core (a batch's default --jobs: each file analysed at once decodes, draws and writes on one),
 * 2 at least and libuv's default of 4 at most. Every pool thread that runs libvips grows its own malloc arena of
 * freed image buffers, so threads beyond the work only spread them over more arenas: more memory, no more speed.
 */
process.env.UV_THREADPOOL_SIZE ??= String(Math.min(4, Math.max(2, availableParallelism())));
