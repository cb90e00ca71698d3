// The product read against the bare Fastify + pg baseline, alone and quickly: `GET /api/products/{id}` on PostgreSQL
// with a catalogue of --products products, --connections connections, --pairs rounds of (baseline, ours) alternating,
// --seconds each. With --profile, one more run of ours under `node --cpu-prof`, and the profile's heaviest functions
// (self time) and packages printed, to see where a request's time goes. The full suite (`npm run bench`) measures the
// same read on 100,000 products among its other scenarios; this one is for working on the read path.
//
//   npx tsx bench/product-read.ts [--products 5000] [--connections 50] [--seconds 10] [--pairs 3] [--profile]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { start, stop, stopAll, waitFor200, type Child } from './children.js';
import { loadCatalogue } from './load.js';
import { runLoad, type LoadResult } from './measure.js';
import { adminSql, freePort, json, rand, serverEnv } from './util.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'pimbridge_bench_read';
const DB_URL = Object.assign(new URL(PG_ADMIN_URL), { pathname: `/${DB}` }).toString();

const { values: args } = parseArgs({
  options: {
    products: { type: 'string', default: '5000' },
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    pairs: { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
  },
});
const PRODUCTS = Number(args.products);
const CONNECTIONS = Number(args.connections);
const SECONDS = Number(args.seconds);
const PAIRS = Number(args.pairs);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'pimbridge-read-'));
const log = (msg: string) => process.stdout.write(`${msg}\n`);

const ms = (n: number) => n.toFixed(1);
const row = (who: string, r: LoadResult) =>
  `| ${who} | ${Math.round(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failures} | ${(r.foreignCpu * 100).toFixed(0)} % |`;

/** The heaviest functions by self time, and the time per package, of a .cpuprofile. */
function summarise(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }[];
    samples: number[];
  };
  const total = profile.samples.length;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const where = url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
    const name = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
      (where.startsWith('dist/')
        ? where.split('/').slice(0, 3).join('/')
        : where.startsWith('node:')
          ? 'node core'
          : functionName.startsWith('(')
            ? functionName
            : 'other');
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  // Inclusive time of our own functions (dist/): each sample counts once for every distinct one on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const node = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = (id: number) => {
    const { functionName, url, lineNumber } = node.get(id)!.callFrame;
    const where = url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
    return where.startsWith('dist/') ? `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}` : null;
  };
  const inclusive = new Map<string, number>();
  for (const sample of profile.samples) {
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const l = label(id);
      if (l && !seen.has(l)) {
        seen.add(l);
        inclusive.set(l, (inclusive.get(l) ?? 0) + 1);
      }
    }
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, hits]) => `| ${((hits / total) * 100).toFixed(1)} % | \`${name}\` |`)
      .join('\n');
  return `Top functions by self time (${total} samples):\n\n| Self | Function |\n|---|---|\n${top(byFunction, 20)}\n\nBy package:\n\n| Self | Package |\n|---|---|\n${top(byPackage, 15)}\n\nOur functions, inclusive:\n\n| Total | Function |\n|---|---|\n${top(inclusive, 25)}`;
}

async function main() {
  log(`product read: ${PRODUCTS} products, ${CONNECTIONS} connections, ${PAIRS} pairs of ${SECONDS} s`);
  await adminSql(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await adminSql(PG_ADMIN_URL, `CREATE DATABASE ${DB}`);
  const adminToken = `bench-${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  const ours = `http://127.0.0.1:${port}`;
  const env = serverEnv({
    DATABASE_URL: DB_URL,
    ADMIN_TOKEN: adminToken,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    METRICS_TOKEN: randomBytes(24).toString('base64url'),
    PORT: String(port),
  });
  const serve = (name: string, node: string[] = []) => start(name, [...node, 'dist/cli/main.js', 'serve'], env, path.join(tmp, `${name}.log`), ROOT);

  let server: Child = serve('first');
  await waitFor200(server, `${ours}/readyz`);
  const admin = { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` };
  const org = await json<{ id: number }>(`${ours}/admin/organizations`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Read' }) });
  const key = await json<{ api_key: string }>(`${ours}/admin/organizations/${org.id}/api-keys`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: 'read' }),
  });
  await stop(server);
  const db = new pg.Client(DB_URL);
  await db.connect();
  const catalogue = await loadCatalogue(db, org.id, PRODUCTS);
  await db.end();

  server = serve('ours');
  await waitFor200(server, `${ours}/readyz`);
  const basePort = await freePort();
  const base = `http://127.0.0.1:${basePort}`;
  const baseline = start(
    'baseline',
    ['--import', 'tsx', 'bench/baseline.ts'],
    { PATH: process.env.PATH, BASELINE_PORT: String(basePort), DATABASE_URL: DB_URL, ORG_ID: String(org.id) },
    path.join(tmp, 'baseline.log'),
    ROOT,
  );
  await waitFor200(baseline, `${base}/products/${catalogue.firstProductId}`);
  // The benchmark's own processes (the two servers, PostgreSQL's backends): CPU used by any other is reported.
  const monitor = new pg.Client(DB_URL);
  await monitor.connect();
  const ownPids = async () => [
    server.pid,
    baseline.pid,
    ...(await monitor.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 OR backend_type <> 'client backend'`, [DB])).rows.map(
      (r) => r.pid,
    ),
  ];
  const headers = { 'x-api-key': key.api_key };
  const id = () => rand(catalogue.firstProductId, catalogue.lastProductId);
  const specs = {
    baseline: { url: base, path: () => `/products/${id()}`, connections: CONNECTIONS, seconds: SECONDS, ownPids },
    ours: { url: ours, path: () => `/api/products/${id()}`, headers, connections: CONNECTIONS, seconds: SECONDS, ownPids },
  };
  for (const who of ['baseline', 'ours'] as const) await runLoad({ ...specs[who], seconds: 2 });
  const runs: Record<'baseline' | 'ours', LoadResult[]> = { baseline: [], ours: [] };
  for (let pair = 0; pair < PAIRS; pair++) for (const who of ['baseline', 'ours'] as const) runs[who].push(await runLoad(specs[who]));

  const mean = (rs: LoadResult[], f: (r: LoadResult) => number) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
  const ratio = mean(runs.ours, (r) => r.requestsPerSecond) / mean(runs.baseline, (r) => r.requestsPerSecond);
  log('\n| Run | Requests/s | p50 ms | p99 ms | Failures | Other CPU |\n|---|---|---|---|---|---|');
  for (let pair = 0; pair < PAIRS; pair++) {
    log(row(`baseline ${pair + 1}`, runs.baseline[pair]!));
    log(row(`ours ${pair + 1}`, runs.ours[pair]!));
  }
  log(`\nours ÷ baseline: ${ratio.toFixed(2)} (mean requests/s); ours p99 ${ms(mean(runs.ours, (r) => r.p99))} ms (mean of the runs)`);

  if (args.profile) {
    await stop(server);
    const dir = path.join(tmp, 'profile');
    server = serve('profiled', [`--cpu-prof`, `--cpu-prof-dir=${dir}`]);
    await waitFor200(server, `${ours}/readyz`);
    await runLoad({ ...specs.ours, seconds: 2 });
    const profiled = await runLoad(specs.ours);
    await stop(server, 15_000);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile written in ${dir}`);
    log(`\nProfiled run (slower for the profiler): ${Math.round(profiled.requestsPerSecond)} requests/s, p99 ${ms(profiled.p99)} ms.\n`);
    log(summarise(path.join(dir, file)));
  }
  await monitor.end();
}

try {
  await main();
} finally {
  await stopAll();
  await adminSql(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch(() => {});
  rmSync(tmp, { recursive: true, force: true });
}
