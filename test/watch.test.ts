// Watching a window: the server's watch (POST /api/watch/<id>, frames read only where cells changed) against
// analyzeImage on the same pixels; then the page in headless Chromium watching a game of ../shared/games played in
// another tab (getDisplayMedia stood in for by a canvas the test keeps drawing with the game tab's screenshots).
import http from 'node:http';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { analyzeBoard, analyzePixels } from '../src/analyze/analyze';
import { decode } from '../src/image/decode';
import { type RunningServer, startServer } from '../src/serve/serve';
import type { Analysis, Coord, RgbaImage } from '../src/common/types';
import { parseBoard, parseCellName } from '../src/common/board';
import { describeWithShared, FIXTURES, SHARED } from './helpers';
import { launchChromium } from './browser';

// What the functions given to page.evaluate use in the page (this project compiles without the DOM library).
declare const document: any, navigator: any, window: any, Image: any;

const SHOT = path.join(FIXTURES, 'xdemineur/s2-03.png');

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0 });
}, 120_000);
afterAll(() => server?.close());

async function post(id: string, image: RgbaImage, query = ''): Promise<any> {
  const res = await fetch(`${server.url}api/watch/${id}?width=${image.width}&height=${image.height}${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length),
  });
  return { code: res.status, ...((await res.json()) as object) };
}

/** The frame with some count cells drawn as its first hidden cell: a frame before the player opened them. */
function withHidden(image: RgbaImage, analysis: Analysis, how: number): RgbaImage {
  const grid = analysis.grid!;
  const cells = analysis.board!.cells.flatMap((row, r) => row.map((ch, c) => ({ ch, r, c })));
  const hidden = cells.find((x) => x.ch === '.')!;
  const counts = cells.filter((x) => /[1-8]/.test(x.ch)).filter((_, i) => i % 9 === 0);
  const data = Uint8Array.from(image.data);
  const at = (r: number, c: number) => [
    Math.round(grid.left + c * grid.pitchX),
    Math.round(grid.top + r * grid.pitchY),
  ];
  const [hx, hy] = at(hidden.r, hidden.c);
  for (const { r, c } of counts.slice(0, how)) {
    const [x, y] = at(r, c);
    for (let dy = 0; dy < Math.round(grid.pitchY); dy++) {
      const from = ((hy + dy) * image.width + hx) * 4;
      data.copyWithin(((y + dy) * image.width + x) * 4, from, from + Math.round(grid.pitchX) * 4);
    }
  }
  return { ...image, data };
}

const marks = (a: { mines: unknown; safe: unknown; board: unknown; unreadable: unknown }) =>
  JSON.stringify([a.mines, a.safe, a.board, a.unreadable]);
const marksOf = (a: Analysis) =>
  marks({
    mines: a.deductions!.mines.map(parseCellName),
    safe: a.deductions!.safe.map(parseCellName),
    board: a.board!.cells.map((row) => row.join('')),
    unreadable: a.unreadable,
  });

describe('serve: a watch reads only the cells that changed', () => {
  test('frames of one game: changed cells read again give what a whole reading gives', async () => {
    const shown = await decode(readFileSync(SHOT));
    const whole = (await analyzePixels(shown, 'frame')).analysis;
    const before = withHidden(shown, whole, 6);
    const wholeBefore = (await analyzePixels(before, 'frame')).analysis;
    expect(marksOf(wholeBefore)).not.toBe(marksOf(whole));
    const first = await post('t1', before);
    expect([first.code, first.how, first.game]).toEqual([200, 'full', 'playing']);
    expect(marks(first)).toBe(marksOf(wholeBefore));
    const next = await post('t1', shown);
    expect([next.how, next.changed]).toEqual(['cells', 6]);
    expect(marks(next)).toBe(marksOf(whole));
    expect(Object.keys(next.explanations).length).toBe(next.mines.length + next.safe.length);
    const back = await post('t1', before);
    expect(back.how).toBe('cells');
    expect(marks(back)).toBe(marksOf(wholeBefore));
    const same = await post('t1', before);
    expect([same.how, same.changed, same.frame]).toEqual(['unchanged', 0, 4]);
    expect(marks(same)).toBe(marksOf(wholeBefore));
  }, 60_000);

  test('a frame of another size, or with the board moved, is read from scratch; no board is said', async () => {
    const shown = await decode(readFileSync(SHOT));
    expect((await post('t2', shown)).how).toBe('full');
    // the whole screen moved 7 pixels right: the board's frame changed
    const moved = Uint8Array.from(shown.data);
    moved.copyWithin(7 * 4, 0, moved.length - 7 * 4);
    const answer = await post('t2', { ...shown, data: moved });
    expect([answer.how, answer.game, answer.grid.left]).toEqual([
      'full',
      'playing',
      (await post('t3', shown)).grid.left + 7,
    ]);
    const blank = { width: 400, height: 300, data: new Uint8Array(400 * 300 * 4).fill(200) };
    const none = await post('t2', blank);
    expect([none.code, none.how, none.game, none.status, none.mines]).toEqual([200, 'full', 'no board', 'error', []]);
    expect((await post('t2', shown)).how).toBe('full');
  }, 60_000);

  test('bad frames are refused plainly; a watch ends on DELETE', async () => {
    const res = await fetch(`${server.url}api/watch/t4?width=10&height=10`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: Buffer.alloc(12),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/10×10 frame is 400 bytes/);
    const bad = await fetch(`${server.url}api/watch/no%20spaces`, { method: 'POST', body: 'x' });
    expect(bad.status).toBe(404);
    const gone = await fetch(`${server.url}api/watch/t1`, { method: 'DELETE' });
    expect(await gone.json()).toEqual({ ended: true });
  });
});

const GAME = 'games/classic-brandon';

/** A static server for one game folder on 127.0.0.1 (as ../shared/tools/web serves them). */
function serveGame(root: string): Promise<http.Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const game = http.createServer((req, res) => {
    let file = path.join(root, path.normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => game.listen(0, '127.0.0.1', () => resolve(game)));
}

interface Truth {
  view: string[];
  mines: number;
  state: string;
  mine: boolean[][];
}

/** The game's own state (its read-only window.__msTruth hook): the board as the screen shows it. */
async function truthOf(game: Page): Promise<Truth> {
  return game.evaluate(() => {
    const s = window.__msTruth.state();
    const view = s.tiles.map((row: any[]) =>
      row
        .map((t) =>
          t.triggered
            ? t.isMine
              ? t.exploded
                ? 'X'
                : '*'
              : t.flagged
                ? '!'
                : String(t.number)
            : t.flagged
              ? 'F'
              : t.marked
                ? '?'
                : '.',
        )
        .join(''),
    );
    const over = s.gameOver;
    const lost = over && s.tiles.some((row: any[]) => row.some((t) => t.exploded));
    return {
      view,
      mines: Number(s.mines),
      state: over ? (lost ? 'lost' : 'won') : 'playing',
      mine: s.tiles.map((row: any[]) => row.map((t) => t.isMine)),
    };
  });
}

const hiddenCells = (truth: Truth): Coord[] =>
  truth.view.flatMap((line, r) => [...line].flatMap((ch, c): Coord[] => (ch === '.' ? [[r, c]] : [])));

/** A cell to open: a certain safe cell when the solver has one, else a safe hidden cell the truth knows. */
function nextMove(truth: Truth, expected: Analysis, k: number): Coord {
  const certain = expected.deductions!.safe.map(parseCellName).filter(([r, c]) => truth.view[r][c] === '.');
  const safe = hiddenCells(truth).filter(([r, c]) => !truth.mine[r][c]);
  return certain[0] ?? safe[(k * 7) % safe.length];
}

describeWithShared('watch: the page follows a game played in another tab', [GAME], () => {
  let browser: Browser;
  let game: http.Server;
  beforeAll(async () => {
    browser = await launchChromium();
    game = await serveGame(path.join(SHARED, GAME));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    game?.close();
  });

  test('capture refused: a plain message and the paste page as before', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.evaluate(() => {
      navigator.mediaDevices.getDisplayMedia = async () => {
        throw new DOMException('denied', 'NotAllowedError');
      };
    });
    await page.locator('#watch-button').click();
    await page.locator('#error').waitFor();
    expect(await page.locator('#error').textContent()).toContain('refused or cancelled');
    expect(await page.locator('#empty').isVisible()).toBe(true);
    expect(await page.locator('#watch').isVisible()).toBe(false);
    await page.close();
  }, 30_000);

  test('after each move the marks are the solver’s certain cells on the true board; lost, no board', async () => {
    const started = Date.now();
    const tab = await browser.newPage({ viewport: { width: 640, height: 480 } });
    const { port } = game.address() as AddressInfo;
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForFunction(() => window.__msTruth && document.querySelector('#ms-main .ms-panel'));
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    await page.goto(server.url);
    // getDisplayMedia stood in for: a canvas's stream, which the test draws with the game tab's screenshots
    await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 480;
      window.__standIn = canvas;
      // drawn again and again, as a screen capture keeps sending frames
      setInterval(() => window.__shown && canvas.getContext('2d').drawImage(window.__shown, 0, 0), 100);
      navigator.mediaDevices.getDisplayMedia = async () => canvas.captureStream(10);
    });
    const show = async (png: Buffer) =>
      page.evaluate(
        async (src) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          window.__shown = image;
        },
        `data:image/png;base64,${png.toString('base64')}`,
      );
    const shoot = async () => {
      await tab.mouse.move(630, 470);
      await show(await tab.screenshot());
    };
    const marks = page.locator('#live-marks');
    /** How the watch read each frame checked: whole, or only the cells changed (and how many). */
    const hows: string[] = [];
    /** The watch page's marks once it shows the board the game shows, against the solver on the true board. */
    const check = async (truth: Truth) => {
      await page.waitForFunction(
        (board) => document.getElementById('live-marks').dataset.board === board,
        truth.view.join('\n'),
        { timeout: 10_000 },
      );
      const answer = await page.evaluate(() => window.__mineAssistWatch.answer);
      expect([null, truth.mines]).toContain(answer.totalMines);
      hows.push(`${answer.how}${answer.changed ? ` ${answer.changed}` : ''}`);
      const board = parseBoard(truth.view.join('\n'));
      const expected = analyzeBoard(board, 'truth', { mines: answer.totalMines });
      const cells = (names: string[]) => JSON.stringify(names.map(parseCellName));
      expect(await marks.getAttribute('data-mines')).toBe(cells(expected.deductions!.mines));
      expect(await marks.getAttribute('data-safe')).toBe(cells(expected.deductions!.safe));
      expect(await marks.getAttribute('data-game')).toBe(truth.state);
      return expected;
    };
    await shoot();
    await page.keyboard.press('w');
    let truth = await truthOf(tab);
    let expected = await check(truth);
    let moves = 0;
    let checked = 0;
    while (truth.state === 'playing' && moves < 8) {
      const [row, col] = nextMove(truth, expected, moves);
      await tab.locator(`#ms-main .ms-panel[data-coord="${row},${col}"]`).click();
      await tab.waitForFunction(
        (before) =>
          JSON.stringify(window.__msTruth.state().tiles.map((r: any[]) => r.map((t) => t.triggered))) !== before,
        JSON.stringify(truth.view.map((l) => [...l].map((ch) => ch !== '.'))),
      );
      moves++;
      await shoot();
      truth = await truthOf(tab);
      expected = await check(truth);
      checked += expected.deductions!.mines.length + expected.deductions!.safe.length;
    }
    expect(moves).toBeGreaterThanOrEqual(3);
    expect(checked).toBeGreaterThan(0);
    // after the first frame, moves are read by the cells they changed
    expect(hows.slice(1).filter((how) => how.startsWith('cells')).length).toBeGreaterThanOrEqual(2);
    // a window with no board, then the game again
    await page.evaluate(() => {
      const blank = document.createElement('canvas');
      blank.width = 640;
      blank.height = 480;
      const c = blank.getContext('2d');
      c.fillStyle = '#3a6ea5';
      c.fillRect(0, 0, 640, 480);
      window.__shown = blank;
    });
    await page.locator('#live-none').waitFor();
    expect(await page.locator('#live-none').textContent()).toBe('No board in view');
    expect(await page.locator('#live-verdict').textContent()).toContain('No board in view');
    await shoot();
    await check(truth);
    if (truth.state === 'playing') {
      // a click on a mine: the game is lost, and the page says so
      const [r, c] = hiddenCells(truth).find(([r, c]) => truth.mine[r][c])!;
      await tab.locator(`#ms-main .ms-panel[data-coord="${r},${c}"]`).click();
      await tab.waitForFunction(() => window.__msTruth.state().gameOver);
      await shoot();
      truth = await truthOf(tab);
      await check(truth);
      expect(await page.locator('#live-verdict').textContent()).toContain('Game lost');
    }
    // W again stops the watch: the paste page is back
    await page.keyboard.press('w');
    await page.locator('#empty').waitFor();
    expect(await page.locator('#watch').isVisible()).toBe(false);
    process.stdout.write(
      `watch test: ${moves} moves, ${checked} certain cells checked, frames read: ${hows.join(', ')}; ` +
        `${Date.now() - started} ms\n`,
    );
    await tab.close();
    await page.close();
  }, 90_000);
});
