// The built-in skins as `npm run build` decoded them: dist/skins.pack holds each skin's templates and counter
// (v8's serialisation), read in one go instead of thousands of small PNGs decoded and counter glyphs shaped anew,
// which is slow for a fresh run that tries every skin and for each batch worker. An entry is used only while its
// folder lists the same files and the same JSON as when it was packed. A learned skin's folder holds its own
// pack, skin.pack (saveSkin writes it), used while its PNGs and skin.json are byte for byte as packed: a fresh
// run with a learned skin reads one file instead of decoding each PNG.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import type { CounterModel, Skin } from '../common/types';
import { DIST } from '../common/paths';

export const SKIN_PACK = path.join(DIST, 'skins.pack');

/** Bumped whenever Skin or CounterModel change shape: an older pack is then ignored. */
const VERSION = 1;

interface Entry {
  stamp: string;
  /** The value serialised on its own, so each load gets its own copy. */
  bytes: Uint8Array;
}

interface Pack {
  version: number;
  entries: Record<string, Entry>;
}

export type PackKey = `skin:${string}` | `counter:${string}`;

/** What a folder's entry is checked against: its file names and the JSON that describes it. */
export function stampOf(files: string[], json: string): string {
  return JSON.stringify([[...files].sort(), json]);
}

let packFile = SKIN_PACK;
let pack: Pack | null | undefined;

function readPack(): Pack | null {
  if (pack === undefined) {
    try {
      const read = deserialize(readFileSync(packFile)) as Pack;
      pack = read.version === VERSION ? read : null;
    } catch {
      pack = null;
    }
  }
  return pack;
}

export function packed(key: `skin:${string}`, stamp: string): Skin | undefined;
export function packed(key: `counter:${string}`, stamp: string): CounterModel | null | undefined;
/** The packed value, or undefined when there is none for this key or its folder has changed since. */
export function packed(key: PackKey, stamp: string): Skin | CounterModel | null | undefined {
  const entry = readPack()?.entries[key];
  return entry?.stamp === stamp ? (deserialize(entry.bytes) as Skin | CounterModel | null) : undefined;
}

/** The pack's bytes for these entries (skin.ts packSkins writes them). */
export function packOf(values: { key: PackKey; stamp: string; value: Skin | CounterModel | null }[]): Buffer {
  const entries = Object.fromEntries(values.map(({ key, stamp, value }) => [key, { stamp, bytes: serialize(value) }]));
  return serialize({ version: VERSION, entries } satisfies Pack);
}

/** Forgets the pack read: the next load reads `file` (after packSkins, and for tests). */
export function usePack(file = SKIN_PACK): void {
  packFile = file;
  pack = undefined;
}

export const FOLDER_PACK = 'skin.pack';

/** A skin folder's file, as read (null when it cannot be). */
export interface SkinFile {
  name: string;
  bytes: Buffer | null;
}

/**
 * What a learned skin's pack is checked against: every template file's name and bytes, and skin.json, as one
 * CRC-32 (node:zlib's: node:crypto, for a SHA-1, is slow to load).
 */
export function contentStamp(files: SkinFile[], json: string): string {
  let crc = crc32(json);
  for (const { name, bytes } of files) crc = crc32(bytes ?? '', crc32(`\0${name}\0${bytes?.length ?? -1}\0`, crc));
  return crc.toString(16).padStart(8, '0');
}

interface FolderPack {
  version: number;
  stamp: string;
  skin: Skin;
}

/** The skin packed in `dir`, or undefined when there is none, it is damaged, or the folder changed since. */
export function folderPacked(dir: string, stamp: string): Skin | undefined {
  try {
    const pack = deserialize(readFileSync(path.join(dir, FOLDER_PACK))) as FolderPack;
    return pack.version === VERSION && pack.stamp === stamp ? pack.skin : undefined;
  } catch {
    return undefined;
  }
}

export function folderPackOf(skin: Skin, stamp: string): Buffer {
  return serialize({ version: VERSION, stamp, skin } satisfies FolderPack);
}
