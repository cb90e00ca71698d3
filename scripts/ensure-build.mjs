// The one build of Pimbridge: tsc into dist/, then the embedded-database template, then a stamp.
// `ensureBuild` (npm start, bin/pimbridge.js) builds only when dist/ is missing or older than a source file;
// `node scripts/ensure-build.mjs` (npm run build) always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export function ensureBuild(root) {
  const stamp = path.join(root, 'dist', '.build-stamp');
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sources = readdirSync(path.join(root, 'src'), { recursive: true }).map((f) => path.join(root, 'src', String(f)));
  sources.push(path.join(root, 'tsconfig.json'), path.join(root, 'tsconfig.build.json'), path.join(root, 'package.json'));
  if (built > 0 && sources.every((f) => statSync(f).mtimeMs <= built)) return;
  build(root);
}

export function build(root) {
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
