import { loadCounter } from '../src/skin/skin';
import { inkOf } from '../src/counter/inkband';
import { lineOf, roughResidual, setText } from '../src/counter/setting';

// A search's places are kept in one set of arrays that the next search (over another ink) takes over: a
// line of the earlier search must not go on reading them as its own.
test('a line of a finished search is refused once a search over other ink has begun', async () => {
  const font = (await loadCounter('gnome-mines-default'))!.fonts[0];
  const data = new Uint8Array(80 * 24 * 4).fill(255);
  for (let y = 8; y < 16; y++) for (let x = 20; x < 24; x++) data.fill(0, (y * 80 + x) * 4, (y * 80 + x) * 4 + 3);
  const image = { width: 80, height: 24, data };
  const box = { left: 10, top: 0, width: 60, height: 24 };
  const first = inkOf(image, box, 4)!;
  const line = lineOf(first, font, 0.5, 0, 2)!;
  expect(roughResidual(first, line, 'd/d', 18)).toBeLessThan(Infinity);
  lineOf(inkOf(image, box, 4)!, font, 0.5, 0, 2);
  expect(() => roughResidual(first, line, 'd/d', 18)).toThrow(/finished search/);
  expect(() => setText(first, line, 'd/d', 18)).toThrow(/finished search/);
});
