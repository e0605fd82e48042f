import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { FIXTURES, tempDir } from './helpers';

// The marks' tiles kept on disk between runs (src/output/tilecache.ts): a run that finds all of its tiles there
// draws the same PNG without loading sharp. Each case runs the built CLI (npm test builds dist/ first) in a fresh
// node.

const BIN = path.resolve(__dirname, '../bin/mine-assist.js');
const SHOT = path.join(FIXTURES, 'xdemineur/s2-03.png');

const tmp = tempDir();
afterAll(tmp.cleanup);

let hook: string;
beforeAll(() => {
  hook = path.join(tmp.dir, 'dlopen-hook.js');
  writeFileSync(
    hook,
    `const dlopen = process.dlopen;
    process.dlopen = function (module, file, ...rest) {
      process.stderr.write('dlopen ' + require('node:path').basename(file) + '\\n');
      return dlopen.call(this, module, file, ...rest);
    };`,
  );
});

let runs = 0;

/** The CLI on SHOT with these variables: its annotated PNG, and whether it loaded sharp. */
function annotate(env: NodeJS.ProcessEnv, args: string[] = []): { png: Buffer; sharp: boolean } {
  const out = path.join(tmp.dir, `out${++runs}.png`);
  const run = spawnSync(process.execPath, ['-r', hook, BIN, SHOT, '-o', out, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  expect(run.status).toBe(0);
  return { png: readFileSync(out), sharp: /^dlopen .*sharp/m.test(run.stderr) };
}

test('a second run draws the same PNG from the tiles the first kept, without loading sharp', () => {
  const cache = path.join(tmp.dir, 'kept');
  const first = annotate({ MINE_ASSIST_CACHE: cache });
  expect(first.sharp).toBe(true);
  expect(existsSync(path.join(cache, 'tiles.bin'))).toBe(true);
  const second = annotate({ MINE_ASSIST_CACHE: cache });
  expect(second.sharp).toBe(false);
  expect(second.png.equals(first.png)).toBe(true);
  // a look not kept yet (the heat map) is drawn by sharp, and the PNG is the one drawn afresh
  const heat = annotate({ MINE_ASSIST_CACHE: cache }, ['--probabilities']);
  expect(heat.sharp).toBe(true);
  expect(heat.png.equals(annotate({ MINE_ASSIST_CACHE: 'off' }, ['--probabilities']).png)).toBe(true);
  expect(annotate({ MINE_ASSIST_CACHE: cache }, ['--probabilities']).sharp).toBe(false);
});

test('the cache is in $XDG_CACHE_HOME/mine-assist unless named; MINE_ASSIST_CACHE=off keeps nothing', () => {
  const home = path.join(tmp.dir, 'xdg');
  const { MINE_ASSIST_CACHE: _, ...env } = process.env;
  const run = (extra: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [BIN, SHOT, '-o', path.join(tmp.dir, 'xdg.png')], {
      env: { ...env, XDG_CACHE_HOME: home, ...extra },
    });
  expect(run({ MINE_ASSIST_CACHE: 'off' }).status).toBe(0);
  expect(existsSync(home)).toBe(false);
  expect(run({}).status).toBe(0);
  expect(existsSync(path.join(home, 'mine-assist', 'tiles.bin'))).toBe(true);
});

test('a damaged file, tiles another sharp drew, a file far too large are passed over: the PNG drawn afresh', () => {
  const fresh = annotate({ MINE_ASSIST_CACHE: 'off' }).png;
  const cache = path.join(tmp.dir, 'other');
  mkdirSync(cache);
  const file = path.join(cache, 'tiles.bin');
  writeFileSync(file, Buffer.from('not a cache at all'));
  const afterDamaged = annotate({ MINE_ASSIST_CACHE: cache });
  expect(afterDamaged.sharp).toBe(true);
  expect(afterDamaged.png.equals(fresh)).toBe(true);
  // the same tiles, painted red, as if another version of sharp had drawn them
  const kept = deserialize(readFileSync(file)) as { drawnBy: string; tiles: [string, number, number, Uint8Array][] };
  expect(kept.tiles.length).toBeGreaterThan(0);
  const red = kept.tiles.map(([tile, width, height]) => [
    tile,
    width,
    height,
    new Uint8Array(4 * width * height).fill(255),
  ]);
  writeFileSync(file, serialize({ drawnBy: 'sharp 0.0.1', tiles: red }));
  const afterOther = annotate({ MINE_ASSIST_CACHE: cache });
  expect(afterOther.sharp).toBe(true);
  expect(afterOther.png.equals(fresh)).toBe(true);
  // and with this sharp's name on them, they are used: the check is what kept them out
  writeFileSync(file, serialize({ drawnBy: kept.drawnBy, tiles: red }));
  const painted = annotate({ MINE_ASSIST_CACHE: cache });
  expect(painted.sharp).toBe(false);
  expect(painted.png.equals(fresh)).toBe(false);
  // a file far larger than this package writes is not read (each run would read it): the PNG is drawn afresh, and the
  // file written anew
  writeFileSync(
    file,
    serialize({ drawnBy: kept.drawnBy, tiles: [...red, ['unused', 1024, 1024, new Uint8Array(4 << 20)]] }),
  );
  const afterLarge = annotate({ MINE_ASSIST_CACHE: cache });
  expect(afterLarge.sharp).toBe(true);
  expect(afterLarge.png.equals(fresh)).toBe(true);
  expect(readFileSync(file).length).toBeLessThan(1 << 20);
});

test("tiles set in fonts changed since (a font installed: fontconfig's caches made anew) are drawn again", () => {
  const fresh = annotate({ MINE_ASSIST_CACHE: 'off' }).png;
  const cache = path.join(tmp.dir, 'fonts');
  // fontconfig's cache of the user's fonts is in $XDG_CACHE_HOME/fontconfig, a folder the tiles' stamp looks at
  const env = { MINE_ASSIST_CACHE: path.join(cache, 'tiles'), XDG_CACHE_HOME: cache };
  expect(annotate(env).sharp).toBe(true);
  expect(annotate(env).sharp).toBe(false);
  const fontconfig = path.join(cache, 'fontconfig');
  mkdirSync(fontconfig, { recursive: true });
  utimesSync(fontconfig, new Date(2001, 0, 1), new Date(2001, 0, 1));
  const afterFonts = annotate(env);
  expect(afterFonts.sharp).toBe(true);
  expect(afterFonts.png.equals(fresh)).toBe(true);
  expect(annotate(env).sharp).toBe(false);
});

test('`serve` keeps the tiles it drew: the CLI then draws the same screenshot without loading sharp', async () => {
  const cache = path.join(tmp.dir, 'served');
  const server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { ...process.env, MINE_ASSIST_CACHE: cache },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let said = '';
      server.stdout.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const found = /open (http:\/\/\S+)/.exec(said);
        if (found) resolve(found[1]);
      });
      server.on('exit', (code) => reject(new Error(`serve exited (${code})`)));
    });
    const reply = await fetch(new URL('/api/analyze', url), {
      method: 'POST',
      body: readFileSync(SHOT),
      headers: { 'Content-Type': 'image/png' },
    });
    expect(reply.status).toBe(200);
    await reply.json();
  } finally {
    server.kill();
  }
  expect(existsSync(path.join(cache, 'tiles.bin'))).toBe(true);
  const cli = annotate({ MINE_ASSIST_CACHE: cache });
  expect(cli.sharp).toBe(false);
  expect(cli.png.equals(annotate({ MINE_ASSIST_CACHE: 'off' }).png)).toBe(true);
});

test('the file keeps about 512 KB of tiles, the least recently used dropped first', () => {
  const cache = path.join(tmp.dir, 'trimmed');
  const picture = (fill: number) => ({ width: 128, height: 128, data: new Uint8Array(4 * 128 * 128).fill(fill) });
  const stored = () =>
    (deserialize(readFileSync(path.join(cache, 'tiles.bin'))) as { tiles: [string][] }).tiles.map(([tile]) => tile);
  const before = process.env.MINE_ASSIST_CACHE;
  process.env.MINE_ASSIST_CACHE = cache;
  try {
    jest.isolateModules(() => {
      const tiles = require('../src/output/tilecache') as typeof import('../src/output/tilecache');
      tiles.keepTiles(new Map(['a', 'b', 'c', 'd', 'e', 'f'].map((name, i) => [name, picture(i)])));
      tiles.writeTiles();
      // 6 × 64 KB: all kept
      expect(stored()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      expect(tiles.storedTile('b')?.data[0]).toBe(1);
      tiles.keepTiles(new Map(['g', 'h', 'i'].map((name) => [name, picture(9)])));
      tiles.writeTiles();
    });
    // 9 × 64 KB, one over: the one used (b) moves after the others not, and the oldest of those goes
    expect(stored()).toEqual(['c', 'd', 'e', 'f', 'b', 'g', 'h', 'i']);
  } finally {
    if (before === undefined) delete process.env.MINE_ASSIST_CACHE;
    else process.env.MINE_ASSIST_CACHE = before;
  }
});
