import { PassThrough } from 'node:stream';
import { progressBar } from '../src/cli/progress';

test('on a terminal, the batch bar counts files and prints each line above it', async () => {
  const stream = Object.assign(new PassThrough(), {
    isTTY: true,
    columns: 100,
    rows: 30,
  }) as unknown as NodeJS.WriteStream & PassThrough;
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const bar = progressBar(3, stream);
  bar.tick('a.png: error: not an image\n');
  bar.tick();
  bar.tick('c.png: 16×30, 99 certain mines\n');
  bar.stop();
  await new Promise((resolve) => setImmediate(resolve));
  expect(written).toContain('a.png: error: not an image');
  expect(written).toContain('c.png: 16×30, 99 certain mines');
  expect(written).toMatch(/\b[123]\/3 files \| [\d.]+\/s/);
});
