// @ts-check
// npm run eval -- <dir> [--variants | --variant=150%,jpeg75,133%,webp] [--misses] [--learn]: reads every screenshot
// in <dir> (recursively) that has a ground-truth board text beside it (<name>.board.txt; <name>.mines.txt, when
// present, checks every deduction), and prints per skin: boards located, cells right / total, unreadable rate, false
// deductions, and the mine counter read and used with the true total (<name>.meta.json `mines`; a wrong total used is
// counted apart). Folders named learn/ (the screenshots skins were built from) are skipped unless --learn.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { falseOnPart } = require('./false-on-part.js');
const { analyzeImage } = require('../dist/analyze/analyze.js');
const { parseBoard, parseCellName } = require('../dist/common/board.js');
const { VARIANTS, ENCODINGS, variant: copyNamed } = require('./variants.js');

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
    throw new Error('usage: npm run eval -- <dir> [--variants | --variant=150%,jpeg75,133%] [--misses] [--learn]');
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
  for (const file of shots(dir, args.includes('--learn'))) {
    const truth = parseBoard(fs.readFileSync(file.replace(/\.png$/, '.board.txt'), 'utf8'));
    const mines = trueMines(file);
    const game = path.relative(dir, file).split(path.sep).slice(0, -1).join('/') || '.';
    for (const variant of variants) {
      const bytes = await /** @type {(b: Buffer, file: string) => Promise<Buffer>} */ (copyNamed(variant))(
        fs.readFileSync(file),
        file,
      );
      const { analysis } = await analyzeImage(bytes, file, {});
      const key = `${game} ${variant}`;
      const row = table.get(key) ?? {
        boards: 0,
        located: 0,
        right: 0,
        cells: 0,
        unreadable: 0,
        falseDeductions: 0,
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
      } else {
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
      'false deductions': r.falseDeductions,
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
      `unreadable ${sum((r) => r.unreadable)}, false deductions ${sum((r) => r.falseDeductions)},` +
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
