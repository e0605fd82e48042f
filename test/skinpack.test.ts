import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILTIN_SKINS, builtinSkinNames, loadCounter, loadSkin, packSkins, saveSkin } from '../src/skin/skin';
import {
  contentStamp,
  FOLDER_PACK,
  folderPacked,
  folderPackOf,
  packed,
  packOf,
  SKIN_PACK,
  stampOf,
  usePack,
} from '../src/skin/skinpack';
import { decode } from '../src/image/decode';
import { writePng } from '../src/image/encode';

// The built-in skins as the build packs them (dist/skins.pack) must load exactly as their PNGs read: every
// template's pixels, every counter glyph's shape and font coverage. A folder that changed since is read from
// its PNGs again.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mine-assist-pack-'));
});
afterAll(() => {
  usePack();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A value as plain arrays of this realm, each tagged with its type: v8.deserialize makes its objects in node's
 * own realm, which jest's deep equality does not always match with its own (a counter font's Map of glyphs).
 */
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const type = Object.prototype.toString.call(value).slice(8, -1);
  if (ArrayBuffer.isView(value)) return [type, Array.from(value as unknown as ArrayLike<number>)];
  if (type === 'Map')
    return [type, Array.from((value as Map<unknown, unknown>).entries(), ([k, v]) => [canonical(k), canonical(v)])];
  if (type === 'Array') return [type, (value as unknown[]).map(canonical)];
  return [
    type,
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  ];
}

const stampOfFolder = (name: string, json: string) =>
  stampOf(readdirSync(path.join(BUILTIN_SKINS, name)), readFileSync(path.join(BUILTIN_SKINS, name, json), 'utf8'));

test('the build packed every built-in skin and counter as its folder is now (npm test builds first)', async () => {
  usePack();
  expect(existsSync(SKIN_PACK)).toBe(true);
  const names = await builtinSkinNames();
  expect(names.length).toBeGreaterThanOrEqual(9);
  for (const name of names) {
    expect(packed(`skin:${name}`, stampOfFolder(name, 'skin.json'))?.templates.length).toBeGreaterThan(0);
    if (existsSync(path.join(BUILTIN_SKINS, name, 'counter.json'))) {
      expect(packed(`counter:${name}`, stampOfFolder(name, 'counter.json'))?.glyphs.length).toBeGreaterThan(0);
    }
  }
});

test('a packed skin and counter equal the ones read from their PNGs', async () => {
  const file = path.join(dir, 'skins.pack');
  await packSkins(file);
  usePack(file);
  for (const name of await builtinSkinNames()) {
    const folder = path.join(BUILTIN_SKINS, name);
    const [fromPack, fromPngs] = [await loadSkin(name), await loadSkin(folder)];
    expect(packed(`skin:${name}`, stampOfFolder(name, 'skin.json'))).toBeDefined();
    expect(fromPack).toEqual(fromPngs);
    expect(fromPack.templates[0].image.data).not.toBe(fromPngs.templates[0].image.data);
    expect(canonical(fromPack)).toEqual(canonical(fromPngs));
    const counters = [await loadCounter(name), await loadCounter(folder)];
    expect(counters[0]?.glyphs.length).toBe(counters[1]?.glyphs.length);
    expect(canonical(counters[0])).toEqual(canonical(counters[1]));
  }
}, 60_000);

test('a built-in skin whose folder matches its entry loads from the pack; one given by path does not', async () => {
  const folder = path.join(BUILTIN_SKINS, 'xdemineur');
  const fromPngs = await loadSkin(folder);
  const file = path.join(dir, 'marked.pack');
  writeFileSync(
    file,
    packOf([
      {
        key: 'skin:xdemineur',
        stamp: stampOfFolder('xdemineur', 'skin.json'),
        value: { ...fromPngs, maxRatio: 0.123 },
      },
    ]),
  );
  usePack(file);
  expect((await loadSkin('xdemineur')).maxRatio).toBe(0.123);
  expect((await loadSkin(folder)).maxRatio).toBe(fromPngs.maxRatio);
  expect(await loadCounter('xdemineur')).toEqual(await loadCounter(folder));
});

test('each load gets its own copy', async () => {
  usePack();
  const [a, b] = [await loadSkin('xdemineur'), await loadSkin('xdemineur')];
  expect(a).toEqual(b);
  expect(a.templates[0].image.data).not.toBe(b.templates[0].image.data);
});

test('a folder that lists other files or other JSON than when packed is not taken from the pack', () => {
  usePack();
  const listing = readdirSync(path.join(BUILTIN_SKINS, 'xdemineur'));
  const json = readFileSync(path.join(BUILTIN_SKINS, 'xdemineur', 'skin.json'), 'utf8');
  expect(packed('skin:xdemineur', stampOf(listing, json))).toBeDefined();
  expect(packed('skin:xdemineur', stampOf([...listing, '1-z.png'], json))).toBeUndefined();
  expect(
    packed(
      'skin:xdemineur',
      stampOf(
        listing.filter((f) => f !== '1.png'),
        json,
      ),
    ),
  ).toBeUndefined();
  const otherJson = json.replace(/"maxDistance": \d+/, '"maxDistance": 1');
  expect(otherJson).not.toBe(json);
  expect(packed('skin:xdemineur', stampOf(listing, otherJson))).toBeUndefined();
  expect(packed('skin:no-such-skin', stampOf(listing, json))).toBeUndefined();
});

test('no pack, or a damaged one: the skins are read from their PNGs', async () => {
  const fromPngs = await loadSkin(path.join(BUILTIN_SKINS, 'xbomb'));
  const damaged = path.join(dir, 'damaged.pack');
  writeFileSync(damaged, Buffer.from('not a pack'));
  for (const file of [path.join(dir, 'missing.pack'), damaged]) {
    usePack(file);
    expect(packed('skin:xbomb', stampOfFolder('xbomb', 'skin.json'))).toBeUndefined();
    expect(await loadSkin('xbomb')).toEqual(fromPngs);
  }
});

describe("a learned skin's own pack (skin.pack beside its PNGs)", () => {
  const templatesOf = (folder: string) =>
    readdirSync(folder)
      .filter((f) => f.endsWith('.png'))
      .sort();
  const stampOfLearned = (folder: string) =>
    contentStamp(
      templatesOf(folder).map((name) => ({ name, bytes: readFileSync(path.join(folder, name)) })),
      readFileSync(path.join(folder, 'skin.json'), 'utf8'),
    );
  const saved = async (name: string) => {
    const folder = path.join(dir, name);
    await saveSkin(await loadSkin(path.join(BUILTIN_SKINS, 'xbomb')), folder);
    return folder;
  };

  test('saveSkin writes it, and the skin loads from it exactly as from the PNGs', async () => {
    const folder = await saved('learned');
    expect(existsSync(path.join(folder, FOLDER_PACK))).toBe(true);
    const fromPack = await loadSkin(folder);
    expect(folderPacked(folder, stampOfLearned(folder))).toBeDefined();
    rmSync(path.join(folder, FOLDER_PACK));
    const fromPngs = await loadSkin(folder);
    expect(canonical(fromPack)).toEqual(canonical(fromPngs));
    expect(fromPack.templates.length).toBe(templatesOf(folder).length);
  });

  test('used while the PNGs and skin.json are as packed; a changed PNG, a damaged pack: PNGs are read', async () => {
    const folder = await saved('marked');
    const fromPngs = await loadSkin(path.join(BUILTIN_SKINS, 'xbomb'));
    writeFileSync(
      path.join(folder, FOLDER_PACK),
      folderPackOf({ ...fromPngs, maxRatio: 0.123 }, stampOfLearned(folder)),
    );
    expect((await loadSkin(folder)).maxRatio).toBe(0.123);
    const first = path.join(folder, templatesOf(folder)[0]);
    const image = await decode(first);
    image.data[0] ^= 0xff;
    await writePng(image, first);
    const read = await loadSkin(folder);
    expect(read.maxRatio).toBe(fromPngs.maxRatio);
    expect(read.templates[0].image.data[0]).toBe(image.data[0]);
    writeFileSync(path.join(folder, FOLDER_PACK), Buffer.from('not a pack'));
    expect((await loadSkin(folder)).maxRatio).toBe(fromPngs.maxRatio);
  });
});
