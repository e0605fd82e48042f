// Tiles (a mark's or a legend piece's picture, render.ts) kept on disk between runs: screenshots of one game at one
// size are marked with the same few tiles, so a run that finds all of its tiles here never loads sharp, which is
// slow to load. A tile is named by its size and SVG; the file also records the sharp that drew them and the state of
// the fonts their text was set in, and is passed over when either has changed. Where: $MINE_ASSIST_CACHE, else
// $XDG_CACHE_HOME/mine-assist, else ~/.cache/mine-assist; MINE_ASSIST_CACHE=off keeps nothing. The cache is a help
// only: a file that cannot be read or written is ignored. Only the main thread writes it: once a run (a batch's
// workers hand it the tiles they drew, `takeTiles`), and `serve` after each answer.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { RgbaImage } from '../common/types';
import { ROOT } from '../common/paths';

/**
 * The file's tiles are trimmed to about this many bytes of pixels, the least recently used first: every run reads
 * it, so it is kept small. One game at one size is ~80–180 KB of tiles.
 */
const STORED_BYTES = 512 << 10;

const FILE = 'tiles.bin';

type Entry = [tile: string, width: number, height: number, data: Uint8Array];

/** Tiles drawn in this thread and not yet written, and stored ones taken: what `takeTiles` hands over. */
export interface NewTiles {
  drawn: Entry[];
  used: string[];
}

let stored: Map<string, RgbaImage> | undefined;
const used = new Set<string>();
const drawn = new Map<string, RgbaImage>();

/** The tiles on disk, read once per thread, by `Stamp.tile`. */
export function storedTiles(): Map<string, RgbaImage> {
  stored ??= readStored();
  return stored;
}

/** A tile kept on disk, or undefined; one taken is kept longer than those not. */
export function storedTile(tile: string): RgbaImage | undefined {
  const picture = storedTiles().get(tile);
  if (picture) used.add(tile);
  return picture;
}

/** Tiles just drawn, to be written with the rest (`writeTiles`); at most STORED_BYTES of them wait. */
export function keepTiles(tiles: Map<string, RgbaImage>): void {
  for (const [tile, picture] of tiles) drawn.set(tile, picture);
  trim(drawn);
}

/** A worker's new tiles and stored tiles taken, for the main thread (`addTiles`); null when there are none. */
export function takeTiles(): NewTiles | null {
  if (drawn.size === 0 && used.size === 0) return null;
  const taken = { drawn: entriesOf(drawn), used: [...used] };
  drawn.clear();
  used.clear();
  return taken;
}

export function addTiles(taken: NewTiles): void {
  for (const tile of taken.used) used.add(tile);
  keepTiles(tilesOf(taken.drawn));
}

/**
 * The new tiles added to the file as it is now (another run may have written it since this one read it), the least
 * recently used trimmed, written atomically (a temp file, then a rename). Nothing when no tile is new.
 */
export function writeTiles(): void {
  const dir = cacheDir();
  if (dir === null || drawn.size === 0) return;
  const onDisk = readStored();
  // least recently used first: those not taken this time, then those taken, then the new ones
  const order = [
    ...[...onDisk.keys()].filter((tile) => !used.has(tile)),
    ...[...used].filter((tile) => onDisk.has(tile)),
  ].filter((tile) => !drawn.has(tile));
  const tiles = trim(new Map([...order.map((tile) => [tile, onDisk.get(tile) as RgbaImage] as const), ...drawn]));
  const target = path.join(dir, FILE);
  const temp = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, serialize({ drawnBy: drawnBy(), tiles: entriesOf(tiles) }));
    renameSync(temp, target);
    stored = tiles;
    drawn.clear();
    used.clear();
  } catch {
    rmSync(temp, { force: true });
  }
}

/** The tiles, the first dropped until their pixels are at most STORED_BYTES. */
function trim(tiles: Map<string, RgbaImage>): Map<string, RgbaImage> {
  let bytes = [...tiles.values()].reduce((sum, { data }) => sum + data.length, 0);
  for (const [tile, { data }] of tiles) {
    if (bytes <= STORED_BYTES) break;
    bytes -= data.length;
    tiles.delete(tile);
  }
  return tiles;
}

function entriesOf(tiles: Map<string, RgbaImage>): Entry[] {
  return [...tiles].map(([tile, { width, height, data }]) => [tile, width, height, data]);
}

/** The entries that are whole tiles (a damaged file's others left out). */
function tilesOf(entries: Entry[]): Map<string, RgbaImage> {
  const tiles = new Map<string, RgbaImage>();
  for (const [tile, width, height, data] of entries) {
    if (typeof tile === 'string' && data instanceof Uint8Array && data.length === 4 * width * height)
      tiles.set(tile, { width, height, data });
  }
  return tiles;
}

function readStored(): Map<string, RgbaImage> {
  const dir = cacheDir();
  if (dir === null) return new Map();
  try {
    const file = path.join(dir, FILE);
    // a file this package did not write (so large, it could be anything) is not read at every run
    if (statSync(file).size > 4 * STORED_BYTES) return new Map();
    const contents = deserialize(readFileSync(file)) as { drawnBy: string; tiles: Entry[] };
    return contents.drawnBy === drawnBy() ? tilesOf(contents.tiles) : new Map();
  } catch {
    return new Map(); // none yet, or damaged: drawn afresh
  }
}

function cacheDir(): string | null {
  const named = process.env.MINE_ASSIST_CACHE;
  if (named === 'off') return null;
  if (named) return named;
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'mine-assist');
}

let sharpVersion: string | undefined;

/** What drew the tiles: the sharp this package pins, and the fonts as they are now (read anew each time). */
function drawnBy(): string {
  return `sharp ${(sharpVersion ??= pinnedSharp())}; fonts ${fontsStamp()}`;
}

/** The sharp (and so libvips) this package pins, from its package.json: sharp itself is not loaded to ask. */
function pinnedSharp(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    return pkg.dependencies?.sharp ?? '?';
  } catch {
    return '?';
  }
}

/**
 * When each folder that holds fonts or fontconfig's caches last changed ('-': none): a font installed or removed
 * (a package's fonts come with fontconfig's caches made anew) changes one, and the text in the tiles is set again.
 */
function fontsStamp(): string {
  return fontFolders()
    .map((dir) => {
      try {
        return String(Math.trunc(statSync(dir).mtimeMs));
      } catch {
        return '-';
      }
    })
    .join(',');
}

function fontFolders(): string[] {
  const home = os.homedir();
  const cache = process.env.XDG_CACHE_HOME || path.join(home, '.cache');
  if (process.platform === 'darwin')
    return [
      '/System/Library/Fonts',
      '/Library/Fonts',
      path.join(home, 'Library', 'Fonts'),
      path.join(cache, 'fontconfig'),
    ];
  if (process.platform === 'win32') {
    const windows = process.env.WINDIR || 'C:\\Windows';
    return [
      path.join(windows, 'Fonts'),
      path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'Microsoft', 'Windows', 'Fonts'),
    ];
  }
  const data = process.env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  return [
    '/usr/share/fonts',
    '/usr/local/share/fonts',
    path.join(data, 'fonts'),
    path.join(home, '.fonts'),
    '/var/cache/fontconfig',
    path.join(cache, 'fontconfig'),
  ];
}
