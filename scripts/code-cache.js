// The build's step after bundling (npm run build): runs the bundled CLI on two fixtures, every built-in skin
// tried, then on one with a skin read from its folder (as a learned skin is), and saves V8's code cache of
// what ran to dist/cli.cache (src/codecache.ts). Without it the CLI still runs, compiling as it goes: a
// failure here is a warning.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { CLI_CACHE, codeCacheOf, requireCached } = require('../dist/codecache.js');
const { writeFileAtomic } = require('../dist/render.js');

const root = path.join(__dirname, '..');
const FIXTURES = ['fixtures/xdemineur/s2-03.png', 'fixtures/gnome-mines/s2-02.png'].map((f) => path.join(root, f));

(async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mine-assist-cache-'));
  const runs = [[...FIXTURES, '-o', out], [FIXTURES[0], '--skin', path.join(root, 'skins', 'xdemineur'), '-o', out]];
  // no tiles kept from the user's runs: the marks are drawn, so the cache holds the drawing's code whatever was run before
  process.env.MINE_ASSIST_CACHE = path.join(out, 'tiles');
  try {
    const loaded = requireCached();
    for (const args of runs) {
      const code = await quietly(() => loaded.exports.main(args));
      if (code !== 0) throw new Error(`the CLI exited ${code} on ${args.join(' ')}`);
    }
    await writeFileAtomic(CLI_CACHE, codeCacheOf(loaded));
  } catch (err) {
    process.stderr.write(`code-cache: no code cache written (the CLI compiles as it runs): ${err instanceof Error ? err.message : String(err)}\n`);
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
