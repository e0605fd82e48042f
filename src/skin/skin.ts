import * as fs from '../common/files';
import path from 'node:path';
import type {
  Cell,
  CounterFont,
  CounterModel,
  CounterPlace,
  FontGlyph,
  FramePrint,
  Side,
  Skin,
  Template,
} from '../common/types';
import { glyphFromImage, shapeOf } from '../counter/glyphs';
import { decodeSkinBytes, decodeSkinImage, readSkinFile } from '../image/decode';
import { writePng } from '../image/encode';
import { cannot, writeFileAtomic } from '../common/atomic';
import {
  contentStamp,
  FOLDER_PACK,
  folderPacked,
  folderPackOf,
  packed,
  packOf,
  SKIN_PACK,
  type SkinFile,
  stampOf,
} from './skinpack';
import { BUILTIN_SKINS } from '../common/paths';

/** Where the built-in skins live: `skins/` at the package root (one level above src/ and dist/). */
export { BUILTIN_SKINS };

const FILE_NAMES: Record<string, string> = {
  '.': 'hidden',
  F: 'flag',
  '?': 'question',
  '*': 'mine',
  X: 'exploded',
  '!': 'wrong-flag',
};
const LABELS = Object.fromEntries(Object.entries(FILE_NAMES).map(([label, name]) => [name, label]));

interface SkinJson {
  name: string;
  cellSize: number;
  inset: number;
  maxDistance: number;
  maxRatio: number;
  /** Each side's frame prints, their colours as hex triples ("c0c0c0 ffffff …"). */
  frames?: FramesJson;
}

type FramesJson = Partial<
  Record<Side, { pitch: number; colours: string; windowEdge?: true; rows?: number; cols?: number }[]>
>;

export class SkinError extends Error {}

/** Loads a skin from a folder, or a built-in skin by name (as packed by the build when its folder is unchanged). */
export async function loadSkin(nameOrDir: string): Promise<Skin> {
  const { dir, builtin } = await folderOf(nameOrDir);
  let text: string;
  let json: SkinJson;
  try {
    text = await fs.readFile(path.join(dir, 'skin.json'), 'utf8');
    json = JSON.parse(text) as SkinJson;
  } catch {
    throw new SkinError(`no skin named '${nameOrDir}' (a built-in name or a folder with skin.json)`);
  }
  const listing = await fs.readdir(dir);
  const fromPack = builtin ? packed(`skin:${nameOrDir}`, stampOf(listing, text)) : undefined;
  if (fromPack) return fromPack;
  const files = templateFiles(dir, listing);
  const fromFolder = builtin ? undefined : folderPacked(dir, contentStamp(files, text));
  return fromFolder ?? skinFromPngs(json, dir, files, nameOrDir);
}

/** The folder's template PNGs, read (null: unreadable, for decoding to say why). */
function templateFiles(dir: string, listing: string[]): SkinFile[] {
  return listing
    .filter((f) => f.endsWith('.png') && labelOf(f) !== null)
    .sort()
    .map((name) => ({ name, bytes: readSkinFile(path.join(dir, name)) }));
}

async function skinFromPngs(json: SkinJson, dir: string, files: SkinFile[], nameOrDir: string): Promise<Skin> {
  const templates: Template[] = await Promise.all(
    files.map(async ({ name, bytes }) => ({
      label: labelOf(name) as Cell,
      image: await decodeSkinBytes(bytes, path.join(dir, name)),
    })),
  );
  if (!templates.length) throw new SkinError(`skin '${nameOrDir}' has no templates`);
  const { frames, ...rest } = json;
  return frames ? { ...rest, templates, frames: framesFromJson(frames) } : { ...rest, templates };
}

/**
 * The skin's mine counter, when it knows one: counter.json (kind, places, fonts) and counter-<char>.png,
 * counter-<char>-b.png… per character (`slash` for '/'). Loaded apart from the skin, for the one skin
 * chosen (hundreds of glyphs).
 */
export async function loadCounter(nameOrDir: string): Promise<CounterModel | null> {
  const { dir, builtin } = await folderOf(nameOrDir);
  let text: string;
  let json: { kind: CounterModel['kind']; places: CounterPlace[]; fonts?: FontJson[]; stopsAtZero?: boolean };
  try {
    text = await fs.readFile(path.join(dir, 'counter.json'), 'utf8');
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const listing = await fs.readdir(dir);
  const fromPack = builtin ? packed(`counter:${nameOrDir}`, stampOf(listing, text)) : undefined;
  if (fromPack !== undefined) return fromPack;
  const files = listing.filter((f) => /^counter-(\d|slash)(-[a-z]+)?\.png$/.test(f)).sort();
  const glyphs = await Promise.all(
    files.map(async (file) => ({
      char: glyphChar(file),
      shape: shapeOf(glyphFromImage(await decodeSkinImage(path.join(dir, file)))),
    })),
  );
  const fonts = await Promise.all((json.fonts ?? []).map((font) => loadFont(dir, font)));
  return {
    kind: json.kind,
    places: json.places,
    glyphs,
    fonts,
    ...(json.stopsAtZero === true ? { stopsAtZero: true as const } : {}),
  };
}

type FontJson = Omit<CounterFont, 'glyphs' | 'cells'> & {
  cells?: number[];
  glyphs: Record<string, { left: number; top: number }>;
};

/** A font of counter.json, each glyph's coverage from `counter-font<height>-<char>.png` (ink black on white). */
async function loadFont(dir: string, font: FontJson): Promise<CounterFont> {
  const glyphs = new Map<string, FontGlyph>();
  for (const [char, { left, top }] of Object.entries(font.glyphs)) {
    const image = await decodeSkinImage(
      path.join(dir, `counter-font${font.height}-${char === '/' ? 'slash' : char}.png`),
    );
    const { ink: coverage } = glyphFromImage(image);
    glyphs.set(char, { left, top, width: image.width, height: image.height, coverage });
  }
  return { ...font, cells: font.cells ?? [], glyphs };
}

function glyphChar(file: string): string {
  const name = file.replace(/^counter-/, '').replace(/(-[a-z]+)?\.png$/, '');
  return name === 'slash' ? '/' : name;
}

export async function builtinSkinNames(): Promise<string[]> {
  const entries = await fs.readdir(BUILTIN_SKINS, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * Writes skin.json and one PNG per template (`1.png`, `1-b.png`, … for several samples of a label), and
 * skin.pack: the templates as read back from those PNGs (skinpack.ts). A built-in skin's folder gets none:
 * the build packs those into dist/skins.pack.
 */
export async function saveSkin(skin: Skin, dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true }).catch((err: unknown) => Promise.reject(cannot('make the folder', dir, err)));
  const { templates, frames, ...fields } = skin;
  const json: SkinJson = frames ? { ...fields, frames: framesJson(frames) } : fields;
  const text = JSON.stringify(json, null, 2) + '\n';
  await fs
    .writeFile(path.join(dir, 'skin.json'), text)
    .catch((err: unknown) => Promise.reject(cannot('write', path.join(dir, 'skin.json'), err)));
  const seen = new Map<Cell, number>();
  for (const t of templates) {
    const n = seen.get(t.label) ?? 0;
    seen.set(t.label, n + 1);
    await writePng(t.image, path.join(dir, `${FILE_NAMES[t.label] ?? t.label}${suffix(n)}.png`));
  }
  if (path.dirname(path.resolve(dir)) === BUILTIN_SKINS) return;
  const files = templateFiles(dir, await fs.readdir(dir));
  await writeFileAtomic(
    path.join(dir, FOLDER_PACK),
    folderPackOf(await skinFromPngs(JSON.parse(text), dir, files, dir), contentStamp(files, text)),
  );
}

/** Frame prints as skin.json holds them, colours as hex triples. */
export const framesJson = (frames: NonNullable<Skin['frames']>): FramesJson =>
  mapSides(frames, (p) => [
    {
      pitch: p.pitch,
      colours: hexTriples(p.colours),
      ...(p.windowEdge ? { windowEdge: true as const } : {}),
      ...(p.rows && p.cols ? { rows: p.rows, cols: p.cols } : {}),
    },
  ]);

/** Prints read back from skin.json; one not as saved (hand-edited) is left out: its side is then not checked. */
const framesFromJson = (frames: FramesJson): NonNullable<Skin['frames']> =>
  mapSides(frames, (p) => {
    const colours =
      typeof p?.colours === 'string'
        ? p.colours.split(' ').flatMap((hex) => [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)))
        : [];
    if (!(typeof p?.pitch === 'number' && p.pitch > 0 && colours.length && colours.every((v) => v >= 0))) return [];
    const size = Number.isInteger(p.rows) && Number.isInteger(p.cols) ? { rows: p.rows, cols: p.cols } : {};
    return [{ pitch: p.pitch, colours, ...(p.windowEdge === true ? { windowEdge: true } : {}), ...size }];
  });

function mapSides<A, B>(sides: Partial<Record<Side, A[]>>, f: (a: A) => B[]): Partial<Record<Side, B[]>> {
  return Object.fromEntries(
    Object.entries(sides)
      .filter(([, prints]) => Array.isArray(prints))
      .map(([side, prints]) => [side, (prints as A[]).flatMap(f)]),
  );
}

const hexTriples = (colours: FramePrint['colours']): string =>
  Array.from({ length: colours.length / 3 }, (_, i) =>
    colours
      .slice(3 * i, 3 * i + 3)
      .map((v) => v.toString(16).padStart(2, '0'))
      .join(''),
  ).join(' ');

function suffix(n: number): string {
  return n === 0 ? '' : '-' + String.fromCharCode(97 + n);
}

function labelOf(file: string): Cell | null {
  const name = file.replace(/\.png$/, '').replace(/-[a-z]$/, '');
  if (/^[0-8]$/.test(name)) return name;
  return LABELS[name] ?? null;
}

/** A folder given, or the built-in skin of that name. */
async function folderOf(nameOrDir: string): Promise<{ dir: string; builtin: boolean }> {
  return (await isDir(nameOrDir))
    ? { dir: nameOrDir, builtin: false }
    : { dir: path.join(BUILTIN_SKINS, nameOrDir), builtin: true };
}

/**
 * Writes dist/skins.pack (skinpack.ts) from the built-in skins' folders, read from their PNGs: the build's last
 * step, and after skins are rebuilt (scripts/build-skins.sh).
 */
export async function packSkins(target = SKIN_PACK): Promise<void> {
  const entries = [];
  for (const name of await builtinSkinNames()) {
    const dir = path.join(BUILTIN_SKINS, name);
    const listing = await fs.readdir(dir);
    const skinJson = await fs.readFile(path.join(dir, 'skin.json'), 'utf8');
    entries.push({ key: `skin:${name}` as const, stamp: stampOf(listing, skinJson), value: await loadSkin(dir) });
    const counterJson = await fs.readFile(path.join(dir, 'counter.json'), 'utf8').catch(() => null);
    if (counterJson !== null)
      entries.push({
        key: `counter:${name}` as const,
        stamp: stampOf(listing, counterJson),
        value: await loadCounter(dir),
      });
  }
  await writeFileAtomic(target, packOf(entries));
}

async function isDir(p: string): Promise<boolean> {
  return fs.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
