// The skin-free fallback: read a board no skin knows. Cells are clustered by appearance; a cluster of cells
// showing ink is a count when its ink is shaped like a digit (symbols.ts) in a colour that digit may have, or,
// failing a clear shape, by the usual number colours. Open cells share a look (their border and background),
// and hidden cells another: plain cells with the counts' look are 0, plain cells of the other look hidden,
// inked cells of the other look flags unless shaped like a question mark. A label is kept only if the board is
// consistent with it (SAT); everything it is not sure of is unreadable (read as hidden, which can only hide facts).
import { debuglog } from 'node:util';
import type { Board, Grid, Reading, RgbaImage } from '../common/types';
import { type Cluster, clusterCells, colourDistance, lookDistance, SAME_LOOK } from './clusters';
import { symbolShape } from './symbols';
import { encode } from '../solve/encode';
import { satisfiable } from '../solve/solve';

const { max } = Math;
const trace = debuglog('mine-assist');

export const SKINLESS = 'none (skin-free)';

/**
 * Readings of every cell without a skin: counts and 0 where sure, hidden, else unreadable. A reading that
 * must read `atLeast` of the cells to be used stops (all unreadable) as soon as it cannot, before SAT. The
 * shapes of the skins in `except` are not used to tell shapes (a look read as if never taught).
 */
export function readWithoutSkin(image: RgbaImage, grid: Grid, atLeast = 0, except: readonly string[] = []): Reading[] {
  const clustered = clusterCells(image, grid);
  if (clustered === null) return unreadable(grid);
  const { clusters, shapes, doubtful } = byShape(image, grid, clustered.clusters, except);
  const { distances } = clustered;
  const { labels, flags } = labelClusters(
    clusters.filter((c) => !doubtful.has(c)),
    shapes,
  );
  const labelled = [...labels.keys(), ...flags].reduce((n, c) => n + c.members.length, 0);
  if (labelled < atLeast * grid.rows * grid.cols) return unreadable(grid);
  const board = (l: Map<Cluster, string>): Board => {
    // '?': not labelled, unknown to the solver but no hidden cell for the 0 rule
    const cells = Array.from({ length: grid.rows }, () => new Array<string>(grid.cols).fill('?'));
    for (const c of clusters)
      for (const i of c.members) cells[Math.floor(i / grid.cols)][i % grid.cols] = l.get(c) ?? '?';
    return { rows: grid.rows, cols: grid.cols, cells, totalMines: null };
  };
  const sure = settleBySat(labels, board, new Set(shapes.keys()));
  trace(
    'skin-free: %s',
    clusters
      .map((c) => `${c.members.length}×${shapes.get(c) ?? ''}[${labels.get(c) ?? (flags.includes(c) ? 'F' : '')}]`)
      .concat(`sure ${[...sure.values()].join('')}`)
      .join(' '),
  );
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

/**
 * The clusters showing any ink split by the symbol each cell's ink is clearly shaped like (cells of one look can
 * hold two digits of one colour; thin digits shrunk to a cluster's patch look alike), and that symbol per part. A
 * part whose cells show no clear symbol, split from parts that do, is doubtful: it is not read at all (a digit
 * whose shape is unclear is no 0).
 */
function byShape(
  image: RgbaImage,
  grid: Grid,
  clusters: Cluster[],
  except: readonly string[],
): { clusters: Cluster[]; shapes: Map<Cluster, string>; doubtful: Set<Cluster> } {
  const shapes = new Map<Cluster, string>();
  const doubtful = new Set<Cluster>();
  const shapeOf = (i: number) => {
    const shape = symbolShape(image, grid, Math.floor(i / grid.cols), i % grid.cols, except);
    return shape && shape.distance <= SHAPE.distance && shape.runnerUpDistance >= SHAPE.ratio * shape.distance
      ? shape.label
      : '';
  };
  const out: Cluster[] = [];
  for (const c of clusters) {
    if (c.inkShare === 0 || c.inkShare > MAX_INK) {
      out.push(c);
      continue;
    }
    // cells of one cluster with ink enough look alike: a spread sample tells them all when it agrees, and a large
    // cluster none of whose sample shows a symbol is the hidden look's bevel, or a texture; thin ink is read cell
    // by cell (shrunk to a cluster's patch, its digits look alike)
    const step = Math.max(1, Math.floor(c.members.length / SHAPE.sample));
    const sampled = new Map(c.members.filter((_, k) => k % step === 0).map((i) => [i, shapeOf(i)]));
    const agreed = [...sampled.values()].every((symbol) => symbol === sampled.get(c.members[0]));
    const parts = new Map<string, number[]>();
    const known = sampled.get(c.members[0]) as string;
    if (agreed && (c.inkShare >= MIN_INK || (!known && c.members.length > SHAPE.sample * 4)))
      parts.set(known, c.members);
    else {
      for (const i of c.members) {
        const symbol = sampled.get(i) ?? shapeOf(i);
        parts.set(symbol, [...(parts.get(symbol) ?? []), i]);
      }
    }
    // a cluster most of whose cells show no symbol is a look of its own: a few of its cells shaped like one are its
    // texture (a glossy tile's highlight drawn like a 1), not symbols
    if ((parts.get('')?.length ?? 0) >= TEXTURE * c.members.length) {
      out.push(c);
      continue;
    }
    for (const [symbol, members] of parts) {
      const part = parts.size === 1 ? c : { ...c, members };
      if (symbol) shapes.set(part, symbol);
      else if (parts.size > 1) doubtful.add(part);
      out.push(part);
    }
  }
  return { clusters: out, shapes, doubtful };
}

/** A cluster with this share of its cells showing no symbol shows none. */
const TEXTURE = 0.5;

/** A shape this near a symbol (shapeDistance), and this many times nearer than any other symbol, is that symbol. */
const SHAPE = { distance: 0.28, ratio: 1.2, sample: 8 };

/** A cell whose ink covers this share of it, or more up to MAX_INK, shows something: a count, a flag, a mine. */
const MIN_INK = 0.04;
const MAX_INK = 0.75;

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
 * Candidate labels per cluster, and the clusters that are flags. Counts: ink shaped like a digit (`shapes`) in
 * a colour that digit may have (any colour the number colours do not give to another digit), else ink in a
 * number colour, each palette entry about as close as the nearest (navy 4 vs blue 1 when blurred). The open
 * look is that of the counts showing the most different numbers (a flag in a number's colour is one look, one
 * colour); the hidden look that of the common plain cluster least like them, and every plain look of its
 * colour clearly nearer a hidden look than an open one. Other inked clusters nearer the open look are counts too
 * (open cells can be shaded by place). Plain clusters are 0 or hidden by the look they are clearly nearer, else
 * either, for SAT to decide, when they have an open or a hidden cell's colour. Inked clusters of the hidden look
 * with more ink than the bare tile, not shaped like a question mark, in a colour or shaped like a flag or a mine,
 * are flags.
 */
function labelClusters(
  clusters: Cluster[],
  shapes: Map<Cluster, string>,
): { labels: Map<Cluster, string[]>; flags: Cluster[] } {
  const labels = new Map<Cluster, string[]>();
  const flags: Cluster[] = [];
  const candidates = (c: Cluster): string[] => {
    const colours = paletteCandidates(c.ink);
    const shape = shapes.get(c);
    if (!shape) return colours;
    if (!/[1-8]/.test(shape)) return [];
    return colours.length && !colours.includes(shape) && vivid(c.ink) ? [] : [shape];
  };
  // thin strokes shrunk to a cluster's patch may cover less than MIN_INK: their shape tells
  const showsInk = (c: Cluster) => (c.inkShare >= MIN_INK && c.inkShare <= MAX_INK) || shapes.has(c);
  const inked = clusters.filter((c) => showsInk(c) && candidates(c).length > 0);
  const groups: Cluster[][] = [];
  for (const c of [...inked].sort((a, b) => b.members.length - a.members.length)) {
    const group = groups.find((g) => lookDistance(g[0], c) <= SAME_LOOK);
    if (group) group.push(c);
    else groups.push([c]);
  }
  // hue families: 1 and 4 are both blue, 3 and 5 both red (a flag's blue split by JPEG noise is one family)
  const colours = (g: Cluster[]) => new Set(g.map((c) => [...candidates(c)].sort().join())).size;
  const score = (g: Cluster[]) => colours(g) * 1e6 + g.reduce((n, c) => n + c.members.length, 0);
  const counts = groups.sort((a, b) => score(b) - score(a))[0] ?? [];
  // one colour could be a flag's as well as a count's
  if (colours(counts) < 2) return { labels, flags };
  const plain = clusters.filter((c) => c.inkShare < MIN_INK && !shapes.has(c));
  // a raised tile's bevel inside the patch reads as grey ink: when no plain cells do, such cells may be the hidden
  // look (but flags and mines drawn in grey are too: only the hidden look's own cluster is read as hidden)
  const shaded = clusters.filter((c) => c.inkShare >= MIN_INK && !inked.includes(c) && grey(c.ink));
  // the hidden look: of the plain looks unlike every count's and common (a few mines shown in a colour of their
  // own are more unlike still), the least like them
  const unlike = (cs: Cluster[]) => {
    const far = cs.filter((c) => c.members.length >= 2 && toLooks(c, counts) > SAME_LOOK);
    const most = Math.max(0, ...far.map((c) => c.members.length));
    return far
      .filter((c) => c.members.length >= COMMON * most)
      .sort((a, b) => toLooks(b, counts) - toLooks(a, counts))[0];
  };
  const seed = unlike(plain) ?? unlike(shaded);
  const hidden = seed ? [seed] : [];
  const nearer = (c: Cluster, a: Cluster[], b: Cluster[], ratio: number) =>
    a.length > 0 && (!b.length || toLooks(c, a) <= ratio * toLooks(c, b));
  // a digit's shape is a count wherever it stands, but on the hidden look (a flag or a mark shaped like one)
  const shapedCount = (c: Cluster) => shapes.has(c) && toLooks(c, hidden) > SAME_LOOK;
  for (const c of inked) {
    if (counts.includes(c) || nearer(c, counts, hidden, NEARER) || shapedCount(c)) labels.set(c, candidates(c));
  }
  const open = [...labels.keys()];
  // hidden cells can show several looks (a checkerboard, a shade beside open cells): a plain look of a hidden
  // one's colour, clearly nearer it than any open one, is hidden too (a mine shown on its own colour is not)
  const hiddenColour = (c: Cluster) => hidden.some((h) => colourDistance(c.background, h.background) <= SAME_COLOUR);
  for (let grown = true; grown;) {
    grown = false;
    for (const c of plain) {
      if (hidden.includes(c) || !hiddenColour(c) || !nearer(c, hidden, open, NEARER)) continue;
      hidden.push(c);
      grown = true;
    }
  }
  const undecided: Cluster[] = [];
  for (const c of plain) {
    // a 0 is the open cells' own colour, and seldom alone (a lone smudged digit can look plain)
    const openColour =
      c.members.length >= 2 && open.some((o) => colourDistance(c.background, o.background) <= SAME_COLOUR);
    if (nearer(c, open, hidden, NEARER) && openColour) labels.set(c, ['0']);
    else if (hidden.includes(c)) labels.set(c, ['.']);
    else if (openColour || (c.members.length >= 2 && hiddenColour(c))) undecided.push(c);
  }
  for (const c of undecided.sort((a, b) => b.members.length - a.members.length).slice(0, 3)) labels.set(c, ['0', '.']);
  if (seed && shaded.includes(seed)) labels.set(seed, ['.']);
  // on the hidden look, a flag is what a game draws on most, in any colour and shape: ink more than the tile's own
  // (its bevel), not shaped like a question mark, and in a colour unless shaped like a flag or a mine (a tile's
  // bevel drawn a pixel wider, at 50 %, is grey ink too)
  const tileInk = seed?.inkShare ?? 0;
  for (const c of clusters) {
    if (
      showsInk(c) &&
      c.inkShare >= tileInk + MIN_INK &&
      shapes.get(c) !== '?' &&
      (!grey(c.ink) || shapes.get(c) === 'F' || shapes.get(c) === '*') &&
      !labels.has(c) &&
      // a tile shaded beside open cells (Google) is the hidden look less closely: then far nearer it than an open one
      nearer(c, hidden, open, toLooks(c, hidden) <= SAME_LOOK ? NEARER : FAR_NEARER)
    )
      flags.push(c);
  }
  return { labels, flags };
}

/**
 * Ink of a strong colour, as the number colours are: its colour tells against a digit shape the number colours
 * give another colour (a red flag shaped like a 1). Pale ink, white or grey blended with a coloured background at
 * its edges, tells nothing.
 */
function vivid([r, g, b]: [number, number, number]): boolean {
  return max(r, g, b) - Math.min(r, g, b) >= 80;
}

/** How far a cluster's look is from the nearest of some looks. */
function toLooks(c: Cluster, looks: Cluster[]): number {
  let nearest = Infinity;
  for (const k of looks) nearest = Math.min(nearest, lookDistance(c, k));
  return nearest;
}

/** Ink of no colour: white, greys, black (a bevel's light and shadow, a mine). */
function grey([r, g, b]: [number, number, number]): boolean {
  return max(r, g, b) - Math.min(r, g, b) < 40;
}

/** Background colours this close (RGB distance) are one colour. */
const SAME_COLOUR = 30;

/** A look at most this share of the distance to the other look is clearly that one. */
const NEARER = 0.7;

/** The hidden look has at least this share of the cells of the commonest look unlike the counts'. */
const COMMON = 0.25;

/** A look at most this share of the distance to the other look, however far from both, is that one. */
const FAR_NEARER = 0.5;

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
function settleBySat(
  labels: Map<Cluster, string[]>,
  board: (l: Map<Cluster, string>) => Board,
  shaped: Set<Cluster>,
): Map<Cluster, string> {
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
  // games agree on the colours of 1-4 more than on the rest, and a cluster of a cell or two says little; a
  // digit's shape says what it is wherever it stands
  for (const [c] of counts) {
    const label = sure.get(c);
    if (!label || shaped.has(c) || (c.members.length >= 3 && Number(label) <= 4)) continue;
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
