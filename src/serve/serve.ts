// `mine-assist serve`: a local web page to paste a screenshot into, or to watch a shared window with. node:http
// alone — two POST endpoints and four static files need no framework. Nothing is written to disk: uploads and
// frames are analysed in memory, in this process (OpenCV is loaded once, at start), a few at a time.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BUILTIN_SKINS, builtinSkinNames } from '../skin/skin';
import { locate } from '../locate/locate';
import { availableParallelism } from '../analyze/workers';
import { isImageType, Queue, readBody } from './upload';
import { analyzeUpload, type PageOptions } from './reply';
import { writeTiles } from '../output/tilecache';
import { WEB } from '../common/paths';
import { type Frame, Watches } from './watch';

export const DEFAULT_PORT = 7357;
/** Uploads larger than this are refused (413). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** A watch's frame may be larger: raw RGBA pixels of a 4K screen are 33 MB. */
export const MAX_FRAME_BYTES = 48 * 1024 * 1024;

export interface ServeOptions {
  /** 0 picks a free port. Default 7357. */
  port?: number;
  /** Default 127.0.0.1; anything but a loopback address needs `allowRemote`. */
  host?: string;
  allowRemote?: boolean;
  maxBytes?: number;
  /** Analyses at once (default: the CPU cores); up to `maxWaiting` more wait, the rest get 503. */
  jobs?: number;
  maxWaiting?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Context {
  files: Map<string, { type: string; bytes: Buffer }>;
  skins: string[];
  queue: Queue;
  maxBytes: number;
  localOnly: boolean;
  watches: Watches;
}

/** Starts the server once OpenCV and the page are loaded; resolves when it listens. */
export async function startServer(options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const problem = hostProblem(host, options.allowRemote ?? false);
  if (problem) throw new Error(problem);
  const skins = await builtinSkinNames();
  // loads OpenCV now
  await locate({ width: 16, height: 16, data: new Uint8Array(16 * 16 * 4) }, 'opencv').catch(() => undefined);
  const context: Context = {
    files: pageFiles(skins),
    skins,
    queue: new Queue(options.jobs ?? availableParallelism(), options.maxWaiting ?? 100),
    maxBytes: options.maxBytes ?? MAX_UPLOAD_BYTES,
    localOnly: !options.allowRemote,
    watches: new Watches(),
  };
  const server = http.createServer((req, res) => {
    handle(req, res, context).catch((err) =>
      send(res, 500, { status: 'error', error: `internal error: ${err instanceof Error ? err.message : String(err)}` }),
    );
  });
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`, port, close };
}

/** The CLI's `serve`: starts, prints the address, runs until Ctrl-C. Resolves to the exit code (2: usage). */
export async function serveCommand(args: { port: number; host: string; allowRemote: boolean }): Promise<number> {
  const usage = argsProblem(args);
  if (usage) {
    process.stderr.write(`mine-assist serve: ${usage}\nTry 'mine-assist serve --help'.\n`);
    return 2;
  }
  let server: RunningServer;
  try {
    server = await startServer(args);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `port ${args.port} is in use (pick another with --port)`
        : err instanceof Error
          ? err.message
          : String(err);
    process.stderr.write(`mine-assist serve: ${why}\n`);
    return 2;
  }
  process.stdout.write(`mine-assist: open ${server.url} and paste a screenshot (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

/** What is wrong with the command line, if anything: a port from 0 to 65535, a loopback host unless --allow-remote. */
function argsProblem(args: { port: number; host: string; allowRemote: boolean }): string | null {
  if (!(Number.isInteger(args.port) && args.port >= 0 && args.port <= 65535))
    return '--port takes a whole number from 0 to 65535';
  return hostProblem(args.host, args.allowRemote);
}

function hostProblem(host: string, allowRemote: boolean): string | null {
  if (allowRemote || isLoopback(host)) return null;
  return (
    `--host ${host} is not a loopback address: anyone who can reach it could use the server; ` +
    'add --allow-remote if that is what you want'
  );
}

function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

const PAGE: Record<string, [file: string, type: string]> = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/app.js': ['app.js', 'text/javascript; charset=utf-8'],
  '/style.css': ['style.css', 'text/css; charset=utf-8'],
  '/watch.js': ['watch.js', 'text/javascript; charset=utf-8'],
};

/** The page's files, read once from web/ by fixed names; the skin list is written into the HTML. */
function pageFiles(skins: string[]): Context['files'] {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const options = skins.map((s) => `<option value="${escape(s)}">${escape(s)}</option>`).join('');
  return new Map(
    Object.entries(PAGE).map(([route, [file, type]]) => {
      const text = readFileSync(path.join(WEB, file), 'utf8');
      return [
        route,
        { type, bytes: Buffer.from(file === 'index.html' ? text.replace('<!--skins-->', options) : text) },
      ];
    }),
  );
}

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; " +
    "frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

async function handle(req: http.IncomingMessage, res: http.ServerResponse, context: Context): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (context.localOnly && !isLoopback((req.headers.host ?? '').replace(/:\d+$/, ''))) {
    return send(res, 403, { status: 'error', error: 'this server only answers requests made to localhost' });
  }
  const file = context.files.get(url.pathname);
  if (file && (req.method === 'GET' || req.method === 'HEAD')) {
    res.writeHead(200, {
      'Content-Type': file.type,
      'Content-Length': file.bytes.length,
      'Cache-Control': 'no-cache',
      ...SECURITY_HEADERS,
    });
    res.end(req.method === 'HEAD' ? undefined : file.bytes);
    return;
  }
  if (url.pathname === '/api/analyze' && req.method === 'POST') return upload(req, res, url.searchParams, context);
  const watch = /^\/api\/watch\/([A-Za-z0-9_-]{1,64})$/.exec(url.pathname);
  if (watch && req.method === 'POST') return watchFrame(req, res, watch[1], url.searchParams, context);
  if (watch && req.method === 'DELETE') return send(res, 200, { ended: context.watches.end(watch[1]) });
  if (file || watch || url.pathname === '/api/analyze') {
    res.setHeader('Allow', file ? 'GET, HEAD' : watch ? 'POST, DELETE' : 'POST');
    return send(res, 405, { status: 'error', error: `${req.method} is not allowed here` });
  }
  send(res, 404, { status: 'error', error: 'not found' });
}

async function upload(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  params: URLSearchParams,
  context: Context,
): Promise<void> {
  const body = await readBody(req, context.maxBytes).catch(() => null);
  if (body === null) return void res.destroy();
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  if ('tooLarge' in body)
    return send(res, 413, {
      status: 'error',
      error: `the file is too large (${mb(body.tooLarge)}); the limit is ${mb(context.maxBytes)}`,
    });
  if (!isImageType(req.headers['content-type'])) {
    return send(res, 415, {
      status: 'error',
      error:
        `that is not an image (${req.headers['content-type'] || 'no content type'}): ` +
        'paste or drop a PNG, JPEG, WebP or GIF screenshot',
    });
  }
  if (body.bytes.length === 0) return send(res, 400, { status: 'error', error: 'the upload is empty' });
  const options = pageOptions(params, context.skins);
  if (typeof options === 'string') return send(res, 400, { status: 'error', error: options });
  if (context.queue.full)
    return send(res, 503, { status: 'error', error: 'the server is busy: try again in a moment' });
  const answer = await context.queue.run(() => analyzeUpload(body.bytes, options));
  send(res, answer.code, answer.body);
  // tiles this answer drew, kept on disk for the next run (the CLI's, or the server's after a restart)
  writeTiles();
}

/**
 * One frame of a watch (serve/watch.ts): raw RGBA pixels (`application/octet-stream`, `width` and `height` in the
 * query) or an encoded image, with the page's options in the query as for an upload.
 */
async function watchFrame(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  id: string,
  params: URLSearchParams,
  context: Context,
): Promise<void> {
  const body = await readBody(req, MAX_FRAME_BYTES).catch(() => null);
  if (body === null) return void res.destroy();
  if ('tooLarge' in body) return send(res, 413, { status: 'error', error: 'the frame is too large' });
  const frame = frameOf(body.bytes, req.headers['content-type'], params);
  if (typeof frame === 'string') return send(res, 400, { status: 'error', error: frame });
  const options = pageOptions(params, context.skins);
  if (typeof options === 'string') return send(res, 400, { status: 'error', error: options });
  if (context.queue.full || !context.watches.room(id))
    return send(res, 503, { status: 'error', error: 'the server is busy: try again in a moment' });
  const { probabilities: _, ...analyze } = options;
  send(res, 200, await context.queue.run(() => context.watches.frame(id, frame, analyze)));
}

/** A watch's frame from its body and content type, or what is wrong with it. */
function frameOf(bytes: Buffer, type: string | undefined, params: URLSearchParams): Frame | string {
  if (isImageType(type)) return bytes.length ? { encoded: bytes } : 'the frame is empty';
  if (!/^application\/octet-stream\s*(;|$)/i.test(type ?? '')) return 'a frame is raw RGBA pixels or an image';
  const width = Number(params.get('width'));
  const height = Number(params.get('height'));
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0))
    return 'a raw frame needs its width and height';
  if (bytes.length !== width * height * 4) return `a ${width}×${height} frame is ${width * height * 4} bytes`;
  return { rgba: bytes, width, height };
}

/**
 * The page's options from the query string (`mines`, `trustFlags`, `skin`, `probabilities`); a string says what is
 * wrong.
 */
function pageOptions(params: URLSearchParams, skins: string[]): PageOptions | string {
  const mines = params.get('mines') ?? '';
  if (mines !== '' && !/^\d{1,7}$/.test(mines)) return `total mines must be a whole number ≥ 0, not '${mines}'`;
  const skin = params.get('skin') ?? '';
  if (skin !== '' && !skins.includes(skin)) return `no built-in skin named '${skin}'`;
  const yes = (name: string) => params.get(name) === '1' || params.get(name) === 'true';
  return {
    mines: mines === '' ? undefined : Number(mines),
    skin: skin === '' ? undefined : path.join(BUILTIN_SKINS, skin),
    trustFlags: yes('trustFlags'),
    probabilities: yes('probabilities'),
  };
}

function send(res: http.ServerResponse, code: number, body: object): void {
  if (res.headersSent) return void res.destroy();
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(code, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
    'Cache-Control': 'no-store',
    ...SECURITY_HEADERS,
  });
  res.end(bytes);
}
