// @ts-check
// node scripts/eval-cuts.js [--dense] [shot.png …]: crops held-out shots through the board (from the top-left
// corner after every 3rd row and 4th column, and to the bottom-right corner from every 3rd row and 4th column
// on, through 10, 50 and 90 % of a cell; --dense: every 2nd row and 3rd column) and counts the deductions the
// ground truth (<name>.mines.txt) contradicts. A board cut by the image's edge must never give a false one.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const sharp = require('sharp');
const { analyzeImage } = require('../dist/analyze/analyze.js');
const { parseCellName } = require('../dist/common/board.js');

const ROOT = path.resolve(__dirname, '..');
const DEFAULT = ['xdemineur/s2-03.png', 'xdemineur/s2-05.png', 'xbomb/s2-03.png', 'gnome-mines/s2-02.png'].map((f) =>
  path.join(ROOT, 'fixtures', f),
);

async function main() {
  const args = process.argv.slice(2);
  const [rowStep, colStep] = args.includes('--dense') ? [2, 3] : [3, 4];
  const named = args.filter((a) => !a.startsWith('--'));
  const files = named.length ? named : DEFAULT;
  let [crops, read, falseDeductions, deductions] = [0, 0, 0, 0];
  for (const file of files) {
    const meta = JSON.parse(fs.readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8')).board;
    const mines = fs
      .readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
      .trim()
      .split('\n');
    const { width: fullWidth = 0, height: fullHeight = 0 } = await sharp(file).metadata();
    for (const corner of ['top-left', 'bottom-right']) {
      for (let rows = rowStep; rows < meta.rows; rows += rowStep) {
        for (let cols = colStep; cols < meta.cols; cols += colStep) {
          for (const f of [0.1, 0.5, 0.9]) {
            // top-left: rows 0…rows-1 whole and f of row `rows`; bottom-right: f of row `rows` and every row after it
            const box =
              corner === 'top-left'
                ? {
                    left: 0,
                    top: 0,
                    width: Math.round(meta.x0 + (cols + f) * meta.tile_w),
                    height: Math.round(meta.y0 + (rows + f) * meta.tile_h),
                  }
                : {
                    left: Math.round(meta.x0 + (cols + 1 - f) * meta.tile_w),
                    top: Math.round(meta.y0 + (rows + 1 - f) * meta.tile_h),
                    width: 0,
                    height: 0,
                  };
            if (corner !== 'top-left')
              Object.assign(box, { width: fullWidth - box.left, height: fullHeight - box.top });
            const crop = await sharp(file).extract(box).png().toBuffer();
            const { analysis } = await analyzeImage(crop, file);
            crops++;
            if (!analysis.grid || !analysis.deductions) continue;
            read++;
            const top = Math.round((analysis.grid.top + box.top - meta.y0) / meta.tile_h);
            const left = Math.round((analysis.grid.left + box.left - meta.x0) / meta.tile_w);
            const truth = (/** @type {string} */ name) => {
              const [r, c] = parseCellName(name);
              return mines[r + top]?.[c + left];
            };
            const wrong = [
              ...analysis.deductions.mines.filter((n) => truth(n) !== '*'),
              ...analysis.deductions.safe.filter((n) => truth(n) !== '-'),
            ];
            deductions += analysis.deductions.mines.length + analysis.deductions.safe.length;
            falseDeductions += wrong.length;
            if (wrong.length) {
              const g = analysis.grid;
              console.log(
                `${path.relative(ROOT, file)} ${corner} ${box.width}×${box.height} ` +
                  `(row ${rows}, col ${cols}, ${f} of a cell): ${wrong.length} false (${wrong.join(' ')});` +
                  ` grid ${g.rows}×${g.cols} at cell (${top}, ${left}), cut ` +
                  `${analysis.notes.join(' ').match(/past the image's ([a-z ]+) edge/)?.[1] ?? 'none'}`,
              );
            }
          }
        }
      }
    }
  }
  console.log(`${crops} crops, ${read} read, ${deductions} deductions, ${falseDeductions} false`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
