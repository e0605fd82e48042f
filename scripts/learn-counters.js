// Teaches the built-in skins their game's mine counter: where it is (scripts/counters.json, measured by hand)
// and the glyph of each character, cut from fixtures/counters/ (each game captured here at every flag count
// with scripts/capture-counters.py). Run after `npm run build`; `npm run skins` runs it. ONLY=<game> learns one
// game's counter; TRACE_COUNTERS=1 prints each capture it cannot read back.
const fs = require('node:fs');
const path = require('node:path');
const { decode } = require('../dist/image/decode');
const { wordsIn, glyphImage, joinThinBars, shapeOf, shapeDistance } = require('../dist/counter/glyphs');
const { placeBox, readWord } = require('../dist/counter/counter');
const { SHORT_GLYPH } = require('../dist/counter/blobs');
const { sampleOf, fitFonts } = require('./counter-fonts');

/**
 * Each capture is also learned from rescaled and JPEG-compressed, as screenshots come; "n": its pixels repeated
 * (nearest neighbour), as a system scales a window drawn at 100 % (X11 games under a desktop scaled to 150 or 200 %).
 */
const SCALES = {
  '100%': 1,
  '50%': 0.5,
  '75%': 0.75,
  '90%': 0.9,
  '98%': 0.98,
  '150%': 1.5,
  '200%': 2,
  '250%': 2.5,
  '150%n': 1.5,
  '200%n': 2,
};

/**
 * Rescaled copies are also made from the capture shifted first (a margin copied from its edge added on the top and
 * left): a glyph's rescaled shape depends on where it falls between the new pixels, and screenshots fall anywhere.
 * The shifts put the capture's origin at about 0, 1/3 and 2/3 of a new pixel across and, apart from that, down (at
 * 98 %, a shift of 1 px moves it by only 0.02): shifts along the diagonal alone can leave a character's rescaled
 * examples nearer another character's than its own.
 */
function shiftsFor(f) {
  const out = [0];
  if (f === 1) return out;
  for (const target of [1 / 3, 2 / 3]) {
    let best = 1;
    for (let d = 1; d < 80; d++)
      if (Math.abs(((d * f) % 1) - target) < Math.abs(((best * f) % 1) - target) - 1e-9) best = d;
    if (!out.includes(best)) out.push(best);
  }
  return out;
}

/** [variant name, image, grid shift in the capture's pixels] for each copy learned from. */
async function variants(png, only) {
  const bytes = fs.readFileSync(png);
  const { width, height } = await sharp(bytes).metadata();
  const out = [];
  for (const [name, f] of Object.entries(SCALES)) {
    if (only && !only.includes(name)) continue;
    for (const [dx, dy] of shiftsFor(f).flatMap((x) => shiftsFor(f).map((y) => [x, y]))) {
      const shifted = sharp(await sharp(bytes).extend({ left: dx, top: dy, extendWith: 'copy' }).png().toBuffer());
      const kernel = name.endsWith('n') ? 'nearest' : 'lanczos3';
      const resized =
        f === 1
          ? bytes
          : await shifted
              .resize({ width: Math.round((width + dx) * f), kernel })
              .png()
              .toBuffer();
      out.push([name, await decode(resized), [dx, dy]]);
    }
  }
  if (!only || only.includes('jpeg75'))
    out.push(['jpeg75', await decode(await sharp(bytes).jpeg({ quality: 75 }).toBuffer()), [0, 0]]);
  return out;
}

/**
 * Keeps up to MAX_EXAMPLES unlike examples (unlike in shape or in size) of each character: antialiased text differs
 * with its sub-pixel place, and copies are shifted both ways, so a character has many looks.
 */
const MAX_EXAMPLES = 64;
function keep(glyphs, char, glyph) {
  const list = glyphs.get(char) ?? [];
  const like = (g) =>
    Math.abs(Math.log(g.rect.height / glyph.rect.height)) < Math.log(1.25) &&
    shapeDistance(shapeOf(g), shapeOf(glyph)) <= 0.05;
  if (list.length < MAX_EXAMPLES && !list.some(like)) list.push(glyph);
  glyphs.set(char, list);
}
const { writePng } = require('../dist/image/encode');
const { analyzeImage } = require('../dist/analyze/analyze');
const { scaleGrid, shiftGrid } = require('../dist/image/pixels');
const sharp = require('sharp');

const root = path.resolve(__dirname, '..');
const specs = JSON.parse(fs.readFileSync(path.join(__dirname, 'counters.json'), 'utf8'));
const dir = path.join(root, 'fixtures', 'counters');

/** The board grid of a capture, in the cropped window's pixels. */
function gridOf(meta) {
  const b = meta.board;
  const [wx, wy] = meta.window;
  const grid = { rows: b.rows, cols: b.cols, left: b.x0 - wx, top: b.y0 - wy, pitchX: b.tile_w, pitchY: b.tile_h };
  if (b.col_x)
    Object.assign(grid, {
      lefts: b.col_x.map((x) => x - wx),
      tops: b.row_y.map((y) => y - wy),
      pitchX: (b.col_x.at(-1) + b.col_w.at(-1) - b.col_x[0]) / b.cols,
      pitchY: (b.row_y.at(-1) + b.row_h.at(-1) - b.row_y[0]) / b.rows,
    });
  return grid;
}

/**
 * Whether glyphs can be the characters shown: digits of one height (±20 %), proportions of a digit, a
 * slash at least as tall. A line cut wrongly (a letter taken for a digit after a rescale) is not learned.
 */
function plausible(glyphs, shown) {
  const digits = glyphs.filter((_, i) => shown[i] !== '/');
  const heights = digits.map((g) => g.rect.height).sort((a, b) => a - b);
  const h = heights[Math.floor(heights.length / 2)];
  return glyphs.every((g, i) => {
    const aspect = g.rect.width / g.rect.height;
    if (shown[i] === '/') return g.rect.height >= 0.9 * h && aspect < 0.8;
    return Math.abs(g.rect.height - h) <= Math.max(1, 0.2 * h) && aspect <= 1 && (aspect >= 0.3 || shown[i] === '1');
  });
}

/** Words on the same line joined, top line first; glyphs much shorter than the line's tallest left out. */
function textLines(words) {
  const lines = [];
  for (const word of words) {
    const top = Math.min(...word.map((g) => g.rect.top));
    const bottom = Math.max(...word.map((g) => g.rect.top + g.rect.height));
    const line = lines.find(
      (l) => Math.min(l.bottom, bottom) - Math.max(l.top, top) >= 0.5 * Math.min(l.bottom - l.top, bottom - top),
    );
    if (line)
      Object.assign(line, {
        glyphs: [...line.glyphs, ...word],
        top: Math.min(line.top, top),
        bottom: Math.max(line.bottom, bottom),
      });
    else lines.push({ glyphs: [...word], top, bottom });
  }
  return lines
    .sort((a, b) => a.top - b.top)
    .map((l) => {
      const tallest = Math.max(...l.glyphs.map((g) => g.rect.height));
      return l.glyphs.filter((g) => g.rect.height >= SHORT_GLYPH * tallest).sort((a, b) => a.rect.left - b.rect.left);
    });
}

const round2 = (x) => Math.round(x * 100) / 100;

/** 1 → b, 25 → z, 26 → ba: the suffix of a character's further examples. */
const letters = (i) => (i >= 26 ? letters(Math.floor(i / 26)) : '') + String.fromCharCode(97 + (i % 26));

async function main() {
  // the captures' boards are read without any counter (a half-learned one could reject or skew them)
  for (const spec of Object.values(specs).filter((s) => !process.env.ONLY || specs[process.env.ONLY] === s)) {
    for (const skin of spec.skins) {
      const out = path.join(root, 'skins', skin);
      for (const f of fs.readdirSync(out).filter((f) => f.startsWith('counter'))) fs.rmSync(path.join(out, f));
    }
  }
  for (const [game, spec] of Object.entries(specs).filter(([g]) => !process.env.ONLY || g === process.env.ONLY)) {
    const glyphs = new Map();
    const seen = [];
    const samples = [];
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(game + '-v') && f.endsWith('.json'))
      .sort();
    for (const file of files) {
      const meta = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      // the flags on the board as read (a right-click on an open cell places none)
      const png = path.join(dir, file.replace(/\.json$/, '.png'));
      const { analysis } = await analyzeImage(png, png);
      if (analysis.status !== 'ok' || analysis.unreadable.length) continue;
      const flags = analysis.board.cells.flat().filter((c) => c === 'F').length;
      const text = spec.kind === 'remaining' ? String(meta.mines - flags) : `${flags}/${meta.mines}`;
      for (const [variant, image, [dx, dy]] of await variants(png, spec.variants)) {
        const grid = scaleGrid(shiftGrid(gridOf(meta), dx, dy), SCALES[variant] ?? 1);
        seen.push({ file, variant, image, grid, text });
        // the places drawn at this capture's cell size, in order; the first line of text long enough holds the
        // counter, from glyph `label` on ("Mines: 3/10": 5, the colon being too short to count)
        const at = spec.label ?? 0;
        const lines = spec.places
          .filter((p) => p.pitch === 1 || p.pitch === meta.board.tile_w)
          .flatMap((place) => {
            const box = placeBox(grid, place);
            const line = textLines(wordsIn(image, box)).find((l) => l.length >= at + text.length);
            return line ? [Object.assign(line, { box }), Object.assign(joinThinBars(line), { box })] : [];
          });
        for (const line of lines) {
          if (line.length < at + text.length) continue;
          const shown = spec.kind === 'remaining' ? text.padStart(line.length - at, '0') : text;
          const cut = line.slice(at, at + shown.length);
          if (!plausible(cut, shown)) continue;
          [...shown].forEach((char, i) => keep(glyphs, char, cut[i]));
          if (variant === '100%') samples.push(sampleOf(image, line.box, shown, cut, meta.board.tile_w));
          break;
        }
      }
    }
    const chars = [...glyphs.keys()].sort();
    const shapes = chars.flatMap((char) => glyphs.get(char).map((g) => ({ char, shape: shapeOf(g) })));
    const right = {};
    for (const { variant, image, grid, text } of seen) {
      const ok = spec.places.some((place) =>
        wordsIn(image, placeBox(grid, place)).some((word) =>
          [word, joinThinBars(word)].some((w) => readWord(w, shapes).includes(text)),
        ),
      );
      if (!ok && process.env.TRACE_COUNTERS)
        console.log(
          variant,
          text,
          spec.places.map((place) =>
            wordsIn(image, placeBox(grid, place)).map(
              (word) => readWord(word, shapes) + ' ' + word.map((g) => g.rect.width + 'x' + g.rect.height).join(','),
            ),
          ),
        );
      right[variant] = (right[variant] ?? 0) + (ok ? 1 : 0);
    }
    console.log(
      `${game}: ${chars.map((c) => `${c}×${glyphs.get(c).length}`).join(' ')} ` +
        `from ${new Set(seen.map((s) => s.file)).size} of ${files.length} captures; read back:`,
      right,
    );
    const fonts = fitFonts(samples);
    for (const f of fonts)
      console.log(
        `  font ${f.height} px from ${f.samples} words beside ${f.cells.join(', ')} px cells: ` +
          `pitch ${f.pitch.toFixed(2)}, slash ${f.slash.toFixed(2)}, ` +
          `misfit ${f.misfit.toFixed(2)} px${f.usable ? '' : ' (not used)'}`,
      );
    const used = fonts.filter((f) => f.usable);
    for (const skin of spec.skins) {
      const out = path.join(root, 'skins', skin);
      const fontsJson = used.map(({ height, pitch, slash, strength, cells, glyphs: g }) => ({
        height,
        pitch: round2(pitch),
        slash: round2(slash),
        strength: Math.round(strength),
        cells,
        glyphs: Object.fromEntries(Object.entries(g).map(([c, { left, top }]) => [c, { left: round2(left), top }])),
      }));
      fs.writeFileSync(
        path.join(out, 'counter.json'),
        JSON.stringify(
          {
            kind: spec.kind,
            ...(spec.stopsAtZero ? { stopsAtZero: true } : {}),
            places: spec.places,
            ...(used.length ? { fonts: fontsJson } : {}),
          },
          null,
          2,
        ) + '\n',
      );
      for (const f of used) {
        for (const [c, g] of Object.entries(f.glyphs)) {
          await writePng(
            glyphImage({ rect: { left: 0, top: 0, width: g.width, height: g.height }, ink: g.coverage }),
            path.join(out, `counter-font${f.height}-${c === '/' ? 'slash' : c}.png`),
          );
        }
      }
      for (const char of chars) {
        for (const [i, g] of glyphs.get(char).entries()) {
          await writePng(
            glyphImage(g),
            path.join(out, `counter-${char === '/' ? 'slash' : char}${i ? '-' + letters(i) : ''}.png`),
          );
        }
      }
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
