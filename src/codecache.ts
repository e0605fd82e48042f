// The CLI's one bundled file loaded with V8's code cache: bytecode that `npm run build` saved after running
// the CLI on fixtures (scripts/code-cache.js), so a fresh run neither parses nor compiles the functions that
// run every time. The cache starts with the CRC-32s of the bundle it was made from and of itself: V8 checks only
// the source's length, its own version and its flags, so a rebuilt bundle of the same length would run stale
// bytecode, and a damaged cache crashes it. node:zlib's CRC, which the PNG needs anyway: loading node:crypto and
// taking a SHA-1 of the 2.7 MB took ~10 ms of every run. A cache V8 rejects (another node), one that fails the
// digest, or none at all: the bundle is compiled as usual.
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { plainAsm } from './asm';

export const CLI_BUNDLE = path.join(__dirname, '..', 'dist', 'cli.bundle.js');
export const CLI_CACHE = path.join(__dirname, '..', 'dist', 'cli.cache');

const DIGEST = 8;

export interface Loaded {
  exports: Record<string, unknown>;
  /** Whether the cache was there, made from this bundle, and accepted by V8. */
  cached: boolean;
  script: Script;
}

/** Runs `file` as a CommonJS module, compiled with `cacheFile`'s bytecode when that was made from it. */
export function requireCached(file = CLI_BUNDLE, cacheFile = CLI_CACHE): Loaded {
  // the cache records V8's flags: they must be as they will be once the solver has loaded (solve.ts)
  plainAsm();
  const source = readFileSync(file);
  const cachedData = cacheFor(source, cacheFile);
  // the build's bundle is ASCII (scripts/bundle.js): read as one-byte text, without decoding UTF-8
  const script = new Script(Module.wrap(source.toString(isAscii(source) ? 'latin1' : 'utf8')), { filename: file, cachedData });
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

function cacheFor(source: Buffer, cacheFile: string): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const data = cache.subarray(DIGEST);
  return data.length > 0 && cache.subarray(0, DIGEST).equals(digestOf(source, data)) ? data : undefined;
}

function digestOf(source: Buffer, data: Buffer): Buffer {
  const digest = Buffer.alloc(DIGEST);
  digest.writeUInt32BE(crc32(source), 0);
  digest.writeUInt32BE(crc32(data), 4);
  return digest;
}
