// Teaches the built-in skins a question mark (`?`) and, after a lost game, a wrong flag (`!`), cut from
// screenshots taken here by scripts/capture-marks.py (fixtures/marks/learn/<game>-v<i>-marks.png and -lost.png;
// the .json beside each says where the script put its question marks, and which flags the lost game shows as
// wrong). The other cells of a marks shot are read with the skin itself and must all be readable; a lost shot
// must be located whole, its unreadable cells being the mines it shows (GNOME Mines darkens its hidden cells and
// flags after a loss, which no template knows, so there those may be unreadable). The captures in fixtures/marks/
// are left for the tests. Wrong flags are learned only for skins that know a mine shown (`*`: xdemineur, ace,
// KMines default): elsewhere a shown mine could read as a wrong flag, i.e. a safe cell. xbomb has no question mark
// and shows no flag after a loss: nothing is learned for it.
// Run after `npm run build`; `npm run skins` runs it.
const fs = require('node:fs');
const path = require('node:path');
const { analyzeImage } = require('../dist/analyze/analyze');
const { learn } = require('../dist/analyze/learn');
const { writeLabelFiles } = require('./label-files');

const root = path.resolve(__dirname, '..');
const NAMES = { '?': 'question', '!': 'wrong-flag' };

/** The cells the capture marked, as [row, col, label]. */
function marked(meta) {
  if (meta.cells) return meta.cells.filter(([, , label]) => label === '?');
  return (meta.wrong ?? []).map(([r, c]) => [r, c, '!']);
}

/** Whether the skin has templates of a mine shown in a lost game (scripts/learn-lost.js). */
function hasMines(skin) {
  return fs.readdirSync(path.join(root, 'skins', skin)).some((f) => /^mine(-[a-z])?\.png$/.test(f));
}

async function main() {
  const dir = path.join(root, 'fixtures', 'marks', 'learn');
  // the shots are read without the templates this script made before (a rebuild, not an addition)
  for (const skin of fs.readdirSync(path.join(root, 'skins'))) {
    if (!fs.statSync(path.join(root, 'skins', skin)).isDirectory()) continue;
    const folder = path.join(root, 'skins', skin);
    for (const f of fs.readdirSync(folder).filter((f) => /^(question|wrong-flag)(-[a-z])?\.png$/.test(f)))
      fs.rmSync(path.join(folder, f));
  }
  const bySkin = new Map();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => /-(marks|lost)\.json$/.test(f))
    .sort()) {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    const png = path.join(dir, file.replace(/\.json$/, '.png'));
    const marks = marked(meta);
    if (!marks.length) {
      console.log(
        `${file}: nothing marked${
          meta.wrong === null
            ? ' (wrong flags not listed: GNOME Mines redraws every flag after a loss, and no skin reads its lost ' +
              'boards)'
            : ''
        }, skipped`,
      );
      continue;
    }
    const { analysis } = await analyzeImage(png, png);
    if (
      !analysis.grid ||
      !analysis.board ||
      analysis.board.rows !== meta.board.rows ||
      analysis.board.cols !== meta.board.cols
    ) {
      console.log(`${file}: board not found whole (${analysis.error ?? 'other size'}), skipped`);
      continue;
    }
    if (meta.wrong && !hasMines(analysis.skin)) {
      // a wrong flag reads as a safe cell: in a skin with no template for a mine shown, the shown mines (a bomb,
      // as the wrong flag's, without the cross) would come closest to it, a false fact
      console.log(`${file}: skin ${analysis.skin} knows no mine shown (*), its wrong flags are not learned`);
      continue;
    }
    const known = new Set(marks.map(([r, c]) => `${r},${c}`));
    const unreadable = analysis.readings.filter((r) => r.unreadable && !known.has(`${r.row},${r.col}`));
    if (meta.cells && unreadable.length) {
      console.log(`${file}: ${unreadable.length} cells other than the marked ones unreadable, skipped`);
      continue;
    }
    const stray = analysis.readings.filter(
      (r) => (r.cell === '?' || r.cell === '!') && !known.has(`${r.row},${r.col}`),
    );
    if (stray.length)
      throw new Error(`${file}: cells not marked read as ? or !: ${stray.map((r) => `r${r.row}c${r.col}`).join(' ')}`);
    const cells = analysis.board.cells.map((row) => [...row]);
    // a lost shot's unreadable cells are the mines it shows, which some skins have no template for (checked by
    // eye); labelled so only to let learn() place the board text (one look per label): only ? and ! are kept
    for (const { row, col } of unreadable) cells[row][col] = '*';
    for (const [r, c, label] of marks) cells[r][c] = label;
    const list = bySkin.get(analysis.skin) ?? [];
    list.push({ image: png, board: { rows: cells.length, cols: cells[0].length, cells, totalMines: null } });
    bySkin.set(analysis.skin, list);
    console.log(
      `${file}: ${marks.length} × ${marks[0][2]}` +
        `${unreadable.length ? `, ${unreadable.length} other cells unreadable` : ''} (skin ${analysis.skin})`,
    );
  }
  for (const [skinName, sources] of [...bySkin].sort()) {
    const learned = await learn(sources, skinName);
    const out = path.join(root, 'skins', skinName);
    console.log(`${skinName}: ${await writeLabelFiles(learned, out, NAMES)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
