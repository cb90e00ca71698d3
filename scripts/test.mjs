// `npm test`: lint and format (Biome), the dependency rule, the size limits, then Node's test runner over
// test/**/*.test.ts through tsx (Node 20's --test takes no globs).
// Every suite runs on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set; the cases that share counters
// through Redis run when TEST_REDIS_URL is set. `npm test -- name` runs only
// the files whose path contains `name`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const filter = process.argv.slice(2);
// The server's suites (test/) and the console's own (console/test/: its pure modules, and its pages in a real browser).
// The browser suites first: they are among the longest, and started last (in name order) they left the other slots
// idle at the end of the run.
const isBrowserSuite = (f) => f.startsWith(path.join('console', 'test', 'browser'));
const files = ['test', path.join('console', 'test')]
  .flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.test.ts') && (filter.length === 0 || filter.some((x) => path.join(dir, f).includes(x))))
      .sort()
      .map((f) => path.join(dir, f)),
  )
  .sort((a, b) => Number(isBrowserSuite(b)) - Number(isBrowserSuite(a)));

// Every run checks lint and formatting first (biome.json; `npm run format` fixes the layout), ~2 s.
const biome = spawnSync(process.execPath, [path.join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), 'check', '.'], {
  cwd: root,
  stdio: 'inherit',
});
if (biome.status !== 0) {
  process.stderr.write('Lint or formatting failed (biome check): see above; `npm run format` fixes the layout.\n');
  process.exit(biome.status || 1);
}

// Then the dependency rule (docs/architecture.md; the same check as `npm run lint:deps`, ~2 s).
const depcruise = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const deps = spawnSync(process.execPath, [depcruise, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err-long'], {
  cwd: root,
  stdio: 'inherit',
});
if (deps.status !== 0) {
  process.stderr.write('Dependency rule broken (docs/architecture.md): see above.\n');
  process.exit(deps.status || 1);
}

// Then the size limits of src/ (no file over 400 lines, no function over 80; scripts/code-size.ts, `npm run size`), ~1 s.
const size = spawnSync(process.execPath, ['--import', 'tsx', path.join('scripts', 'code-size.ts')], { cwd: root, stdio: 'inherit' });
if (size.status !== 0) {
  process.stderr.write('A file or a function of src/ is over its size limit (docs/architecture.md, "Size"): see above; split it by meaning.\n');
  process.exit(size.status || 1);
}

// The whole run typechecks the server, the console and the client first (tsx itself does not) and checks that the
// console's API types and the generated client are what the server's OpenAPI document gives today (`npm run
// console:api` and `npm run client` rewrite them). The five run side by side, and beside the build below; each one's
// output is printed whole once all have ended. A filtered run skips them to stay quick.
const { ensureBuild, ensureConsole } = await import('./ensure-build.mjs');
if (filter.length === 0) {
  const tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  const checks = [
    // client/tsconfig.json: the generated API client alone, stricter than the server (noUncheckedIndexedAccess, no Node types).
    ...['tsconfig.json', path.join('console', 'tsconfig.json'), path.join('client', 'tsconfig.json')].map((project) => ({
      args: [tsc, '-p', project, '--noEmit'],
      failure: `Typecheck failed (${project}).`,
    })),
    { args: ['--import', 'tsx', path.join('scripts', 'console-api.ts'), '--check'], failure: 'The console API types are stale: `npm run console:api`.' },
    { args: ['--import', 'tsx', path.join('scripts', 'client.ts'), '--check'], failure: 'The generated API client is stale: `npm run client`.' },
  ];
  const running = Promise.all(checks.map((check) => runCaptured(check.args)));
  // The whole run builds once, before the suites run side by side (ensure-build.mjs; what is fresh is kept): the
  // suites start the `pimbridge` command from dist/ (test/helpers/cli-command.ts), `npm start`'s suite finds it ready,
  // and the browser suites serve console/dist. (Synchronous: the checks' processes run on meanwhile.)
  ensureBuild(root);
  const ended = await running;
  for (const { output } of ended) process.stdout.write(output);
  const failed = ended.findIndex((e) => e.status !== 0);
  if (failed >= 0) {
    process.stderr.write(`${checks[failed].failure}\n`);
    process.exit(ended[failed].status || 1);
  }
}
// The test databases' template (scripts/test-template.ts, ~5 s, only when a migration is newer): PGlite suites start
// from it, already migrated, in every run.
const template = spawnSync(process.execPath, ['--import', 'tsx', path.join('scripts', 'test-template.ts')], { cwd: root, stdio: 'inherit' });
if (template.status !== 0) process.exit(template.status ?? 1);
if (files.some(isBrowserSuite)) {
  ensureConsole(root);
  // Without a system Chromium, @sparticuz/chromium unpacks its binary to /tmp on first use: done here, once, because two
  // suites unpacking at once race (one spawns the file the other is still writing: ETXTBSY).
  if (!process.env.BROWSER_EXECUTABLE && !existsSync('/usr/bin/chromium')) {
    const { default: chromium } = await import('@sparticuz/chromium');
    await chromium.executablePath();
  }
}

// Which backends this run covers: PGlite always; PostgreSQL and Redis when their TEST_* URL is set.
const backends = [
  'PGlite',
  process.env.TEST_DATABASE_URL ? 'PostgreSQL (TEST_DATABASE_URL)' : null,
  process.env.TEST_REDIS_URL ? 'Redis (TEST_REDIS_URL)' : null,
].filter(Boolean);
process.stdout.write(`Backends: ${backends.join(', ')}${process.env.TEST_REDIS_URL ? '' : '; the Redis-shared rate-limit cases need TEST_REDIS_URL'}\n`);
// Files side by side: one more than the CPUs (at most 4). Many suites spend much of their time waiting on real
// processes, leases and timers, and a file more keeps the CPUs busy meanwhile.
const concurrency = Math.min(4, availableParallelism() + 1);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);

/** Runs `node ARGS…` in the project, its stdout and stderr kept together for printing later. */
function runCaptured(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ status: status ?? 1, output }));
  });
}
