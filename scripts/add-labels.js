// Adds to a built-in skin the labels its learn captures lack (xbomb's 5, GNOME Mines' 4, 5, 6), or lack at a cell
// size (ace's 5 at 24 px), cut from other captures of the same game played here (seeds 5, 7, 9, 11 and on, in
// fixtures/<game>/learn/). Templates of labels the skin has at that size are left as they are. Run after `npm run build`; `npm run skins` runs it.
//   node scripts/add-labels.js <skin> [--only=<labels>] <capture.png>...   (each with its .board.txt beside it;
//   --only=6: only those labels)
const fs = require('node:fs');
const path = require('node:path');
const { learn } = require('../dist/learn');
const { loadSkin } = require('../dist/skin');
const { parseBoard } = require('../dist/board');
const { writePng } = require('../dist/render');

async function main() {
  const [skinName, ...rest] = process.argv.slice(2);
  const only = rest.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const captures = rest.filter((a) => !a.startsWith('--only='));
  const out = path.join(__dirname, '..', 'skins', skinName);
  // a label counts as had at the cell sizes it has templates of: a game draws small cells with other glyphs
  const have = new Set((await loadSkin(out)).templates.map((t) => `${t.label}@${t.image.width}`));
  const sources = captures.map((image) => ({ image, board: parseBoard(fs.readFileSync(image.replace(/\.png$/, '.board.txt'), 'utf8')) }));
  const learned = await learn(sources, skinName);
  const added = new Map();
  for (const t of learned.templates) {
    const key = `${t.label}@${t.image.width}`;
    if (!/^[0-8]$/.test(t.label) || have.has(key) || (only && !only.includes(t.label))) continue;
    added.set(key, (added.get(key) ?? 0) + 1);
    await writePng(t.image, path.join(out, freeName(out, t.label)));
  }
  await loadSkin(out);
  console.log(`${skinName}: added ${[...added].map(([l, n]) => `${l}×${n}`).join(' ') || 'nothing'}`);
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
