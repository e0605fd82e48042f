// Cells grouped by appearance, for the skin-free fallback: each cluster with its mean look, background and ink.
import type { Grid, RgbaImage } from '../common/types';
import { cellPatch, type Patch } from '../image/patch';

const { abs, max, sqrt } = Math;

const SIZE = 12;
const INSET = 0.12;
/** Cells closer than this (RMS, 0-255) to a cluster's mean join it. */
const CLUSTER_DISTANCE = 10;
/**
 * ...and only when their border strips are this close too (RMS of the strips' mean colours): an open 0 and a
 * hidden cell can share the same flat inside and differ only in the bevel at their border (the classic grey look).
 */
const RING_DISTANCE = 40;
/**
 * More looks than this is a texture (a lawn of grass tiles), not a board's few kinds of cells, which stay well
 * under it even with JPEG noise. Clustering every cell of a texture apart would be slow (each cell against every
 * look so far).
 */
const MAX_LOOKS = 256;

export interface Cluster {
  members: number[];
  mean: Float32Array;
  /** Mean colours of the cell's four border strips (uninset), then its background colour. */
  look: number[];
  background: [number, number, number];
  /** Share of the patch far from the background, and its mean colour. */
  inkShare: number;
  ink: [number, number, number];
}

/**
 * The board's cells clustered by their inset patches; `distances[i]`: cell i from its cluster's mean. Null
 * when the cells show more than MAX_LOOKS looks.
 */
export function clusterCells(image: RgbaImage, grid: Grid): { clusters: Cluster[]; distances: number[] } | null {
  const patches: Patch[] = [];
  for (let row = 0; row < grid.rows; row++)
    for (let col = 0; col < grid.cols; col++) patches.push(cellPatch(image, grid, row, col, INSET, SIZE));
  const rings = patches.map((_, i) =>
    ringOf(cellPatch(image, grid, Math.floor(i / grid.cols), i % grid.cols, 0, SIZE)),
  );
  const clusters = cluster(patches, rings);
  if (clusters === null) return null;
  const distances = new Array<number>(patches.length);
  for (const c of clusters) for (const i of c.members) distances[i] = rms(patches[i].rgb, c.mean);
  return { clusters, distances };
}

/** Leader clustering on the inside and the border strips, then two passes moving each cell to its nearest mean. */
function cluster(patches: Patch[], rings: number[][]): Cluster[] | null {
  const rgbRings = rings.map((r) => Float32Array.from(r));
  let means: Float32Array[] = [];
  let ringMeans: Float32Array[] = [];
  const distance = (i: number, k: number) =>
    max(rms(patches[i].rgb, means[k]), (CLUSTER_DISTANCE / RING_DISTANCE) * rms(rgbRings[i], ringMeans[k]));
  for (let i = 0; i < patches.length; i++) {
    if (means.some((_, k) => distance(i, k) <= CLUSTER_DISTANCE)) continue;
    if (means.length === MAX_LOOKS) return null;
    means.push(Float32Array.from(patches[i].rgb));
    ringMeans.push(Float32Array.from(rgbRings[i]));
  }
  let members: number[][] = [];
  for (let pass = 0; pass < 2; pass++) {
    members = means.map(() => []);
    patches.forEach((_, i) => members[nearest(i, means.length, distance)].push(i));
    means = members.map((m, k) => (m.length ? average(m.map((i) => patches[i].rgb)) : means[k]));
    ringMeans = members.map((m, k) => (m.length ? average(m.map((i) => rgbRings[i])) : ringMeans[k]));
  }
  return members.flatMap((m, k) => (m.length ? [describe(m, means[k], rings)] : []));
}

/** The mean colour of each border strip of a cell's uninset patch: a hidden tile's bevel or frame shows there. */
function ringOf(p: Patch): number[] {
  const n = p.size;
  const strip = (at: (i: number) => number) =>
    [0, 1, 2].map((k) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += p.rgb[at(i) * 3 + k];
      return sum / n;
    });
  return [...strip((i) => i), ...strip((i) => (n - 1) * n + i), ...strip((i) => i * n), ...strip((i) => i * n + n - 1)];
}

function describe(members: number[], mean: Float32Array, rings: number[][]): Cluster {
  const n = mean.length / 3;
  const bins = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = [0, 1, 2].map((k) => mean[i * 3 + k] >> 5).join(',');
    bins.set(key, (bins.get(key) ?? 0) + 1);
  }
  const commonest = [...bins]
    .sort((a, b) => b[1] - a[1])[0][0]
    .split(',')
    .map(Number);
  const near = [...Array(n).keys()].filter((i) => [0, 1, 2].every((k) => mean[i * 3 + k] >> 5 === commonest[k]));
  const background = [0, 1, 2].map((k) => near.reduce((s, i) => s + mean[i * 3 + k], 0) / near.length) as [
    number,
    number,
    number,
  ];
  const inked = [...Array(n).keys()].filter(
    (i) => max(...[0, 1, 2].map((k) => abs(mean[i * 3 + k] - background[k]))) > 60,
  );
  const ink = [0, 1, 2].map((k) =>
    inked.length ? inked.reduce((s, i) => s + mean[i * 3 + k], 0) / inked.length : 0,
  ) as [number, number, number];
  const ring = rings[0].map((_, k) => members.reduce((sum, i) => sum + rings[i][k], 0) / members.length);
  return { members, mean, look: [...ring, ...background], background, inkShare: inked.length / n, ink };
}

/**
 * The share of a strip's cells (a grid beside the board's) whose look (border strips and background: what cells
 * of one kind share, whatever they show) is that of a cluster of two cells or more: cells of the board's own looks
 * there mean the board goes on.
 */
export function shareAlike(image: RgbaImage, strip: Grid, clusters: Cluster[]): number {
  const looks = clusters.filter((c) => c.members.length >= 2);
  let alike = 0;
  for (let row = 0; row < strip.rows; row++) {
    for (let col = 0; col < strip.cols; col++) {
      const patch = cellPatch(image, strip, row, col, INSET, SIZE).rgb;
      const ring = ringOf(cellPatch(image, strip, row, col, 0, SIZE));
      const cell = describe([0], patch, [ring]);
      if (looks.some((c) => lookDistance(cell, c) <= SAME_LOOK)) alike++;
    }
  }
  return alike / Math.max(1, strip.rows * strip.cols);
}

/** Looks closer than this (RMS over border strips and background, 0-255) are one look. */
export const SAME_LOOK = 12;

export function lookDistance(a: Cluster, b: Cluster): number {
  return sqrt(a.look.reduce((sum, v, k) => sum + (v - b.look[k]) ** 2, 0) / a.look.length);
}

export function colourDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2);
}

function rms(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return sqrt(s / a.length);
}

function nearest(i: number, count: number, distance: (i: number, k: number) => number): number {
  let [best, bestDistance] = [0, distance(i, 0)];
  for (let k = 1; k < count; k++) {
    const d = distance(i, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

function average(rows: Float32Array[]): Float32Array {
  const out = new Float32Array(rows[0].length);
  for (const r of rows) for (let i = 0; i < out.length; i++) out[i] += r[i];
  for (let i = 0; i < out.length; i++) out[i] /= rows.length;
  return out;
}
