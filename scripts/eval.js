// @ts-check
// npm run eval -- <dir> [--variants | --variant=150%,jpeg75,133%,webp] [--misses] [--learn] [--leave-out]: reads
// every screenshot in <dir> (recursively) that has a ground-truth board text beside it (<name>.board.txt;
// <name>.mines.txt, when present, checks every deduction), and prints per game and copy: boards located, boards
// read at the wrong size or place, cells right / total, unreadable cells, false deductions, deductions the true
// board does not give (drawn from misread cells), marks on cells that are not hidden, and the mine counter read and
// used with the true total (<name>.meta.json `mines`; a wrong total used is counted apart). Folders named learn/
// (the screenshots skins were built from) are skipped unless --learn. --leave-out reads each game's shots with the
// skins of its look removed (LOOK_SKINS): as a look the reader was never taught.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { falseOnPart } = require('./false-on-part.js');
const { analyzeBoard, analyzeImage } = require('../dist/analyze/analyze.js');
const { builtinSkinNames } = require('../dist/skin/skin.js');
const { parseBoard, parseCellName } = require('../dist/common/board.js');
const { VARIANTS, ENCODINGS, variant: copyNamed } = require('./variants.js');

/**
 * The built-in skins made from each game's captures, by the game's folder name: the skins named so, or starting
 * with the name and a dash, unless listed here.
 */
const LOOK_SKINS = {
  'classic-2000': ['windows-classic'],
  'classic-brandon': ['windows-classic'],
  google: ['google'],
  win7: ['windows-7'],
};

/** @param {string} game @param {string[]} skins @returns {string[]} */
function skinsOfLook(game, skins) {
  const look = game.split('/')[0];
  const named = /** @type {Record<string, string[]>} */ (LOOK_SKINS)[look];
  return named ?? skins.filter((s) => s === look || s.startsWith(`${look}-`));
}

/** @param {string} dir @param {boolean} learn @returns {string[]} */
function shots(dir, learn) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'learn' && !learn ? [] : shots(p, learn);
      return /\.png$/.test(e.name) &&
        !/\.(annotated|debug)\.png$/.test(e.name) &&
        fs.existsSync(p.replace(/\.png$/, '.board.txt'))
        ? [p]
        : [];
    })
    .sort();
}

/** @param {string} file */
function trueMines(file) {
  const m = file.replace(/\.png$/, '.mines.txt');
  if (!fs.existsSync(m)) return null;
  const rows = fs.readFileSync(m, 'utf8').trim().split('\n');
  return new Set(rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '*' ? [`r${r}c${c}`] : []))));
}

/** The game's true total of mines (meta.json), or null. @param {string} file @returns {number | null} */
function trueTotal(file) {
  const m = file.replace(/\.png$/, '.meta.json');
  return fs.existsSync(m) ? (JSON.parse(fs.readFileSync(m, 'utf8')).mines ?? null) : null;
}

async function main() {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir)
    throw new Error(
      'usage: npm run eval -- <dir> [--variants | --variant=150%,jpeg75,133%] [--misses] [--learn] [--leave-out]',
    );
  const named = args
    .find((a) => a.startsWith('--variant='))
    ?.slice('--variant='.length)
    .split(',');
  const unknown = named?.find((v) => !copyNamed(v));
  if (unknown)
    throw new Error(
      `unknown variant ${unknown} ` +
        `(known: ${[...Object.keys(VARIANTS), ...Object.keys(ENCODINGS), 'window', 'tight'].join(', ')}, ` +
        'or any scale: 75%)',
    );
  const variants = named ?? (args.includes('--variants') ? Object.keys(VARIANTS) : ['100%']);
  const misses = [];
  /**
   * @type {Map<string, {boards:number, located:number, right:number, cells:number, unreadable:number,
   *   falseDeductions:number}>}
   */
  const table = new Map();
  const failures = [];
  const leaveOut = args.includes('--leave-out');
  const builtins = leaveOut ? await builtinSkinNames() : [];
  for (const file of shots(dir, args.includes('--learn'))) {
    const truth = parseBoard(fs.readFileSync(file.replace(/\.png$/, '.board.txt'), 'utf8'));
    const mines = trueMines(file);
    const game = path.relative(dir, file).split(path.sep).slice(0, -1).join('/') || '.';
    for (const variant of variants) {
      const bytes = await /** @type {(b: Buffer, file: string) => Promise<Buffer>} */ (copyNamed(variant))(
        fs.readFileSync(file),
        file,
      );
      const { analysis } = await analyzeImage(
        bytes,
        file,
        leaveOut ? { skin: { except: skinsOfLook(game, builtins) } } : {},
      );
      const key = `${game} ${variant}`;
      const row = table.get(key) ?? {
        boards: 0,
        located: 0,
        right: 0,
        cells: 0,
        unreadable: 0,
        falseDeductions: 0,
        misplaced: 0,
        unsupported: 0,
        notHidden: 0,
        skins: new Set(),
        counters: 0,
        countersRight: 0,
        countersWrong: 0,
      };
      const total = trueTotal(file);
      if (total !== null) {
        row.counters++;
        if (analysis.counter?.used && analysis.board?.totalMines === total) row.countersRight++;
        else if (analysis.counter?.used) row.countersWrong++;
      }
      row.boards++;
      row.cells += truth.rows * truth.cols;
      const b = analysis.board;
      if (b && b.rows === truth.rows && b.cols === truth.cols) {
        row.located++;
        row.skins.add(analysis.skin);
        const wrong = [];
        for (let r = 0; r < b.rows; r++)
          for (let c = 0; c < b.cols; c++) {
            if (b.cells[r][c] === truth.cells[r][c]) row.right++;
            else wrong.push(`r${r}c${c} ${truth.cells[r][c]}→${b.cells[r][c]}`);
          }
        if (wrong.length)
          misses.push(
            `${key} ${path.basename(file)}: ${wrong.length} ` +
              `(${wrong.slice(0, 8).join(', ')}${wrong.length > 8 ? ', …' : ''})`,
          );
        row.unreadable += analysis.unreadable.length;
        const d = analysis.deductions;
        if (d && mines)
          row.falseDeductions +=
            d.mines.filter((n) => !mines.has(n)).length + d.safe.filter((n) => mines.has(n)).length;
        if (d) {
          const marked = [...d.mines, ...d.safe];
          const hiddenInTruth = (/** @type {string} */ n) => {
            const [r, c] = parseCellName(n);
            return '.?F'.includes(truth.cells[r][c]);
          };
          row.notHidden += marked.filter((n) => !hiddenInTruth(n)).length;
          const certain = analyzeBoard({ ...truth, totalMines: b.totalMines }, file, { reasons: false }).deductions;
          const proven = new Set([...(certain?.mines ?? []), ...(certain?.safe ?? [])]);
          row.unsupported += marked.filter((n) => !proven.has(n)).length;
        }
      } else {
        if (b) row.misplaced++;
        const part = b && analysis.deductions && mines ? falseOnPart(b, truth, analysis.deductions, mines) : null;
        if (part) row.falseDeductions += part.false;
        const placed = part
          ? ` at row ${part.dr}, column ${part.dc} of it (${part.false} false of ${part.deductions} deductions)`
          : '';
        failures.push(
          `${key} ${path.basename(file)}: ` +
            `${analysis.error ?? `read ${b?.rows}×${b?.cols}, truth ${truth.rows}×${truth.cols}${placed}`}`,
        );
      }
      table.set(key, row);
    }
  }
  console.table(
    [...table].map(([key, r]) => ({
      'game variant': key,
      skin: [...r.skins].join(' '),
      located: `${r.located}/${r.boards}`,
      'cells right': `${r.right}/${r.cells}`,
      '%': ((100 * r.right) / r.cells).toFixed(2),
      unreadable: r.unreadable,
      misplaced: r.misplaced,
      'false deductions': r.falseDeductions,
      'from misreads': r.unsupported,
      'on not hidden': r.notHidden,
      'counter used': `${r.countersRight}/${r.counters}`,
      'counter wrong': r.countersWrong,
    })),
  );
  const all = [...table.values()];
  const sum = (/** @type {(r: any) => number} */ f) => all.reduce((n, r) => n + f(r), 0);
  console.log(
    `all: ${sum((r) => r.located)}/${sum((r) => r.boards)} boards located, ` +
      `cells right ${sum((r) => r.right)}/${sum((r) => r.cells)}` +
      ` = ${((100 * sum((r) => r.right)) / sum((r) => r.cells)).toFixed(3)}%, ` +
      `misplaced ${sum((r) => r.misplaced)}, unreadable ${sum((r) => r.unreadable)}, ` +
      `false deductions ${sum((r) => r.falseDeductions)}, from misreads ${sum((r) => r.unsupported)}, ` +
      `marks on cells not hidden ${sum((r) => r.notHidden)},` +
      ` counter used with the true total ${sum((r) => r.countersRight)}/${sum((r) => r.counters)}, ` +
      `wrong total used ${sum((r) => r.countersWrong)}`,
  );
  for (const f of failures) console.log('not located:', f);
  if (args.includes('--misses')) for (const m of misses) console.log('cells not right:', m);
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
