// The shape of the code that `npm run lint` checks (scripts/lint.js): lines of at most 120 characters, no import
// cycle in src/, each stage importing only the stages below it. Also that the checks catch what they are for.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers';

interface Lint {
  longLines(root?: string): string[];
  importGraph(root?: string): Map<string, string[]>;
  importCycles(graph: Map<string, string[]>): string[][];
  upwardImports(graph: Map<string, string[]>): string[];
  STAGES: string[];
}
const lint = require('../scripts/lint') as Lint;

test('no line of the code, tests, scripts or web page is over 120 characters', () => {
  expect(lint.longLines()).toEqual([]);
});

test('src/ has no import cycle, and no stage imports a later one', () => {
  const graph = lint.importGraph();
  expect(graph.size).toBeGreaterThan(50);
  expect(lint.importCycles(graph)).toEqual([]);
  expect(lint.upwardImports(graph)).toEqual([]);
});

test('the solver imports nothing from the vision stages or the drawing', () => {
  const graph = lint.importGraph();
  const solver = [...graph].filter(([from]) => from.startsWith('solve/'));
  expect(solver.length).toBeGreaterThan(10);
  const reached = new Set(solver.flatMap(([, imports]) => imports.map((i) => i.split('/')[0])));
  expect([...reached].sort()).toEqual(['common', 'solve', 'speed']);
});

test('src/ reads as the pipeline: a folder per stage, each of them a stage the lint knows', () => {
  const entries = [...new Set([...lint.importGraph().keys()].map((m) => (m.includes('/') ? m.split('/')[0] : m)))];
  expect(entries.length).toBeLessThanOrEqual(13);
  for (const entry of entries)
    expect(lint.STAGES).toContain(entry.includes('/') ? entry : entry === 'index' ? 'index.ts' : entry);
});

test('the checks find a long line, a cycle and an import of a later stage in a tree that has them', () => {
  const tmp = tempDir();
  try {
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(tmp.dir, file)), { recursive: true });
      writeFileSync(path.join(tmp.dir, file), text);
    };
    write('src/solve/a.ts', `import { b } from './b';\nimport { c } from '../read/c';\nexport const a = b + c;\n`);
    write('src/solve/b.ts', `import { a } from './a';\nexport const b = a;\n`);
    write('src/read/c.ts', `export const c = '${'x'.repeat(120)}';\n`);
    const graph = lint.importGraph(tmp.dir);
    expect(lint.longLines(tmp.dir)).toEqual(['src/read/c.ts:1: 140 characters']);
    expect(lint.importCycles(graph)).toEqual([['solve/a', 'solve/b']]);
    expect(lint.upwardImports(graph)).toEqual(['src/solve/a imports src/read/c']);
  } finally {
    tmp.cleanup();
  }
});
