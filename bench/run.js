// @ts-check
// npm run bench: per-stage medians in-process, and whole-process time of the CLI. Not a test.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const ma = require('../dist/index.js');
const { encode } = require('../dist/encode.js');
const { solve } = require('../dist/solve.js');

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '..', 'shared');
const RUNS = 15;

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** @param {() => Promise<unknown> | unknown} fn */
async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** @param {string} file @param {string | undefined} skinName */
async function stages(file, skinName) {
  const skin = await ma.loadSkin(skinName ?? 'xdemineur');
  const bytes = fs.readFileSync(file);
  /** @type {Record<string, number[]>} */
  const t = { decode: [], locate: [], grid: [], classify: [], 'encode+solve': [], render: [] };
  for (let i = 0; i < RUNS + 2; i++) {
    let image, located, grid, readings, deductions;
    const d = [
      await time(async () => (image = await ma.decode(bytes))),
      await time(async () => (located = await ma.locate(image))),
      await time(() => (grid = ma.fitGrid(image, located))),
      await time(() => (readings = ma.classify(image, grid, skin))),
      await time(() => {
        const cells = Array.from({ length: grid.rows }, () => new Array(grid.cols).fill('.'));
        for (const r of readings) cells[r.row][r.col] = r.cell;
        deductions = solve(encode({ rows: grid.rows, cols: grid.cols, cells, totalMines: null }));
      }),
      await time(() => ma.render(image, grid, { mines: [], safe: [], unreadable: [], provenFlags: [], wrongFlags: [] })),
    ];
    if (i >= 2) Object.keys(t).forEach((k, j) => t[k].push(d[j]));
    void deductions;
  }
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
}

/** @param {string[]} args */
function wholeProcess(args) {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    execFileSync(process.execPath, [path.join(ROOT, 'bin/mine-assist.js'), ...args], { stdio: 'ignore' });
    runs.push(performance.now() - t);
  }
  return median(runs);
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mine-assist-bench-'));
  const cases = [{ name: 'xdemineur s2-03 (30×16, 1280×1024)', file: path.join(ROOT, 'fixtures/xdemineur/s2-03.png'), skin: undefined }];
  const mine01 = path.join(SHARED, 'corpus/win7/mine01.png');
  if (fs.existsSync(mine01)) {
    const skinDir = path.join(tmp, 'win7');
    const board = ma.parseBoard(fs.readFileSync(path.join(SHARED, 'seed-expectations/mine01.board.txt'), 'utf8'));
    await ma.saveSkin(await ma.learn([{ image: mine01, board }], 'win7'), skinDir);
    cases.unshift({ name: 'win7 mine01 (30×16, 601×352)', file: mine01, skin: skinDir });
  }
  const rows = [];
  for (const c of cases) {
    const s = await stages(c.file, c.skin);
    const out = path.join(tmp, 'out.png');
    const whole = wholeProcess([c.file, '-o', out, ...(c.skin ? ['--skin', c.skin] : [])]);
    rows.push({ case: c.name, ...Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.toFixed(1)])), 'whole process': whole.toFixed(0) });
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`medians in ms (${RUNS} in-process runs after 2 warm-ups; whole process: 5 runs of bin/mine-assist.js), node ${process.version}, ${os.cpus().length} cores`);
  console.table(rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
