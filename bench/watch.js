// @ts-check
// npm run bench's "watch" section (alone: npm run bench -- --watch): a watch's frame-to-marks latency on an expert
// board, through the real server over loopback HTTP. The frames: the expert xdemineur shot fixtures/xdemineur/s2-03
// (30×16, 1280×1024), and a copy of it in which a few count cells are drawn hidden (pixels copied from a hidden
// cell): sent one after the other, each frame has those cells changed, as when a player opens them. Timed: the
// frame's raw RGBA bytes (what the page sends: a canvas's pixels) POSTed to /api/watch/<id> until the JSON the page
// draws from has arrived and been parsed — the body read, the cells diffed, the changed cells read again, the
// counter read, the solver, the reasons in words, the JSON. Not timed: the page's own part (its frame diff, copying
// the frame out of the canvas, drawing the marks), which test/watch.test.ts logs.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const ma = require('../dist/index.js');
const { startServer } = require('../dist/serve/serve.js');

const ROOT = path.resolve(__dirname, '..');
const SHOT = path.join(ROOT, 'fixtures/xdemineur/s2-03.png');
/** Timed frames of each kind, after as many untimed. */
const RUNS = 41;
/** Count cells drawn hidden in the second frame. */
const CHANGED = 5;

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * The shot's pixels and a copy with CHANGED count cells drawn as its first hidden cell.
 * @returns {Promise<{ width: number, height: number, shown: Buffer, hidden: Buffer, rows: number, cols: number }>}
 */
async function frames() {
  const image = await ma.decode(fs.readFileSync(SHOT));
  const { analysis } = await ma.analyzeImage(SHOT, SHOT);
  const grid = /** @type {any} */ (analysis.grid);
  const cells = /** @type {any} */ (analysis.board).cells;
  const all = cells.flatMap((/** @type {string[]} */ row, /** @type {number} */ r) =>
    row.map((ch, c) => ({ ch, r, c })),
  );
  const hidden = all.find((x) => x.ch === '.');
  const counts = all.filter((x) => /[1-8]/.test(x.ch));
  const picked = Array.from({ length: CHANGED }, (_, i) => counts[Math.floor(((i + 0.5) * counts.length) / CHANGED)]);
  const shown = Buffer.from(image.data);
  const copy = Buffer.from(image.data);
  const w = Math.round(grid.pitchX);
  const h = Math.round(grid.pitchY);
  const at = (/** @type {number} */ r, /** @type {number} */ c) => [
    Math.round(grid.left + c * grid.pitchX),
    Math.round(grid.top + r * grid.pitchY),
  ];
  const [hx, hy] = at(hidden.r, hidden.c);
  for (const { r, c } of picked) {
    const [x, y] = at(r, c);
    for (let dy = 0; dy < h; dy++)
      shown.copy(
        copy,
        ((y + dy) * image.width + x) * 4,
        ((hy + dy) * image.width + hx) * 4,
        ((hy + dy) * image.width + hx + w) * 4,
      );
  }
  return { width: image.width, height: image.height, shown, hidden: copy, rows: grid.rows, cols: grid.cols };
}

/** @param {string} url @param {Buffer} body @param {number} width @param {number} height */
async function post(url, body, width, height, id = 'bench') {
  const t = performance.now();
  const res = await fetch(`${url}api/watch/${id}?width=${width}&height=${height}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body,
  });
  const json = /** @type {any} */ (await res.json());
  if (!res.ok) throw new Error(json.error);
  return { ms: performance.now() - t, json };
}

async function watchTable() {
  const f = await frames();
  const server = await startServer({ port: 0 });
  try {
    /** @type {Record<string, number[]>} */
    const t = { cells: [], full: [], unchanged: [] };
    /** @type {Record<string, number[]>} */
    const server_ = { cells: [], full: [], unchanged: [] };
    let rereads = 0;
    for (let i = 0; i < 2 * RUNS; i++) {
      const frame = i % 2 ? f.hidden : f.shown;
      const { ms, json } = await post(server.url, frame, f.width, f.height);
      if (i >= 2 && json.how !== 'cells') throw new Error(`frame ${i} read ${json.how}, not by cells`);
      if (i >= RUNS) {
        t.cells.push(ms);
        server_.cells.push(json.ms);
        rereads = json.changed;
      }
      const same = await post(server.url, frame, f.width, f.height);
      if (i >= RUNS) {
        t.unchanged.push(same.ms);
        server_.unchanged.push(same.json.ms);
      }
    }
    // frames of two sizes in turn: nothing to go on, each is read from scratch
    const widened = Buffer.alloc(f.shown.length + f.height * 4);
    for (let y = 0; y < f.height; y++)
      f.shown.copy(widened, y * (f.width + 1) * 4, y * f.width * 4, (y + 1) * f.width * 4);
    for (let i = 0; i < 2 * RUNS; i++) {
      const { ms, json } = await post(server.url, i % 2 ? f.shown : widened, f.width + 1 - (i % 2), f.height, 'full');
      if (json.how !== 'full') throw new Error(`frame ${i} read ${json.how}, not from scratch`);
      if (i >= RUNS) {
        t.full.push(ms);
        server_.full.push(json.ms);
      }
    }
    const row = (/** @type {string} */ what, /** @type {string} */ k) => ({
      frame: what,
      'frame in → JSON parsed (ms)': median(t[k]).toFixed(1),
      'of which the watch (ms)': median(server_[k]).toFixed(1),
      'slowest (ms)': Math.max(...t[k]).toFixed(1),
    });
    return {
      rereads,
      table: [
        row(`${CHANGED} cells changed`, 'cells'),
        row('the same frame again', 'unchanged'),
        row('read from scratch', 'full'),
      ],
    };
  } finally {
    await server.close();
  }
}

async function watchSection() {
  const { table, rereads } = await watchTable();
  console.log(
    `\nwatch: frame to marks on an expert board (xdemineur s2-03, 30×16, 1280×1024, raw RGBA frames of 5.2 MB ` +
      `POSTed to serve over loopback), median of ${RUNS} after as many untimed; ${CHANGED} count cells drawn hidden, ` +
      `then shown again (${rereads} cells changed each frame, read with their neighbours); the watch's own time is ` +
      `what the server measured, from the frame's bytes in memory to the answer built (before its JSON is written); ` +
      'target: ≤ 150 ms from a changed frame to the marks',
  );
  console.table(table);
}

module.exports = { watchSection };

if (require.main === module)
  watchSection().catch((err) => {
    console.error(err);
    process.exit(1);
  });
