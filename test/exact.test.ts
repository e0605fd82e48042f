import fs from 'node:fs';
import path from 'node:path';
import { analyzeImage } from '../src/analyze/analyze';
import { classify } from '../src/read/classify';
import { cellPatch, rmsDistance } from '../src/image/patch';
import { shiftGrid, wholeGrid } from '../src/image/pixels';
import { loadSkin } from '../src/skin/skin';
import { prepareTemplates } from '../src/read/templates';
import { FIXTURES } from './helpers';
import type { RgbaImage, Skin } from '../src/common/types';

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
    for (const t of templates)
      nearest.set(t.label, Math.min(nearest.get(t.label) ?? Infinity, rmsDistance(patch, t.patch)));
    const [[best, distance], [runnerUp, runnerUpDistance]] = [...nearest].sort((a, b) => a[1] - b[1]);
    expect(distance).toBe(0);
    expect(reading).toEqual({
      row: reading.row,
      col: reading.col,
      cell: best,
      best,
      distance,
      runnerUp,
      runnerUpDistance,
      unreadable: false,
    });
  }
  expect(new Set(readings.map((r) => r.cell)).size).toBeGreaterThan(4);
});

/** The nearest template's distance over every template, measured one by one. */
function nearest(prepared: ReturnType<typeof prepareTemplates>, patch: ReturnType<typeof cellPatch>): number {
  return Math.min(...prepared.groups[0].templates.map((t) => rmsDistance(patch, t.patch)));
}

test('a cell a pixel off its template is measured, not looked up', async () => {
  const file = path.join(FIXTURES, 'xdemineur', 's2-03.png');
  const { image, analysis } = await analyzeImage(fs.readFileSync(file), file);
  const skin = await loadSkin('xdemineur');
  if (!image || !analysis.grid) throw new Error(`not read: ${analysis.error}`);
  const moved = shiftGrid(analysis.grid, 1, 0);
  const prepared = prepareTemplates(skin, moved);
  const cells: [number, number][] = [[3, 3]];
  const readings = classify(image, moved, skin, { cells, search: false });
  readings.forEach((reading, k) => {
    const distance = nearest(
      prepared,
      cellPatch(image, moved, cells[k][0], cells[k][1], skin.inset, prepared.groups[0].size),
    );
    expect(distance).toBeGreaterThan(0);
    expect(reading.distance).toBe(distance);
  });
});

// The kernel compares a cell's patch with each template 16 bytes at a time, then the last floats one by one (the 17 px
// patches of GNOME's small tiles end 12 bytes past a multiple of 16): a template's own image with one float of its
// patch's last pixel changed is not taken for it.
test("a template's own image reads as it exactly, and with its last pixel changed is measured", async () => {
  const skin = await loadSkin('gnome-mines-bgcolors');
  const small = skin.templates.filter((t) => t.image.width === 23);
  expect(new Set(small.map((t) => t.label)).size).toBeGreaterThan(3);
  for (const template of small) {
    const { image } = template;
    const grid = wholeGrid(image);
    const prepared = prepareTemplates(skin, grid);
    expect(prepared.groups).toHaveLength(1);
    const { size } = prepared.groups[0];
    expect((12 * size * size) % 16).not.toBe(0);
    expect(classify(image, grid, skin, { search: false })[0]).toMatchObject({ best: template.label, distance: 0 });
    const [stepX, stepY] = [(grid.pitchX * (1 - 2 * skin.inset)) / size, (grid.pitchY * (1 - 2 * skin.inset)) / size];
    // the pixel under the patch's last pixel only: its blue changed changes the patch's last float alone
    const [x, y] = [
      Math.floor(skin.inset * grid.pitchX + size * stepX),
      Math.floor(skin.inset * grid.pitchY + size * stepY),
    ];
    const blue = 4 * (y * image.width + x) + 2;
    const changedImage = { ...image, data: Uint8Array.from(image.data) };
    changedImage.data[blue] = image.data[blue] < 128 ? image.data[blue] + 9 : image.data[blue] - 9;
    const patch = cellPatch(changedImage, grid, 0, 0, skin.inset, size);
    const own = prepared.groups[0].templates.find(
      (t) =>
        t.label === template.label &&
        rmsDistance(t.patch, cellPatch(template.image, grid, 0, 0, skin.inset, size)) === 0,
    );
    const changed = [...patch.rgb.keys()].filter((i) => patch.rgb[i] !== own?.patch.rgb[i]);
    expect(changed).toEqual([3 * size * size - 1]);
    const [reading] = classify(changedImage, grid, skin, { search: false });
    expect(reading.distance).toBeGreaterThan(0);
    expect(reading.distance).toBe(nearest(prepared, patch));
  }
});

// A template whose two nearest other labels sit at the same distance cannot say which is the runner-up without
// measuring: a cell equal to it is measured like any other (classify's second call to the kernel).
test('a cell equal to a template whose two nearest rivals tie is measured, and reads as that template', () => {
  const flat = (grey: number, width = 20): RgbaImage => ({
    width,
    height: width,
    data: new Uint8Array(4 * width * width).map((_, i) => (i % 4 === 3 ? 255 : grey)),
  });
  const skin: Skin = {
    name: 'flat',
    cellSize: 20,
    inset: 0.1,
    maxDistance: 30,
    maxRatio: 0.7,
    templates: [
      { label: '1', image: flat(100) },
      { label: '2', image: flat(90) },
      { label: '3', image: flat(110) },
      { label: '4', image: flat(160) },
    ],
  };
  const screenshot: RgbaImage = { width: 80, height: 20, data: new Uint8Array(4 * 80 * 20) };
  [100, 90, 110, 160].forEach((grey, col) => {
    for (let y = 0; y < 20; y++)
      for (let x = 0; x < 20; x++) screenshot.data.set([grey, grey, grey, 255], 4 * (y * 80 + 20 * col + x));
  });
  const grid = { rows: 1, cols: 4, left: 0, top: 0, pitchX: 20, pitchY: 20 };
  const readings = classify(screenshot, grid, skin);
  expect(readings.map((r) => [r.cell, r.distance])).toEqual([
    ['1', 0],
    ['2', 0],
    ['3', 0],
    ['4', 0],
  ]);
  expect(readings[0].runnerUpDistance).toBeCloseTo(10, 9);
  expect(['2', '3']).toContain(readings[0].runnerUp);
  expect(readings.slice(1).map((r) => [r.runnerUp, r.runnerUpDistance])).toEqual([
    ['1', 10],
    ['1', 10],
    ['3', 50],
  ]);
});
