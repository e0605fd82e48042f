// The WebAssembly cell resampler against a plain reading of area averaging: each patch pixel the mean of the
// source area it covers, each source pixel weighted by the part of it inside.
import sharp from 'sharp';
import {
  cellPatch,
  coarseOf,
  edgeSums,
  lineShiftsOn,
  lineSteps,
  rmsDistance,
  templateBounds,
} from '../src/image/patch';
import { classify } from '../src/read/classify';
import { meanNearest, medianNearest, nearestDistances, worstFirst } from '../src/read/nearest';
import { prepareTemplates } from '../src/read/templates';
import { loadSkin } from '../src/skin/skin';
import type { Coord, Grid, RgbaImage, Skin } from '../src/common/types';

function reference(image: RgbaImage, grid: Grid, row: number, col: number, inset: number, size: number): number[] {
  const [stepX, stepY] = [(grid.pitchX * (1 - 2 * inset)) / size, (grid.pitchY * (1 - 2 * inset)) / size];
  const [left, top] = [
    grid.left + col * grid.pitchX + inset * grid.pitchX,
    grid.top + row * grid.pitchY + inset * grid.pitchY,
  ];
  const clamp = (v: number, limit: number) => Math.min(Math.max(v, 0), limit);
  const out: number[] = [];
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const [x0, x1] = [clamp(left + i * stepX, image.width), clamp(left + (i + 1) * stepX, image.width)];
      const [y0, y1] = [clamp(top + j * stepY, image.height), clamp(top + (j + 1) * stepY, image.height)];
      const sums = [0, 0, 0];
      let area = 0;
      for (let y = Math.floor(y0); y < y1; y++) {
        for (let x = Math.floor(x0); x < x1; x++) {
          const part = (Math.min(x + 1, x1) - Math.max(x, x0)) * (Math.min(y + 1, y1) - Math.max(y, y0));
          for (let c = 0; c < 3; c++) sums[c] += part * image.data[4 * (y * image.width + x) + c];
          area += part;
        }
      }
      out.push(...sums.map((s) => (area > 0 ? s / area : 0)));
    }
  }
  return out;
}

async function screenshot(file: string): Promise<RgbaImage> {
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

function noise(width: number, height: number, seed: number): RgbaImage {
  let state = seed;
  const data = new Uint8Array(4 * width * height).map(() => (state = (state * 1103515245 + 12345) >>> 0) >>> 24);
  return { width, height, data };
}

const closeTo = (actual: Float32Array, expected: number[]) => {
  expect(actual.length).toBe(expected.length);
  expect(Math.max(...expected.map((v, i) => Math.abs(v - actual[i])))).toBeLessThan(1e-3);
};

test.each([
  ['a cell inside, shrunk', { rows: 4, cols: 5, left: 3.25, top: 7.5, pitchX: 21, pitchY: 21 }, 0.1, 16],
  ['a cell inside, grown', { rows: 4, cols: 5, left: 3.25, top: 7.5, pitchX: 5.5, pitchY: 6.25 }, 0, 17],
  ['cells over the edges (clamped)', { rows: 9, cols: 9, left: -4.7, top: -2.2, pitchX: 19.3, pitchY: 19.3 }, 0, 8],
])('%s: the mean of the area each pixel covers', (_, grid, inset, size) => {
  const image = noise(150, 130, 11);
  for (const [row, col] of [
    [0, 0],
    [1, 2],
    [grid.rows - 1, grid.cols - 1],
    [3, 4],
  ]) {
    closeTo(cellPatch(image, grid, row, col, inset, size).rgb, reference(image, grid, row, col, inset, size));
  }
});

test('screenshots and templates taken in turn: each patch from its own image', () => {
  const [shotA, shotB] = [noise(300, 200, 1), noise(300, 200, 2)];
  const [small, tiny] = [noise(20, 20, 3), noise(7, 9, 4)];
  const grid = { rows: 5, cols: 5, left: 10.5, top: 20.25, pitchX: 23.1, pitchY: 23.1 };
  const whole = (im: RgbaImage): Grid => ({ rows: 1, cols: 1, left: 0, top: 0, pitchX: im.width, pitchY: im.height });
  const order: [RgbaImage, Grid][] = [
    [shotA, grid],
    [small, whole(small)],
    [shotA, grid],
    [shotB, grid],
    [tiny, whole(tiny)],
    [small, whole(small)],
    [shotA, grid],
  ];
  for (const [image, g] of order) closeTo(cellPatch(image, g, 0, 0, 0.05, 12).rgb, reference(image, g, 0, 0, 0.05, 12));
});

test('a larger screenshot after a smaller one, and the patch written into a buffer given', () => {
  const grid = { rows: 3, cols: 3, left: 100.5, top: 90.25, pitchX: 30, pitchY: 30 };
  cellPatch(noise(200, 150, 5), grid, 1, 1, 0, 10);
  const large = noise(640, 480, 6);
  const into = new Float32Array(10 * 10 * 3);
  const patch = cellPatch(large, grid, 2, 2, 0, 10, into);
  expect(patch.rgb).toBe(into);
  closeTo(into, reference(large, grid, 2, 2, 0, 10));
});

describe("a cell's nearest template, measured in the kernel", () => {
  const shot = async (file: string): Promise<RgbaImage> => {
    const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data) };
  };
  /** The plain reading: every template at its own size, the least RMS distance. */
  const plain = (image: RgbaImage, grid: Grid, skin: Skin, row: number, col: number) =>
    Math.min(
      ...prepareTemplates(skin, grid).groups.flatMap(({ size, templates }) =>
        templates.map((t) => rmsDistance(cellPatch(image, grid, row, col, skin.inset, size), t.patch)),
      ),
    );

  // xdemineur's templates are compared at 16 px, GNOME's at 23 (an odd size: its records' coarse views start 4
  // bytes on)
  test.each([
    [
      'xdemineur',
      'fixtures/xdemineur/s2-03.png',
      { rows: 16, cols: 30, left: 77.4, top: 381.7, pitchX: 21, pitchY: 21 },
    ],
    [
      'gnome-mines-default',
      'fixtures/gnome-mines/s2-02.png',
      { rows: 16, cols: 16, left: 300.5, top: 150.25, pitchX: 29.7, pitchY: 29.7 },
    ],
  ])(
    'skin %s: the least distance over every template, whichever screenshot or skin came before',
    async (name, file, grid) => {
      const [image, other, skin, otherSkin] = [
        await shot(file),
        await shot('fixtures/kmines/s2-01.png'),
        await loadSkin(name),
        await loadSkin('kmines-classic'),
      ];
      const cells = Array.from({ length: grid.rows * grid.cols }, (_, i): Coord => [
        Math.floor(i / grid.cols),
        i % grid.cols,
      ]);
      nearestDistances(other, grid, otherSkin, cells);
      const found = nearestDistances(image, grid, skin, cells);
      cells.forEach(([row, col], i) => expect(found[i]).toBeCloseTo(plain(image, grid, skin, row, col), 9));
    },
  );
});

// The steps across a grid line (src/locate/gridlines.ts) against a plain reading: at each position along the line, the
// largest |ΔR| + |ΔG| + |ΔB| across it within the band, 0 where the pair of pixels leaves the image.
test('the summed colour steps across a line, both ways, in and partly out of the image', () => {
  const [width, height] = [37, 29];
  const data = new Uint8Array(width * height * 4).map((_, i) => (i * 131 + ((i * i) % 29) * 7) & 0xff);
  const image: RgbaImage = { width, height, data };
  const stepOf = (x0: number, y0: number, x1: number, y1: number) => {
    if (x0 < 0 || y0 < 0 || x1 >= width || y1 >= height) return 0;
    const [a, b] = [(y0 * width + x0) * 4, (y1 * width + x1) * 4];
    return [0, 1, 2].reduce((sum, c) => sum + Math.abs(data[a + c] - data[b + c]), 0);
  };
  const plain = (vertical: boolean, at: number, band: number, from: number, to: number) => {
    let total = 0;
    for (let t = from; t < to; t++) {
      const steps = [];
      for (let s = at - band; s <= at + band; s++)
        steps.push(vertical ? stepOf(s - 1, t, s, t) : stepOf(t, s - 1, t, s));
      total += Math.max(0, ...steps);
    }
    return total;
  };
  for (const vertical of [true, false]) {
    for (const [at, band, from, to] of [
      [10, 1, 2, 20],
      [0, 2, -3, 12],
      [36, 2, 5, 40],
      [15, 3, 0, 29],
    ]) {
      expect(lineSteps(image, vertical, at, band, from, to)).toBe(plain(vertical, at, band, from, to));
    }
  }
});

test("a sample's fit is the same float worst-first; a limit stops it exactly when the fit cannot beat it", async () => {
  const { data, info } = await sharp('fixtures/xdemineur/s2-03.png')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: RgbaImage = { width: info.width, height: info.height, data: new Uint8Array(data) };
  const skin = await loadSkin('xdemineur');
  const grid = { rows: 16, cols: 30, left: 77.4, top: 381.7, pitchX: 21, pitchY: 21 };
  const cells = Array.from({ length: 64 }, (_, i): Coord => [(i * 7) % 16, (i * 11) % 30]);
  const off = { ...grid, left: grid.left + 1.3, top: grid.top - 0.7 };
  const order = worstFirst(image, grid, skin, cells);
  const distances = nearestDistances(image, grid, skin, cells);
  expect(order.map((i) => distances[i])).toEqual([...distances].sort((a, b) => b - a));
  for (const g of [grid, off]) {
    const mean = meanNearest(image, g, skin, cells);
    const median = medianNearest(image, g, skin, cells);
    expect(meanNearest(image, g, skin, cells, Infinity, order)).toBe(mean);
    expect(medianNearest(image, g, skin, cells, Infinity, order)).toBe(median);
    for (const limit of [mean * 0.99, mean * 1.01])
      expect(meanNearest(image, g, skin, cells, limit, order)).toBe(mean < limit ? mean : Infinity);
    for (const limit of [median * 0.99, median * 1.01])
      expect(medianNearest(image, g, skin, cells, limit, order)).toBe(median <= limit ? median : Infinity);
  }
  // measured after the cells a stopped measure left known: the same floats
  const fresh = { ...grid, left: grid.left + 0.25 };
  expect(meanNearest(image, fresh, skin, cells, 0)).toBe(Infinity);
  expect(nearestDistances(image, fresh, skin, cells)).toEqual(
    nearestDistances(image, { ...fresh, rows: 17 }, skin, cells),
  );
  expect(() => nearestDistances(image, grid, skin, [[16, 0]])).toThrow(RangeError);
});

// The skin's templates sit past the screenshot in the kernel's memory and are written once for screenshots of a
// size held before: a larger screenshot moves them, and they must be written again there.
test("a skin's templates stay right in the kernel as screenshots of other sizes come and go", async () => {
  const skin = await loadSkin('xdemineur');
  const grid = { rows: 4, cols: 4, left: 5.5, top: 3.25, pitchX: 21, pitchY: 21 };
  const cells = Array.from({ length: 16 }, (_, i): Coord => [Math.floor(i / 4), i % 4]);
  const prepared = prepareTemplates(skin, grid);
  const least = (image: RgbaImage) =>
    cells.map(([row, col]) =>
      Math.min(
        ...prepared.groups.flatMap(({ size, templates }) => {
          const patch = cellPatch(image, grid, row, col, skin.inset, size);
          return templates.map((t) => rmsDistance(patch, t.patch));
        }),
      ),
    );
  const sizes = [
    [300, 200],
    [640, 480],
    [300, 200],
    [200, 150],
    [800, 600],
    [640, 480],
  ];
  sizes.forEach(([width, height], k) => {
    const image = noise(width, height, 20 + k);
    expect(nearestDistances(image, grid, skin, cells)).toEqual(least(image));
  });
});

// Several skins are held in the kernel at once (a batch that names no skin reads each screenshot with every
// skin): switching between them, writing more, and a larger screenshot that moves them all must leave each
// reading its own templates.
test('skins held side by side in the kernel: each cell measured against the templates of the skin named', async () => {
  const skins = await Promise.all(['xdemineur', 'gnome-mines-default', 'kmines-classic'].map(loadSkin));
  const grid = { rows: 3, cols: 3, left: 4.5, top: 2.75, pitchX: 23, pitchY: 23 };
  const cells = Array.from({ length: 9 }, (_, i): Coord => [Math.floor(i / 3), i % 3]);
  const least = (image: RgbaImage, skin: Skin) => {
    const prepared = prepareTemplates(skin, grid);
    return cells.map(([row, col]) =>
      Math.min(
        ...prepared.groups.flatMap(({ size, templates }) => {
          const patch = cellPatch(image, grid, row, col, skin.inset, size);
          return templates.map((t) => rmsDistance(patch, t.patch));
        }),
      ),
    );
  };
  const steps: [number, number, number][] = [
    [0, 200, 150],
    [1, 200, 150],
    [2, 200, 150],
    [0, 200, 150],
    [2, 200, 150],
    [1, 400, 300],
    [0, 400, 300],
    [1, 300, 200],
    [2, 400, 300],
  ];
  steps.forEach(([s, width, height], k) => {
    const image = noise(width, height, 40 + k);
    expect(nearestDistances(image, grid, skins[s], cells)).toEqual(least(image, skins[s]));
  });
});

// Each cell's distance to its nearest template, which the kernel finds passing over templates by their coarse
// bounds: exactly the least of the RMS distances to every template (a screenshot of flat cells, where a bound is
// as tight as it gets, and noise; each skin's every size of template).
test.each([
  ['xdemineur', 'fixtures/xdemineur/s2-03.png', { rows: 16, cols: 30, left: 77.4, top: 381.7, pitchX: 21, pitchY: 21 }],
  ['gnome-mines-default', null, { rows: 4, cols: 4, left: 3.5, top: 2.25, pitchX: 29.7, pitchY: 29.7 }],
])(
  "the nearest template of %s's, passing over templates by their bounds, is the least distance of all",
  async (skinName, file, grid) => {
    const skin = await loadSkin(skinName as string);
    const image = file ? await screenshot(file) : noise(130, 130, 5);
    const cells = Array.from({ length: 40 }, (_, i): Coord => [(i * 7) % grid.rows, (i * 11) % grid.cols]);
    const prepared = prepareTemplates(skin, grid);
    const nearest = nearestDistances(image, grid, skin, cells);
    cells.forEach(([row, col], k) => {
      let least = Infinity;
      for (const { size, templates } of prepared.groups) {
        const patch = cellPatch(image, grid, row, col, skin.inset, size);
        for (const t of templates) least = Math.min(least, rmsDistance(patch, t.patch));
      }
      expect(nearest[k]).toBe(least);
    });
  },
);

test("a patch's coarse bounds: under its RMS distance to each template, close to the f64 views' bound", async () => {
  const skin = await loadSkin('gnome-mines-default');
  const grid = { rows: 4, cols: 4, left: 3.5, top: 2.25, pitchX: 29.7, pitchY: 29.7 };
  const prepared = prepareTemplates(skin, grid);
  const image = noise(130, 130, 21);
  for (const [row, col] of [
    [0, 0],
    [2, 3],
  ]) {
    prepared.groups.forEach(({ size, templates }, g) => {
      const patch = cellPatch(image, grid, row, col, skin.inset, size);
      const bounds = templateBounds(image, grid, row, col, skin.inset, prepared, g);
      expect(bounds.length).toBe(templates.length);
      templates.forEach((t, i) => {
        expect(bounds[i]).toBeLessThanOrEqual(rmsDistance(patch, t.patch) + 1e-9);
        // in f32, lowered by its margin: under the bound of the f64 views, and close to it
        const exact = Math.sqrt(
          coarseOf(patch).reduce((sum, v, k) => sum + (v - t.coarse[k]) ** 2, 0) / (3 * size * size),
        );
        expect(bounds[i]).toBeLessThanOrEqual(exact);
        expect(bounds[i]).toBeGreaterThan(exact - 3e-3);
      });
    });
  }
});

// A cell's reading (without the search around it) from the kernel's search, which passes over templates by their
// bounds and keeps only what can change the two nearest labels: those two labels and their distances are the
// least RMS distances of all, label by label (noise, on a skin of one template size and one of several; a
// screenshot's cells, read in the kernel or exactly).
test.each([
  ['xdemineur', 'fixtures/xdemineur/s2-03.png', { rows: 16, cols: 30, left: 77.4, top: 381.7, pitchX: 21, pitchY: 21 }],
  ['xdemineur', null, { rows: 5, cols: 5, left: 3.5, top: 2.25, pitchX: 23.3, pitchY: 23.3 }],
  ['gnome-mines-default', null, { rows: 4, cols: 4, left: 3.5, top: 2.25, pitchX: 29.7, pitchY: 29.7 }],
])(
  "the nearest two labels of %s's templates, found passing over templates, are those of all distances",
  async (skinName, file, grid) => {
    const skin = await loadSkin(skinName as string);
    const image = file ? await screenshot(file) : noise(130, 130, 7);
    const prepared = prepareTemplates(skin, grid);
    const cells = Array.from({ length: 40 }, (_, i): Coord => [(i * 7) % grid.rows, (i * 11) % grid.cols]);
    const readings = classify(image, grid, skin, { cells, search: false });
    readings.forEach(({ row, col, best, distance, runnerUp, runnerUpDistance }) => {
      const least = new Map<string, number>();
      for (const { size, templates } of prepared.groups) {
        const patch = cellPatch(image, grid, row, col, skin.inset, size);
        for (const t of templates)
          least.set(t.label, Math.min(least.get(t.label) ?? Infinity, rmsDistance(patch, t.patch)));
      }
      const [first, second] = [...least].sort((a, b) => a[1] - b[1]);
      expect([best, distance]).toEqual(first);
      expect([runnerUp, runnerUpDistance]).toEqual(second);
    });
  },
);

test('edge sums: the summed grey step between neighbouring columns (or rows) over a band', () => {
  const image = noise(60, 50, 31);
  const grey = (x: number, y: number) => {
    const p = 4 * (y * image.width + x);
    return image.data[p] * 0.3 + image.data[p + 1] * 0.59 + image.data[p + 2] * 0.11;
  };
  const [from, to, acrossFrom, acrossTo] = [-2, 40, 5, 30];
  for (const vertical of [true, false]) {
    const sums = edgeSums(image, vertical, from, to, acrossFrom, acrossTo);
    expect(sums.length).toBe(to - from + 1);
    for (let k = from; k <= to; k++) {
      let plain = 0;
      for (let j = acrossFrom; j < acrossTo && k >= 1; j++)
        plain += Math.abs(vertical ? grey(k, j) - grey(k - 1, j) : grey(j, k) - grey(j, k - 1));
      expect(sums[k - from]).toBeCloseTo(plain, 9);
    }
  }
});

// The line-by-line alignment's search (src/read/align.ts's lineShifts) against a plain reading in JS: each line's
// strip scored against the mean strip at every shift, the smoothest path of shifts, three rounds; random profiles
// with a grid's lines in them, lines a pixel or two off, and flat stretches where scores tie.
describe("the lines' shifts on an edge profile, found in the kernel", () => {
  function plainShifts(profile: Float64Array, bases: number[], reach: number, width: number): number[] {
    let shifts = bases.map(() => 0);
    for (let pass = 0; pass < 3; pass++) {
      const typical: number[] = [];
      for (let t = 0; t < width; t++) {
        let sum = 0;
        for (let i = 0; i < bases.length; i++) sum += profile[bases[i] + shifts[i] + t];
        typical.push(sum / bases.length);
      }
      const scores = bases.map((base) => {
        const raw: number[] = [];
        for (let k = 0; k <= 2 * reach; k++) {
          let sum = 0;
          for (let t = 0; t < width; t++) sum += typical[t] * profile[base + k - reach + t];
          raw.push(sum);
        }
        const top = Math.max(1e-9, ...raw);
        return raw.map((v) => v / top);
      });
      shifts = smoothestPath(scores).map((k) => k - reach);
    }
    return shifts;
  }
  function smoothestPath(scores: number[][]): number[] {
    const states = scores[0].length;
    const total = [scores[0].map((v, k) => v - 1e-6 * Math.abs(k - (states - 1) / 2))];
    const from: number[][] = [];
    for (let i = 1; i < scores.length; i++) {
      from.push([]);
      total.push([]);
      for (let k = 0; k < states; k++) {
        let best = -1;
        for (let j = Math.max(0, k - 1); j <= Math.min(states - 1, k + 1); j++)
          if (best < 0 || total[i - 1][j] > total[i - 1][best]) best = j;
        from[i - 1][k] = best;
        total[i].push(total[i - 1][best] + scores[i][k]);
      }
    }
    const last = total[total.length - 1];
    const path = [last.indexOf(Math.max(...last))];
    for (let i = from.length - 1; i >= 0; i--) path.unshift(from[i][path[0]]);
    return path;
  }

  test.each([
    [1, 30, 21],
    [2, 16, 23],
    [3, 9, 16],
    [4, 1, 20],
    [5, 60, 9],
  ])('seed %d, %d lines %d px apart: the shifts of the plain reading', (seed, count, pitch) => {
    let s = seed;
    const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
    const reach = Math.round(0.2 * pitch);
    const width = pitch;
    const offsets = Array.from({ length: count }, () => (next() < 0.3 ? Math.floor(next() * 3) - 1 : 0));
    const bases = Array.from({ length: count }, (_, i) => reach + 1 + i * pitch);
    const profile = new Float64Array(bases[count - 1] + 2 * reach + width + 2);
    for (let x = 0; x < profile.length; x++) profile[x] = next() < 0.2 ? 0 : next() * 40;
    bases.forEach((b, i) => (profile[b + offsets[i]] += 900 + next() * 100));
    for (let x = 0; x < profile.length; x += 7) profile[x] = 0;
    expect(lineShiftsOn(profile, bases, reach, width)).toEqual(plainShifts(profile, bases, reach, width));
  });

  // 20 000 lines: the search's scores, totals and steps (16 MB) grow the kernel's memory while it runs
  test("a search that grows the kernel's memory: the shifts of the plain reading", () => {
    let s = 11;
    const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
    const [count, reach, width] = [20000, 20, 20];
    const bases = Array.from({ length: count }, (_, i) => reach + 1 + i * width);
    const profile = new Float64Array(bases[count - 1] + 2 * reach + width + 2).map(() => next() * 30);
    bases.forEach((b) => (profile[b + (next() < 0.2 ? 1 : 0)] += 500));
    expect(lineShiftsOn(profile, bases, reach, width)).toEqual(plainShifts(profile, bases, reach, width));
  });

  test('flat stretches, where every shift scores alike: the ties broken as the plain reading breaks them', () => {
    const [reach, width] = [4, 20];
    const bases = Array.from({ length: 12 }, (_, i) => reach + 1 + i * width);
    const flat = new Float64Array(bases[11] + 2 * reach + width + 2);
    expect(lineShiftsOn(flat, bases, reach, width)).toEqual(plainShifts(flat, bases, reach, width));
    // two lines' edges two pixels apart, each as strong: the rest of the board flat
    const twin = flat.slice();
    twin[bases[5] - 1] = 500;
    twin[bases[5] + 1] = 500;
    twin[bases[9] + 2] = 300;
    const shifts = lineShiftsOn(twin, bases, reach, width);
    expect(shifts).toEqual(plainShifts(twin, bases, reach, width));
    expect(new Set(shifts).size).toBeGreaterThan(1);
  });
});
