// @ts-check
// npm run bench: per-stage medians in-process, and whole-process time of the CLI; the held-out screenshots, also
// at the eval's 50 % and desktop copies; batches at --jobs 1 and 2 (and of mine01 copies with its learned skin, 200
// and 1000); then the solver alone (deductions, probabilities, whole board analysis) on mine01, random expert
// positions and 100×100 boards; a watch's frame-to-marks latency (bench/watch.js; alone: --watch). Not a test.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const ma = require('../dist/index.js');
const { encode } = require('../dist/solve/encode.js');
const { solve } = require('../dist/solve/solve.js');
const { probabilities } = require('../dist/solve/probability.js');
const { locateAll } = require('../dist/locate/locate.js');
const { readBoard } = require('../dist/read/read.js');
const { annotate } = require('../dist/analyze/batch.js');
const { watchSection } = require('./watch.js');

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '..', 'shared');
const RUNS = 15;
/**
 * Untimed rounds of each stage case first: in-process is meant as what a batch spends on a file past its first 50,
 * which V8's optimising compiler has met (a thread's first analyses take several times as long).
 */
const WARM_UPS = 30;
const BATCH = 200;
const BATCH_RUNS = 3;
/**
 * A long batch of mine01 (hard links to one copy): its first second or so, while workers start and V8 compiles,
 * counts for less.
 */
const LONG_BATCH = 1000;

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** @param {() => Promise<unknown> | unknown} fn */
async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * Each stage as analyzeImage runs it: locate = square outlines and lattices (no OpenCV), grid = the fit of
 * each candidate, read = choosing the skin, aligning the grid to it and reading every cell.
 * @param {string} file @param {string | undefined} skinName
 */
async function stages(file, skinName) {
  const bytes = fs.readFileSync(file);
  /** @type {Record<string, number[]>} */
  const t = {
    decode: [],
    locate: [],
    grid: [],
    read: [],
    encode: [],
    solve: [],
    render: [],
    'in-process': [],
    'in-process, --json': [],
  };
  for (let i = 0; i < WARM_UPS + RUNS; i++) {
    /** @type {any} */ let image;
    /** @type {any} */ let candidates;
    /** @type {any} */ let grids;
    /** @type {any} */ let read;
    /** @type {any} */ let problem;
    /** @type {any} */ let deductions;
    const d = [
      await time(async () => (image = await ma.decode(bytes))),
      await time(async () => (candidates = await locateAll(image))),
      await time(() => (grids = candidates.map((/** @type {any} */ c) => ma.fitGrid(image, c)))),
      await time(
        async () =>
          (read = await readBoard(
            image,
            grids.map((/** @type {any} */ g) => () => g),
            skinName,
            {},
            1,
          )),
      ),
      await time(() => {
        const cells = Array.from({ length: read.grid.rows }, () => new Array(read.grid.cols).fill('.'));
        for (const r of read.readings) cells[r.row][r.col] = r.cell;
        problem = encode({ rows: read.grid.rows, cols: read.grid.cols, cells, totalMines: null });
      }),
      await time(() => (deductions = solve(problem))),
      await time(() =>
        ma.render(image, read.grid, { mines: [], safe: [], unreadable: [], provenFlags: [], wrongFlags: [] }),
      ),
      await time(() => analyzeAndRender(bytes, file, { skin: skinName })),
      await time(() => analyzeAndRender(bytes, file, { skin: skinName, reasons: true })),
    ];
    if (i >= WARM_UPS) Object.keys(t).forEach((k, j) => t[k].push(d[j]));
    void deductions;
  }
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
}

/** Runs of the CLI per case, each way: a fresh process's time varies widely from one run to the next. */
const WHOLE_RUNS = 15;

/**
 * The CLI's whole process, median of WHOLE_RUNS: as a first run (no tiles kept, `MINE_ASSIST_CACHE=off`) and with the
 * marks' tiles kept by an earlier run (one untimed run keeps them first), the two alternating so that the machine's
 * drift falls on both alike.
 * @param {string[]} args @param {string} cache where the marks' tiles are kept (src/output/tilecache.ts)
 */
function wholeProcess(args, cache) {
  const run = (/** @type {string} */ tiles) => {
    const t = performance.now();
    execFileSync(process.execPath, [path.join(ROOT, 'bin/mine-assist.js'), ...args], {
      stdio: 'ignore',
      env: { ...process.env, MINE_ASSIST_CACHE: tiles },
    });
    return performance.now() - t;
  };
  run(cache);
  const first = [];
  const kept = [];
  for (let i = 0; i < WHOLE_RUNS; i++) {
    first.push(run('off'));
    kept.push(run(cache));
  }
  return { first: median(first), kept: median(kept) };
}

async function main() {
  // `npm run bench -- --watch`: the watch section alone
  if (process.argv.includes('--watch')) return watchSection();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mine-assist-bench-'));
  // the marks' tiles drawn by the bench's runs are kept here, not in the user's cache (src/output/tilecache.ts)
  process.env.MINE_ASSIST_CACHE = path.join(tmp, 'tiles');
  const cases = [
    {
      name: 'xdemineur s2-03 (30×16, 1280×1024)',
      file: path.join(ROOT, 'fixtures/xdemineur/s2-03.png'),
      skin: undefined,
    },
  ];
  cases.push({
    name: 'GNOME Mines s2-02 (16×16, 1280×1024)',
    file: path.join(ROOT, 'fixtures/gnome-mines/s2-02.png'),
    skin: undefined,
  });
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
    const args = [c.file, '-o', out, ...(c.skin ? ['--skin', c.skin] : [])];
    const { first, kept } = wholeProcess(args, /** @type {string} */ (process.env.MINE_ASSIST_CACHE));
    rows.push({
      case: c.name,
      ...Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.toFixed(1)])),
      'whole process': kept.toFixed(0),
      'whole, no tiles kept': first.toFixed(0),
    });
  }
  const heldOut = await heldOutTable();
  const copies = await copiesTable();
  const batch = await batchTable(tmp, fs.existsSync(mine01) ? { file: mine01, skin: path.join(tmp, 'win7') } : null);
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(
    `medians in ms (${RUNS} in-process runs after ${WARM_UPS} warm-ups; in-process = what a batch does with a file ` +
      "it has read: analyzeImage with the CLI's defaults, then the annotated PNG; --json adds each deduction's " +
      `reasons; whole process: ${WHOLE_RUNS} runs of bin/mine-assist.js each way, alternating: the marks' tiles ` +
      'kept on disk from an earlier run, as for any screenshot after the first of a game at one size; no tiles ' +
      `kept: as a first run, sharp loaded to draw them), node ${process.version}, ${os.cpus().length} cores`,
  );
  console.table(rows);
  console.log(
    '\nthe 74 held-out screenshots of fixtures/ (5 games, 1280×1024, boards 8×8 to 32×32), each once in one ' +
      'process after 5 warm-ups: analyzed and annotated as a batch does, ms per screenshot',
  );
  console.table(heldOut);
  console.log(
    '\nthe same 74 screenshots as the eval copies them: shrunk to 50 %, and fitted onto a 1920×1080 desktop ' +
      '(a counter a few pixels tall is read as a whole text there), each once: analyzed and annotated as a batch ' +
      'does, ms per screenshot',
  );
  console.table(copies);
  console.log(
    `\nbatch of ${BATCH} screenshots (the 5 held-out xdemineur shots, 1280×1024, boards 9×9 to 30×16; last ` +
      `rows: ${BATCH} copies of mine01, 601×352, read with its learned skin, at --jobs 1 and 2, and ${LONG_BATCH} ` +
      'of it), one process: wall time, throughput, the median time an image took in the thread that analysed it ' +
      `(summary.json's ms: read, analysed, annotated PNG written) past the first ${WARM_UP}, peak RSS; median of ` +
      `${BATCH_RUNS} runs each`,
  );
  console.table(batch);
  solverTable();
  await watchSection();
}

/** Per game, median and slowest in-process time of its held-out screenshots (default options: every skin tried). */
async function heldOutTable() {
  const games = ['xdemineur', 'xbomb', 'gnome-mines', 'ace-minesweeper', 'kmines'];
  const shotsOf = (/** @type {string} */ game) =>
    fs
      .readdirSync(path.join(ROOT, 'fixtures', game))
      .filter((f) => /^s[234]-\d+\.png$/.test(f))
      .map((f) => path.join(ROOT, 'fixtures', game, f));
  for (const file of shotsOf('xdemineur').slice(0, 5)) await analyzeAndRender(fs.readFileSync(file), file);
  /** @type {number[]} */
  const all = [];
  const rows = [];
  for (const game of games) {
    const times = [];
    for (const file of shotsOf(game)) times.push(await time(() => analyzeAndRender(fs.readFileSync(file), file)));
    all.push(...times);
    rows.push({ game, shots: times.length, median: median(times).toFixed(0), slowest: Math.max(...times).toFixed(0) });
  }
  rows.push({ game: 'all', shots: all.length, median: median(all).toFixed(0), slowest: Math.max(...all).toFixed(0) });
  return rows;
}

/** Median, mean and slowest in-process time of the held-out screenshots at the eval's 50 % and desktop copies. */
async function copiesTable() {
  const { VARIANTS } = require('../scripts/variants.js');
  const files = ['xdemineur', 'xbomb', 'gnome-mines', 'ace-minesweeper', 'kmines'].flatMap((game) =>
    fs
      .readdirSync(path.join(ROOT, 'fixtures', game))
      .filter((f) => /^s[234]-\d+\.png$/.test(f))
      .map((f) => path.join(ROOT, 'fixtures', game, f)),
  );
  const rows = [];
  for (const variant of /** @type {const} */ (['50%', 'desktop'])) {
    const times = [];
    for (const file of files) {
      const bytes = await VARIANTS[variant](fs.readFileSync(file));
      times.push(await time(() => analyzeAndRender(bytes, file)));
    }
    rows.push({
      copy: variant,
      shots: times.length,
      median: median(times).toFixed(0),
      mean: (times.reduce((a, b) => a + b, 0) / times.length).toFixed(0),
      slowest: Math.max(...times).toFixed(0),
    });
  }
  return rows;
}

/**
 * What a batch worker does with a file it has read: the analysis with the CLI's defaults (reasons only with
 * --json), then the annotated PNG, drawn over the screenshot's own pixels.
 * @param {Buffer} bytes @param {string} file @param {{ skin?: string, reasons?: boolean }} options
 */
async function analyzeAndRender(bytes, file, options = {}) {
  const { image, analysis } = await ma.analyzeImage(bytes, file, { reasons: false, ...options });
  if (image && analysis.grid && analysis.deductions)
    await annotate(image, analysis.grid, analysis, false, { consume: true });
}

/**
 * A folder of BATCH screenshots through the CLI in a fresh process at --jobs 1 and 2, and on glibc at --jobs 2
 * with MALLOC_ARENA_MAX=1 (one malloc arena for all threads: glibc reads it only as a process starts); with
 * `expert` (mine01 and the skin learned from it), a folder of BATCH copies of it at --jobs 1 and 2 too.
 * BATCH_RUNS times each (alternating, so that the machine's drift reaches all): the median run, and the range.
 * @param {string} tmp @param {{ file: string, skin: string } | null} expert
 */
async function batchTable(tmp, expert) {
  // copies, or for a long batch hard links to one copy (each still read as a file of its own)
  const folder = (
    /** @type {string} */ name,
    /** @type {(i: number) => string} */ source,
    count = BATCH,
    link = false,
  ) => {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    for (let i = 0; i < count; i++) {
      const to = path.join(dir, `shot${String(i).padStart(4, '0')}.png`);
      if (link && i > 0) fs.linkSync(path.join(dir, 'shot0000.png'), to);
      else fs.copyFileSync(source(i), to);
    }
    return dir;
  };
  const dir = folder('batch', (i) => path.join(ROOT, `fixtures/xdemineur/s2-0${(i % 5) + 1}.png`));
  const glibc = Boolean(/** @type {any} */ (process.report?.getReport())?.header?.glibcVersionRuntime);
  /**
   * @type {{ dir: string, count: number, jobs: number, env: Record<string, string>, args: string[],
   *   label: string }[]}
   */
  const settings = [
    { dir, count: BATCH, jobs: 1, env: {}, args: [], label: '1' },
    { dir, count: BATCH, jobs: 2, env: {}, args: [], label: '2' },
    ...(glibc
      ? [{ dir, count: BATCH, jobs: 2, env: { MALLOC_ARENA_MAX: '1' }, args: [], label: '2, MALLOC_ARENA_MAX=1' }]
      : []),
    ...(expert
      ? [
          {
            dir: folder('expert', () => expert.file),
            count: BATCH,
            jobs: 1,
            env: {},
            args: ['--skin', expert.skin],
            label: `1, mine01 ×${BATCH}, --skin learned`,
          },
          {
            dir: path.join(tmp, 'expert'),
            count: BATCH,
            jobs: 2,
            env: {},
            args: ['--skin', expert.skin],
            label: `2, mine01 ×${BATCH}, --skin learned`,
          },
          {
            dir: folder('long', () => expert.file, LONG_BATCH, true),
            count: LONG_BATCH,
            jobs: 2,
            env: {},
            args: ['--skin', expert.skin],
            label: `2, mine01 ×${LONG_BATCH}, --skin learned`,
          },
        ]
      : []),
  ];
  /** @type {{seconds: number, rss: number, pastWarmUp: number, msPastWarmUp: number}[][]} */
  const runs = settings.map(() => []);
  for (let r = 0; r < BATCH_RUNS; r++) {
    for (const [i, setting] of settings.entries())
      runs[i].push(await batchRun(setting.dir, path.join(tmp, `out${i}`), setting.jobs, setting.env, setting.args));
  }
  return settings.map(({ label, count }, i) => {
    const seconds = runs[i].map((run) => run.seconds);
    const rss = runs[i].map((run) => run.rss);
    const range = (/** @type {number[]} */ xs, /** @type {number} */ digits) =>
      `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
    return {
      jobs: label,
      'wall s': median(seconds).toFixed(1),
      'images / s': (count / median(seconds)).toFixed(1),
      [`images / s past the first ${WARM_UP}`]: median(runs[i].map((run) => run.pastWarmUp)).toFixed(1),
      [`ms an image past the first ${WARM_UP}`]: median(runs[i].map((run) => run.msPastWarmUp)).toFixed(1),
      'peak RSS MB': median(rss).toFixed(0),
      'wall s, range': range(seconds, 1),
      'peak RSS MB, range': range(rss, 0),
    };
  });
}

/**
 * The files a batch's rate past its warm-up leaves out: those read while the workers start and V8 compiles the
 * pipeline in each.
 */
const WARM_UP = 50;

/**
 * One batch in a fresh process: wall seconds, peak RSS in MB, files a second past the first WARM_UP (from when the
 * CLI's lines for them reach this process: a line per file, in input order), and the median time a file took in
 * the thread that analysed it (summary.json's `ms`: read, analysed, annotated PNG written) past the first WARM_UP.
 * @param {string} dir @param {string} out @param {number} jobs @param {Record<string, string>} env
 * @param {string[]} args
 * @returns {Promise<{seconds: number, rss: number, pastWarmUp: number, msPastWarmUp: number}>}
 */
function batchRun(dir, out, jobs, env, args) {
  fs.rmSync(out, { recursive: true, force: true });
  const script =
    `require(${JSON.stringify(path.join(ROOT, 'dist/cli/cli.js'))})` +
    `.main(${JSON.stringify([dir, '-o', out, '--jobs', String(jobs), ...args])})` +
    '.then(() => process.stderr.write(`maxrss ${peakRss()}\\n`))' +
    `;${peakRss.toString()}`;
  const t = performance.now();
  const child = spawn(process.execPath, ['-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  /** @type {number[]} */
  const lines = [];
  child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
    const now = performance.now();
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines.push(now);
  });
  let stderr = '';
  child.stderr.on('data', (/** @type {Buffer} */ chunk) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', () => {
      const pastWarmUp =
        lines.length > WARM_UP + 1
          ? (lines.length - 1 - WARM_UP) / ((lines[lines.length - 1] - lines[WARM_UP]) / 1000)
          : NaN;
      /** @type {{ ms: number }[]} */
      const files = JSON.parse(fs.readFileSync(path.join(out, 'summary.json'), 'utf8')).files;
      const msPastWarmUp = median(files.slice(WARM_UP).map((f) => f.ms));
      resolve({
        seconds: (performance.now() - t) / 1000,
        rss: Number(/maxrss (\d+)/.exec(stderr)?.[1] ?? 0) / 1024,
        pastWarmUp,
        msPastWarmUp,
      });
    }),
  );
}

/**
 * The process's peak RSS in kB: VmHWM where Linux has it (getrusage's maxRSS survives exec, so a child would
 * report its parent's peak when that was larger), else maxRSS.
 */
function peakRss() {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))?.[1]);
  } catch {
    return process.resourceUsage().maxRSS;
  }
}

/** @param {number[]} xs @param {number} q */
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/**
 * Times of each step over a set of boards: each step `warmUp` times untimed (V8 compiles the solver over its first
 * ~100 calls, which take many times as long), then `repeat` timed runs.
 * @param {{ board: any, total: number | null }[]} boards @param {number} repeat @param {number} warmUp
 */
function timeSolver(boards, repeat, warmUp = 1) {
  const small = boards[0].board.rows * boards[0].board.cols <= 480;
  /** @type {Record<string, (problem: any, board: any, total: number | null) => unknown>} */
  const steps = {
    deductions: (problem) => solve(problem),
    probabilities: (problem) => probabilities(problem),
    'whole analysis': (_, board, total) => ma.analyzeBoard(board, 'bench', { mines: total }),
    'counting engine': (problem) => solve(problem, { engine: 'count' }),
    ...(small ? { 'bare SAT': (/** @type {any} */ problem) => solve(problem, { engine: 'sat' }) } : {}),
  };
  /** @type {Record<string, number[]>} */
  const t = Object.fromEntries(Object.keys(steps).map((name) => [name, []]));
  for (const { board, total } of boards) {
    const problem = encode(board, { totalMines: total });
    for (const [name, step] of Object.entries(steps)) {
      for (let i = 0; i < warmUp; i++) step(problem, board, total);
      for (let i = 0; i < repeat; i++) {
        const start = performance.now();
        step(problem, board, total);
        t[name].push(performance.now() - start);
      }
    }
  }
  return Object.fromEntries(
    Object.entries(t).map(([name, xs]) => [name, `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.99).toFixed(1)}`]),
  );
}

function solverTable() {
  const rows = [];
  const mine01 = path.join(SHARED, 'seed-expectations/mine01.board.txt');
  if (fs.existsSync(mine01)) {
    const board = ma.parseBoard(fs.readFileSync(mine01, 'utf8'));
    rows.push({ case: 'mine01, no total (30 runs after 100)', ...timeSolver([{ board, total: null }], 30, 100) });
    rows.push({ case: 'mine01, 99 mines (30 runs after 100)', ...timeSolver([{ board, total: 99 }], 30, 100) });
  }
  const expert = Array.from({ length: 240 }, (_, i) => ({
    board: randomBoard(1000 + i, 16, 30, 99, 1 + (i % 12) * 2),
    total: 99,
  }));
  rows.push({ case: '240 random expert positions', ...timeSolver(expert, 1) });
  const big = Array.from({ length: 8 }, (_, i) => ({
    board: randomBoard(2000 + i, 100, 100, 2000, 20 + i * 60),
    total: 2000,
  }));
  rows.push({ case: '8 random 100×100, 2000 mines', ...timeSolver(big, 1) });
  const sparse = Array.from({ length: 8 }, (_, i) => ({ board: sparseBoard(3000 + i), total: 2000 }));
  rows.push({ case: '8 × 100×100 all hidden but a few counts', ...timeSolver(sparse, 1) });
  console.log(
    '\nsolver, in-process: median / p99 in ms (per board; mine01: per run). deductions = the default ' +
      '(propagation, then the certain cells of the counting engine proven by one SAT call; the SAT backbone if SAT ' +
      'disagrees); counting engine = the dynamic programme alone; bare SAT = the SAT backbone alone',
  );
  console.table(rows);
}

/** @param {number} seed */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random game after some clicks (zeros flood-fill).
 * @param {number} seed @param {number} rows @param {number} cols @param {number} mines @param {number} clicks
 */
function randomBoard(seed, rows, cols, mines, clicks) {
  const rand = rng(seed);
  const order = Array.from({ length: rows * cols }, (_, i) => i).sort(() => rand() - 0.5);
  const mine = new Set(order.slice(0, mines));
  const cells = Array.from({ length: rows }, () => new Array(cols).fill('.'));
  /** @param {number} r @param {number} c */
  const around = (r, c) => {
    let n = 0;
    for (let dr = -1; dr <= 1; dr++)
      for (let dc = -1; dc <= 1; dc++)
        if (r + dr >= 0 && r + dr < rows && c + dc >= 0 && c + dc < cols && mine.has((r + dr) * cols + c + dc)) n++;
    return n;
  };
  /** @param {number} row @param {number} col */
  const open = (row, col) => {
    const stack = [[row, col]];
    while (stack.length) {
      const [r, c] = /** @type {number[]} */ (stack.pop());
      if (r < 0 || r >= rows || c < 0 || c >= cols || cells[r][c] !== '.' || mine.has(r * cols + c)) continue;
      cells[r][c] = String(around(r, c));
      if (cells[r][c] === '0')
        for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) stack.push([r + dr, c + dc]);
    }
  };
  for (let k = 0; k < clicks; k++) {
    const safe = order.slice(mines).filter((i) => cells[Math.floor(i / cols)][i % cols] === '.');
    if (!safe.length) break;
    const zeros = safe.filter((i) => around(Math.floor(i / cols), i % cols) === 0);
    const pick = (k === 0 && zeros.length ? zeros : safe)[
      Math.floor(rand() * (k === 0 && zeros.length ? zeros : safe).length)
    ];
    open(Math.floor(pick / cols), pick % cols);
  }
  return { rows, cols, cells, totalMines: null };
}

/** 100×100, every cell hidden except a few counts (possible ones: no neighbour mined beyond 8). @param {number} seed */
function sparseBoard(seed) {
  const rand = rng(seed);
  const cells = Array.from({ length: 100 }, () => new Array(100).fill('.'));
  for (let k = 0; k < 12; k++)
    cells[Math.floor(rand() * 100)][Math.floor(rand() * 100)] = String(1 + Math.floor(rand() * 4));
  return { rows: 100, cols: 100, cells, totalMines: null };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
