// Watching a window: the server's watch (POST /api/watch/<id>, frames read only where cells changed) against
// analyzeImage on the same pixels; then the page in headless Chromium watching a game of ../shared/games played in
// another tab (getDisplayMedia stood in for by a canvas the test keeps drawing with the game tab's screenshots).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzePixels } from '../src/analyze/analyze';
import { decode } from '../src/image/decode';
import { type RunningServer, startServer } from '../src/serve/serve';
import type { Analysis, RgbaImage } from '../src/common/types';
import { parseCellName } from '../src/common/board';
import { FIXTURES } from './helpers';

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
