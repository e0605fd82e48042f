// `mine-assist serve`: the page in real headless Chromium (test/browser.ts, driven by playwright-core),
// and the server under load from node. Every expected number comes from analyzeImage on the same file.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { analyzeImage, type ImageAnalysis } from '../src/analyze/analyze';
import { annotate } from '../src/analyze/batch';
import { boardText } from '../src/output/report';
import { explainCell } from '../src/output/explain';
import { parseCellName } from '../src/common/board';
import { builtinSkinNames } from '../src/skin/skin';
import { MAX_UPLOAD_BYTES, type RunningServer, startServer } from '../src/serve/serve';
import { Queue } from '../src/serve/upload';
import type { Coord } from '../src/common/types';
import { FIXTURES, runCli } from './helpers';
import { launchChromium } from './browser';

// What the functions given to page.evaluate use in the page (this project compiles without the DOM library).
declare const document: any, DataTransfer: any, ClipboardEvent: any, DragEvent: any;

const SHOT = path.join(FIXTURES, 'xdemineur/s2-01.png');
const BYTES = readFileSync(SHOT);

/** Ground truth beside the screenshot: '*' is a mine. */
const truth = readFileSync(SHOT.replace(/\.png$/, '.mines.txt'), 'utf8')
  .trim()
  .split('\n');
const isMine = ([row, col]: Coord) => truth[row][col] === '*';

let server: RunningServer;
let expected: ImageAnalysis;

beforeAll(async () => {
  server = await startServer({ port: 0 });
  expected = await analyzeImage(SHOT, SHOT);
}, 120_000);
afterAll(() => server?.close());

const certain = (a: ImageAnalysis) => ({
  mines: a.analysis.deductions?.mines.length,
  safe: a.analysis.deductions?.safe.length,
});

describe('serve: the page in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(server.url);
  });
  afterEach(() => page.close());

  test('a pasted screenshot shows the annotated image, counts, total and board analyzeImage gives', async () => {
    expect(expected.analysis.status).toBe('ok');
    await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 's2-01.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, BYTES.toString('base64'));
    await page.locator('#result').waitFor();
    await page.waitForFunction(() => document.getElementById('annotated').naturalWidth > 0);
    const { mines, safe } = certain(expected);
    expect(mines! + safe!).toBeGreaterThan(5);
    expect(await page.locator('#mines-count').textContent()).toBe(String(mines));
    expect(await page.locator('#safe-count').textContent()).toBe(String(safe));
    expect(await page.locator('#facts').textContent()).toContain(`Total mines${expected.analysis.board?.totalMines}`);
    const board = boardText(expected.analysis)
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect((await page.locator('#board').textContent())?.trim().split('\n')).toEqual(board);
    // the picture is the CLI's annotated PNG, byte for byte
    const src = await page.locator('#annotated').getAttribute('src');
    const png = await annotate(expected.image!, expected.analysis.grid!, expected.analysis, false);
    expect(src).toBe(`data:image/png;base64,${png.toString('base64')}`);
    // and what it marks is true: the ground truth agrees with every certain cell
    for (const cell of expected.analysis.deductions!.mines) expect(isMine(parseCellName(cell))).toBe(true);
    for (const cell of expected.analysis.deductions!.safe) expect(isMine(parseCellName(cell))).toBe(false);
  });

  test('hovering a certain cell says why; hovering an uncertain hidden cell gives its mine probability', async () => {
    await page.locator('#file').setInputFiles(SHOT);
    await page.locator('#result').waitFor();
    await page.waitForFunction(() => document.getElementById('annotated').naturalWidth > 0);
    const { analysis } = expected;
    const hidden = ([r, c]: Coord) => analysis.board!.cells[r][c] === '.';
    const safeCell = analysis.deductions!.safe.map(parseCellName).find(hidden)!;
    await hover(page, analysis.grid!, safeCell);
    const tip = await page.locator('#tip').textContent();
    expect(tip).toContain('certainly safe');
    for (const line of explainCell(analysis, safeCell).split('\n').slice(1)) expect(tip).toContain(line.trim());
    const odd = analysis.probabilities!.find(
      ({ cell, p }) => p !== null && p > 0 && p < 1 && hidden(parseCellName(cell)),
    )!;
    await hover(page, analysis.grid!, parseCellName(odd.cell));
    expect(await page.locator('#tip').textContent()).toContain(`${(odd.p! * 100).toFixed(1)}% chance of a mine`);
  });

  test('options reach the analysis: the heat map; a total against the counts shows the conflict drawn', async () => {
    const skins = await page
      .locator('#skin option')
      .evaluateAll((options) => options.map((o) => (o as { value: string }).value));
    expect(skins).toEqual(['', ...(await builtinSkinNames())]);
    await page.locator('#probabilities').check();
    await page.locator('#file').setInputFiles(SHOT);
    const heat = await annotate(expected.image!, expected.analysis.grid!, expected.analysis, true);
    await page.waitForFunction(
      (src) => document.getElementById('annotated').src === src,
      `data:image/png;base64,${heat.toString('base64')}`,
    );
    const wrong = await analyzeImage(SHOT, SHOT, { mines: 1 });
    expect(wrong.analysis.status).toBe('inconsistent');
    await page.locator('#mines').fill('1');
    await page.locator('#mines').press('Enter');
    await page.locator('#verdict.inconsistent').waitFor();
    expect(await page.locator('#verdict').textContent()).toContain('Inconsistent board');
    expect(await page.locator('#verdict').textContent()).toContain(
      explainCell(wrong.analysis, [0, 0]).split('\n')[1].trim(),
    );
    const conflict = await annotate(wrong.image!, wrong.analysis.grid!, wrong.analysis, true);
    expect(await page.locator('#annotated').getAttribute('src')).toBe(
      `data:image/png;base64,${conflict.toString('base64')}`,
    );
  });

  test('a dropped file that is not an image is refused in plain words', async () => {
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['not a screenshot\n'], 'notes.txt', { type: 'text/plain' }));
      document.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.locator('#error').waitFor();
    expect(await page.locator('#error').textContent()).toMatch(/notes\.txt.*not an image/);
    expect(await page.locator('#result').isHidden()).toBe(true);
  });
});

/** Moves the pointer to the middle of a cell as the page shows it (zoomed, and cropped to the board). */
async function hover(
  page: Page,
  grid: { left: number; top: number; pitchX: number; pitchY: number },
  [row, col]: Coord,
): Promise<void> {
  const at = await page.evaluate(() => {
    const img = document.getElementById('annotated');
    const box = document.getElementById('picture').getBoundingClientRect();
    return {
      left: box.left,
      top: box.top,
      scale: parseFloat(img.style.width) / img.naturalWidth,
      x: parseFloat(img.style.left),
      y: parseFloat(img.style.top),
    };
  });
  const x = at.left + at.x + (grid.left + (col + 0.5) * grid.pitchX) * at.scale;
  const y = at.top + at.y + (grid.top + (row + 0.5) * grid.pitchY) * at.scale;
  await page.mouse.move(x, y);
  await page.locator('#tip').waitFor();
}

interface Reply {
  status: number;
  body: { status: string; error?: string; mines?: Coord[]; safe?: Coord[] };
}

/** One request to the server, the body sent whole (or in pieces with no length given: chunked). */
function send(
  route: string,
  body: Buffer | Buffer[],
  headers: http.OutgoingHttpHeaders = {},
  method = 'POST',
  port = server.port,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: route, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({
          status: res.statusCode ?? 0,
          body: res.headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : { status: text },
        });
      });
    });
    req.on('error', reject);
    if (Array.isArray(body)) {
      for (const piece of body) req.write(piece);
      req.end();
    } else req.end(body);
  });
}

const png = { 'Content-Type': 'image/png' };

describe('serve: the server under load and abuse', () => {
  test('50 concurrent uploads all get the answer analyzeImage gives', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, () => send('/api/analyze', BYTES, png)));
    const want = {
      mines: expected.analysis.deductions!.mines.map(parseCellName),
      safe: expected.analysis.deductions!.safe.map(parseCellName),
    };
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect({ mines: reply.body.mines, safe: reply.body.safe }).toEqual(want);
    }
  }, 600_000);

  test('analyses run a few at a time, the others wait in a bounded line; past it the server is busy', async () => {
    const queue = new Queue(2, 3);
    let running = 0;
    let most = 0;
    const task = async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
    };
    const all = Array.from({ length: 5 }, () => queue.run(task));
    expect(queue.full).toBe(true);
    await Promise.all(all);
    expect([most, running, queue.full]).toEqual([2, 0, false]);
    // One analysis at a time and none waiting: of uploads sent at once, those read while one runs (the server reads
    // them whenever the analysis waits, as on decoding) are refused, and the others are answered in full. Which of
    // them are read while one runs is up to timing; of ten, some are.
    const small = await startServer({ port: 0, jobs: 1, maxWaiting: 0 });
    try {
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => send('/api/analyze', BYTES, png, 'POST', small.port)),
      );
      const statuses = new Set(replies.map((r) => r.status));
      expect([...statuses].sort()).toEqual([200, 503]);
      for (const reply of replies.filter((r) => r.status === 200))
        expect(reply.body.mines).toEqual(expected.analysis.deductions!.mines.map(parseCellName));
      for (const reply of replies.filter((r) => r.status === 503))
        expect(reply.body.error).toBe('the server is busy: try again in a moment');
    } finally {
      await small.close();
    }
  });

  test('an upload over the byte cap is refused with 413 and says the limit, declared or streamed', async () => {
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    BYTES.copy(big);
    const declared = await send('/api/analyze', big, png);
    expect(declared.status).toBe(413);
    expect(declared.body.error).toBe('the file is too large (20.0 MB); the limit is 20.0 MB');
    const streamed = await send('/api/analyze', [big.subarray(0, 1 << 20), big.subarray(1 << 20)], {
      ...png,
      'Transfer-Encoding': 'chunked',
    });
    expect(streamed.status).toBe(413);
    expect(streamed.body.error).toMatch(/too large/);
    expect((await send('/api/analyze', BYTES, png)).status).toBe(200); // and it still serves
  }, 120_000);

  test('what is not an image is refused with 415 (by content type, or by the decoder) and a message', async () => {
    const text = await send('/api/analyze', Buffer.from('hello'), { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error).toMatch(/not an image \(text\/plain\)/);
    const disguised = await send('/api/analyze', Buffer.from('hello, I am text'), png);
    expect(disguised.status).toBe(415);
    expect(disguised.body.error).toMatch(/^not an image/);
    const truncated = await send('/api/analyze', BYTES.subarray(0, 2000), png);
    expect(truncated.status).toBe(400);
    expect(truncated.body.error).toMatch(/corrupt or truncated/);
    const empty = await send('/api/analyze', Buffer.alloc(0), png);
    expect([empty.status, empty.body.error]).toEqual([400, 'the upload is empty']);
  });

  test('bad options are a 400 with a message; a skin is one of the built-in names, never a path', async () => {
    const bad = await send('/api/analyze?mines=-3', BYTES, png);
    expect([bad.status, bad.body.error]).toEqual([400, "total mines must be a whole number ≥ 0, not '-3'"]);
    const skin = await send('/api/analyze?skin=..%2F..%2Fskins%2Fxdemineur', BYTES, png);
    expect([skin.status, skin.body.error]).toEqual([400, "no built-in skin named '../../skins/xdemineur'"]);
    const named = await send('/api/analyze?skin=xdemineur&mines=20', BYTES, png);
    expect(named.status).toBe(200);
  });

  test('only the page files are served, from memory; anything else is 404, a wrong method 405', async () => {
    const page = await send('/', Buffer.alloc(0), {}, 'GET');
    expect(page.status).toBe(200);
    expect(page.body.status).toContain('<option value="xdemineur">xdemineur</option>');
    expect((await send('/app.js', Buffer.alloc(0), {}, 'GET')).status).toBe(200);
    expect((await send('/style.css', Buffer.alloc(0), {}, 'GET')).status).toBe(200);
    expect((await send('/watch.js', Buffer.alloc(0), {}, 'GET')).status).toBe(200);
    for (const route of [
      '/index.html',
      '/web/app.js',
      '/../package.json',
      '/%2e%2e/package.json',
      '/api/analyze/../../package.json',
    ]) {
      expect((await send(route, Buffer.alloc(0), {}, 'GET')).status).toBe(404);
    }
    expect((await send('/api/analyze', Buffer.alloc(0), {}, 'GET')).status).toBe(405);
    expect((await send('/', BYTES, png)).status).toBe(405);
  });

  test('another host name is refused (DNS rebinding); a non-loopback host needs --allow-remote', async () => {
    const foreign = await send('/', Buffer.alloc(0), { Host: 'attacker.example:7357' }, 'GET');
    expect(foreign.status).toBe(403);
    await expect(startServer({ port: 0, host: '0.0.0.0' })).rejects.toThrow(/allow-remote/);
    const cli = await runCli(['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('--allow-remote');
    expect((await runCli(['serve', '--port', '70000'])).code).toBe(2);
  });
});
