const { rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

// Removes the tests' own folder of kept tiles (jest.config.js), and only that.
module.exports = () => {
  const dir = process.env.MINE_ASSIST_CACHE;
  if (dir && path.dirname(dir) === tmpdir() && path.basename(dir).startsWith('mine-assist-test-tiles-'))
    rmSync(dir, { recursive: true, force: true });
};
