// The skin-free fallback: read a board no skin knows. Cells are clustered by appearance; a cluster of cells
// showing coloured ink on the open-cell background is a count, named by the usual number colours; the
// plain cells of that background are 0; the commonest other cluster is hidden. A count label is kept only
// if the board is consistent with it and with no other colour it could be (SAT); everything it is not
// sure of is unreadable (read as hidden, which can only hide facts).
import type { Board, Grid, Reading, RgbaImage } from './types';
import { cellPatch, type Patch } from './pixels';
import { encode } from './encode';
import { solve } from './solve';

const { abs, max, sqrt } = Math;

const SIZE = 12;
const INSET = 0.12;
/** Cells closer than this (RMS, 0-255) to a cluster's mean join it. */
const CLUSTER_DISTANCE = 14;


interface Cluster {
  members: number[];
  mean: Float32Array;
  background: [number, number, number];
  /** Share of the patch far from the background, and its mean colour. */
  inkShare: number;
  ink: [number, number, number];
}

export const SKINLESS = 'none (skin-free)';

/** Readings of every cell without a skin: counts and 0 where sure, hidden, else unreadable. */
export function readWithoutSkin(image: RgbaImage, grid: Grid): Reading[] {
  const patches: Patch[] = [];
  for (let row = 0; row < grid.rows; row++) for (let col = 0; col < grid.cols; col++) patches.push(cellPatch(image, grid, row, col, INSET, SIZE));
  const clusters = cluster(patches);
  const labels = labelClusters(clusters);
  const board = (l: Map<Cluster, string>): Board => {
    // '?': not labelled, unknown to the solver but no hidden cell for the 0 rule
    const cells = Array.from({ length: grid.rows }, () => new Array<string>(grid.cols).fill('?'));
    for (const c of clusters) for (const i of c.members) cells[Math.floor(i / grid.cols)][i % grid.cols] = l.get(c) ?? '?';
    return { rows: grid.rows, cols: grid.cols, cells, totalMines: null };
  };
  const sure = settleBySat(labels, board);
  const out: Reading[] = [];
  for (const c of clusters) {
    const cell = sure.get(c) ?? '.';
    for (const i of c.members) {
      const distance = rms(patches[i].rgb, c.mean);
      out.push({ row: Math.floor(i / grid.cols), col: i % grid.cols, cell, best: cell, distance, runnerUp: '.', runnerUpDistance: Infinity, unreadable: !sure.has(c) });
    }
  }
  return out.sort((a, b) => a.row - b.row || a.col - b.col);
}

/** Leader clustering, then two passes moving each cell to its nearest mean. */
function cluster(patches: Patch[]): Cluster[] {
  let means: Float32Array[] = [];
  for (const p of patches) if (!means.some((m) => rms(p.rgb, m) <= CLUSTER_DISTANCE)) means.push(Float32Array.from(p.rgb));
  let members: number[][] = [];
  for (let pass = 0; pass < 2; pass++) {
    members = means.map(() => []);
    patches.forEach((p, i) => members[nearest(p.rgb, means)].push(i));
    means = members.map((m, k) => (m.length ? average(m.map((i) => patches[i].rgb)) : means[k]));
  }
  return members.flatMap((m, k) => (m.length ? [describe(m, means[k])] : []));
}

function describe(members: number[], mean: Float32Array): Cluster {
  const n = mean.length / 3;
  const bins = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = [0, 1, 2].map((k) => mean[i * 3 + k] >> 5).join(',');
    bins.set(key, (bins.get(key) ?? 0) + 1);
  }
  const commonest = [...bins].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
  const near = [...Array(n).keys()].filter((i) => [0, 1, 2].every((k) => mean[i * 3 + k] >> 5 === commonest[k]));
  const background = [0, 1, 2].map((k) => near.reduce((s, i) => s + mean[i * 3 + k], 0) / near.length) as [number, number, number];
  const inked = [...Array(n).keys()].filter((i) => max(...[0, 1, 2].map((k) => abs(mean[i * 3 + k] - background[k]))) > 60);
  const ink = [0, 1, 2].map((k) => (inked.length ? inked.reduce((s, i) => s + mean[i * 3 + k], 0) / inked.length : 0)) as [number, number, number];
  return { members, mean, background, inkShare: inked.length / n, ink };
}

/**
 * Candidate labels per cluster. Counts: ink in a number colour on a common background (the colour most
 * count-like cells share), each palette entry about as close as the nearest (navy 4 vs blue 1 when
 * blurred). Plain cells (little ink) of the largest few clusters: 0 or hidden, for SAT to decide.
 */
function labelClusters(clusters: Cluster[]): Map<Cluster, string[]> {
  const countLike = clusters.filter((c) => c.inkShare >= 0.04 && c.inkShare <= 0.6 && paletteCandidates(c.ink).length > 0);
  const votes = new Map<string, number>();
  for (const c of countLike) votes.set(key(c.background), (votes.get(key(c.background)) ?? 0) + c.members.length);
  const open = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
  const labels = new Map<Cluster, string[]>();
  if (open !== undefined) {
    const openColour = open.split(',').map(Number);
    for (const c of countLike) if (colourDistance(c.background, openColour) < 40) labels.set(c, paletteCandidates(c.ink));
  }
  const plain = clusters.filter((c) => !labels.has(c)).sort((a, b) => b.members.length - a.members.length).slice(0, 3);
  for (const c of plain) labels.set(c, ['0', '.']);
  return labels;
}

/**
 * The counts an ink colour may be, likeliest first, by hue: blue 1 (navy 4 when dark), green 2, red 3
 * (maroon 5 when dark), teal 6. Greys and blacks (7, 8, mines, frames) are not guessed.
 */
function paletteCandidates([r, g, b]: [number, number, number]): string[] {
  const hi = max(r, g, b);
  const lo = Math.min(r, g, b);
  if (hi - lo < 60) return [];
  const hue = hueOf(r, g, b, hi, lo);
  const dark = hi < 150;
  if (hue >= 200 && hue < 260) return dark ? ['4', '1'] : ['1', '4'];
  if (hue >= 160 && hue < 200) return ['6'];
  if (hue >= 75 && hue < 160) return ['2'];
  if (hue >= 340 || hue < 20) return dark ? ['5', '3'] : ['3', '5'];
  return [];
}

function hueOf(r: number, g: number, b: number, hi: number, lo: number): number {
  const d = hi - lo;
  const h = hi === r ? ((g - b) / d) % 6 : hi === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/**
 * The labels the board settles: every way of calling the plain clusters 0 or hidden is tried; a way is
 * possible when no 0 touches a hidden cell (the game would have opened it) and the counts can hold (SAT).
 * The count clusters join, largest first, at their likeliest colour, in the ways that stay possible; one
 * that no way survives is left out (a flag in a number's colour). Labels all remaining ways agree on are
 * kept; then a count
 * whose colour leaves two readings keeps the one the board allows, or its likelier one if the board
 * allows both; if the board rules out the likelier one, the cluster is unreadable.
 */
function settleBySat(labels: Map<Cluster, string[]>, board: (l: Map<Cluster, string>) => Board): Map<Cluster, string> {
  const possible = (l: Map<Cluster, string>) => {
    const b = board(l);
    return zerosClosed(b) && solve(encode(b, { totalMines: null })).status === 'ok';
  };
  const plain = [...labels].filter(([, l]) => l[0] === '0').map(([c]) => c);
  const counts = [...labels].filter(([, l]) => l[0] !== '0').sort((a, b) => b[0].members.length - a[0].members.length);
  let ways: Map<Cluster, string>[] = [];
  for (let bits = 0; bits < 1 << plain.length; bits++) {
    const l = new Map<Cluster, string>();
    plain.forEach((c, i) => l.set(c, bits & (1 << i) ? '.' : '0'));
    if (possible(l)) ways.push(l);
  }
  for (const [c, candidates] of counts) {
    const kept = ways.map((w) => new Map([...w, [c, candidates[0]]])).filter(possible);
    if (kept.length) ways = kept;
  }
  if (!ways.length) return new Map();
  const sure = new Map([...ways[0]].filter(([c, label]) => ways.every((w) => w.get(c) === label)));
  // a count sits on the open cells' colour: that of a cluster surely 0
  const zeros = [...sure].filter(([, l]) => l === '0').map(([c]) => c);
  for (const [c] of counts) if (!zeros.some((z) => colourDistance(z.background, c.background) < 30)) sure.delete(c);
  for (const [c, candidates] of counts) {
    if (candidates.length < 2 || !sure.has(c)) continue;
    const fits = candidates.filter((label) => possible(new Map([...sure, [c, label]])));
    if (fits.length === 1) sure.set(c, fits[0]);
    else if (fits.length === 0 || fits[0] !== candidates[0]) sure.delete(c);
  }
  return sure;
}

/** No open 0 next to a hidden cell. */
function zerosClosed(board: Board): boolean {
  const { rows, cols, cells } = board;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (cells[r][c] !== '0') continue;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) if (cells[r + dr]?.[c + dc] === '.' && (dr || dc)) return false;
      }
    }
  }
  return true;
}

function key(colour: [number, number, number]): string {
  return colour.map((v) => Math.round(v / 16) * 16).join(',');
}

function colourDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2);
}

function rms(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return sqrt(s / a.length);
}

function nearest(p: Float32Array, means: Float32Array[]): number {
  let best = 0;
  for (let k = 1; k < means.length; k++) if (rms(p, means[k]) < rms(p, means[best])) best = k;
  return best;
}

function average(rows: Float32Array[]): Float32Array {
  const out = new Float32Array(rows[0].length);
  for (const r of rows) for (let i = 0; i < out.length; i++) out[i] += r[i];
  for (let i = 0; i < out.length; i++) out[i] /= rows.length;
  return out;
}

