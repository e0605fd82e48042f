// The CLI's one bundled file loaded with V8's code cache: bytecode that `npm run build` saved after running
// the CLI on fixtures (build/code-cache.js), so a fresh run neither parses nor compiles the functions that run
// every time. The cache starts with the CRC-32s of the bundle it was made from and of itself: V8 checks only
// the source's length, its own version and its flags, so a rebuilt bundle of the same length would run stale
// bytecode, and a damaged cache crashes it. The CRC is node:zlib's, which the PNG needs anyway: loading
// node:crypto for a hash of the bundle would cost every run. A cache V8 rejects (another node), one that fails the
// digest, or none at all: the bundle is compiled as usual.
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { plainAsm } from './asm';
import { DIST } from '../common/paths';

export const CLI_BUNDLE = path.join(DIST, 'cli.bundle.js');
export const CLI_CACHE = path.join(DIST, 'cli.cache');
/** A batch worker's bundle, and its cache, made in a worker (workerstart.ts). */
export const WORKER_BUNDLE = path.join(DIST, 'worker.bundle.js');
export const WORKER_CACHE = path.join(DIST, 'worker.cache');

const DIGEST = 8;

/**
 * A CommonJS module's text inside the function node's own loader wraps it in. The build writes the CLI's bundle so
 * (build/bundle.js), and its text is then compiled as read: wrapped at load, the whole bundle would first be
 * copied into one new string.
 */
export const MODULE_START = '(function (exports, require, module, __filename, __dirname) { ';
const MODULE_END = '\n});';

export const wrapModule = (text: string): string => MODULE_START + text + MODULE_END;

export interface Loaded {
  exports: Record<string, unknown>;
  /** Whether the cache was there, made from this bundle, and accepted by V8. */
  cached: boolean;
  script: Script;
}

/** Runs `file` as a CommonJS module, compiled with `cacheFile`'s bytecode when that was made from it. */
export function requireCached(file = CLI_BUNDLE, cacheFile = CLI_CACHE): Loaded {
  // the cache records V8's flags: they must be as they will be once the solver has loaded (solve/minisat.ts)
  plainAsm();
  // The cache is read into the bundle's bytes once they are text: each page of memory a process touches for the
  // first time is costly, and one buffer for both touches fewer.
  const buffer = Buffer.allocUnsafeSlow(Math.max(sizeOf(file), sizeOf(cacheFile)));
  const source = readInto(buffer, file);
  const bundleCrc = crc32(source);
  // the build's bundle is ASCII (build/bundle.js): read as one-byte text, without decoding UTF-8
  const text = source.toString(isAscii(source) ? 'latin1' : 'utf8');
  const cachedData = cacheFor(bundleCrc, buffer, cacheFile);
  const script = new Script(text.startsWith(MODULE_START) ? text : wrapModule(text), { filename: file, cachedData });
  const module = { exports: {} as Record<string, unknown>, filename: file };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, cached: cachedData !== undefined && !script.cachedDataRejected, script };
}

/** The cache of every function `loaded` has compiled so far, behind the digest of its bundle and itself. */
export function codeCacheOf(loaded: Loaded, file = CLI_BUNDLE): Buffer {
  const data = loaded.script.createCachedData();
  return Buffer.concat([digestOf(readFileSync(file), data), data]);
}

/** The cache's bytecode, read into `buffer`, when its digest says it was made from the bundle and is whole. */
function cacheFor(bundleCrc: number, buffer: Buffer, cacheFile: string): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readInto(buffer, cacheFile);
  } catch {
    return undefined;
  }
  const data = cache.subarray(DIGEST);
  return data.length > 0 && cache.subarray(0, DIGEST).equals(digest(bundleCrc, data)) ? data : undefined;
}

/** The file's bytes, read into the start of `buffer` (as large as the file was when its size was taken). */
function readInto(buffer: Buffer, file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    let length = 0;
    for (let read = 1; read > 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function digestOf(source: Buffer, data: Buffer): Buffer {
  return digest(crc32(source), data);
}

function digest(bundleCrc: number, data: Buffer): Buffer {
  const out = Buffer.alloc(DIGEST);
  out.writeUInt32BE(bundleCrc, 0);
  out.writeUInt32BE(crc32(data), 4);
  return out;
}
