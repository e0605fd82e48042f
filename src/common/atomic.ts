// Files written whole or not at all: each to a temp name beside its target, then renamed over it. A temp name holds
// this process's id, so that an interrupted run (cli/cli.ts) can find the temp files it left, and only its own.
import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as fs from './files';
import { inBatchWorker } from './runtime';

/** Writes under way in this thread through node's thread pool. */
const writing = new Set<Promise<void>>();
let stopped = false;

/**
 * Writes atomically: a temp file beside the target, then a rename, so a killed run leaves no half PNG. A target
 * that is a device or a pipe (`-o /dev/null`) is written to as it is: renamed over, it would be replaced by a file.
 * A batch worker, which has nothing else to do meanwhile, writes without going through node's thread pool (one trip
 * there and back for each of open, write, close and rename).
 */
export async function writeFileAtomic(target: string, bytes: Buffer | string, evenIfStopped = false): Promise<void> {
  if (stopped && !evenIfStopped) throw new Error('interrupted');
  const temp = isSpecial(target) ? null : tempBeside(target);
  if (inBatchWorker()) {
    try {
      writeFileSync(temp ?? target, bytes);
      if (temp) renameSync(temp, target);
    } catch (err) {
      if (temp) rmSync(temp, { force: true });
      throw cannot('write', target, err);
    }
    return;
  }
  const write = temp ? writeThenRename(temp, target, bytes) : fs.writeFile(target, bytes);
  writing.add(write);
  try {
    await write.catch((err: unknown) => Promise.reject(cannot('write', target, err)));
  } finally {
    writing.delete(write);
  }
}

/** A target that is there and neither a file nor a folder: a device, a pipe, a socket (through a link too). */
function isSpecial(target: string): boolean {
  const found = statSync(target, { throwIfNoEntry: false });
  return found !== undefined && !found.isFile() && !found.isDirectory();
}

/** The longest name of a file most file systems take, in bytes. */
const NAME_MAX = 255;

/**
 * A temp name beside `target`: its name (cut short so that the temp name fits where the target's does), this
 * process's id, the time, and a random tag (two threads of one process may write names alike in one millisecond).
 */
function tempBeside(target: string): string {
  const tag = `.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  let name = path.basename(target);
  if (Buffer.byteLength(`.${name}${tag}`) > NAME_MAX) {
    const chars = [...name];
    while (chars.length > 1 && Buffer.byteLength(`.${chars.join('')}${tag}`) > NAME_MAX) chars.pop();
    name = chars.join('');
  }
  return path.join(path.dirname(target), `.${name}${tag}`);
}

/** A file or folder that could not be written or made, in one line: which, and why in words where the code says. */
export function cannot(what: 'write' | 'make the folder', target: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why = (code !== undefined && REASONS[code]) || (err instanceof Error ? err.message : String(err));
  return new Error(`cannot ${what} ${target}: ${why}`);
}

const REASONS: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'part of its path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'the name is too long',
  EISDIR: 'a folder has that name',
  EEXIST: 'a file has that name',
};

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
  const own = new RegExp(`^\\..+\\.${process.pid}\\.\\d+\\.[0-9a-z]+\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (own.test(name)) rmSync(path.join(dir, name), { force: true });
}
