import path from 'node:path';
import sharp from 'sharp';
import { snapToPixels } from '../src/align';
import { decode } from '../src/decode';
import { loadSkin } from '../src/skin';
import type { Grid } from '../src/types';
import { FIXTURES } from './helpers';

const jpegOf = async (game: string, shot: string) => decode(await sharp(path.join(FIXTURES, game, `${shot}.png`)).jpeg({ quality: 75 }).toBuffer());

// KMines' green theme as JPEG (q=75): the grid fitted on it drifts (left 1.5 px off, pitch 0.2 % off
// each way); on the grass, half a pixel off already doubles the distance to every template, and 40 of the
// 480 cells read as nothing. The cells sit a whole 29 px apart, from x=156, y=289.
test('a drifted grid on KMines green as JPEG snaps to the whole-pixel grid the game drew', async () => {
  const image = await jpegOf('kmines', 's4-03');
  const drifted: Grid = { rows: 16, cols: 30, left: 154.497, top: 289.178, pitchX: 29.0647, pitchY: 28.902 };
  const snapped = snapToPixels(image, drifted, await loadSkin('kmines-green'));
  expect(snapped).toEqual({ rows: 16, cols: 30, left: 156, top: 289, pitchX: 29, pitchY: 29 });
});

// GNOME Mines draws its cells a fraction of a pixel apart (here 22.9 px down): a whole pitch fits a little
// better in places and worse in others, and the grid is left as fitted.
test('a grid a fraction of a pixel apart (GNOME Mines) is left as fitted', async () => {
  const image = await jpegOf('gnome-mines', 's2-04');
  const fitted: Grid = { rows: 16, cols: 30, left: 223, top: 428.01, pitchX: 23, pitchY: 22.956 };
  expect(snapToPixels(image, fitted, await loadSkin('gnome-mines-classic'))).toEqual(fitted);
});
