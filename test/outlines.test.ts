// The WebAssembly outline finder against a plain reading of its definition: each mask pixel from its
// neighbours or its whole 15×15 window, regions by flood fill, in the order their first pixels come.
import sharp from 'sharp';
import { gapsAlong, latticeFit, latticeForest, squareRegions, type SquareLimits } from '../src/locate/outlines';
import type { Rect, RgbaImage } from '../src/common/types';

function reference(image: RgbaImage, limits: SquareLimits): Rect[] {
  const { width: w, height: h, data } = image;
  const gray = Array.from(
    { length: w * h },
    (_, i) => (77 * data[4 * i] + 150 * data[4 * i + 1] + 29 * data[4 * i + 2]) >> 8,
  );
  const step = (i: number, j: number) => Math.abs(gray[i] - gray[j]) >= 10;
  const edges = gray.map((_, i) => {
    const [x, y] = [i % w, Math.floor(i / w)];
    return (x > 0 && step(i, i - 1)) ||
      (x < w - 1 && step(i, i + 1)) ||
      (y > 0 && step(i, i - w)) ||
      (y < h - 1 && step(i, i + w))
      ? 1
      : 0;
  });
  const threshold = gray.map((g, i) => {
    const [x, y] = [i % w, Math.floor(i / w)];
    let [total, area] = [0, 0];
    for (let v = Math.max(0, y - 7); v <= Math.min(h - 1, y + 7); v++) {
      for (let u = Math.max(0, x - 7); u <= Math.min(w - 1, x + 7); u++, area++) total += gray[v * w + u];
    }
    return g > total / area - 2 ? 1 : 0;
  });
  return [edges, threshold].flatMap((mask) =>
    regionsOf(mask, w, h)
      .filter(({ box, size }) => {
        const ratio = box.width / box.height;
        const sides = [box.width, box.height].every((s) => s >= limits.minSide && s <= limits.maxSide);
        return sides && ratio > 0.75 && ratio < 1.33 && size >= 0.5 * box.width * box.height;
      })
      .map(({ box }) => box),
  );
}

function regionsOf(mask: number[], w: number, h: number): { box: Rect; size: number }[] {
  const seen = new Uint8Array(mask.length);
  const regions: { box: Rect; size: number }[] = [];
  for (let first = 0; first < mask.length; first++) {
    if (seen[first]) continue;
    seen[first] = 1;
    const stack = [first];
    let [left, top, right, bottom, size] = [w, h, 0, 0, 0];
    while (stack.length) {
      const i = stack.pop() as number;
      const [x, y] = [i % w, Math.floor(i / w)];
      [left, top, right, bottom, size] = [
        Math.min(left, x),
        Math.min(top, y),
        Math.max(right, x),
        Math.max(bottom, y),
        size + 1,
      ];
      const around = [x > 0 && i - 1, x < w - 1 && i + 1, y > 0 && i - w, y < h - 1 && i + w];
      for (const j of around) {
        if (j !== false && !seen[j] && mask[j] === mask[i]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    regions.push({ box: { left, top, width: right - left + 1, height: bottom - top + 1 }, size });
  }
  return regions;
}

/**
 * Random rectangles of random greys on a random background, with noise: every kind of region and edge; and a
 * corner of faint grain, where a pixel often sits exactly at its window's mean less 2.
 */
function scene(width: number, height: number, seed: number): RgbaImage {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const data = new Uint8Array(4 * width * height).fill(Math.floor(random() * 256));
  for (let k = 0; k < 40; k++) {
    const [x0, y0] = [Math.floor(random() * width), Math.floor(random() * height)];
    const [x1, y1] = [
      Math.min(width, x0 + 1 + Math.floor(random() * 40)),
      Math.min(height, y0 + 1 + Math.floor(random() * 40)),
    ];
    const colour = [0, 1, 2].map(() => Math.floor(random() * 256));
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data.set([...colour, 255], 4 * (y * width + x));
  }
  for (let i = 0; i < data.length; i++) if (i % 4 !== 3 && random() < 0.02) data[i] = Math.floor(random() * 256);
  for (let y = 0; y < height / 2; y++)
    for (let x = 0; x < width / 2; x++)
      data.fill(100 + Math.floor(random() * 6), 4 * (y * width + x), 4 * (y * width + x) + 3);
  return { width, height, data };
}

const LIMITS: SquareLimits = { minSide: 6, maxSide: 130 };

test.each([
  [1, 1],
  [1, 40],
  [40, 1],
  [15, 15],
  [16, 9],
  [17, 30],
  [18, 18],
  [19, 23],
  [20, 16],
  [31, 17],
  [64, 48],
  [123, 77],
])('a %d×%d scene: the same squares, in the same order, as the definition gives', (width, height) => {
  for (const seed of [1, 2, 3]) {
    const image = scene(width, height, seed * 7919 + width);
    expect(squareRegions(image, LIMITS)).toEqual(reference(image, LIMITS));
  }
});

test("a screenshot: the same squares as the definition gives, and a board's worth of them", async () => {
  const { data, info } = await sharp('fixtures/xdemineur/s2-03.png')
    .extract({ left: 60, top: 360, width: 240, height: 160 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image = { width: info.width, height: info.height, data: new Uint8Array(data) };
  const found = squareRegions(image, LIMITS);
  expect(found).toEqual(reference(image, LIMITS));
  expect(found.length).toBeGreaterThan(50);
});

test('images one after another, small after large: each as if it were the first', () => {
  const small = scene(50, 40, 5);
  const alone = squareRegions(small, LIMITS);
  squareRegions(scene(900, 700, 6), LIMITS);
  expect(squareRegions(small, LIMITS)).toEqual(alone);
});

test('a 9 Mpx image: the squares in its far corner are those of the corner alone (window sums past 2³¹)', () => {
  const [width, height, side, margin] = [3000, 3000, 100, 10];
  const corner = scene(side, side, 9);
  const crop = {
    width: side + 2 * margin,
    height: side + 2 * margin,
    data: new Uint8Array(4 * (side + 2 * margin) ** 2).fill(255),
  };
  const whole = { width, height, data: new Uint8Array(4 * width * height).fill(255) };
  for (let y = 0; y < side; y++) {
    const row = corner.data.subarray(4 * y * side, 4 * (y + 1) * side);
    crop.data.set(row, 4 * ((y + margin) * crop.width + margin));
    whole.data.set(row, 4 * ((height - side - margin + y) * width + width - side - margin));
  }
  const shift = { x: width - crop.width, y: height - crop.height };
  const expected = squareRegions(crop, LIMITS).map((r) => ({ ...r, left: r.left + shift.x, top: r.top + shift.y }));
  expect(expected.length).toBeGreaterThan(3);
  expect(squareRegions(whole, LIMITS)).toEqual(expected);
});

// The lattice search's neighbour loops, in the kernel (src/locate/locate.ts's nearest gaps and union–find forest),
// against their plain reading: every pair of outlines looked at.
describe("outlines' neighbours, found in the kernel", () => {
  const centre = (b: Rect, axis: 'x' | 'y') => (axis === 'x' ? b.left + b.width / 2 : b.top + b.height / 2);
  const plainGaps = (boxes: Rect[], axis: 'x' | 'y', side: number) =>
    boxes.flatMap((a) => {
      const across = axis === 'x' ? 'y' : 'x';
      let gap = Infinity;
      for (const b of boxes) {
        const d = centre(b, axis) - centre(a, axis);
        // the kernel looks only in buckets of a side up to two along and one across: a gap under 1.9 sides is there
        if (d > 0.6 * side && d < gap && Math.abs(centre(b, across) - centre(a, across)) < side / 3) gap = d;
      }
      return gap < 1.9 * side ? [gap] : [];
    });
  const onLattice = (a: Rect, b: Rect, px: number, py: number) => {
    const [fx, fy] = [(centre(b, 'x') - centre(a, 'x')) / px, (centre(b, 'y') - centre(a, 'y')) / py];
    return Math.abs(fx - Math.round(fx)) < 0.2 && Math.abs(fy - Math.round(fy)) < 0.2;
  };
  /** Sets of outlines (as sorted index lists) joined through neighbours on the lattice within `link` pitches. */
  const plainGroups = (boxes: Rect[], px: number, py: number, link: number) => {
    const parent = boxes.map((_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
    boxes.forEach((a, i) =>
      boxes.forEach((b, j) => {
        const near =
          Math.abs(Math.floor(centre(b, 'x') / px) - Math.floor(centre(a, 'x') / px)) <= link &&
          Math.abs(Math.floor(centre(b, 'y') / py) - Math.floor(centre(a, 'y') / py)) <= link;
        if (i !== j && near && onLattice(a, b, px, py)) parent[find(j)] = find(i);
      }),
    );
    return groupsOf(parent.map((_, i) => find(i)));
  };
  const groupsOf = (roots: number[]) => {
    const groups = new Map<number, number[]>();
    roots.forEach((r, i) => groups.set(r, [...(groups.get(r) ?? []), i]));
    return [...groups.values()].map(String).sort();
  };
  const boxesOf = (seed: number, count: number): Rect[] => {
    let s = seed;
    const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
    return Array.from({ length: count }, () => {
      // cells of ~20 px on a lattice of 23, a few off it, and noise
      const [col, row] = [Math.floor(next() * 40), Math.floor(next() * 25)];
      const off = next() < 0.1 ? Math.floor(next() * 11) : 0;
      return {
        left: 5 + col * 23 + off,
        top: 7 + row * 23 + Math.floor(next() * 2),
        width: 19 + Math.floor(next() * 3),
        height: 19 + Math.floor(next() * 3),
      };
    });
  };

  test.each([
    [1, 600],
    [2, 200],
    [3, 25],
    [4, 1],
  ])('random outlines (seed %d, %d of them): the gaps and the lattice groups of the plain reading', (seed, count) => {
    const boxes = boxesOf(seed, count);
    for (const axis of ['x', 'y'] as const)
      for (const side of [20, 23, 31]) expect([...gapsAlong(boxes, axis, side)]).toEqual(plainGaps(boxes, axis, side));
    for (const [px, py] of [
      [23, 23],
      [22.9, 23.05],
      [46, 11.5],
    ]) {
      expect(groupsOf(latticeForest(boxes, px, py, 5).map((_, i, parent) => rootOf(parent, i)))).toEqual(
        plainGroups(boxes, px, py, 5),
      );
    }
  });

  /**
   * src/locate/grid.ts's fit of an axis, read plainly in JS: centres c = origin + pitch × (k + 0.5), from the middle
   * out.
   */
  const plainFit = (boxes: Rect[], axis: 'x' | 'y', pitchGuess: number) => {
    let pitch = pitchGuess;
    const sorted = boxes.map((b) => centre(b, axis)).sort((a, b) => a - b);
    const middle = sorted[sorted.length >> 1];
    let origin = middle - pitch / 2;
    let points = sorted;
    const indices = (cs: number[]) => cs.map((c) => Math.round((c - origin) / pitch - 0.5));
    for (let reach = 4 * pitch; ; reach *= 2) {
      const window = points.filter((c) => Math.abs(c - middle) <= reach);
      const k = indices(window);
      if (new Set(k).size >= 2) {
        const [mk, mv] = [k.reduce((s, v) => s + v, 0) / k.length, window.reduce((s, v) => s + v, 0) / k.length];
        let [num, den] = [0, 0];
        k.forEach((ki, i) => {
          num += (ki - mk) * (window[i] - mv);
          den += (ki - mk) ** 2;
        });
        pitch = den > 0 ? num / den : 1;
        origin = mv - pitch * (mk + 0.5);
      }
      const kept = points.filter((c) => {
        const f = (c - origin) / pitch - 0.5;
        return Math.abs(c - middle) > reach || Math.abs(f - Math.round(f)) < 0.25;
      });
      const same = window.length === kept.length;
      points = kept;
      if (same && reach > sorted[sorted.length - 1] - sorted[0]) break;
    }
    const k = indices(points);
    return { origin: origin + Math.min(...k) * pitch, pitch, count: Math.max(...k) - Math.min(...k) + 1 };
  };

  test.each([
    [1, 600],
    [2, 200],
    [3, 25],
    [4, 1],
    [5, 3000],
  ])('random outlines (seed %d, %d of them): the lattice fitted to each axis, as the plain reading', (seed, count) => {
    const boxes = boxesOf(seed, count);
    for (const axis of ['x', 'y'] as const)
      for (const guess of [23, 22.4, 24.1, 46])
        expect(latticeFit(boxes, axis, guess)).toEqual(plainFit(boxes, axis, guess));
  });

  test("after a large image, and after a small one: the kernel's memory grown or not, the same answers", () => {
    const boxes = boxesOf(9, 300);
    const gaps = gapsAlong(boxes, 'x', 23);
    const fit = latticeFit(boxes, 'y', 23);
    squareRegions(blank(3000, 2000), { minSide: 6, maxSide: 130 });
    expect(gapsAlong(boxes, 'x', 23)).toEqual(gaps);
    expect(latticeFit(boxes, 'y', 23)).toEqual(fit);
    squareRegions(blank(20, 20), { minSide: 6, maxSide: 130 });
    expect(gapsAlong(boxes, 'x', 23)).toEqual(gaps);
    expect(latticeFit(boxes, 'y', 23)).toEqual(fit);
  });
});

function rootOf(parent: number[], i: number): number {
  return parent[i] === i ? i : rootOf(parent, parent[i]);
}

function blank(width: number, height: number): RgbaImage {
  return { width, height, data: new Uint8Array(4 * width * height) };
}
