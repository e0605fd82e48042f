import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';
import { FIXTURES } from './helpers';

// Fresh boards captured here with the mouse over a hidden cell (hover) or holding it down (pressed),
// scripts/capture-hover.py. No skin has these looks: the cell must come out hidden (read as hidden, or
// reported unreadable), never as an open 0 or a count, which would make its neighbours look safe.
const SHOTS = readdirSync(path.join(FIXTURES, 'hover')).filter((f) => f.endsWith('.png'));

test('hover and pressed captures of three games are there', () => {
  expect(SHOTS.length).toBeGreaterThanOrEqual(6);
});

test.each(SHOTS)('%s: the cell under the mouse is hidden or unreadable, nothing else', async (shot) => {
  const file = path.join(FIXTURES, 'hover', shot);
  const [row, col] = JSON.parse(readFileSync(file.replace(/\.png$/, '.json'), 'utf8')).cell as [number, number];
  const { analysis } = await analyzeImage(file, shot);
  expect(analysis.status).toBe('ok');
  const reading = analysis.readings!.find((r) => r.row === row && r.col === col)!;
  expect(reading.cell).toBe('.');
  if (shot.includes('pressed')) expect(reading.unreadable).toBe(true);
});
