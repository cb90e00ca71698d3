// `npm run bench`: Pimbridge on PostgreSQL with 100,000 products against a bare Fastify + pg baseline, then latency at
// a fixed rate, idle memory and start-up time on PostgreSQL and embedded (PGlite). Writes bench/RESULTS.md.
// Every child process is stopped and the pimbridge_bench database dropped at the end, also on failure.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchCategoryTree } from './category-tree.js';
import { killAllNow, rssMb, start, stop, stopAll, waitFor200, type Child } from './children.js';
import { benchImageSearch } from './image-search.js';
import { benchPush } from './push.js';
import { benchFullSync } from './full-sync.js';
import { benchAdopt } from './adopt.js';
import { benchDrift, benchDryRun } from './drift.js';
import { benchCatalogueFiles } from './catalogue-files.js';
import { benchConsoleOnScratch } from './console.js';
import { benchWorkbenchOnScratch } from './workbench.js';
import { onScratchServer } from './scratch.js';
import { watchForeignCpu } from './cpu.js';
import { loadCatalogue, RARE_TERM } from './load.js';
import { runLoad, runPaced, type LoadResult, type LoadSpec } from './measure.js';
import { renderReport, type BenchResults } from './report.js';
import { adminSql, freePort, json, rand, serverEnv } from './util.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BENCH_DB = 'pimbridge_bench';
const BENCH_URL = Object.assign(new URL(PG_ADMIN_URL), { pathname: `/${BENCH_DB}` }).toString();
const PRODUCTS = 100_000;
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';
const CONNECTIONS = 50;
const SECONDS = 10;
const WARMUP_SECONDS = 2;
const ROUNDS = 2; // baseline and ours alternate, ROUNDS times each per scenario
const FIXED_RATE = 2_000;
const FIXED_RATE_CONNECTIONS = 10;
/** Not a target: the search's latency at a rate this machine can sustain, to tell saturation from slowness. */
const SEARCH_LOW_RATE = 200;
const IDLE_MS = 5_000;
// About 12 minutes on an idle 2-CPU machine (the drift scenario seeds a shop with a full sync of 10,000 products).
const DEADLINE_MS = 20 * 60_000;

const started = performance.now();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'pimbridge-bench-'));
const log = (msg: string) => process.stdout.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}\n`);

// dist/ directly rather than bin/pimbridge.js: the bin's staleness check would rebuild inside a timed start if
// someone edited src/ while the benchmark ran. The build is made once, up front.
const serve = (name: string, env: NodeJS.ProcessEnv) => start(name, ['dist/cli/main.js', 'serve'], env, path.join(tmp, `${name}.log`), ROOT);

async function main(): Promise<BenchResults> {
  // Build first (as `npm start` does on a fresh checkout), so that the start-up times exclude compilation.
  const { ensureBuild } = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'ensure-build.mjs')).href)) as { ensureBuild: (root: string) => void };
  ensureBuild(ROOT);

  // Other processes on the machine (a test suite, a build) depress every figure: note how busy it was before starting.
  const idle = await watchForeignCpu();
  await sleep(3_000);
  const backgroundCpu = await idle.stop();
  log(`CPU used by other processes before the start: ${(backgroundCpu * 100).toFixed(0)} %`);

  log(`creating database ${BENCH_DB}`);
  await adminSql(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  await adminSql(PG_ADMIN_URL, `CREATE DATABASE ${BENCH_DB}`);

  const adminToken = `bench-${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  const ours = `http://127.0.0.1:${port}`;
  const pgEnv = serverEnv({
    DATABASE_URL: BENCH_URL,
    ADMIN_TOKEN: adminToken,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    METRICS_TOKEN: randomBytes(24).toString('base64url'),
    PORT: String(port),
  });

  // First start on the empty database: applies the migrations.
  let server = serve('pimbridge-pg-first', pgEnv);
  const readyPgFirst = await waitFor200(server, `${ours}/readyz`);
  const admin = { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` };
  const org = await json<{ id: number }>(`${ours}/admin/organizations`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Bench' }) });
  const key = await json<{ api_key: string }>(`${ours}/admin/organizations/${org.id}/api-keys`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: 'bench' }),
  });
  await stop(server);

  log(`loading ${PRODUCTS} products`);
  const loadStarted = performance.now();
  const db = new pg.Client(BENCH_URL);
  db.on('error', () => {}); // the final DROP DATABASE … WITH (FORCE) ends it if a failure left it open
  await db.connect();
  const catalogue = await loadCatalogue(db, org.id, PRODUCTS);
  const pgVersion = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0].v;
  await db.end();
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  log(`loaded in ${loadSeconds.toFixed(1)} s; '${RARE_TERM}' matches ${catalogue.rareMatches} products`);

  // The benchmark's own processes, for telling its CPU use from that of anything else running on the machine.
  const monitor = new pg.Client(BENCH_URL);
  monitor.on('error', () => {});
  await monitor.connect();
  const ownPids =
    (...children: Child[]) =>
    async () => [
      ...children.map((c) => c.pid),
      ...(await monitor.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 OR backend_type <> 'client backend'`, [BENCH_DB])).rows.map(
        (r) => r.pid,
      ),
    ];

  // A fresh process on the loaded database: the start-up time of an existing installation, and a clean heap.
  server = serve('pimbridge-pg', pgEnv);
  const readyPg = await waitFor200(server, `${ours}/readyz`);
  const basePort = await freePort();
  const base = `http://127.0.0.1:${basePort}`;
  const baseline = start(
    'baseline',
    ['--import', 'tsx', 'bench/baseline.ts'],
    { PATH: process.env.PATH, BASELINE_PORT: String(basePort), DATABASE_URL: BENCH_URL, ORG_ID: String(org.id) },
    path.join(tmp, 'baseline.log'),
    ROOT,
  );
  await waitFor200(baseline, `${base}/products/${catalogue.firstProductId}`);

  const headers = { 'x-api-key': key.api_key };
  const scenarios = [
    {
      name: 'product by id',
      ours: `GET /api/products/{id}`,
      baseline: `GET /products/{id}`,
      oursPath: () => `/api/products/${rand(catalogue.firstProductId, catalogue.lastProductId)}`,
      basePath: () => `/products/${rand(catalogue.firstProductId, catalogue.lastProductId)}`,
    },
    {
      name: 'page of 20 + total',
      ours: 'GET /api/products?page={1..50}&limit=20',
      baseline: 'GET /products?page={1..50}',
      oursPath: () => `/api/products?page=${rand(1, 50)}&limit=20`,
      basePath: () => `/products?page=${rand(1, 50)}`,
    },
    {
      name: `search '${RARE_TERM}' + total`,
      ours: `GET /api/products?search=${RARE_TERM}&limit=20`,
      baseline: `GET /search?q=${RARE_TERM}`,
      oursPath: () => `/api/products?search=${RARE_TERM}&limit=20`,
      basePath: () => `/search?q=${RARE_TERM}`,
    },
  ];
  await checkAnswers(ours, base, headers, catalogue.rareMatches);

  // Idle memory after a light warm-up.
  await runLoad({ url: ours, path: scenarios[0].oursPath, headers, connections: 10, seconds: 3 });
  await sleep(IDLE_MS);
  const rssPgWarm = rssMb(server.pid);

  const throughput: BenchResults['throughput'] = [];
  for (const s of scenarios) {
    log(`throughput: ${s.name}`);
    const pids = ownPids(server, baseline);
    const specs: Record<'ours' | 'baseline', LoadSpec> = {
      baseline: { url: base, path: s.basePath, connections: CONNECTIONS, seconds: SECONDS, ownPids: pids },
      ours: { url: ours, path: s.oursPath, headers, connections: CONNECTIONS, seconds: SECONDS, ownPids: pids },
    };
    for (const who of ['baseline', 'ours'] as const) await runLoad({ ...specs[who], seconds: WARMUP_SECONDS });
    const runs: Record<'ours' | 'baseline', LoadResult[]> = { ours: [], baseline: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const who of ['baseline', 'ours'] as const) runs[who].push(await runLoad(specs[who]));
    }
    throughput.push({ scenario: s.name, oursRoute: s.ours, baselineRoute: s.baseline, ...runs });
  }

  log(`latency at ${FIXED_RATE} requests/s`);
  // The targets are read on evenly paced requests; autocannon's overallRate (bursty, see measure.ts) for comparison.
  const paced = async (p: () => string, rate: number) => {
    const spec = { url: ours, path: p, headers, rate, seconds: SECONDS, ownPids: ownPids(server, baseline) };
    await runPaced({ ...spec, seconds: WARMUP_SECONDS });
    return runPaced(spec);
  };
  const bursty = (p: () => string) =>
    runLoad({
      url: ours,
      path: p,
      headers,
      connections: FIXED_RATE_CONNECTIONS,
      seconds: SECONDS,
      overallRate: FIXED_RATE,
      ownPids: ownPids(server, baseline),
    });
  const fixed = {
    read: await paced(scenarios[0].oursPath, FIXED_RATE),
    search: await paced(scenarios[2].oursPath, FIXED_RATE),
    lowSearch: await paced(scenarios[2].oursPath, SEARCH_LOW_RATE),
    readBursty: await bursty(scenarios[0].oursPath),
    searchBursty: await bursty(scenarios[2].oursPath),
  };

  await sleep(IDLE_MS);
  const rssPgLoaded = rssMb(server.pid);
  // After the memory figure, which its 2.6 MB answers would inflate: the category tree, in an organization of its own.
  const categoryTree = await benchCategoryTree({ url: ours, adminHeaders: admin, dbUrl: BENCH_URL, ownPids: ownPids(server, baseline), log });
  // Image search over 100,000 stored images, in an organization of its own, against a decode-only baseline of its own.
  const imageSearch = await benchImageSearch({
    url: ours,
    adminHeaders: admin,
    dbUrl: BENCH_URL,
    root: ROOT,
    logDir: tmp,
    ownPids: ownPids(server, baseline),
    log,
  });
  await monitor.end();
  await stop(baseline);
  await stop(server);
  // The bridge's push to the Shopify sandbox: its own two processes on scratch databases of their own (bench/push.ts).
  log('push to the Shopify sandbox');
  const push = await benchPush({ pgBaseUrl: PG_ADMIN_URL, log });
  // The same with a category (its collection) and a translation on every product: what the fields cost.
  const pushEveryField = await benchPush({ pgBaseUrl: PG_ADMIN_URL, log, everyField: true });
  // A full sync of 10,000 products into the sandbox, then the delta sync's PATCH → store delay (bench/full-sync.ts).
  log('full sync to the Shopify sandbox');
  const fullSync = await benchFullSync({ pgBaseUrl: PG_ADMIN_URL, log });
  // Adopting a 10,000-product shop, with and without importing the unmatched ones (bench/adopt.ts).
  log('adoption of a sandbox shop');
  const adopt = await benchAdopt({ pgBaseUrl: PG_ADMIN_URL, log });
  // A push's dry run of 50 mapped products, then a drift report of 10,000 seeded by a full sync (bench/drift.ts).
  log('push dry run and drift report');
  const dryRun = await benchDryRun({ pgBaseUrl: PG_ADMIN_URL, log });
  const drift = await benchDrift({ pgBaseUrl: PG_ADMIN_URL, log });
  // A CSV of 100,000 variant rows imported, then exported, on a server of its own (bench/catalogue-files.ts).
  log('CSV import and export');
  const catalogueFiles = await onScratchServer('catalogue_files', (s) => benchCatalogueFiles(s, 25_000));
  // The console: its first-load JavaScript, and the products page on 100,000 products in headless Chromium (bench/console.ts).
  log('console: bundle size, products page in a browser');
  const consoleBench = await benchConsoleOnScratch(PRODUCTS);
  // The product list as a workbench: sorted pages of 100,000 products, 500 prices in one batch (bench/workbench.ts).
  log('workbench: sorted pages, a batch of 500 prices');
  const workbench = await benchWorkbenchOnScratch(PRODUCTS);

  log('embedded (PGlite): first start, restart, idle memory');
  const litePort = await freePort();
  const lite = `http://127.0.0.1:${litePort}`;
  const liteEnv = serverEnv({ DATA_DIR: path.join(tmp, 'pglite-data'), PORT: String(litePort) });
  let liteServer: Child = serve('pimbridge-pglite-first', liteEnv);
  const readyLiteFirst = await waitFor200(liteServer, `${lite}/readyz`);
  // The welcome (with the demo API key) is printed once the demo shop is connected and pushed, after ready.
  const firstLog = path.join(tmp, 'pimbridge-pglite-first.log');
  for (const deadline = Date.now() + 60_000; !/API key:/.test(readFileSync(firstLog, 'utf8')) && Date.now() < deadline; ) await sleep(200);
  await stop(liteServer);
  liteServer = serve('pimbridge-pglite', liteEnv);
  const readyLite = await waitFor200(liteServer, `${lite}/readyz`);
  // The first start printed the demo organization's API key.
  const demoKey = /API key:\s+(\S+)/.exec(readFileSync(firstLog, 'utf8'))?.[1];
  if (!demoKey) throw new Error('the embedded first start printed no demo API key');
  const liteWarm = await runLoad({ url: lite, path: () => '/api/products?limit=20', headers: { 'x-api-key': demoKey }, connections: 10, seconds: 3 });
  if (liteWarm.failures > 0) throw new Error(`embedded warm-up: ${liteWarm.failures} failed requests`);
  await sleep(IDLE_MS);
  const rssLite = rssMb(liteServer.pid);
  await stop(liteServer);

  return {
    date: new Date().toISOString(),
    machine: {
      nproc: execFileSync('nproc').toString().trim(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: os.totalmem() / 2 ** 30,
      node: process.version,
      postgres: pgVersion,
      os: `${os.type()} ${os.release()}`,
    },
    logLevel: LOG_LEVEL,
    backgroundCpu,
    settings: {
      connections: CONNECTIONS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      rounds: ROUNDS,
      fixedRate: FIXED_RATE,
      fixedRateConnections: FIXED_RATE_CONNECTIONS,
      searchLowRate: SEARCH_LOW_RATE,
      idleMs: IDLE_MS,
    },
    catalogue: { ...catalogue, loadSeconds, rareTerm: RARE_TERM },
    throughput,
    fixed,
    categoryTree,
    imageSearch,
    push,
    pushEveryField,
    fullSync,
    adopt,
    dryRun,
    drift,
    catalogueFiles,
    console: consoleBench,
    workbench,
    rss: { pgWarm: rssPgWarm, pgLoaded: rssPgLoaded, pglite: rssLite },
    ready: { pgFirst: readyPgFirst, pg: readyPg, pgliteFirst: readyLiteFirst, pglite: readyLite },
    wallSeconds: (performance.now() - started) / 1000,
  };
}

/** Both servers answer the three reads with the same totals before anything is measured. */
async function checkAnswers(ours: string, base: string, headers: Record<string, string>, rareMatches: number): Promise<void> {
  type OurList = { data: { products: { id: number }[]; pagination: { total_items: number } } };
  type BaseList = { products: { id: number }[]; total: number };
  const list = await json<OurList>(`${ours}/api/products?limit=20`, { headers });
  const baseList = await json<BaseList>(`${base}/products`);
  const search = await json<OurList>(`${ours}/api/products?search=${RARE_TERM}&limit=20`, { headers });
  const baseSearch = await json<BaseList>(`${base}/search?q=${RARE_TERM}`);
  const one = await json<{ data: { id: number; brand: unknown; categories: unknown[] } }>(`${ours}/api/products/${list.data.products[0].id}`, { headers });
  const problems = [
    list.data.pagination.total_items !== PRODUCTS && `list total ${list.data.pagination.total_items}`,
    baseList.total !== PRODUCTS && `baseline list total ${baseList.total}`,
    search.data.pagination.total_items !== rareMatches && `search total ${search.data.pagination.total_items}`,
    baseSearch.total !== rareMatches && `baseline search total ${baseSearch.total}`,
    list.data.products.map((p) => p.id).join() !== baseList.products.map((p) => p.id).join() && 'first pages differ',
    (one.data.categories.length === 0 || one.data.brand === null) && 'product without categories or brand',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`the servers do not answer alike: ${problems.join('; ')}`);
}

const dropDatabase = () =>
  adminSql(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`).catch((err: Error) =>
    process.stderr.write(`could not drop ${BENCH_DB}: ${err.message}\n`),
  );
/** Out of time or interrupted: stop the children at once, drop the database, keep the logs. */
const abort = (why: string, code: number) => {
  process.stderr.write(`bench: ${why}, stopping; logs kept in ${tmp}\n`);
  killAllNow();
  void dropDatabase().finally(() => process.exit(code));
};
setTimeout(() => abort(`over ${DEADLINE_MS / 60_000} minutes`, 2), DEADLINE_MS).unref();
process.once('SIGINT', () => abort('interrupted', 130));

let failed = false;
try {
  const results = await main();
  const file = path.join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(file, renderReport(results));
  log(`wrote ${path.relative(ROOT, file)}`);
  process.stdout.write(`${readFileSync(file, 'utf8').split('\n## Details')[0]}\n`);
} catch (err) {
  failed = true;
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\nlogs kept in ${tmp}\n`);
} finally {
  await stopAll();
  await dropDatabase();
  if (!failed) rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
