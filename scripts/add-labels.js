// Adds to a built-in skin the labels its learn captures lack (xbomb's 5, GNOME Mines' 4, 5, 6), cut from other
// captures of the same game played here (seeds 5, 7, 9, in fixtures/<game>/learn/). Templates of labels the skin
// has are left as they are. Run after `npm run build`; `npm run skins` runs it.
//   node scripts/add-labels.js <skin> <capture.png>...   (each with its .board.txt beside it)
const fs = require('node:fs');
const path = require('node:path');
const { learn } = require('../dist/learn');
const { loadSkin } = require('../dist/skin');
const { parseBoard } = require('../dist/board');
const { writePng } = require('../dist/render');

async function main() {
  const [skinName, ...captures] = process.argv.slice(2);
  const out = path.join(__dirname, '..', 'skins', skinName);
  const have = new Set((await loadSkin(out)).templates.map((t) => t.label));
  const sources = captures.map((image) => ({ image, board: parseBoard(fs.readFileSync(image.replace(/\.png$/, '.board.txt'), 'utf8')) }));
  const learned = await learn(sources, skinName);
  const added = new Map();
  for (const t of learned.templates.filter((t) => /^[0-8]$/.test(t.label) && !have.has(t.label))) {
    const n = added.get(t.label) ?? 0;
    added.set(t.label, n + 1);
    await writePng(t.image, path.join(out, `${t.label}${n ? '-' + String.fromCharCode(97 + n) : ''}.png`));
  }
  await loadSkin(out);
  console.log(`${skinName}: added ${[...added].map(([l, n]) => `${l}×${n}`).join(' ') || 'nothing'}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
