// @ts-check
// node scripts/render-glyphs.js <skin> <theme folder> <labels> [--check]: GNOME Mines draws a count as its theme's
// SVG (<theme folder>/<n>mines.svg, e.g. /usr/share/gnome-mines/themes/classic from the Debian package) on the
// open cell. For each size of the skin's open-cell template (0), the SVG's size, place and blur are fitted to the
// skin's captured counts of that size; the counts named (ones no capture shows, e.g. 5) are then drawn the same
// way onto the open cell and saved as templates. --check saves nothing: each captured count is fitted without
// its own templates, drawn, and its distance printed to its captures and to the nearest other label's.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const sharp = require('sharp');

const ROOT = path.resolve(__dirname, '..');

/** @typedef {{ file: string, label: string, width: number, height: number, rgb: Float64Array }} Template */
/** @typedef {{ size: number, x: number, y: number, blur: number }} Placement */

/** @param {string} file @returns {Promise<Template>} */
async function readTemplate(file) {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { file, label: path.basename(file)[0], width: info.width, height: info.height, rgb: Float64Array.from(data) };
}

/** The theme's 64×64 SVG as an element `size` px square at (x, y) in an SVG the cell's size. @param {string} svg */
function placedSvg(svg, width, height, /** @type {Placement} */ p) {
  const inner = svg
    .replace(/<\?xml[^>]*\?>/, '')
    .replace(/<svg([^>]*?)\swidth="64"/, `<svg$1 width="${p.size}"`)
    .replace(/<svg([^>]*?)\sheight="64"/, `<svg$1 height="${p.size}" x="${p.x}" y="${p.y}" viewBox="0 0 64 64"`);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${inner}</svg>`);
}

/**
 * The glyph drawn on the open cell: on the cell's flat middle colour, blurred (the game's glyphs at 23 px are
 * softer than an SVG drawn at that size), and pasted over the open cell inside its border.
 * @param {string} svg @param {Template} open @param {Placement} p @returns {Promise<Float64Array>}
 */
async function drawn(svg, open, p) {
  const { width, height } = open;
  const middle = (Math.floor(height / 2) * width + Math.floor(width / 2)) * 3;
  const background = { r: open.rgb[middle], g: open.rgb[middle + 1], b: open.rgb[middle + 2] };
  let png = await sharp({ create: { width, height, channels: 3, background } })
    .composite([{ input: placedSvg(svg, width, height, p), density: 72 }])
    .png()
    .toBuffer();
  if (p.blur >= 0.3) png = await sharp(png).blur(p.blur).png().toBuffer();
  const { data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const border = Math.round(0.15 * width);
  const rgb = Float64Array.from(open.rgb);
  for (let y = border; y < height - border; y++)
    for (let i = (y * width + border) * 3; i < (y * width + width - border) * 3; i++) rgb[i] = data[i];
  return rgb;
}

/** @param {Float64Array} a @param {Float64Array} b */
const rms = (a, b) => Math.sqrt(a.reduce((sum, v, i) => sum + (v - b[i]) ** 2, 0) / a.length);

/**
 * The placement whose drawings sit nearest the captures (mean RMS): a coarse search, then steps halved.
 * @param {Record<string, string>} svgs @param {Template} open @param {Template[]} captures
 * @returns {Promise<Placement & { fit: number }>}
 */
async function fitPlacement(svgs, open, captures) {
  const cost = async (/** @type {Placement} */ p) => {
    let sum = 0;
    for (const t of captures) sum += rms(await drawn(svgs[t.label], open, p), t.rgb);
    return sum / captures.length;
  };
  const w = open.width;
  let best = { size: 0, x: 0, y: 0, blur: 0, fit: Infinity };
  for (let size = 0.3 * w; size <= 0.8 * w; size += w / 23) {
    for (let x = 0.1 * w; x + size <= 0.9 * w; x += w / 23) {
      for (let y = 0.1 * w; y + size <= 0.9 * w; y += w / 23) {
        for (const blur of [0, 0.5, 1]) {
          const fit = await cost({ size, x, y, blur });
          if (fit < best.fit) best = { size, x, y, blur, fit };
        }
      }
    }
  }
  for (const step of [0.5, 0.25, 0.125]) {
    for (let moved = true; moved;) {
      moved = false;
      const moves = [
        [step, 0, 0, 0],
        [-step, 0, 0, 0],
        [0, step, 0, 0],
        [0, -step, 0, 0],
        [0, 0, step, 0],
        [0, 0, -step, 0],
        [step, -step / 2, -step / 2, 0],
        [-step, step / 2, step / 2, 0],
        [0, 0, 0, step / 2],
        [0, 0, 0, -step / 2],
      ];
      for (const [ds, dx, dy, db] of moves) {
        const p = { size: best.size + ds, x: best.x + dx, y: best.y + dy, blur: Math.max(0, best.blur + db) };
        const fit = await cost(p);
        if (fit < best.fit - 1e-9) [best, moved] = [{ ...p, fit }, true];
      }
    }
  }
  return best;
}

/**
 * The template file name for a label not yet in the folder: `5.png`, else `5-b.png`, …
 * @param {string} dir @param {string} label
 */
function freeName(dir, label) {
  for (const suffix of ['', ...'bcdefghijklmnopqrstuvwxyz'].map((c) => (c ? `-${c}` : ''))) {
    const name = `${label}${suffix}.png`;
    if (!fs.existsSync(path.join(dir, name))) return name;
  }
  throw new Error(`${dir}: no free name for ${label}`);
}

async function main() {
  const [skin, theme, labels, ...flags] = process.argv.slice(2);
  if (!skin || !theme || !labels)
    throw new Error('usage: node scripts/render-glyphs.js <skin> <theme folder> <labels> [--check]');
  const check = flags.includes('--check');
  const dir = path.join(ROOT, 'skins', skin);
  /** @type {Record<string, string>} */
  const svgs = {};
  for (let n = 1; n <= 8; n++) svgs[n] = fs.readFileSync(path.join(theme, `${n}mines.svg`), 'utf8');
  const templates = await Promise.all(
    fs
      .readdirSync(dir)
      .filter((f) => /^[0-8](-[a-z])?\.png$/.test(f))
      .sort()
      .map((f) => readTemplate(path.join(dir, f))),
  );
  for (const open of templates.filter((t) => t.label === '0')) {
    const sized = templates.filter((t) => t.width === open.width && t.height === open.height);
    const captures = sized.filter((t) => t.label !== '0');
    if (!check) {
      const p = await fitPlacement(svgs, open, captures);
      console.log(
        `${skin} ${open.width} px: glyph ${p.size.toFixed(2)} px at (${p.x.toFixed(2)}, ${p.y.toFixed(2)}), ` +
          `blur ${p.blur.toFixed(2)}; mean distance to the captures ${p.fit.toFixed(2)}`,
      );
      for (const label of labels.split(',')) {
        const name = freeName(dir, label);
        const rgb = await drawn(svgs[label], open, p);
        await sharp(Buffer.from(rgb.map((v) => Math.round(Math.min(255, Math.max(0, v))))), {
          raw: { width: open.width, height: open.height, channels: 3 },
        })
          .png()
          .toFile(path.join(dir, name));
        console.log(`  ${name}`);
      }
      continue;
    }
    for (const label of [...new Set(captures.map((t) => t.label))]) {
      const p = await fitPlacement(
        svgs,
        open,
        captures.filter((t) => t.label !== label),
      );
      const rgb = await drawn(svgs[label], open, p);
      /** @type {Map<string, number>} */
      const nearest = new Map();
      for (const t of sized) nearest.set(t.label, Math.min(nearest.get(t.label) ?? Infinity, rms(rgb, t.rgb)));
      const [other, far] = [...nearest].filter(([l]) => l !== label).sort((a, b) => a[1] - b[1])[0];
      const own = nearest.get(label) ?? Infinity;
      console.log(
        `${skin} ${open.width} px, ${label} fitted without its captures: ${own.toFixed(2)} from them, ` +
          `${far.toFixed(2)} from the nearest other (${other}), ratio ${(own / far).toFixed(2)}`,
      );
    }
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
