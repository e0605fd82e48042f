#!/usr/bin/env node
// Takes docs/serve.png: the `serve` page with a result on it, hovering a certain cell.
// Needs `npm run build`; the Chromium is scripts/chromium.js's.
// usage: node scripts/serve-screenshot.js [screenshot.png] [out.png]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer } = require('../dist/serve/serve');
const { chromiumLaunch } = require('./chromium');

const ROOT = path.resolve(__dirname, '..');
const input = path.resolve(process.argv[2] || path.join(ROOT, 'fixtures/xdemineur/s2-02.png'));
const output = path.resolve(process.argv[3] || path.join(ROOT, 'docs/serve.png'));

async function main() {
  // launch() gives Chromium a fresh, temporary profile of its own.
  const browser = await chromium.launch(chromiumLaunch());
  const server = await startServer({ port: 0 }).catch(async (err) => {
    await browser.close();
    throw err;
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(server.url);
    if (process.env.MINES) await page.locator('#mines').fill(process.env.MINES);
    await page.locator('#file').setInputFiles(input);
    await page.locator('#result').waitFor();
    await page.waitForFunction(
      () => document.getElementById('annotated').complete && document.getElementById('busy').hidden,
    );
    await hoverCertainCell(page);
    fs.mkdirSync(path.dirname(output), { recursive: true });
    await page.screenshot({ path: output });
    process.stdout.write(`wrote ${path.relative(process.cwd(), output)}\n`);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Moves the pointer over the first certain mine that is not a flag, so the tooltip shows why. */
async function hoverCertainCell(page) {
  const at = await page.evaluate(() => {
    // `state`: web/app.js's global, in the page
    const result = state.result;
    const hidden = result.mines.find(([r, c]) => result.board[r][c] === '.') || result.safe[0];
    if (!hidden) return null;
    const { grid } = result;
    const { x, y, scale } = state.view;
    const box = document.getElementById('picture').getBoundingClientRect();
    return {
      x: box.left + (grid.left + (hidden[1] + 0.5) * grid.pitchX - x) * scale,
      y: box.top + (grid.top + (hidden[0] + 0.5) * grid.pitchY - y) * scale,
    };
  });
  if (at) await page.mouse.move(at.x, at.y);
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
