import { commonSides } from '../src/locate/locate';
import { mulberry32 } from './brute';
import type { Rect } from '../src/common/types';

// commonSides counts, for each side from 6 to 130 px, the outlines within ±8 % (and half a pixel) of it, in one
// pass over the outlines: the same sides, in the same order, as counting them side by side.
test('the common outline sides are those counted side by side from their definition', () => {
  const byDefinition = (boxes: Rect[]): number[] => {
    const counts: number[] = [];
    for (let side = 6; side <= 130; side++)
      counts[side] = boxes.filter((b) => Math.abs((b.width + b.height) / 2 - side) <= 0.08 * side + 0.5).length;
    const peaks: number[] = [];
    for (let side = 6; side <= 130; side++)
      if (counts[side] >= 6 && counts[side] >= (counts[side - 1] ?? 0) && counts[side] > (counts[side + 1] ?? 0))
        peaks.push(side);
    return peaks.sort((a, b) => counts[b] - counts[a]).slice(0, 4);
  };
  const random = mulberry32(7);
  for (let trial = 0; trial < 300; trial++) {
    // a few clusters of sizes (cells, digits, buttons) and scattered others, some outside 6–130 px
    const centres = Array.from({ length: 1 + Math.floor(random() * 4) }, () => 3 + random() * 140);
    const boxes: Rect[] = Array.from({ length: Math.floor(random() * 400) }, () => {
      const around = random() < 0.8 ? centres[Math.floor(random() * centres.length)] : 1 + random() * 160;
      const side = Math.max(1, Math.round(around * (0.9 + 0.2 * random())));
      return { left: 0, top: 0, width: side, height: Math.max(1, side + Math.round(4 * random() - 2)) };
    });
    expect(commonSides(boxes)).toEqual(byDefinition(boxes));
  }
  // each side on and either side of the bounds, one outline at a time
  for (let twice = 2; twice <= 300; twice++) {
    const box = { left: 0, top: 0, width: Math.floor(twice / 2), height: Math.ceil(twice / 2) };
    const six = Array.from({ length: 6 }, () => box);
    expect(commonSides(six)).toEqual(byDefinition(six));
  }
});
