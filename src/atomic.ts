// Files written whole or not at all: each to a temp name beside its target, then renamed over it. A temp name holds
// this process's id, so that an interrupted run (cli.ts) can find the temp files it left, and only its own.
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as fs from './files';
import { inBatchWorker } from './runtime';

/** Writes under way in this thread through node's thread pool. */
const writing = new Set<Promise<void>>();
let stopped = false;

/**
 * Writes atomically: a temp file beside the target, then a rename, so a killed run leaves no half PNG. A batch
 * worker, which has nothing else to do meanwhile, writes without going through node's thread pool (one trip there
 * and back for each of open, write, close and rename).
 */
export async function writeFileAtomic(target: string, bytes: Buffer | string, evenIfStopped = false): Promise<void> {
  if (stopped && !evenIfStopped) throw new Error('interrupted');
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  if (inBatchWorker()) {
    try {
      writeFileSync(temp, bytes);
      renameSync(temp, target);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    return;
  }
  const write = writeThenRename(temp, target, bytes);
  writing.add(write);
  try {
    await write;
  } finally {
    writing.delete(write);
  }
}

async function writeThenRename(temp: string, target: string, bytes: Buffer | string): Promise<void> {
  try {
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/**
 * Refuses every write from now on in this thread (but those asked for `evenIfStopped`), and waits for those under
 * way to end (renamed, or removed).
 */
export async function stopWriting(): Promise<void> {
  stopped = true;
  await Promise.allSettled([...writing]);
}

/**
 * Removes the temp files this process left in `dir`: a worker thread stopped between its write and its rename.
 * Call it once nothing writes any more (`stopWriting`, and workers terminated).
 */
export function removeOwnTemps(dir: string): void {
  const own = new RegExp(`^\\..+\\.${process.pid}\\.\\d+\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (own.test(name)) rmSync(path.join(dir, name), { force: true });
}
