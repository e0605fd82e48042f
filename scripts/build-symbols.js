// @ts-check
// node scripts/build-symbols.js: writes skins/symbols.json, the bank of shapes the skin-free reader compares a
// cell's ink with (src/read/symbols.ts). Each digit 1-8, the question mark and a flag (⚑) are set in every font
// family listed that this machine has
// (Debian's font packages: fonts-dejavu, fonts-liberation2, fonts-freefont-ttf, fonts-noto-core, fonts-urw-base35,
// fonts-cantarell, fonts-open-sans, fonts-roboto-unhinted, fonts-lato, fonts-hack, fonts-inconsolata,
// fonts-terminus-otb, fonts-crosextra-carlito, fonts-courier-prime, fonts-texgyre, fonts-droid-fallback), regular
// and bold, at a few pixel sizes (small text is drawn on the pixel grid, large text smooth), by sharp's SVG text;
// its ink is cut out as a glyph the way a cell's is (counter/glyphs.ts) and reduced to a shape. The counts, flags,
// question marks and mines of every built-in skin join them. Needs dist/.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const sharp = require('sharp');
const { wordsIn, shapeOf } = require('../dist/counter/glyphs.js');
const { builtinSkinNames, loadSkin } = require('../dist/skin/skin.js');
const { GLYPH_INSET } = require('../dist/read/symbols.js');

const FAMILIES = [
  'DejaVu Sans',
  'DejaVu Sans Mono',
  'DejaVu Serif',
  'Liberation Sans',
  'Liberation Serif',
  'Liberation Mono',
  'FreeSans',
  'FreeSerif',
  'FreeMono',
  'Noto Sans',
  'Noto Serif',
  'Noto Sans Mono',
  'Nimbus Sans',
  'Nimbus Sans Narrow',
  'Nimbus Roman',
  'Nimbus Mono PS',
  'C059',
  'P052',
  'URW Bookman',
  'URW Gothic',
  'Cantarell',
  'Carlito',
  'Courier Prime',
  'Droid Sans Fallback',
  'Open Sans',
  'Roboto',
  'Roboto Condensed',
  'Lato',
  'Hack',
  'Inconsolata',
  'Terminus',
  'TeX Gyre Heros',
  'TeX Gyre Adventor',
  'TeX Gyre Schola',
];
const WEIGHTS = ['normal', 'bold'];
/** Font sizes (px): a digit about 7, 10, 14 and 40 px tall. */
const SIZES = [10, 14, 20, 56];
/** What fonts set: the digits, a question mark and a flag, by label (DESIGN.md's board text). */
const SET = [...'12345678?'].map((c) => [c, c]).concat([['F', '⚑']]);
/** What skins give: their templates of these labels. */
const CUT = /^[1-8F?*X!]$/;

/** @param {string} family */
function installed(family) {
  const out = execFileSync('fc-list', [`:family=${family}`, 'family'], { encoding: 'utf8' });
  return out.trim().length > 0;
}

/** @param {string} family @param {string} weight @param {number} size @param {string} label */
async function shape(family, weight, size, label) {
  const side = Math.ceil(size * 2);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">` +
    `<rect width="${side}" height="${side}" fill="white"/>` +
    `<text x="${side / 4}" y="${side * 0.7}" font-family="${family}" font-size="${size}" font-weight="${weight}"` +
    ` fill="black">${label}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const image = { width: info.width, height: info.height, data: new Uint8Array(data) };
  return onlyGlyph(image, { left: 0, top: 0, width: side, height: side });
}

/**
 * @param {{ width: number, height: number, data: Uint8Array }} image
 * @param {import('../dist/common/types').Rect} box
 */
function onlyGlyph(image, box) {
  const glyphs = wordsIn(image, box).flat();
  return glyphs.length === 1 && !glyphs[0].clipped ? shapeOf(glyphs[0]) : null;
}

/**
 * The symbols of every built-in skin's templates, cut as a cell's are: `skin` names the skin, so that a reading
 * that leaves a skin out (the eval's --leave-out) leaves its shapes out too.
 */
async function skinShapes() {
  const out = [];
  for (const name of await builtinSkinNames()) {
    for (const t of (await loadSkin(name)).templates) {
      if (!CUT.test(t.label)) continue;
      const { width, height } = t.image;
      const inset = Math.round(GLYPH_INSET * width);
      const s = onlyGlyph(t.image, { left: inset, top: inset, width: width - 2 * inset, height: height - 2 * inset });
      if (s) out.push({ label: t.label, skin: name, shape: s });
    }
  }
  return out;
}

async function main() {
  const families = FAMILIES.filter(installed);
  const missing = FAMILIES.filter((f) => !families.includes(f));
  if (missing.length) console.warn(`not installed, left out: ${missing.join(', ')}`);
  /** @type {{ label: string, font?: string, skin?: string, aspect: number, cells: string }[]} */
  const shapes = [];
  const seen = new Set();
  /** @param {import('../dist/common/types').GlyphShape} s */
  const encoded = (s) => Buffer.from(Array.from(s.cells, (v) => Math.round(255 * v))).toString('base64');
  for (const family of families) {
    for (const weight of WEIGHTS) {
      for (const size of SIZES) {
        for (const [label, text] of SET) {
          const s = await shape(family, weight, size, text);
          if (!s) continue;
          const cells = encoded(s);
          const key = `${label} ${cells}`;
          if (seen.has(key)) continue;
          seen.add(key);
          shapes.push({ label, font: `${family} ${weight} ${size}px`, aspect: Number(s.aspect.toFixed(3)), cells });
        }
      }
    }
  }
  for (const { label, skin, shape: s } of await skinShapes()) {
    const cells = encoded(s);
    const key = `${skin} ${label} ${cells}`;
    if (seen.has(key)) continue;
    seen.add(key);
    shapes.push({ label, skin, aspect: Number(s.aspect.toFixed(3)), cells });
  }
  const out = path.join(__dirname, '..', 'skins', 'symbols.json');
  fs.writeFileSync(out, JSON.stringify({ families, shapes }, null, 0) + '\n');
  console.log(`${shapes.length} shapes from ${families.length} font families and the skins → ${out}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
