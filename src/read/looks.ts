// For a board read without a skin: whether the cells just beyond a side look like the board's own, by the generic
// reader's clusters of looks (read/clusters.ts). The cells beyond are clustered with the board's; a cell beyond that
// joins a cluster of board cells looks like them, and takes the label the board's cells of that cluster read as.
import type { Grid, Reading, RgbaImage, Side } from '../common/types';
import { grownGrid } from '../image/pixels';
import { clusterCells } from './clusters';

/**
 * The strip beyond `side` read by the looks it shares with the board: each cell's label the one most of the board's
 * readable cells in its cluster read as (unreadable when its cluster holds fewer than MIN_JOINED board cells, or they
 * read as nothing), numbered within the strip as read/open.ts numbers them.
 */
export function seenByLooks(image: RgbaImage, grid: Grid, side: Side, readings: Reading[]): Reading[] | null {
  const bigger = grownGrid(grid, side);
  const clustered = clusterCells(image, bigger);
  if (!clustered) return null;
  const [dr, dc] = [side === 'top' ? 1 : 0, side === 'left' ? 1 : 0];
  const inStrip = (i: number) => {
    const [row, col] = [Math.floor(i / bigger.cols), i % bigger.cols];
    if (side === 'left' || side === 'right') return col === (side === 'left' ? 0 : bigger.cols - 1);
    return row === (side === 'top' ? 0 : bigger.rows - 1);
  };
  const seen: Reading[] = [];
  for (const cluster of clustered.clusters) {
    const labels = new Map<string, number>();
    let joined = 0;
    for (const i of cluster.members) {
      if (inStrip(i)) continue;
      joined++;
      const r = readings[(Math.floor(i / bigger.cols) - dr) * grid.cols + (i % bigger.cols) - dc];
      if (r && !r.unreadable) labels.set(r.cell, (labels.get(r.cell) ?? 0) + 1);
    }
    const label = [...labels].sort((a, b) => b[1] - a[1])[0]?.[0];
    for (const i of cluster.members.filter(inStrip)) {
      const [row, col] = [Math.floor(i / bigger.cols), i % bigger.cols];
      const cell = joined >= MIN_JOINED && label !== undefined ? label : '.';
      seen.push({
        row: side === 'left' || side === 'right' ? row : 0,
        col: side === 'left' || side === 'right' ? 0 : col,
        cell: cell as Reading['cell'],
        best: cell as Reading['cell'],
        distance: clustered.distances[i],
        runnerUp: '.',
        runnerUpDistance: Infinity,
        unreadable: !(joined >= MIN_JOINED && label !== undefined),
      });
    }
  }
  return seen.sort((a, b) => a.row - b.row || a.col - b.col);
}

/** A cluster must hold this many of the board's own cells for a cell beyond to look like the board's. */
const MIN_JOINED = 2;
