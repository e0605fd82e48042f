// npm run lint (part of npm test): the rules a formatter cannot keep. Lines of at most 120 characters (comments and
// strings too, which prettier leaves as they are); no import cycle in src/; each stage of src/ imports only the
// stages below it, so the solver knows nothing of pixels or drawing. Prints each breach and exits 1 if any.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const MAX_LINE = 120;
/** What is checked for long lines. */
const CHECKED = ['src', 'test', 'scripts', 'bench', 'bin', 'web'];
const TEXT = /\.(ts|js|mjs|sh|py|css|html)$/;
/**
 * The stages of src/, lowest first: a module may import its own stage's and those of stages listed before it.
 * The CLI starts the web server (`mine-assist serve`), so it comes last.
 */
const STAGES = [
  'common',
  'speed',
  'image',
  'solve',
  'locate',
  'counter',
  'skin',
  'read',
  'output',
  'analyze',
  'index.ts',
  'serve',
  'cli',
];

function filesUnder(dir, test = TEXT) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, test));
    else if (test.test(entry.name)) out.push(full);
  }
  return out;
}

/** `file:line: N characters` for every line past MAX_LINE. */
function longLines(root = ROOT) {
  const found = [];
  for (const dir of CHECKED) {
    if (!fs.existsSync(path.join(root, dir))) continue;
    for (const file of filesUnder(path.join(root, dir))) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > MAX_LINE) found.push(`${path.relative(root, file)}:${i + 1}: ${line.length} characters`);
        });
    }
  }
  return found;
}

/** Each TypeScript module of src/ (its path from src/, no extension) and the modules it imports there. */
function importGraph(root = ROOT) {
  const src = path.join(root, 'src');
  const graph = new Map();
  for (const file of filesUnder(src, /\.ts$/)) {
    if (file.includes(`${path.sep}wasm${path.sep}`)) continue;
    const from = path.relative(src, file).replace(/\.ts$/, '');
    const imports = new Set();
    const text = fs.readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/(?:from|import\(|require\()\s*'(\.{1,2}\/[^']+)'/g)) {
      imports.add(
        path
          .relative(src, path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join('/'),
      );
    }
    graph.set(from.split(path.sep).join('/'), [...imports]);
  }
  return graph;
}

/** Every cycle of modules importing each other (Tarjan's strongly connected components of two or more). */
function importCycles(graph) {
  let next = 0;
  const index = new Map(),
    low = new Map(),
    stack = [],
    onStack = new Set(),
    cycles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const part = [];
    for (let w; w !== v;) part.push((w = stack.pop())) && onStack.delete(w);
    if (part.length > 1) cycles.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const stageOf = (module) => (module.includes('/') ? module.split('/')[0] : `${module}.ts`);

/** `a imports b` for each import of a stage above the importer's. */
function upwardImports(graph) {
  const found = [];
  for (const [from, imports] of graph) {
    for (const to of imports) {
      const [a, b] = [STAGES.indexOf(stageOf(from)), STAGES.indexOf(stageOf(to))];
      if (a < 0 || b < 0 || b > a) found.push(`src/${from} imports src/${to}`);
    }
  }
  return found;
}

module.exports = { longLines, importGraph, importCycles, upwardImports, STAGES, MAX_LINE };

if (require.main === module) {
  const graph = importGraph();
  const problems = [
    ...longLines().map((l) => `line over ${MAX_LINE}: ${l}`),
    ...importCycles(graph).map((c) => `import cycle: ${c.join(' ')}`),
    ...upwardImports(graph).map((u) => `imports a later stage: ${u}`),
  ];
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exitCode = 1;
}
