// @ts-check
// The copies of a screenshot the eval reads besides the screenshot itself: rescaled, as JPEG, and on a desktop.
'use strict';
const fs = require('node:fs');
const sharp = require('sharp');

const VARIANTS = {
  '100%': (/** @type {Buffer} */ b) => Promise.resolve(b),
  '50%': (/** @type {Buffer} */ b) => resize(b, 0.5),
  '150%': (/** @type {Buffer} */ b) => resize(b, 1.5),
  '250%': (/** @type {Buffer} */ b) => resize(b, 2.5),
  jpeg75: (/** @type {Buffer} */ b) => sharp(b).jpeg({ quality: 75 }).toBuffer(),
  desktop: (/** @type {Buffer} */ b) => onDesktop(b),
};

/** @param {Buffer} b @param {number} f @param {'lanczos3' | 'nearest'} kernel */
async function resize(b, f, kernel = 'lanczos3') {
  const { width = 0 } = await sharp(b).metadata();
  return sharp(b)
    .resize({ width: Math.round(width * f), kernel })
    .png()
    .toBuffer();
}

/** The shot, shrunk to fit if needed, on a 1920×1080 gradient desktop with a taskbar. @param {Buffer} b */
async function onDesktop(b) {
  const shot = await sharp(b)
    .resize({ width: 1800, height: 1000, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><defs><linearGradient id="g" x2="1" y2="1">' +
    '<stop offset="0" stop-color="#234"/><stop offset="1" stop-color="#8ab"/></linearGradient></defs>' +
    '<rect width="1920" height="1080" fill="url(#g)"/><rect y="1044" width="1920" height="36" fill="#111"/></svg>';
  return sharp(Buffer.from(svg))
    .composite([{ input: shot, left: 37, top: 23 }])
    .png()
    .toBuffer();
}

/** Copies in the other encodings a shared screenshot comes in, read only when named (--variant=png8,webp). */
const ENCODINGS = {
  png8: (/** @type {Buffer} */ b) => sharp(b).png({ palette: true }).toBuffer(),
  'png8-nodither': (/** @type {Buffer} */ b) => sharp(b).png({ palette: true, dither: 0 }).toBuffer(),
  webp: (/** @type {Buffer} */ b) => sharp(b).webp({ quality: 80 }).toBuffer(),
  webp50: (/** @type {Buffer} */ b) => sharp(b).webp({ quality: 50 }).toBuffer(),
  avif: (/** @type {Buffer} */ b) => sharp(b).avif().toBuffer(),
  png16: (/** @type {Buffer} */ b) => sharp(b).toColourspace('rgb16').png().toBuffer(),
  alpha: (/** @type {Buffer} */ b) => sharp(b).ensureAlpha(1).png().toBuffer(),
  jpeg50: (/** @type {Buffer} */ b) => sharp(b).jpeg({ quality: 50 }).toBuffer(),
};

/**
 * The game's window cut out of the shot as it is (its place from the capture's meta.json), with nothing around it
 * (as Windows' Alt+PrintScreen takes a window); the shot itself where no window is on record.
 * @param {Buffer} b @param {string} file @returns {Promise<Buffer | null>}
 */
async function windowCut(b, file) {
  const meta = file.replace(/\.png$/, '.meta.json');
  const w = fs.existsSync(meta) ? JSON.parse(fs.readFileSync(meta, 'utf8')).window : null;
  if (!w) return null;
  const { width = 0, height = 0 } = await sharp(b).metadata();
  const [left, top] = [Math.max(0, w.x), Math.max(0, w.y)];
  return sharp(b)
    .extract({ left, top, width: Math.min(w.w, width - left), height: Math.min(w.h, height - top) })
    .png()
    .toBuffer();
}

/**
 * The game's window alone on a transparent canvas with a soft shadow, as macOS captures a window: read only when
 * named (--variant=window). @param {Buffer} b @param {string} file
 */
async function windowAlone(b, file) {
  const win = await windowCut(b, file);
  if (!win) return b;
  const { width: ww = 0, height: wh = 0 } = await sharp(win).metadata();
  const m = 50;
  const shadow =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${ww + 2 * m}" height="${wh + 2 * m}">` +
    `<rect x="${m}" y="${m + 12}" width="${ww}" height="${wh}" fill-opacity="0.5"/></svg>`;
  const blurred = await sharp(Buffer.from(shadow)).blur(14).png().toBuffer();
  return sharp(blurred)
    .composite([{ input: win, left: m, top: m }])
    .png()
    .toBuffer();
}

/**
 * A named copy: one of VARIANTS or ENCODINGS, 'window', 'tight', or any scale written as a percentage ("133%":
 * Windows' 125–175 % display settings, a screenshot shrunk to share; "150%n": pixels repeated, as a system scales a
 * window drawn at 100 %); null for anything else.
 * @param {string} name @returns {((b: Buffer, file: string) => Promise<Buffer>) | null}
 */
function variant(name) {
  if (name in VARIANTS) return VARIANTS[/** @type {keyof typeof VARIANTS} */ (name)];
  if (name in ENCODINGS) return ENCODINGS[/** @type {keyof typeof ENCODINGS} */ (name)];
  if (name === 'window') return windowAlone;
  if (name === 'tight') return async (b, file) => (await windowCut(b, file)) ?? b;
  const percent = /^(\d+(?:\.\d+)?)%(n?)$/.exec(name);
  return percent && Number(percent[1]) > 0
    ? (b) => resize(b, Number(percent[1]) / 100, percent[2] ? 'nearest' : 'lanczos3')
    : null;
}

module.exports = { VARIANTS, ENCODINGS, variant };
