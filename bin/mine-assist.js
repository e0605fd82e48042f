#!/usr/bin/env node
'use strict';
// dist/cli.bundle.js is dist/cli/cli.js and all it imports in one file, sharp's binaries and OpenCV apart
// (src/speed/build/bundle.js): one file to read, compiled from the code cache the build saved beside it
// (src/speed/codecache.ts). Once main has finished (every output written), the process exits at once, without
// tearing down V8's heap and libvips.
require('../dist/speed/codecache.js')
  .requireCached()
  .exports.main(process.argv.slice(2))
  .then((code) => process.stdout.write('', () => process.exit(code)));
