const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

// The marks' tiles drawn by the tests' runs are kept in a folder of the tests' own (src/output/tilecache.ts), not the
// user's cache; the processes the tests start inherit it, and test/teardown.js removes it.
process.env.MINE_ASSIST_CACHE ??= mkdtempSync(path.join(tmpdir(), 'mine-assist-test-tiles-'));

/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testTimeout: 120000,
  globalTeardown: '<rootDir>/test/teardown.js',
};
