// @ts-check
// node scripts/eval-occlusion.js [--variant=50%|jpeg75|…] [shot.png …]: covers one side of the board in held-out
// shots with a flat rectangle (a window or a notification over the game), from past the board's edge through 1, 3
// and 5 rows or columns and 0, 30 or 60 % of the next, in black, white, the window's grey and a blue, and counts the
// deductions the ground truth (<name>.mines.txt) contradicts. The counts along the rectangle's edge see cells not
// read: the side must be found open (it does not show the game's frame, src/locate/frame.ts). Any false deduction
// here is a board read as ending where it does not. --variant reads each covered shot as scripts/variants.js copies
// it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const sharp = require('sharp');
const { falseOnPart } = require('./false-on-part.js');
const { VARIANTS, variant: copyNamed } = require('./variants.js');
const { analyzeImage } = require('../dist/analyze/analyze.js');
const { parseBoard } = require('../dist/common/board.js');

const ROOT = path.resolve(__dirname, '..');
const DEFAULT = [
  'xdemineur/s2-03.png',
  'xdemineur/s2-05.png',
  'xbomb/s2-03.png',
  'gnome-mines/s2-02.png',
  'kmines/s2-05.png',
  'ace-minesweeper/s2-03.png',
].map((f) => path.join(ROOT, 'fixtures', f));
const COLOURS = ['#000000', '#ffffff', '#c0c0c0', '#2060c0'];
const SIDES = /** @type {const} */ (['top', 'bottom', 'left', 'right']);

async function main() {
  const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const variant = process.argv.find((a) => a.startsWith('--variant='))?.slice('--variant='.length) ?? '100%';
  const copy = copyNamed(variant);
  if (!copy) throw new Error(`no variant ${variant}: ${Object.keys(VARIANTS).join(', ')} or a scale (75%)`);
  let [covers, read, falseDeductions, deductions, withFalse] = [0, 0, 0, 0, 0];
  for (const file of named.length ? named : DEFAULT) {
    const meta = JSON.parse(fs.readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8')).board;
    const truth = parseBoard(fs.readFileSync(file.replace(/\.png$/, '.board.txt'), 'utf8'));
    const rows = fs
      .readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
      .trim()
      .split('\n');
    const mines = new Set(rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '*' ? [`r${r}c${c}`] : []))));
    const { width = 0, height = 0 } = await sharp(file).metadata();
    for (const side of SIDES) {
      for (const lines of [1, 3, 5]) {
        for (const f of [0, 0.3, 0.6]) {
          for (const colour of COLOURS) {
            const box = cover(meta, side, lines + f, width, height);
            const shot = await sharp(file)
              .composite([{ input: { create: { ...box.size, channels: 4, background: colour } }, ...box.at }])
              .png()
              .toBuffer();
            const { analysis } = await analyzeImage(await copy(shot), file);
            covers++;
            if (!analysis.board || !analysis.deductions) continue;
            read++;
            const part = falseOnPart(analysis.board, truth, analysis.deductions, mines);
            deductions += part.deductions;
            falseDeductions += part.false;
            if (part.false) {
              withFalse++;
              console.log(
                `${path.relative(ROOT, file)} ${side} covered through ${lines + f} ` +
                  `${side === 'top' || side === 'bottom' ? 'rows' : 'columns'}, ${colour}: ` +
                  `${part.false} false of ${part.deductions}; read ${analysis.board.rows}×${analysis.board.cols}, ` +
                  `total ${analysis.board.totalMines ?? 'none'}`,
              );
            }
          }
        }
      }
    }
  }
  console.log(
    `${covers} covered shots, ${read} read, ${deductions} deductions, ${falseDeductions} false (on ${withFalse} shots)`,
  );
}

/**
 * A rectangle from the image's edge on `side` through `depth` rows or columns of the board, the full width or
 * height of the board and its frame.
 * @param {any} m @param {'top' | 'bottom' | 'left' | 'right'} side @param {number} depth
 * @param {number} width @param {number} height
 */
function cover(m, side, depth, width, height) {
  const [x1, y1] = [m.x0 + m.cols * m.tile_w, m.y0 + m.rows * m.tile_h];
  const across =
    side === 'top' || side === 'bottom'
      ? { left: Math.max(0, m.x0 - m.tile_w), width: Math.min(width, x1 + m.tile_w) - Math.max(0, m.x0 - m.tile_w) }
      : { top: Math.max(0, m.y0 - m.tile_h), height: Math.min(height, y1 + m.tile_h) - Math.max(0, m.y0 - m.tile_h) };
  const edge = {
    top: { top: 0, height: Math.round(m.y0 + depth * m.tile_h) },
    bottom: { top: Math.round(y1 - depth * m.tile_h), height: height - Math.round(y1 - depth * m.tile_h) },
    left: { left: 0, width: Math.round(m.x0 + depth * m.tile_w) },
    right: { left: Math.round(x1 - depth * m.tile_w), width: width - Math.round(x1 - depth * m.tile_w) },
  }[side];
  const box = /** @type {{ left: number, top: number, width: number, height: number }} */ ({ ...across, ...edge });
  return { at: { left: box.left, top: box.top }, size: { width: box.width, height: box.height } };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
