// npm run build:bundle: dist/cli/cli.js and all it requires in one file, dist/cli.bundle.js, so that the CLI
// reads and compiles one file (from its code cache, src/speed/codecache.ts) instead of ~250: ours, yargs',
// logic-solver's, and sharp's JavaScript; and a batch worker's, dist/analyze/worker.js, as dist/worker.bundle.js
// (which dist/speed/workerstart.js runs).
// sharp's native binary and its libvips stay where npm put them: each require of a binary or of an @img/sharp-*
// package in sharp's files is made from sharp's own folder, as unbundled.
// OpenCV (a 10 MB file, loaded only when our own outline finder finds no board) stays outside.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const { wrapModule } = require('../../../dist/speed/codecache.js');

const root = path.join(__dirname, '..', '..', '..');
const SHARP_FILE = /[\\/]node_modules[\\/]sharp[\\/]dist[\\/][^\\/]+\.cjs$/;
const NATIVE = /\brequire\((["'`])((?:@img\/sharp-|\.\.\/src\/build\/)[^"'`]*)\1\)/g;

/**
 * node:child_process required only when a command is run: detect-libc and sharp's libvips.cjs run one only where
 * they cannot tell otherwise, but compiling node's child_process modules would slow every start; node:crypto only
 * when libvips.cjs takes a hash (where it looks for a libvips built from source), as loading it is slow too. Each
 * text replaced must be there (a newer version fails the build here rather than loading it eagerly unnoticed).
 */
const LAZY_BUILTINS = [
  [
    /[\\/]node_modules[\\/]detect-libc[\\/]lib[\\/]detect-libc\.js$/,
    "const childProcess = require('child_process');",
    "const childProcess = { exec: (...a) => require('child_process').exec(...a), " +
      "execSync: (...a) => require('child_process').execSync(...a) };",
  ],
  [
    /[\\/]node_modules[\\/]sharp[\\/]dist[\\/]libvips\.cjs$/,
    "const { spawnSync } = require('node:child_process');",
    "const spawnSync = (...a) => require('node:child_process').spawnSync(...a);",
  ],
  [
    /[\\/]node_modules[\\/]sharp[\\/]dist[\\/]libvips\.cjs$/,
    "const { createHash } = require('node:crypto');",
    "const createHash = (...a) => require('node:crypto').createHash(...a);",
  ],
];

const sharpFromItsFolder = {
  name: 'sharp-from-its-folder',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/](sharp|detect-libc)[\\/]/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      let contents = source;
      for (const [file, eager, lazy] of LAZY_BUILTINS) {
        if (!file.test(args.path)) continue;
        if (!contents.includes(eager)) throw new Error(`${args.path} no longer has ${eager}`);
        contents = contents.replace(eager, lazy);
      }
      if (SHARP_FILE.test(args.path)) {
        const native = contents.replace(NATIVE, (_, quote, target) => `sharpRequire(${quote}${target}${quote})`);
        const from =
          "require('node:module').createRequire(require('node:module').createRequire(__filename).resolve('sharp'))";
        if (native !== contents) contents = `const sharpRequire = ${from};\n${native}`;
      }
      return contents === source ? undefined : { contents, loader: 'js' };
    });
  },
};

/**
 * Each entry in one file, each run from its code cache: the CLI, and a batch worker's (each worker loads it
 * afresh; in one file, its modules' functions call each other directly rather than through each module's exports
 * object, which costs a batch less CPU).
 */
for (const [name, entry] of [
  ['cli', 'cli/cli.js'],
  ['worker', 'analyze/worker.js'],
]) {
  const outfile = path.join(root, 'dist', `${name}.bundle.js`);
  esbuild
    .build({
      entryPoints: [path.join(root, 'dist', entry)],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      external: ['@techstark/opencv-js'],
      plugins: [sharpFromItsFolder],
      logLevel: 'warning',
      write: false,
    })
    .then(({ outputFiles }) => {
      // esbuild escapes what is not ASCII in code, not in comments: escaped there too, the whole file is ASCII,
      // which src/speed/codecache.ts reads as one-byte text (a single other character makes V8 hold the whole
      // bundle in two bytes a character)
      const ascii = outputFiles[0].text.replace(
        /[^\x00-\x7f]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      // inside node's module wrapper, compiled as read (src/speed/codecache.ts; a worker's by
      // src/speed/workerstart.ts)
      fs.writeFileSync(outfile, wrapModule(ascii));
    })
    .catch(() => {
      process.exitCode = 1;
    });
}
