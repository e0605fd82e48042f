// The promise-returning file calls of node:fs that the pipeline uses, made from its callback API: the
// `fs.promises` object loads about ten more of node's modules (file handles, readline, watchers) that these calls
// do not need, and loading them is slow.
import fs from 'node:fs';
import { promisify } from 'node:util';

export const mkdir = promisify(fs.mkdir);
export const readdir = promisify(fs.readdir);
export const readFile = promisify(fs.readFile);
export const realpath = promisify(fs.realpath);
export const rename = promisify(fs.rename);
export const rm = promisify(fs.rm);
export const stat = promisify(fs.stat);
export const writeFile = promisify(fs.writeFile);
