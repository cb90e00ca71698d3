#!/usr/bin/env node
// The `pimbridge` command: builds dist/ when needed, then runs the CLI.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuild } from '../scripts/ensure-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  ensureBuild(root);
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
await import(pathToFileURL(path.join(root, 'dist', 'cli', 'main.js')).href);
