// Where the package's own files are: the folder holding its package.json, found from this module's folder, which
// is src/common (ts-jest), dist/common (compiled) or dist (the bundles), and skins/, web/ and dist/ inside it.
import { existsSync } from 'node:fs';
import path from 'node:path';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

export const ROOT = packageRoot(__dirname);
/** What `npm run build` makes: compiled modules, bundles, code caches, WebAssembly kernels, the skin pack. */
export const DIST = path.join(ROOT, 'dist');
export const BUILTIN_SKINS = path.join(ROOT, 'skins');
export const WEB = path.join(ROOT, 'web');
/** Whether this code runs as TypeScript sources (jest), with no compiled worker entry to start. */
export const FROM_SOURCES = __filename.endsWith('.ts');
