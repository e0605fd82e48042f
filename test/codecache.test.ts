import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSkin, saveSkin } from '../src/skin/skin';

// The CLI's bundle runs from the code cache the build saved (src/speed/codecache.ts), and only from a cache made
// from the very same bundle. Each case loads the bundle in a fresh node, as the CLI does.

const DIST = path.join(__dirname, '..', 'dist');
const BUNDLE = path.join(DIST, 'cli.bundle.js');
const CACHE = path.join(DIST, 'cli.cache');

let dir: string;
beforeAll(() => {
  // beside the bundle, so that its copies find the same node_modules
  dir = mkdtempSync(path.join(DIST, 'codecache-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Loads `bundle` with `cache` in a fresh node: whether the cache was used, and whether the CLI's main is there. */
function load(bundle: string, cache: string, nodeFlags: string[] = []): { cached: boolean; main: string } {
  const script =
    `const l = require(${JSON.stringify(path.join(DIST, 'speed', 'codecache.js'))})` +
    `.requireCached(${JSON.stringify(bundle)}, ${JSON.stringify(cache)});
    process.stdout.write(JSON.stringify({ cached: l.cached, main: typeof l.exports.main }));`;
  const run = spawnSync(process.execPath, [...nodeFlags, '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

test('the build saved a cache of the bundle that V8 takes, wherever the bundle is (npm test builds first)', () => {
  expect(load(BUNDLE, CACHE)).toEqual({ cached: true, main: 'function' });
  const moved = path.join(dir, 'moved.js');
  copyFileSync(BUNDLE, moved);
  expect(load(moved, CACHE)).toEqual({ cached: true, main: 'function' });
});

test('the bundle is ASCII, read as one-byte text; one that is not still loads, from its own cache', () => {
  const source = readFileSync(BUNDLE);
  expect(isAscii(source)).toBe(true);
  const wide = path.join(dir, 'wide.js');
  writeFileSync(wide, source.toString('latin1').replace('"use strict";', '"use strict";\n// caf\u00e9 \u2019'));
  expect(load(wide, CACHE).main).toBe('function');
  const wideCache = path.join(dir, 'wide.cache');
  const script =
    `const c = require(${JSON.stringify(path.join(DIST, 'speed', 'codecache.js'))}); ` +
    `const l = c.requireCached(${JSON.stringify(wide)}, '/nonexistent');
    require('node:fs').writeFileSync(${JSON.stringify(wideCache)}, c.codeCacheOf(l, ${JSON.stringify(wide)}));`;
  expect(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stderr).toBe('');
  expect(load(wide, wideCache)).toEqual({ cached: true, main: 'function' });
});

test("the bundle is written inside node's module wrapper, compiled as read; a module's plain text is wrapped", () => {
  const text = readFileSync(BUNDLE, 'latin1');
  expect(text.startsWith('(function (exports, require, module, __filename, __dirname) { "use strict";')).toBe(true);
  expect(text.endsWith('\n});')).toBe(true);
  const plain = path.join(dir, 'plain.js');
  writeFileSync(plain, '"use strict";\nexports.main = function main() {};\n');
  expect(load(plain, '/nonexistent')).toEqual({ cached: false, main: 'function' });
});

test('a cache made from another bundle of the same length is not used: the bundle is compiled as usual', () => {
  const source = readFileSync(BUNDLE, 'utf8');
  const changed = path.join(dir, 'changed.js');
  const edited = source.replace('Finds the Minesweeper board', 'Finds the Minesweeper b0ard');
  expect(edited).not.toBe(source);
  expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(source));
  writeFileSync(changed, edited);
  expect(load(changed, CACHE)).toEqual({ cached: false, main: 'function' });
});

test('a cache V8 does not take (another node, other V8 flags) is passed over: the bundle is compiled as usual', () => {
  expect(load(BUNDLE, CACHE, ['--no-lazy-feedback-allocation'])).toEqual({ cached: false, main: 'function' });
});

test('without a cache, or with a damaged one, the bundle still loads', () => {
  expect(load(BUNDLE, path.join(dir, 'none.cache'))).toEqual({ cached: false, main: 'function' });
  const damaged = path.join(dir, 'damaged.cache');
  const bytes = readFileSync(CACHE);
  bytes.fill(7, 40, 4000); // V8 does not check: run with this, it crashes
  writeFileSync(damaged, bytes);
  expect(load(BUNDLE, damaged)).toEqual({ cached: false, main: 'function' });
  writeFileSync(damaged, 'short');
  expect(load(BUNDLE, damaged)).toEqual({ cached: false, main: 'function' });
});

test("a fresh run on a PNG with a learned skin's folder loads neither node:crypto nor node:child_process", async () => {
  // the cache's digest and the skin's stamp are CRC-32s, and sharp's bundled files require those modules only
  // when they take a hash or run a command (src/speed/build/bundle.js): loading them is slow
  const skin = path.join(dir, 'learned-xbomb');
  await saveSkin(await loadSkin('xbomb'), skin);
  const hook = path.join(dir, 'builtins-hook.js');
  writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList)));`,
  );
  const shot = path.join(__dirname, '..', 'fixtures', 'xbomb', 's2-02.png');
  const bin = path.join(__dirname, '..', 'bin', 'mine-assist.js');
  const run = spawnSync(process.execPath, ['-r', hook, bin, shot, '--skin', skin, '-o', path.join(dir, 'out.png')], {
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/skin xbomb/);
  const loaded: string[] = JSON.parse(run.stderr);
  expect(loaded).toContain('NativeModule zlib');
  expect(loaded.filter((m) => /^NativeModule (crypto|child_process)$/.test(m))).toEqual([]);
}, 60_000);

// A batch's workers run their bundle from the cache the build made in a worker, under the flag a batch sets for
// its workers: V8 takes it there (the CLI's own cache, made without that flag, it would not).
test("a batch's workers load their bundle from the worker cache the build saved, and analyse as without it", () => {
  const shots = ['xdemineur', 'xbomb', 'gnome-mines', 'ace-minesweeper'].flatMap((game) =>
    ['s2-01.png', 's2-02.png'].map((s) => path.join(__dirname, '..', 'fixtures', game, s)),
  );
  const bin = path.join(__dirname, '..', 'bin', 'mine-assist.js');
  const out = path.join(dir, 'batch');
  const batch = (env: Record<string, string>) =>
    spawnSync(process.execPath, [bin, ...shots, '-o', out, '--json', '--jobs', '2'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_DEBUG: 'mine-assist', ...env },
    });
  const cached = batch({});
  expect(cached.status).toBe(0);
  expect(cached.stderr.match(/worker loaded with its code cache/g)).toHaveLength(2);
  const saved = readFileSync(path.join(DIST, 'worker.cache'));
  const damaged = Buffer.from(saved);
  damaged.fill(7, 40, 4000);
  writeFileSync(path.join(DIST, 'worker.cache'), damaged);
  try {
    const compiled = batch({});
    expect(compiled.stderr.match(/worker loaded without its code cache/g)).toHaveLength(2);
    const facts = (out: string) =>
      JSON.parse(out).map((a: { file: string; deductions: unknown }) => [a.file, a.deductions]);
    expect(facts(compiled.stdout)).toEqual(facts(cached.stdout));
  } finally {
    writeFileSync(path.join(DIST, 'worker.cache'), saved);
  }
}, 120_000);
