// A skin's templates prepared for one cell size: each resampled to the size it is compared at, with its coarse view.
import type { Cell, Grid, Skin } from '../common/types';
import { wholeGrid } from '../image/pixels';
import { cellPatch, coarseOf, type PreparedSkin, type Prepared } from '../image/patch';

const { max, min, round } = Math;

export type { Prepared, PreparedSkin, SizeGroup } from '../image/patch';

function innerSize(width: number, height: number, skin: Skin): number {
  return max(3, round(min(width, height) * (1 - 2 * skin.inset)));
}

/** Every template resampled to its comparison size: the nearest wins, whichever size the game drew it at. */
export function prepareTemplates(skin: Skin, grid: Grid): PreparedSkin {
  const observed = innerSize(grid.pitchX, grid.pitchY, skin);
  const cached = preparedCache.get(skin)?.get(observed);
  if (cached) return cached;
  const groups = new Map<number, Prepared[]>();
  const labels: Cell[] = [];
  const sizeIndex = new Map<string, number>();
  for (const t of skin.templates) {
    const size = min(observed, innerSize(t.image.width, t.image.height, skin));
    const patch = cellPatch(t.image, wholeGrid(t.image), 0, 0, skin.inset, size);
    if (!labels.includes(t.label)) labels.push(t.label);
    const key = `${t.label}@${size}`;
    if (!sizeIndex.has(key)) sizeIndex.set(key, sizeIndex.size);
    const prepared = {
      label: t.label,
      patch,
      coarse: coarseOf(patch),
      labelIndex: labels.indexOf(t.label),
      sizeIndex: sizeIndex.get(key) as number,
    };
    groups.set(size, [...(groups.get(size) ?? []), prepared]);
  }
  const result = { groups: [...groups].map(([size, templates]) => ({ size, templates })), labels, sizeIndex };
  if (!preparedCache.has(skin)) preparedCache.set(skin, new Map());
  preparedCache.get(skin)?.set(observed, result);
  return result;
}

/** Prepared templates per skin and cell size: alignment classifies samples of one board many times. */
const preparedCache = new WeakMap<Skin, Map<number, PreparedSkin>>();
