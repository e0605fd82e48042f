#!/usr/bin/env node
'use strict';
// dist/cli.bundle.js is dist/cli.js and all it imports of ours and yargs' in one file (npm run build): one file to
// read and compile instead of ~150 to resolve. Once main has finished (every output written), the process exits
// at once, without tearing down V8's heap and libvips: together ~20 ms of every run.
require('../dist/cli.bundle.js')
  .main(process.argv.slice(2))
  .then((code) => process.stdout.write('', () => process.exit(code)));
