// The build's step after bundling (npm run build): runs the bundled CLI on two fixtures, every built-in skin
// tried, then on one with a skin read from its folder (as a learned skin is), and saves V8's code cache of
// what ran to dist/cli.cache (src/speed/codecache.ts). Then a batch of fixtures from each game at --jobs 2, whose
// workers save the cache of what they ran to dist/worker.cache (src/speed/workerstart.ts); after the CLI's, as a
// batch sets a flag for its workers that V8's caches record. Without them the CLI and its workers still run,
// compiling as they go: a failure here is a warning.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { CLI_CACHE, WORKER_CACHE, codeCacheOf, requireCached } = require('../../../dist/speed/codecache.js');
const { writeFileAtomic } = require('../../../dist/common/atomic.js');

const root = path.join(__dirname, '..', '..', '..');
const FIXTURES = ['fixtures/xdemineur/s2-03.png', 'fixtures/gnome-mines/s2-02.png'].map((f) => path.join(root, f));
/** The worker cache's batch: the first shots of each game (each worker analyses about half of them). */
const BATCH = ['xdemineur', 'gnome-mines', 'xbomb', 'ace-minesweeper', 'kmines'].flatMap((game) =>
  ['s2-01.png', 's2-02.png'].map((shot) => path.join(root, 'fixtures', game, shot)),
);
/** A worker saves its cache after this many files. */
const WORKER_FILES = 4;

(async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mine-assist-cache-'));
  const runs = [
    [...FIXTURES, '-o', out],
    [FIXTURES[0], '--skin', path.join(root, 'skins', 'xdemineur'), '-o', out],
  ];
  // no tiles kept from the user's runs: the marks are drawn, so the cache holds the drawing's code whatever was run
  // before
  process.env.MINE_ASSIST_CACHE = path.join(out, 'tiles');
  try {
    const loaded = requireCached();
    for (const args of runs) {
      const code = await quietly(() => loaded.exports.main(args));
      if (code !== 0) throw new Error(`the CLI exited ${code} on ${args.join(' ')}`);
    }
    await writeFileAtomic(CLI_CACHE, codeCacheOf(loaded));
    fs.rmSync(WORKER_CACHE, { force: true });
    process.env.MINE_ASSIST_SAVE_WORKER_CACHE = String(WORKER_FILES);
    const code = await quietly(() => loaded.exports.main([...BATCH, '-o', out, '--jobs', '2']));
    if (code !== 0 || !fs.existsSync(WORKER_CACHE))
      process.stderr.write(`code-cache: no worker cache written (exit ${code}): workers compile as they run\n`);
  } catch (err) {
    process.stderr.write(
      'code-cache: no code cache written (the CLI compiles as it runs): ' +
        `${err instanceof Error ? err.message : String(err)}\n`,
    );
    fs.rmSync(CLI_CACHE, { force: true });
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
})();

/** The CLI's report lines are not the build's. */
async function quietly(run) {
  const { stdout, stderr } = process;
  const writes = [stdout.write, stderr.write];
  stdout.write = stderr.write = () => true;
  try {
    return await run();
  } finally {
    [stdout.write, stderr.write] = writes;
  }
}
