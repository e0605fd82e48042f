// @ts-check
// node scripts/eval-lacking.js <skin> <game> [scale|jpeg] [labels] [shots]: reads the held-out shots of
// fixtures/<game>/ named by `shots` (a pattern, default s2-*; rescaled by `scale`, default 1, or saved as JPEG
// at quality 75) with a copy of built-in skin <skin> that lacks one label (each of `labels` in turn, default
// 1,2,3,4), and counts that label's cells read unreadable and misread, and the deductions the ground truth
// contradicts. A label a skin lacks must come out unreadable, never as another label. Run after `npm run build`.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const sharp = require('sharp');
const { analyzeImage } = require('../dist/analyze/analyze.js');
const { parseBoard } = require('../dist/common/board.js');
const { falseOnPart } = require('./false-on-part.js');

const ROOT = path.resolve(__dirname, '..');
/** Template files of the labels not named by themselves (src/skin/skin.ts). @type {Record<string, string>} */
const FILE_NAMES = { '.': 'hidden', F: 'flag', '?': 'question', '*': 'mine', X: 'exploded' };

/**
 * @param {string} skin @param {string} label
 * @returns {string} a copy of the skin's folder without the label's templates
 */
function skinLacking(skin, label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lacking-${label}-`));
  fs.cpSync(path.join(ROOT, 'skins', skin), dir, { recursive: true });
  const stem = FILE_NAMES[label] ?? label;
  for (const f of fs.readdirSync(dir)) if (new RegExp(`^${stem}(-[a-z])?\\.png$`).test(f)) fs.rmSync(path.join(dir, f));
  return dir;
}

/** @param {string} file @returns {Set<string>} the true mines' cell names */
function trueMines(file) {
  const rows = fs
    .readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
    .trim()
    .split('\n');
  return new Set(rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '*' ? [`r${r}c${c}`] : []))));
}

async function main() {
  const [skin, game, scale = '1', labels = '1,2,3,4', pattern = 's2-*'] = process.argv.slice(2);
  if (!skin || !game)
    throw new Error('usage: node scripts/eval-lacking.js <skin> <game> [scale|jpeg] [labels] [shots]');
  const dir = path.join(ROOT, 'fixtures', game);
  const named = new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '\\d+')}\\.png$`);
  const shots = fs
    .readdirSync(dir)
    .filter((n) => named.test(n))
    .map((n) => path.join(dir, n));
  const rows = [];
  /** @type {string[]} */
  const notes = [];
  for (const label of labels.split(',')) {
    const skinDir = skinLacking(skin, label);
    const row = {
      lacking: label,
      cells: 0,
      unreadable: 0,
      misread: 0,
      'misread as': '',
      'false deductions': 0,
      'boards read': 0,
    };
    const as = new Map();
    for (const file of shots) {
      const truth = parseBoard(fs.readFileSync(file.replace(/\.png$/, '.board.txt'), 'utf8'));
      let bytes = fs.readFileSync(file);
      if (scale === 'jpeg') bytes = await sharp(bytes).jpeg({ quality: 75 }).toBuffer();
      else if (Number(scale) !== 1) {
        const { width = 0 } = await sharp(bytes).metadata();
        bytes = await sharp(bytes)
          .resize({ width: Math.round(width * Number(scale)) })
          .png()
          .toBuffer();
      }
      const { analysis } = await analyzeImage(bytes, file, { skin: skinDir, reasons: false });
      const b = analysis.board;
      const mines = trueMines(file);
      if (!b || !analysis.readings || b.rows !== truth.rows || b.cols !== truth.cols) {
        const part = b && analysis.deductions ? falseOnPart(b, truth, analysis.deductions, mines) : null;
        if (part) row['false deductions'] += part.false;
        const placed = part
          ? `, placed at row ${part.dr}, column ${part.dc}: ${part.false} false of ${part.deductions} deductions`
          : '';
        notes.push(
          `lacking ${label}, ${path.basename(file)}: ` +
            `${analysis.error ?? `read ${b?.rows}×${b?.cols} (truth ${truth.rows}×${truth.cols})${placed}`}`,
        );
        continue;
      }
      row['boards read']++;
      for (const r of analysis.readings) {
        if (truth.cells[r.row][r.col] !== label) continue;
        row.cells++;
        if (r.unreadable) row.unreadable++;
        else if (r.cell !== label) {
          row.misread++;
          as.set(r.cell, (as.get(r.cell) ?? 0) + 1);
        }
      }
      const d = analysis.deductions;
      if (d)
        row['false deductions'] +=
          d.mines.filter((n) => !mines.has(n)).length + d.safe.filter((n) => mines.has(n)).length;
    }
    row['misread as'] = [...as].map(([cell, n]) => `${cell}×${n}`).join(' ');
    rows.push(row);
    fs.rmSync(skinDir, { recursive: true, force: true });
  }
  console.log(`${skin} on ${shots.length} ${game} shots at ${scale}×, each label left out in turn:`);
  console.table(rows);
  for (const note of notes) console.log('not read whole:', note);
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
