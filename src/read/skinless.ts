// The skin-free fallback: read a board no skin knows. Cells are clustered by appearance; a cluster of cells
// showing coloured ink is a count, named by the usual number colours. Open cells share a look (their
// border and background), and hidden cells another: plain cells with the counts' look are 0, plain cells
// of the other look hidden, inked cells of the other look flags. A label is kept only if the board is
// consistent with it (SAT); everything it is not sure of is unreadable (read as hidden, which can only
// hide facts).
import type { Board, Grid, Reading, RgbaImage } from '../common/types';
import { type Cluster, clusterCells, colourDistance, lookDistance } from './clusters';
import { encode } from '../solve/encode';
import { satisfiable } from '../solve/solve';

const { max } = Math;

export const SKINLESS = 'none (skin-free)';

/**
 * Readings of every cell without a skin: counts and 0 where sure, hidden, else unreadable. A reading that
 * must read `atLeast` of the cells to be used stops (all unreadable) as soon as it cannot, before SAT.
 */
export function readWithoutSkin(image: RgbaImage, grid: Grid, atLeast = 0): Reading[] {
  const clustered = clusterCells(image, grid);
  if (clustered === null) return unreadable(grid);
  const { clusters, distances } = clustered;
  const { labels, flags } = labelClusters(clusters);
  const labelled = [...labels.keys(), ...flags].reduce((n, c) => n + c.members.length, 0);
  if (labelled < atLeast * grid.rows * grid.cols) return unreadable(grid);
  const board = (l: Map<Cluster, string>): Board => {
    // '?': not labelled, unknown to the solver but no hidden cell for the 0 rule
    const cells = Array.from({ length: grid.rows }, () => new Array<string>(grid.cols).fill('?'));
    for (const c of clusters)
      for (const i of c.members) cells[Math.floor(i / grid.cols)][i % grid.cols] = l.get(c) ?? '?';
    return { rows: grid.rows, cols: grid.cols, cells, totalMines: null };
  };
  const sure = settleBySat(labels, board);
  for (const c of flags) sure.set(c, 'F');
  const out: Reading[] = [];
  for (const c of clusters) {
    const cell = sure.get(c) ?? '.';
    for (const i of c.members) {
      out.push({
        row: Math.floor(i / grid.cols),
        col: i % grid.cols,
        cell,
        best: cell,
        distance: distances[i],
        runnerUp: '.',
        runnerUpDistance: Infinity,
        unreadable: !sure.has(c),
      });
    }
  }
  return out.sort((a, b) => a.row - b.row || a.col - b.col);
}

function unreadable(grid: Grid): Reading[] {
  return Array.from({ length: grid.rows * grid.cols }, (_, i): Reading => ({
    row: Math.floor(i / grid.cols),
    col: i % grid.cols,
    cell: '.',
    best: '.',
    distance: Infinity,
    runnerUp: '.',
    runnerUpDistance: Infinity,
    unreadable: true,
  }));
}

/**
 * Candidate labels per cluster, and the clusters that are flags. Counts: ink in a number colour, each
 * palette entry about as close as the nearest (navy 4 vs blue 1 when blurred). The open look is that of
 * the counts showing the most different numbers (a flag in a number's colour is one look, one colour);
 * the hidden look that of the plain cluster least like it. Other inked clusters nearer the open look are
 * counts too (open cells can be shaded by place). Plain clusters are 0 or hidden by the look they are
 * clearly nearer, else either, for SAT to decide. Inked clusters of the hidden look with red ink are flags.
 */
function labelClusters(clusters: Cluster[]): { labels: Map<Cluster, string[]>; flags: Cluster[] } {
  const labels = new Map<Cluster, string[]>();
  const flags: Cluster[] = [];
  const inked = clusters.filter((c) => c.inkShare >= 0.04 && c.inkShare <= 0.6 && paletteCandidates(c.ink).length > 0);
  const groups: Cluster[][] = [];
  for (const c of [...inked].sort((a, b) => b.members.length - a.members.length)) {
    const group = groups.find((g) => lookDistance(g[0], c) <= SAME_LOOK);
    if (group) group.push(c);
    else groups.push([c]);
  }
  // hue families: 1 and 4 are both blue, 3 and 5 both red (a flag's blue split by JPEG noise is one family)
  const colours = (g: Cluster[]) => new Set(g.map((c) => [...paletteCandidates(c.ink)].sort().join())).size;
  const score = (g: Cluster[]) => colours(g) * 1e6 + g.reduce((n, c) => n + c.members.length, 0);
  const counts = groups.sort((a, b) => score(b) - score(a))[0] ?? [];
  // one colour could be a flag's as well as a count's
  if (colours(counts) < 2) return { labels, flags };
  const open = counts[0];
  const plain = clusters.filter((c) => c.inkShare < 0.04);
  const hidden = plain
    .filter((c) => c.members.length >= 2 && lookDistance(c, open) > SAME_LOOK)
    .sort((a, b) => lookDistance(b, open) - lookDistance(a, open))[0];
  const nearer = (c: Cluster, a: Cluster | undefined, b: Cluster | undefined, ratio: number) =>
    !!a && (!b || lookDistance(c, a) <= ratio * lookDistance(c, b));
  for (const c of inked)
    if (counts.includes(c) || nearer(c, open, hidden, NEARER)) labels.set(c, paletteCandidates(c.ink));
  const undecided: Cluster[] = [];
  for (const c of plain) {
    // a 0 is the open cells' own colour, and seldom alone (a lone smudged digit can look plain)
    const openColour = c.members.length >= 2 && colourDistance(c.background, open.background) <= SAME_COLOUR;
    if (nearer(c, open, hidden, NEARER) && openColour) labels.set(c, ['0']);
    else if (nearer(c, hidden, open, NEARER)) labels.set(c, ['.']);
    else if (openColour) undecided.push(c);
  }
  for (const c of undecided.sort((a, b) => b.members.length - a.members.length).slice(0, 3)) labels.set(c, ['0', '.']);
  for (const c of clusters) {
    if (
      c.inkShare >= 0.04 &&
      reddish(c.ink) &&
      !labels.has(c) &&
      nearer(c, hidden, open, 0.5) &&
      lookDistance(c, hidden as Cluster) <= SAME_LOOK
    )
      flags.push(c);
  }
  return { labels, flags };
}

/** A flag is red wherever it is drawn; a question mark, a mine or a cursor on a hidden cell is not a flag. */
function reddish([r, g, b]: [number, number, number]): boolean {
  const hi = max(r, g, b);
  const lo = Math.min(r, g, b);
  if (hi - lo < 40 || hi !== r) return false;
  const hue = hueOf(r, g, b, hi, lo);
  return hue >= 330 || hue < 30;
}

/** Background colours this close (RGB distance) are one colour. */
const SAME_COLOUR = 30;

/** A look at most this share of the distance to the other look is clearly that one. */
const NEARER = 0.7;

/** Looks closer than this (RMS over border strips and background, 0-255) are one look. */
const SAME_LOOK = 12;

/**
 * The counts an ink colour may be, likeliest first, by hue: blue 1 (navy 4 when dark), green 2, red 3
 * (maroon 5 when dark), teal 6. Greys and blacks (7, 8, mines, frames) are not guessed.
 */
function paletteCandidates([r, g, b]: [number, number, number]): string[] {
  const hi = max(r, g, b);
  const lo = Math.min(r, g, b);
  if (hi - lo < 40) return [];
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
 * The labels the board settles: every way of reading the plain clusters (0 or hidden, where their look
 * leaves both) is tried; a way is possible when no 0 touches a hidden cell (the game would have opened it)
 * and the counts can hold (SAT). The count clusters join, largest first, at their likeliest colour, in the
 * ways that stay possible; one that no way survives is left out. Labels all remaining ways agree on are
 * kept; then a count whose colour leaves two readings keeps the one the board allows, or its likelier one
 * if the board allows both; if the board rules out the likelier one, the cluster is unreadable.
 */
function settleBySat(labels: Map<Cluster, string[]>, board: (l: Map<Cluster, string>) => Board): Map<Cluster, string> {
  const possible = (l: Map<Cluster, string>) => {
    const b = board(l);
    return zerosClosed(b) && satisfiable(encode(b, { totalMines: null }));
  };
  const isPlain = (l: string[]) => l.every((x) => x === '0' || x === '.');
  const plain = [...labels].filter(([, l]) => isPlain(l));
  const counts = [...labels].filter(([, l]) => !isPlain(l)).sort((a, b) => b[0].members.length - a[0].members.length);
  let ways: Map<Cluster, string>[] = [new Map()];
  for (const [c, candidates] of plain)
    ways = ways.flatMap((w) => candidates.map((label) => new Map([...w, [c, label]])));
  ways = ways.filter(possible);
  for (const [c, candidates] of counts) {
    const kept = ways.map((w) => new Map([...w, [c, candidates[0]]])).filter(possible);
    if (kept.length) ways = kept;
  }
  if (!ways.length) return new Map();
  const sure = new Map([...ways[0]].filter(([c, label]) => ways.every((w) => w.get(c) === label)));
  for (const [c, candidates] of counts) {
    if (candidates.length < 2 || !sure.has(c)) continue;
    const fits = candidates.filter((label) => possible(new Map([...sure, [c, label]])));
    if (fits.length === 1) sure.set(c, fits[0]);
    else if (fits.length === 0 || fits[0] !== candidates[0]) sure.delete(c);
  }
  // games agree on the colours of 1-4 more than on the rest, and a cluster of a cell or two says little
  for (const [c] of counts) {
    const label = sure.get(c);
    if (!label || (c.members.length >= 3 && Number(label) <= 4)) continue;
    const others = [...'12345678'].filter((d) => d !== label && possible(new Map([...sure, [c, d]])));
    if (others.length) sure.delete(c);
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
