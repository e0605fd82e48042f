// The headless Chromium that the browser tests and scripts/serve-screenshot.js drive: the one @sparticuz/chromium
// ships inside its npm package (so nothing comes from apt), or the one named by MINE_ASSIST_CHROMIUM.
// @sparticuz/chromium is an ES module, which jest's CommonJS runtime cannot import: a node child unpacks it (to the
// temp folder, once) and prints where it is.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

/** The flags that keep Chromium from reaching out to a network this machine does not have. */
const OFFLINE_ARGS = [
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** With those, what lets a system Chromium start headless as root. */
const SYSTEM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', ...OFFLINE_ARGS];

const UNPACK = `
import('@sparticuz/chromium').then(async ({ default: c }) => {
  process.stdout.write(JSON.stringify({ executablePath: await c.executablePath(), args: c.args }));
});`;

function packaged() {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', UNPACK], {
    cwd: path.join(__dirname, '..'),
    encoding: 'utf8',
  });
  const { executablePath, args } = JSON.parse(out);
  // --single-process (made for AWS Lambda) crashes when a page's context is closed
  return { executablePath, args: [...args.filter((a) => a !== '--single-process'), ...OFFLINE_ARGS] };
}

/** playwright-core's launch options for the Chromium to use: `chromium.launch(chromiumLaunch())`. */
function chromiumLaunch() {
  const named = process.env.MINE_ASSIST_CHROMIUM;
  return { headless: true, ...(named ? { executablePath: named, args: SYSTEM_ARGS } : packaged()) };
}

module.exports = { chromiumLaunch };
