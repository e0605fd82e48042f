// @ts-check
// node scripts/learn-frames.js: each built-in skin's frame prints (src/locate/frame.ts), from the captures in
// fixtures/<game>/learn/ that read as that skin, into its skin.json, each print stopping at the game window's
// edge (from the capture's meta.json: beyond it the live tool's screen is black, a user's desktop is not).
// Run after `npm run build`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { analyzeImage } = require('../dist/analyze/analyze.js');
const { decode } = require('../dist/image/decode.js');
const { framePrints, mergePrints } = require('../dist/locate/frame.js');
const { framesJson } = require('../dist/skin/skin.js');

const ROOT = path.resolve(__dirname, '..');
const GAMES = [
  'xdemineur',
  'xbomb',
  'ace-minesweeper',
  'gnome-mines',
  'kmines',
  'classic-2000',
  'classic-brandon',
  'google',
];

async function main() {
  /** @type {Map<string, any[]>} */
  const bySkin = new Map();
  for (const game of GAMES) {
    const dir = path.join(ROOT, 'fixtures', game, 'learn');
    for (const name of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort()) {
      const bytes = fs.readFileSync(path.join(dir, name));
      const { analysis } = await analyzeImage(bytes, name, { reasons: false });
      if (!analysis.grid || !analysis.skin) throw new Error(`${game}/learn/${name}: ${analysis.error ?? 'no skin'}`);
      const { window: w } = JSON.parse(fs.readFileSync(path.join(dir, name.replace(/\.png$/, '.meta.json')), 'utf8'));
      const window = { left: w.x, top: w.y, width: w.w, height: w.h };
      bySkin.set(analysis.skin, [
        ...(bySkin.get(analysis.skin) ?? []),
        framePrints(await decode(bytes), analysis.grid, window),
      ]);
    }
  }
  for (const [skin, prints] of bySkin) {
    const file = path.join(ROOT, 'skins', skin, 'skin.json');
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    json.frames = framesJson(mergePrints(prints));
    fs.writeFileSync(file, JSON.stringify(json, null, 2) + '\n');
    console.log(
      `${skin}: ${prints.length} captures, ${Object.entries(json.frames)
        .map(([side, p]) => `${side} ${p.length}`)
        .join(', ')}`,
    );
  }
}

main().catch((err) => {
  process.stderr.write(`learn-frames: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
