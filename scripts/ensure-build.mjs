// The one build of Pimbridge: tsc into dist/, then the embedded-database template, then a stamp; and the console
// (Vite, console/ → console/dist, about 1 s) with a stamp of its own.
// `ensureBuild` (npm start, bin/pimbridge.js) builds each part only when its output is missing or older than a source file;
// `node scripts/ensure-build.mjs` (npm run build) always builds both.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const fresh = (stamp, sources) => existsSync(stamp) && sources.every((f) => statSync(f).mtimeMs <= statSync(stamp).mtimeMs);
const files = (root, dir) => readdirSync(path.join(root, dir), { recursive: true }).map((f) => path.join(root, dir, String(f)));

export function ensureBuild(root) {
  const pkg = path.join(root, 'package.json');
  if (!fresh(path.join(root, 'dist', '.build-stamp'), [...files(root, 'src'), path.join(root, 'tsconfig.json'), path.join(root, 'tsconfig.build.json'), pkg])) {
    buildServer(root);
  }
  ensureConsole(root);
}

/** Whether console/dist is built and no console source is newer than its stamp. */
export function consoleIsFresh(root) {
  const sources = [
    ...files(root, 'console/src'),
    path.join(root, 'console', 'index.html'),
    path.join(root, 'console', 'vite.config.ts'),
    path.join(root, 'package.json'),
  ];
  return fresh(path.join(root, 'console', 'dist', '.build-stamp'), sources);
}

/** Builds the console only when console/dist is missing or stale (the browser tests, the console benchmark). */
export function ensureConsole(root) {
  if (!consoleIsFresh(root)) buildConsole(root);
}

export function build(root) {
  buildServer(root);
  buildConsole(root);
}

/** The console's static page (console/dist), served at `/`. */
export function buildConsole(root) {
  let vite;
  try {
    // vite/bin is not in the package's exports: found through its package.json.
    vite = path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    throw new Error('console/dist is missing or stale and Vite is not installed: run `npm install` first');
  }
  process.stderr.write('Building the console (vite)…\n');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', path.join(root, 'console')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error('The console build failed');
  writeFileSync(path.join(root, 'console', 'dist', '.build-stamp'), new Date().toISOString());
}

function buildServer(root) {
  const stamp = path.join(root, 'dist', '.build-stamp');
  let tsc;
  try {
    tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    throw new Error('dist/ is missing or stale and TypeScript is not installed: run `npm install` first');
  }
  process.stderr.write('Building Pimbridge (tsc)…\n');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error('The build failed');
  // New embedded data directories start from this migrated cluster (the sandbox's tables and the job queue's schema
  // included) instead of a 3 s initdb (optional: without it, they are initialised as usual).
  const template = pathToFileURL(path.join(root, 'dist', 'server', 'embedded-template.js')).href;
  const made = spawnSync(process.execPath, ['--input-type=module', '-e', `await (await import(${JSON.stringify(template)})).writeEmbeddedTemplate()`], {
    stdio: 'inherit',
    cwd: root,
  });
  if (made.status !== 0) process.stderr.write('Could not prepare the embedded database template; continuing without it.\n');
  writeFileSync(stamp, new Date().toISOString());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    build(path.resolve(import.meta.dirname, '..'));
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
