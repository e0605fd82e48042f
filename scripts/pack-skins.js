// The build's last step (npm run build), and scripts/build-skins.sh's: dist/skins.pack from skins/ (src/skin/skinpack.ts).
'use strict';
require('../dist/skin/skin.js')
  .packSkins()
  .catch((err) => {
    process.stderr.write(`pack-skins: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
