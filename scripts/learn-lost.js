// Teaches the built-in skins the cells of a lost game: a mine shown (`*`) and the exploded mine (`X`), cut from
// screenshots taken here right after losing on purpose (fixtures/<game>/lost/s3-*.reveal.png; the true layout
// beside each). The other cells of those shots are read with the skin itself and must all be readable; the
// exploded mine is the one mine cell whose colour stands apart. s4 shots are left for the tests.
// Run after `npm run build`; `npm run skins` runs it.
const fs = require('node:fs');
const path = require('node:path');
const { analyzeImage } = require('../dist/analyze/analyze');
const { learn } = require('../dist/analyze/learn');
const { writeLabelFiles } = require('./label-files');
const { decode } = require('../dist/image/decode');
const { cellPatch } = require('../dist/image/patch');

const root = path.resolve(__dirname, '..');
const GAMES = ['xdemineur', 'ace-minesweeper', 'kmines'];
const NAMES = { '*': 'mine', X: 'exploded' };

function mineCells(file) {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '*' ? [[r, c]] : [])));
}

/** The mine cell whose mean colour is farthest from the mines' median colour, if far (the exploded one). */
function exploded(image, grid, mines) {
  const colours = mines.map(([r, c]) => {
    const p = cellPatch(image, grid, r, c, 0.08, 6).rgb;
    return [0, 1, 2].map((k) => Array.from({ length: 36 }, (_, i) => p[i * 3 + k]).reduce((a, b) => a + b, 0) / 36);
  });
  const median = [0, 1, 2].map((k) => colours.map((c) => c[k]).sort((a, b) => a - b)[Math.floor(colours.length / 2)]);
  const far = colours.map((c) => Math.hypot(c[0] - median[0], c[1] - median[1], c[2] - median[2]));
  const i = far.indexOf(Math.max(...far));
  const next = Math.max(...far.filter((_, j) => j !== i));
  return far[i] > 30 && far[i] > 1.5 * next ? i : -1;
}

async function main() {
  const bySkin = new Map();
  for (const game of GAMES) {
    const dir = path.join(root, 'fixtures', game, 'lost');
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => /^s3-\d+\.reveal\.png$/.test(f))
      .sort()) {
      const png = path.join(dir, file);
      const { analysis } = await analyzeImage(png, png);
      if (!analysis.grid || !analysis.readings) continue;
      const mines = mineCells(png.replace('.reveal.png', '.mines.txt'));
      const truth = fs.readFileSync(png.replace('.reveal.png', '.mines.txt'), 'utf8').trim().split('\n');
      if (analysis.board.rows !== truth.length || analysis.board.cols !== truth[0].length) {
        console.log(`${game} ${file}: board not found whole, skipped`);
        continue;
      }
      const isMine = new Set(mines.map(([r, c]) => `${r},${c}`));
      if (analysis.readings.some((r) => r.unreadable && !isMine.has(`${r.row},${r.col}`))) {
        console.log(`${game} ${file}: cells other than mines unreadable, skipped`);
        continue;
      }
      const cells = analysis.board.cells.map((row) => [...row]);
      const x = exploded(await decode(png), analysis.grid, mines);
      mines.forEach(([r, c], i) => (cells[r][c] = i === x ? 'X' : '*'));
      const list = bySkin.get(analysis.skin) ?? [];
      list.push({ image: png, board: { rows: cells.length, cols: cells[0].length, cells, totalMines: null } });
      bySkin.set(analysis.skin, list);
      console.log(
        `${game} ${file}: ${mines.length} mines, ` +
          `exploded ${x >= 0 ? mines[x] : 'not told apart'} (skin ${analysis.skin})`,
      );
    }
  }
  for (const [skinName, sources] of bySkin) {
    const learned = await learn(sources, skinName);
    const out = path.join(root, 'skins', skinName);
    for (const f of fs.readdirSync(out).filter((f) => /^(mine|exploded)(-[a-z])?\.png$/.test(f)))
      fs.rmSync(path.join(out, f));
    console.log(`${skinName}: ${await writeLabelFiles(learned, out, NAMES)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
