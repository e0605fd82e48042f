import fs from 'node:fs';
import path from 'node:path';
import { analyzeImage } from '../src/analyze';
import { classify } from '../src/classify';
import { exactReading } from '../src/exact';
import { cellPatch, rmsDistance } from '../src/patch';
import { shiftGrid } from '../src/pixels';
import { loadSkin } from '../src/skin';
import { prepareTemplates } from '../src/templates';
import { FIXTURES } from './helpers';

// xdemineur at 100 %: every cell is drawn pixel for pixel as one of its templates, so classify reads it
// without measuring; what it reads must be what measuring every template gives.
test('a cell equal to a template reads as the nearest template and the nearest other label say', async () => {
  const file = path.join(FIXTURES, 'xdemineur', 's2-03.png');
  const { image, analysis } = await analyzeImage(fs.readFileSync(file), file);
  const skin = await loadSkin('xdemineur');
  const grid = analysis.grid;
  if (!image || !grid) throw new Error(`not read: ${analysis.error}`);
  const prepared = prepareTemplates(skin, grid);
  expect(prepared.groups).toHaveLength(1);
  const { size, templates } = prepared.groups[0];
  const readings = classify(image, grid, skin);
  for (const reading of readings) {
    const patch = cellPatch(image, grid, reading.row, reading.col, skin.inset, size);
    const nearest = new Map<string, number>();
    for (const t of templates) nearest.set(t.label, Math.min(nearest.get(t.label) ?? Infinity, rmsDistance(patch, t.patch)));
    const [[best, distance], [runnerUp, runnerUpDistance]] = [...nearest].sort((a, b) => a[1] - b[1]);
    expect(exactReading(prepared, patch, reading.row, reading.col)).not.toBeNull();
    expect(reading).toEqual({ row: reading.row, col: reading.col, cell: best, best, distance, runnerUp, runnerUpDistance, unreadable: false });
  }
  expect(new Set(readings.map((r) => r.cell)).size).toBeGreaterThan(4);
});

test('a cell a pixel off its template is measured, not looked up', async () => {
  const file = path.join(FIXTURES, 'xdemineur', 's2-03.png');
  const { image, analysis } = await analyzeImage(fs.readFileSync(file), file);
  const skin = await loadSkin('xdemineur');
  if (!image || !analysis.grid) throw new Error(`not read: ${analysis.error}`);
  const moved = shiftGrid(analysis.grid, 1, 0);
  const prepared = prepareTemplates(skin, moved);
  const patch = cellPatch(image, moved, 3, 3, skin.inset, prepared.groups[0].size);
  expect(exactReading(prepared, patch, 3, 3)).toBeNull();
});

// The lookup hashes every eighth float; a patch that differs from a template only elsewhere shares its hash and
// must still not be taken for it.
test('a patch one float away from a template, its hash the same, is not looked up as that template', async () => {
  const file = path.join(FIXTURES, 'xdemineur', 's2-03.png');
  const { analysis } = await analyzeImage(fs.readFileSync(file), file);
  const skin = await loadSkin('xdemineur');
  if (!analysis.grid) throw new Error(`not read: ${analysis.error}`);
  const prepared = prepareTemplates(skin, analysis.grid);
  const { size, templates } = prepared.groups[0];
  const found = templates.map((t) => exactReading(prepared, { size, rgb: t.patch.rgb.slice() }, 0, 0));
  const known = found.findIndex((r) => r !== null);
  expect(known).toBeGreaterThanOrEqual(0);
  expect(found[known]?.best).toBe(templates[known].label);
  const changed = templates[known].patch.rgb.slice();
  changed[1] += 1;
  expect(exactReading(prepared, { size, rgb: changed }, 0, 0)).toBeNull();
});
