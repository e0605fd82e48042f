// @ts-check
// node scripts/eval-windows.js [--variant=50%|jpeg75|…]: each held-out shot's game window, cut from the live
// tool's black screen by its meta.json, put on a desktop (a gradient; bare, or in a dark or a light window
// frame), and read: how many read a side as covered (src/locate/frame.ts), and the deductions. Past a game's window
// lies its border or the desktop, never the black the captures show: no side should read as covered.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const sharp = require('sharp');
const { VARIANTS, variant: copyNamed } = require('./variants.js');
const { analyzeImage } = require('../dist/analyze/analyze.js');

const ROOT = path.resolve(__dirname, '..');
const GAMES = ['xdemineur', 'xbomb', 'gnome-mines', 'kmines', 'ace-minesweeper'];
/** The window manager's frame around the window: border and title bar colours, or none. */
const FRAMES = /** @type {Record<string, [string, string] | null>} */ ({
  bare: null,
  dark: ['#2b2b2b', '#3a3a3a'],
  light: ['#d4d4d4', '#ececec'],
});
const [X, Y] = [137, 91];

async function main() {
  const variant = process.argv.find((a) => a.startsWith('--variant='))?.slice('--variant='.length) ?? '100%';
  const copy = copyNamed(variant);
  if (!copy) throw new Error(`no variant ${variant}: ${Object.keys(VARIANTS).join(', ')} or a scale (75%)`);
  let [shots, covered, deductions] = [0, 0, 0];
  for (const game of GAMES) {
    for (const file of heldOut(path.join(ROOT, 'fixtures', game))) {
      for (const [name, frame] of Object.entries(FRAMES)) {
        const { analysis } = await analyzeImage(await copy(await onDesktop(file, frame)), file, { reasons: false });
        shots++;
        deductions += analysis.deductions ? analysis.deductions.mines.length + analysis.deductions.safe.length : 0;
        const note = analysis.notes.find((n) => /does not show the game's frame/.test(n));
        if (note) {
          covered++;
          console.log(
            `${path.relative(ROOT, file)}, ${name}: ` +
              `${note.split(' side')[0].replace("the board's ", '')} read as covered`,
          );
        }
      }
    }
  }
  console.log(`${shots} windows on a desktop (${variant}), ${covered} read as covered, ${deductions} deductions`);
}

/**
 * The held-out and lost games' shots that have a meta.json (not the learn captures).
 * @param {string} dir @returns {string[]}
 */
function heldOut(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'learn' ? [] : heldOut(p);
      return /\.png$/.test(e.name) && fs.existsSync(metaFile(p)) ? [p] : [];
    })
    .sort();
}

/** @param {string} file */
const metaFile = (file) => file.replace(/(\.reveal)?\.png$/, '.meta.json');

/** @param {string} file @param {[string, string] | null} frame */
async function onDesktop(file, frame) {
  const { window: w } = JSON.parse(fs.readFileSync(metaFile(file), 'utf8'));
  const window = await sharp(file).extract({ left: w.x, top: w.y, width: w.w, height: w.h }).png().toBuffer();
  const decoration = frame
    ? `<rect x="${X - 4}" y="${Y - 28}" width="${w.w + 8}" height="${w.h + 32}" fill="${frame[0]}"/>` +
      `<rect x="${X}" y="${Y - 24}" width="${w.w}" height="22" fill="${frame[1]}"/>`
    : '';
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1200"><defs><linearGradient id="g" x2="1" y2="1">' +
    '<stop offset="0" stop-color="#234"/><stop offset="1" stop-color="#8ab"/></linearGradient></defs>' +
    `<rect width="1920" height="1200" fill="url(#g)"/>${decoration}</svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: window, left: X, top: Y }])
    .png()
    .toBuffer();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
