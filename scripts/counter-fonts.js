// The font of a game's counter, fitted from its captures at 100 % (learn-counters.js), for reading the
// counter where its text is a few pixels tall (src/counter/typeset.ts): each character's ink as coverage (0-1,
// linear in the colour's distance from the background) and where it sits, digits being set at one pitch.
const { inkDistances } = require('../dist/counter/glyphs');

/** Words set at a pitch off by more than this (pixels, RMS) are not set with tabular digits: no font. */
const MAX_MISFIT = 0.6;

/**
 * One sample: the characters shown, their glyphs (learn-counters' cut at 100 %), the image and the place
 * box they were found in, the board's cell size. A glyph's image: its rect grown by a pixel.
 */
function sampleOf(image, box, shown, cut, cell) {
  const left = Math.max(0, Math.round(box.left));
  const top = Math.max(0, Math.round(box.top));
  const w = Math.min(image.width, Math.round(box.left + box.width)) - left;
  const h = Math.min(image.height, Math.round(box.top + box.height)) - top;
  const distance = inkDistances(image, left, top, w, h);
  const glyphs = cut.map((g, i) => {
    const r = { left: g.rect.left - 1, top: g.rect.top - 1, width: g.rect.width + 2, height: g.rect.height + 2 };
    // not the pixels of another glyph, nor its antialiased edge outside this glyph's rect
    const inside = (o, x, y, m) =>
      x >= o.left - m && x < o.left + o.width + m && y >= o.top - m && y < o.top + o.height + m;
    const others = cut.filter((_, j) => j !== i).map((o) => o.rect);
    const theirs = (x, y) => others.some((o) => inside(o, x, y, 0) || (inside(o, x, y, 1) && !inside(g.rect, x, y, 0)));
    const at = (x, y) =>
      x < left || y < top || x >= left + w || y >= top + h ? 0 : distance[(y - top) * w + x - left];
    const raw = new Float32Array(r.width * r.height);
    for (let y = 0; y < r.height; y++) {
      for (let x = 0; x < r.width; x++)
        if (!theirs(r.left + x, r.top + y)) raw[y * r.width + x] = at(r.left + x, r.top + y);
    }
    return { char: shown[i], rect: r, raw, height: g.rect.height };
  });
  return { glyphs, cell };
}

/**
 * Fonts from samples, one per text height (the tallest digit, within 15 %): L = origin + pitch × digits before +
 * slash × slashes before + offset(char), fitted by alternating least squares.
 */
function fitFonts(samples) {
  const groups = [];
  for (const s of samples) {
    // the tallest digit's height: an LCD 1 is shorter than the other digits
    const height = Math.max(...s.glyphs.filter((g) => g.char !== '/').map((g) => g.height));
    const group = groups.find((g) => Math.abs(Math.log(g.height / height)) < Math.log(1.15));
    if (group) group.samples.push(s);
    else groups.push({ height, samples: [s] });
  }
  return groups.map((g) => fitFont(g.height, g.samples)).filter(Boolean);
}

function fitFont(height, samples) {
  const rows = samples.flatMap((s, w) =>
    s.glyphs.map((g, i) => ({
      w,
      g,
      char: g.char,
      digits: s.glyphs.slice(0, i).filter((o) => o.char !== '/').length,
      slashes: s.glyphs.slice(0, i).filter((o) => o.char === '/').length,
    })),
  );
  const chars = [...new Set(rows.map((r) => r.char))];
  let [pitch, slash] = [height * 0.7, height * 0.4];
  const origin = new Float64Array(samples.length);
  // set where nothing tells them apart (a character only ever first in its word): centred on one line
  const offset = new Map(
    chars.map((c) => [c, -median(rows.filter((r) => r.char === c).map((r) => r.g.rect.width)) / 2]),
  );
  const rest = (r) => r.g.rect.left - pitch * r.digits - slash * r.slashes;
  for (let it = 0; it < 200; it++) {
    origin.fill(0);
    const n = new Float64Array(samples.length);
    for (const r of rows) {
      origin[r.w] += rest(r) - offset.get(r.char);
      n[r.w]++;
    }
    for (let w = 0; w < origin.length; w++) origin[w] /= n[w];
    for (const c of chars) offset.set(c, mean(rows.filter((r) => r.char === c).map((r) => rest(r) - origin[r.w])));
    // pitch and slash: 2×2 least squares on what origin and offset leave
    let [aa, ab, bb, ay, by] = [0, 0, 0, 0, 0];
    for (const r of rows) {
      const y = r.g.rect.left - origin[r.w] - offset.get(r.char);
      aa += r.digits ** 2;
      ab += r.digits * r.slashes;
      bb += r.slashes ** 2;
      ay += r.digits * y;
      by += r.slashes * y;
    }
    const det = aa * bb - ab * ab;
    if (det > 1e-9) [pitch, slash] = [(ay * bb - by * ab) / det, (aa * by - ab * ay) / det];
    else if (aa > 0) pitch = ay / aa;
  }
  // the origin is free: placed so that the digits' images are centred in their places on average
  const digits = chars.filter((c) => c !== '/');
  const centre = mean(
    digits.map((c) => offset.get(c) + median(rows.filter((r) => r.char === c).map((r) => r.g.rect.width)) / 2),
  );
  for (const c of chars) offset.set(c, offset.get(c) + pitch / 2 - centre);
  for (let w = 0; w < origin.length; w++) origin[w] -= pitch / 2 - centre;
  const misfit = Math.sqrt(mean(rows.map((r) => (rest(r) - origin[r.w] - offset.get(r.char)) ** 2)));
  const ink = rows
    .flatMap((r) => [...r.g.raw])
    .filter((d) => d > 0)
    .sort((a, b) => a - b);
  const strength = ink[Math.floor(0.97 * ink.length)];
  const digitTop = new Map(
    samples.map((s, w) => [w, median(s.glyphs.filter((g) => g.char !== '/').map((g) => g.rect.top))]),
  );
  const glyphs = Object.fromEntries(
    chars.map((c) => {
      // the sample that fits the pitch best, its ink as coverage
      const best = rows
        .filter((r) => r.char === c)
        .sort(
          (a, b) => Math.abs(rest(a) - origin[a.w] - offset.get(c)) - Math.abs(rest(b) - origin[b.w] - offset.get(c)),
        )[0];
      const coverage = best.g.raw.map((d) => Math.min(1, d / strength));
      return [
        c,
        {
          left: offset.get(c),
          top: median(rows.filter((r) => r.char === c).map((r) => r.g.rect.top - digitTop.get(r.w))),
          width: best.g.rect.width,
          height: best.g.rect.height,
          coverage,
        },
      ];
    }),
  );
  // the cell sizes the game drew this font beside (ace's LCD is smaller beside 12 px cells)
  const cells = [...new Set(samples.map((s) => s.cell))].sort((a, b) => a - b);
  return {
    height,
    pitch,
    slash,
    strength,
    misfit,
    cells,
    samples: samples.length,
    glyphs,
    usable: misfit <= MAX_MISFIT && chars.length >= 10,
  };
}

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

module.exports = { sampleOf, fitFonts };
