import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';

// analyzeImage starts loading the skins while the screenshot decodes (src/read/read.ts's preloadSkins): a skin
// that cannot load must still fail the reading with its own error, and only once decoding has succeeded. Its
// rejection must not go unhandled meanwhile: jest fails the first test when it does.

const SHOT = path.join(__dirname, '..', 'fixtures', 'xdemineur', 's2-03.png');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mine-assist-analyze-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a skin that cannot load fails the reading with its own error', async () => {
  const { analysis, image } = await analyzeImage(SHOT, SHOT, { skin: path.join(dir, 'no-such-skin') });
  expect(image).not.toBeNull();
  expect(analysis.status).toBe('error');
  expect(analysis.error).toMatch(/no skin named/);
});

test('a screenshot that cannot be decoded is the error, not the skin that could not load either', async () => {
  const text = path.join(dir, 'shot.png');
  writeFileSync(text, 'not an image at all');
  const { analysis } = await analyzeImage(text, text, { skin: path.join(dir, 'no-such-skin') });
  expect(analysis.status).toBe('error');
  expect(analysis.error).toMatch(/not an image/);
});
