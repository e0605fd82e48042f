// A step of the build (npm run build) and the last of scripts/build-skins.sh: dist/skins.pack from skins/
// (src/skin/skinpack.ts).
'use strict';
require('../dist/skin/skin.js')
  .packSkins()
  .catch((err) => {
    process.stderr.write(`pack-skins: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
