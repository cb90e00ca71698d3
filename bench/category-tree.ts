// The category-tree scenario: an organization of its own with 10,000 categories (10 roots, then 9, 10 and 10 children
// per category: four levels) and 10,000 products linked to the leaves, bulk-loaded with SQL; then
// GET /api/categories/tree measured one request at a time (latency, the target) and under autocannon (throughput).
// run.ts runs it against its PostgreSQL server; `tsx bench/category-tree.ts [--smoke]` runs it alone against a scratch
// database and a server started from src/ (--smoke: 30 requests and a 2 s load run; --requests=N: N requests).
import http from 'node:http';
import pg from 'pg';
import { watchForeignCpu } from './cpu.js';
import { runLoad, type LoadResult } from './measure.js';
import { runIfMain, withScratchServer } from './scratch.js';

export const TREE_PATH = '/api/categories/tree';
export const TREE_TARGET_MS = 100;
/** Children per category at each level: 10 roots × 9 × 10 × 10 = 10,000 categories. */
const SHAPE = [10, 9, 10, 10];
const TREE_PRODUCTS = 10_000;

export interface CategoryTreeResult {
  categories: number;
  levels: number;
  products: number;
  links: number;
  seedSeconds: number;
  responseBytes: number;
  /** Sequential requests on one keep-alive connection; ms from sending to the last byte of the body. */
  sequential: { requests: number; p50: number; p95: number; p99: number; max: number /** only with ownPids */; foreignCpu?: number };
  load: LoadResult & { connections: number; seconds: number };
}

export interface CategoryTreeOptions {
  /** Base URL of a running Pimbridge server on `dbUrl`. */
  url: string;
  /** Headers of the admin API (Authorization: Bearer …, JSON content type). */
  adminHeaders: Record<string, string>;
  dbUrl: string;
  sequentialRequests?: number;
  loadSeconds?: number;
  loadConnections?: number;
  ownPids?: () => Promise<number[]>;
  log?: (msg: string) => void;
}

/** Seeds the tree (and products linked to its leaves) in `organizationId`; the database should hold nothing else of it. */
export async function seedCategoryTree(
  db: pg.Client,
  organizationId: number,
): Promise<Pick<CategoryTreeResult, 'categories' | 'levels' | 'products' | 'links'>> {
  const org = organizationId;
  await db.query('BEGIN');
  // Each level: `per` children under every category of the level above (ids lo..hi), positions 0..per-1.
  let range = { lo: 0, hi: 0, n: 0 };
  let categories = 0;
  for (const [level, per] of SHAPE.entries()) {
    const { rows } = await db.query<{ lo: number; hi: number; n: number }>(
      level === 0
        ? `WITH ins AS (INSERT INTO categories (organization_id, name, description, position)
             SELECT $1, 'Department ' || g, 'Everything in department ' || g, g - 1 FROM generate_series(1, $2::int) g RETURNING id)
           SELECT min(id) AS lo, max(id) AS hi, count(*)::int AS n FROM ins`
        : `WITH ins AS (INSERT INTO categories (organization_id, parent_id, name, description, position)
             SELECT $1, c.id, c.name || ' / ' || g, CASE WHEN g % 3 = 0 THEN 'Products of ' || c.name || ' / ' || g END, g - 1
             FROM categories c CROSS JOIN generate_series(1, $2::int) g
             WHERE c.organization_id = $1 AND c.id BETWEEN $3 AND $4 ORDER BY c.id, g RETURNING id)
           SELECT min(id) AS lo, max(id) AS hi, count(*)::int AS n FROM ins`,
      level === 0 ? [org, per] : [org, per, range.lo, range.hi],
    );
    range = rows[0];
    categories += range.n;
  }
  await db.query(
    `INSERT INTO products (organization_id, sku, slug, name, status, price)
     SELECT $1, 'TREE-' || lpad(g::text, 6, '0'), 'tree-product-' || g, 'Tree product ' || g, 'active', 10 + g % 90
     FROM generate_series(1, $2::int) g`,
    [org, TREE_PRODUCTS],
  );
  // One leaf per product, a second one for 30 % of them.
  const leaves = range.hi - range.lo + 1;
  const links = await db.query(
    `INSERT INTO product_categories (product_id, category_id)
     SELECT p.id, $2 + (p.id % $3) FROM products p WHERE p.organization_id = $1
     UNION ALL
     SELECT p.id, $2 + ((p.id + 7) % $3) FROM products p WHERE p.organization_id = $1 AND p.id % 10 < 3`,
    [org, range.lo, leaves],
  );
  await db.query('COMMIT');
  await db.query('VACUUM ANALYZE categories, products, product_categories');
  return { categories, levels: SHAPE.length, products: TREE_PRODUCTS, links: links.rowCount ?? 0 };
}

/** One GET over a keep-alive agent: status, body length and ms to the last byte. */
function timedGet(agent: http.Agent, url: URL, headers: Record<string, string>): Promise<{ status: number; bytes: number; ms: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get({ agent, host: url.hostname, port: url.port, path: url.pathname + url.search, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, bytes: body.length, ms: performance.now() - started, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Creates the organization and its key through the admin API, seeds the tree, checks the answer, measures. */
export async function benchCategoryTree(o: CategoryTreeOptions): Promise<CategoryTreeResult> {
  const log = o.log ?? (() => {});
  const post = async <T>(p: string, body: unknown): Promise<T> => {
    const res = await fetch(`${o.url}${p}`, { method: 'POST', headers: o.adminHeaders, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const org = await post<{ id: number }>('/admin/organizations', { name: 'Bench category tree' });
  const key = await post<{ api_key: string }>(`/admin/organizations/${org.id}/api-keys`, { name: 'bench tree' });

  log('category tree: seeding 10,000 categories and 10,000 products');
  const seedStarted = performance.now();
  const db = new pg.Client(o.dbUrl);
  db.on('error', () => {});
  await db.connect();
  let seeded: Awaited<ReturnType<typeof seedCategoryTree>>;
  try {
    seeded = await seedCategoryTree(db, org.id);
  } finally {
    await db.end();
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const headers = { 'x-api-key': key.api_key };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(TREE_PATH, o.url);
  try {
    // The answer is the whole tree before anything is timed.
    const first = await timedGet(agent, url, headers);
    if (first.status !== 200) throw new Error(`GET ${TREE_PATH}: ${first.status} ${first.body.toString('utf8', 0, 300)}`);
    const data = JSON.parse(first.body.toString('utf8')).data as { categories: { children: unknown[] }[]; total: number };
    if (data.total !== seeded.categories || data.categories.length !== SHAPE[0] || data.categories[0].children.length !== SHAPE[1]) {
      throw new Error(`GET ${TREE_PATH} answered ${data.total} categories, ${data.categories.length} roots; expected ${seeded.categories}, ${SHAPE[0]}`);
    }
    for (let i = 0; i < 20; i++) await timedGet(agent, url, headers); // warm-up: JIT, prepared statement, buffers

    const requests = o.sequentialRequests ?? 200;
    log(`category tree: ${requests} sequential requests`);
    const times: number[] = [];
    const watch = o.ownPids ? await watchForeignCpu(o.ownPids) : null;
    for (let i = 0; i < requests; i++) {
      const r = await timedGet(agent, url, headers);
      if (r.status !== 200) throw new Error(`GET ${TREE_PATH}: ${r.status}`);
      times.push(r.ms);
    }
    const foreignCpu = await watch?.stop();
    times.sort((a, b) => a - b);

    const connections = o.loadConnections ?? 10;
    const seconds = o.loadSeconds ?? 10;
    log(`category tree: autocannon, ${connections} connections, ${seconds} s`);
    const load = await runLoad({ url: o.url, path: () => TREE_PATH, headers, connections, seconds, ownPids: o.ownPids });
    return {
      ...seeded,
      seedSeconds,
      responseBytes: first.bytes,
      sequential: { requests, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), max: times[times.length - 1], foreignCpu },
      load: { ...load, connections, seconds },
    };
  } finally {
    agent.destroy();
  }
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** The row for the targets table of RESULTS.md. */
export function categoryTreeTarget(r: CategoryTreeResult) {
  return {
    what: `category tree of ${n0(r.categories)}: p99 latency of \`GET ${TREE_PATH}\`, one request at a time`,
    target: `≤ ${TREE_TARGET_MS} ms`,
    measured: `${ms(r.sequential.p99)} (p50 ${ms(r.sequential.p50)}, p95 ${ms(r.sequential.p95)})`,
    pass: r.sequential.p99 <= TREE_TARGET_MS,
  };
}

/** The paragraph and table for the details of RESULTS.md. */
export function categoryTreeDetails(r: CategoryTreeResult): string[] {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    `Category tree (\`bench/category-tree.ts\`): an organization of its own with ${n0(r.categories)} categories in ${r.levels} levels (${SHAPE.join(' × ')} children per level) and ${n0(r.products)} products with ${n0(r.links)} links to the leaves, bulk-loaded with SQL in ${r.seedSeconds.toFixed(1)} s. \`GET ${TREE_PATH}\` answers the whole tree nested (${(r.responseBytes / 1e6).toFixed(1)} MB of JSON, every node a full category record). ${r.sequential.requests} requests one at a time on one keep-alive connection after 20 warm-up requests (ms to the last byte), then autocannon at ${r.load.connections} connections for ${r.load.seconds} s.`,
    '',
    row(['run', 'requests', 'requests/s', 'p50', 'p95', 'p99', 'max', 'failed', 'CPU used by others']),
    row(['---', '---', '---', '---', '---', '---', '---', '---', '---']),
    row([
      'one at a time',
      r.sequential.requests,
      '',
      ms(r.sequential.p50),
      ms(r.sequential.p95),
      ms(r.sequential.p99),
      ms(r.sequential.max),
      0,
      r.sequential.foreignCpu === undefined ? '' : `${(r.sequential.foreignCpu * 100).toFixed(0)} %`,
    ]),
    row([
      `autocannon, ${r.load.connections} connections`,
      n0(r.load.requests),
      n0(r.load.requestsPerSecond),
      ms(r.load.p50),
      ms(r.load.p95),
      ms(r.load.p99),
      ms(r.load.max),
      r.load.failures,
      `${(r.load.foreignCpu * 100).toFixed(0)} %`,
    ]),
    '',
  ];
}

/** Alone (`npx tsx bench/category-tree.ts [--smoke] [--requests=N]`): on a scratch database and server. */
runIfMain(import.meta.url, 'category-tree', () => {
  const smoke = process.argv.includes('--smoke');
  const requests = process.argv.find((a) => a.startsWith('--requests='))?.slice('--requests='.length);
  return withScratchServer('tree', async ({ url, adminHeaders, dbUrl, log }) => {
    const r = await benchCategoryTree({
      url,
      adminHeaders,
      dbUrl,
      sequentialRequests: requests === undefined ? (smoke ? 30 : 200) : Number(requests),
      loadSeconds: smoke ? 2 : 10,
      loadConnections: smoke ? 2 : 10,
      log,
    });
    const t = categoryTreeTarget(r);
    return `\n| ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'pass' : '**FAIL**'} |\n\n${categoryTreeDetails(r).join('\n')}\n`;
  });
});
