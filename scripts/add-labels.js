// Adds to a built-in skin the labels its learn captures lack, or lack at a cell size, cut from other captures of the
// same game (fixtures/<game>/learn/; build-skins.sh names which). Templates of labels the skin has at that size are
// left as they are, unless --on-skin-grid: then the cells are cut where the skin itself reads them (each read right
// but off every template of its label) and added beside the skin's, for a label a game draws a pixel over at one
// size, where learn's own grid cuts it a pixel off. With --replace, the captures' templates (counts, hidden cells,
// flags) replace the skin's at their cell sizes: for a size where learn's own grid cuts the skin's captures a pixel
// off. Run after `npm run build`; `npm run skins` runs it.
//   node scripts/add-labels.js <skin> [--only=<labels>] [--on-skin-grid|--replace] <capture.png>...   (each with its
//   .board.txt beside it; --only=6: only those labels)
const fs = require('node:fs');
const path = require('node:path');
const { learn } = require('../dist/analyze/learn');
const { loadSkin } = require('../dist/skin/skin');
const { parseBoard } = require('../dist/common/board');
const { writePng } = require('../dist/image/encode');
const { analyzeImage } = require('../dist/analyze/analyze');
const { decode } = require('../dist/image/decode');
const { cellLeft, cellTop } = require('../dist/image/pixels');

async function main() {
  const [skinName, ...rest] = process.argv.slice(2);
  const only = rest.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const onGrid = rest.includes('--on-skin-grid');
  const replace = rest.includes('--replace');
  const captures = rest.filter((a) => !a.startsWith('--'));
  const out = path.join(__dirname, '..', 'skins', skinName);
  // a label counts as had at the cell sizes it has templates of: a game draws small cells with other glyphs
  const skin = await loadSkin(out);
  const have = new Set(skin.templates.map((t) => `${t.label}@${t.image.width}`));
  const same = (a, b) =>
    a.label === b.label &&
    a.image.width === b.image.width &&
    Buffer.compare(Buffer.from(a.image.data), Buffer.from(b.image.data)) === 0;
  const sources = captures.map((image) => ({
    image,
    board: parseBoard(fs.readFileSync(image.replace(/\.png$/, '.board.txt'), 'utf8')),
  }));
  const templates = onGrid ? await cutOnSkinGrid(sources, skinName) : (await learn(sources, skinName)).templates;
  const labels = replace ? /^[0-8.F]$/ : /^[0-8]$/;
  if (replace)
    removeAtSizes(out, skin, new Set(templates.filter((t) => labels.test(t.label)).map((t) => t.image.width)));
  const added = new Map();
  for (const t of templates) {
    const key = `${t.label}@${t.image.width}`;
    if (!labels.test(t.label) || (have.has(key) && !onGrid && !replace) || (only && !only.includes(t.label))) continue;
    if (skin.templates.some((had) => same(had, t))) continue;
    skin.templates.push(t);
    added.set(key, (added.get(key) ?? 0) + 1);
    await writePng(t.image, path.join(out, freeName(out, STEMS[t.label] ?? t.label)));
  }
  await loadSkin(out);
  console.log(`${skinName}: added ${[...added].map(([l, n]) => `${l}×${n}`).join(' ') || 'nothing'}`);
}

/** Template files of the labels not named by themselves (src/skin/skin.ts). @type {Record<string, string>} */
const STEMS = { '.': 'hidden', F: 'flag' };

/** Deletes the skin's templates of counts, hidden cells and flags at those sizes (from the folder and from `skin`). */
function removeAtSizes(out, skin, sizes) {
  for (const f of fs.readdirSync(out).filter((f) => /^([0-8]|hidden|flag)(-[a-z])?\.png$/.test(f))) {
    // a PNG's width: the IHDR chunk's first field
    if (sizes.has(fs.readFileSync(path.join(out, f)).readUInt32BE(16))) fs.rmSync(path.join(out, f));
  }
  skin.templates = skin.templates.filter((t) => !/^[0-8.F]$/.test(t.label) || !sizes.has(t.image.width));
}

/**
 * Cells the skin reads right but off every template of their label, cut on its grid (whole pixels, a template size).
 */
async function cutOnSkinGrid(sources, skinName) {
  const cut = [];
  for (const { image, board } of sources) {
    const { analysis } = await analyzeImage(image, image, { skin: skinName, reasons: false });
    const g = analysis.grid;
    const whole = g && analysis.board && analysis.board.rows === board.rows && analysis.board.cols === board.cols;
    if (
      !whole ||
      g.pitchX !== g.pitchY ||
      !Number.isInteger(g.pitchX) ||
      !Number.isInteger(g.left) ||
      !Number.isInteger(g.top)
    ) {
      throw new Error(`${image}: not read whole on a whole-pixel grid`);
    }
    const rgba = await decode(image);
    for (const r of analysis.readings) {
      const label = board.cells[r.row][r.col];
      if (r.unreadable || r.cell !== label || r.distance === 0) continue;
      cut.push({ label, image: cutCell(rgba, cellLeft(g, r.col), cellTop(g, r.row), g.pitchX) });
    }
  }
  return cut;
}

function cutCell(image, left, top, size) {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    data.set(
      image.data.subarray(((top + y) * image.width + left) * 4, ((top + y) * image.width + left + size) * 4),
      y * size * 4,
    );
  return { width: size, height: size, data };
}

/** label.png, else label-b.png, label-c.png, … whichever is free. */
function freeName(dir, label) {
  for (let n = 0; ; n++) {
    const name = `${label}${n ? '-' + String.fromCharCode(97 + n) : ''}.png`;
    if (!fs.existsSync(path.join(dir, name))) return name;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
