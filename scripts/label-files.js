// Writes a learned skin's templates of some labels into a skin folder (scripts/learn-lost.js, learn-marks.js):
// `<name>.png`, `<name>-b.png`, … per label, the folder then loaded once to check it. Returns "label×count" text.
const path = require('node:path');
const { loadSkin } = require('../dist/skin/skin');
const { writePng } = require('../dist/image/encode');

/**
 * @param {{ templates: { label: string, image: unknown }[] }} learned @param {string} out
 * @param {Record<string, string>} names
 */
async function writeLabelFiles(learned, out, names) {
  const seen = new Map();
  for (const t of learned.templates.filter((t) => names[t.label])) {
    const n = seen.get(t.label) ?? 0;
    seen.set(t.label, n + 1);
    await writePng(t.image, path.join(out, `${names[t.label]}${n ? '-' + String.fromCharCode(97 + n) : ''}.png`));
  }
  await loadSkin(out);
  return [...seen].map(([l, n]) => `${l}×${n}`).join(' ');
}

module.exports = { writeLabelFiles };
