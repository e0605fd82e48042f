// @ts-check
// node scripts/eval-window-crops.js <layout.png> <source.png>…: boards of other sizes made to look like the layout
// of <layout.png> — each source shot scaled to the layout's cell size and cropped to the layout's rows × columns of
// cells with the margins its window leaves (both from the shots' meta.json), at every column and a few rows —
// and counts the deductions the ground truth (<source>.mines.txt) contradicts. The frame a skin knows for the
// layout must not vouch for a crop whose edge cuts covered cells.
'use strict';
const fs = require('node:fs');
const sharp = require('sharp');
const { analyzeImage } = require('../dist/analyze/analyze.js');
const { parseCellName } = require('../dist/common/board.js');

/** @param {string} file */
const metaOf = (file) => JSON.parse(fs.readFileSync(file.replace(/\.png$/, '.meta.json'), 'utf8'));

async function main() {
  const [layoutFile, ...sources] = process.argv.slice(2);
  if (!layoutFile || !sources.length)
    throw new Error('usage: node scripts/eval-window-crops.js <layout.png> <source.png>…');
  const layout = metaOf(layoutFile);
  const [pitch, rows, cols] = [layout.board.tile_w, layout.board.rows, layout.board.cols];
  const margin = {
    left: layout.board_px.x - layout.window.x,
    top: layout.board_px.y - layout.window.y,
    right: layout.window.x + layout.window.w - (layout.board_px.x + layout.board_px.w),
    bottom: layout.window.y + layout.window.h - (layout.board_px.y + layout.board_px.h),
  };
  const totals = { crops: 0, ok: 0, inconsistent: 0, error: 0, deductions: 0, falseDeductions: 0, counterUsed: 0 };
  for (const file of sources) {
    const meta = metaOf(file);
    const scale = pitch / meta.board.tile_w;
    const mines = fs
      .readFileSync(file.replace(/\.png$/, '.mines.txt'), 'utf8')
      .trim()
      .split('\n');
    const image = await sharp(file)
      .resize({ width: Math.round(meta.screen[0] * scale), kernel: 'lanczos3' })
      .png()
      .toBuffer();
    const { width = 0, height = 0 } = await sharp(image).metadata();
    const [x0, y0] = [meta.board_px.x * scale, meta.board_px.y * scale];
    const rowStep = Math.max(1, Math.floor((meta.board.rows - rows) / 3));
    for (let j = 0; j + rows <= meta.board.rows; j += rowStep) {
      for (let k = 0; k + cols <= meta.board.cols; k++) {
        const left = Math.round(x0 + k * pitch - margin.left);
        const top = Math.round(y0 + j * pitch - margin.top);
        const right = Math.round(x0 + (k + cols) * pitch + margin.right);
        const bottom = Math.round(y0 + (j + rows) * pitch + margin.bottom);
        if (left < 0 || top < 0 || right > width || bottom > height) continue;
        const crop = await sharp(image)
          .extract({ left, top, width: right - left, height: bottom - top })
          .png()
          .toBuffer();
        const { analysis } = await analyzeImage(crop, file);
        totals.crops++;
        totals[analysis.status]++;
        if (analysis.counter?.used) totals.counterUsed++;
        if (!analysis.grid || !analysis.deductions) continue;
        const row0 = Math.round((analysis.grid.top - (y0 - top)) / pitch);
        const col0 = Math.round((analysis.grid.left - (x0 - left)) / pitch);
        const truth = (/** @type {string} */ name) => {
          const [r, c] = parseCellName(name);
          return mines[r + row0]?.[c + col0];
        };
        const wrong = [
          ...analysis.deductions.mines.filter((c) => truth(c) !== '*'),
          ...analysis.deductions.safe.filter((c) => truth(c) !== '-'),
        ];
        totals.deductions += analysis.deductions.mines.length + analysis.deductions.safe.length;
        totals.falseDeductions += wrong.length;
        if (wrong.length)
          console.log(
            `${file} rows ${j}+ cols ${k}+: false ${wrong.join(' ')} ` +
              `(${analysis.notes.filter((n) => /go on/.test(n)).join('; ') || 'no side cut'})`,
          );
      }
    }
  }
  console.log(totals);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
