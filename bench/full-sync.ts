// The full catalogue sync: 10,000 products into a sandbox shop with an emulated Standard budget
// (bucket 2000, restore 100/s), target ≤ 10 minutes, on PostgreSQL. The Shopify sandbox and a bridge from src/ run as
// two processes on scratch databases of their own (test/helpers/bridge-processes.ts). No recording proxy between them:
// the adapter uploads bulk files only to the host of the shop's api_base_url, and the sandbox hands out its own. The catalogue is bulk-loaded with SQL into the bridge's database (bench/load.ts: names,
// descriptions, brands, categories, translations, three size variants for 20 % of the products, 5 % archived, 14 %
// drafts), dated before the shop was connected, as a catalogue that exists when a store is first synced. Then
// POST /api/sync/full and GET /api/sync/full/{id} until it completes: the wall time is from the POST to the answer
// showing `completed`. Afterwards, on the same stack, the delta-sync delay (bench/sync-delay.ts).
// run.ts runs it with the others; `npx tsx bench/full-sync.ts [--smoke] [--products N]` runs it alone.
import pg from 'pg';
import { startBridgeStack, type BridgeStack, type StorefrontCall } from '../test/helpers/bridge-processes.js';
import { loadCatalogue } from './load.js';
import { runIfMain } from './scratch.js';
import { measureSyncDelay, syncDelayDetails, syncDelayTarget, type SyncDelayResult } from './sync-delay.js';

export const FULL_SYNC_PRODUCTS = 10_000;
export const FULL_SYNC_TARGET_SECONDS = 600;
const STANDARD = { bucketSize: 2000, restoreRate: 100 };

export interface FullSyncBenchResult {
  products: number;
  variants: number;
  archived: number;
  loadSeconds: number;
  bucketSize: number;
  restoreRate: number;
  /** The bridge's settings of the run. */
  chunk: number;
  threshold: number;
  mode: string;
  /** POST /api/sync/full → GET showing completed. */
  seconds: number;
  synced: number;
  failed: number;
  firstError: string | null;
  /** Seconds after the POST at which 25 %, 50 %, 75 % of the products were done. */
  quartiles: (number | null)[];
  productsPerSecond: number;
  /** Storefront calls by operation: count, THROTTLED answers, non-200 answers, requested and actual points. */
  calls: { operation: string; count: number; throttled: number; failed: number; requested: number; actual: number }[];
  storeProducts: number;
  delay: SyncDelayResult | null;
}

export interface FullSyncBenchOptions {
  pgBaseUrl: string;
  products?: number;
  /** Measure the PATCH → store delay afterwards on the same stack. */
  delay?: boolean;
  delaySamples?: number;
  log?: (msg: string) => void;
}

function byOperation(calls: StorefrontCall[]): FullSyncBenchResult['calls'] {
  const by = new Map<string, StorefrontCall[]>();
  for (const c of calls) by.set(c.operation, [...(by.get(c.operation) ?? []), c]);
  return [...by].map(([operation, cs]) => ({
    operation,
    count: cs.length,
    throttled: cs.filter((c) => c.throttled).length,
    failed: cs.filter((c) => c.status !== 200).length,
    requested: cs.reduce((a, c) => a + (c.requestedCost ?? 0), 0),
    actual: cs.reduce((a, c) => a + (c.actualCost ?? 0), 0),
  }));
}

async function storeCount(s: BridgeStack): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await s.graphql<{ productsCount: { count: number } }>('{ productsCount { count precision } }')).productsCount.count;
    } catch (err) {
      if (attempt > 50 || !/THROTTLED/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export async function benchFullSync(o: FullSyncBenchOptions): Promise<FullSyncBenchResult> {
  const log = o.log ?? (() => {});
  const count = o.products ?? FULL_SYNC_PRODUCTS;
  const chunk = 1_000;
  const threshold = 200;
  const s = await startBridgeStack({
    kind: 'postgres',
    pgBaseUrl: o.pgBaseUrl,
    logLevel: 'warn',
    // The defaults, spelt out: they are what is measured.
    bridgeEnv: { SYNC_BULK_THRESHOLD: String(threshold), SYNC_BULK_CHUNK: String(chunk), SYNC_POLL_SECONDS: '30' },
  });
  try {
    await s.configureSandbox({
      bucket_size: STANDARD.bucketSize,
      restore_rate: STANDARD.restoreRate,
      error_rate: 0,
      timeout_rate: 0,
      fail_after_commit_rate: 0,
      latency_ms: 0,
    });
    log(`full sync: loading ${count} products into the bridge's PIM`);
    const loadStarted = performance.now();
    const db = new pg.Client(s.bridgeDatabaseUrl!);
    await db.connect();
    let catalogue: Awaited<ReturnType<typeof loadCatalogue>>;
    let archived: number;
    try {
      catalogue = await loadCatalogue(db, s.tenant.organizationId, count, { predatesConnection: true });
      archived = (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE organization_id = $1 AND status = 'archived'`, [s.tenant.organizationId])
      ).rows[0].n;
    } finally {
      await db.end();
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    log(`full sync: loaded in ${loadSeconds.toFixed(1)} s (${catalogue.variants} variants)`);

    const from = s.calls.length;
    const started = performance.now();
    const res = await s.connector('POST', '/api/sync/full');
    if (res.status !== 200) throw new Error(`POST /api/sync/full: ${res.status} ${JSON.stringify(res.body)}`);
    const id = res.body.data.id as string;
    const quartiles: (number | null)[] = [null, null, null];
    let data: { status: string; mode: string; total: number; synced: number; failed: number; error: string | null };
    let lastLog = 0;
    for (;;) {
      const p = await s.connector('GET', `/api/sync/full/${id}`);
      if (p.status !== 200) throw new Error(`GET /api/sync/full/${id}: ${p.status} ${JSON.stringify(p.body)}`);
      data = p.body.data;
      const elapsed = (performance.now() - started) / 1000;
      const done = (data.synced + data.failed) / count;
      for (const [i, q] of [0.25, 0.5, 0.75].entries()) if (quartiles[i] === null && done >= q) quartiles[i] = elapsed;
      if (data.status === 'completed' || data.status === 'failed') break;
      if (elapsed - lastLog >= 15) {
        lastLog = elapsed;
        log(`full sync: ${elapsed.toFixed(0)} s, ${data.synced} synced, ${data.failed} failed of ${data.total} (${data.mode ?? 'mode not known yet'})`);
      }
      if (elapsed > 3 * FULL_SYNC_TARGET_SECONDS)
        throw new Error(`the full sync did not end within ${3 * FULL_SYNC_TARGET_SECONDS} s: ${JSON.stringify(data)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    log(`full sync: ${data.status} in ${seconds.toFixed(1)} s: ${data.synced} synced, ${data.failed} failed`);
    let firstError: string | null = data.error;
    if (data.failed > 0) {
      const m = await s.connector('GET', '/api/products/mappings?status=error&limit=1');
      firstError ??= m.body?.data?.mappings?.[0]?.sync_error ?? null;
    }
    const storeProducts = await storeCount(s);

    let delay: SyncDelayResult | null = null;
    if (o.delay !== false) {
      log('sync delay: PATCHes at random phases of the 30 s poll');
      const m = await s.connector('GET', '/api/products/mappings?status=synced&limit=100&offset=100');
      const ids = (m.body.data.mappings as { pim_product_id: number }[]).map((x) => x.pim_product_id);
      delay = await measureSyncDelay(s, ids, { samples: o.delaySamples ?? 8, log });
    }
    return {
      products: count,
      variants: catalogue.variants,
      archived,
      loadSeconds,
      bucketSize: STANDARD.bucketSize,
      restoreRate: STANDARD.restoreRate,
      chunk,
      threshold,
      mode: data.mode,
      seconds,
      synced: data.synced,
      failed: data.failed,
      firstError,
      quartiles,
      productsPerSecond: (data.synced + data.failed) / seconds,
      calls: byOperation(s.calls.slice(from)),
      storeProducts,
      delay,
    };
  } finally {
    await s.close();
  }
}

const f1 = (x: number) => x.toFixed(1);
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');

export function fullSyncTargets(r: FullSyncBenchResult) {
  const rows = [
    {
      what: `full sync of ${n0(r.products)} products into a sandbox shop under a Standard budget (${r.bucketSize} points, ${r.restoreRate}/s): POST /api/sync/full → completed`,
      target: `≤ ${FULL_SYNC_TARGET_SECONDS / 60} min`,
      measured: `${f1(r.seconds)} s (${f1(r.productsPerSecond)} products/s, ${r.mode}; ${n0(r.synced)} synced, ${r.failed} failed)`,
      pass: r.seconds <= FULL_SYNC_TARGET_SECONDS && r.failed === 0 && r.synced === r.products && r.storeProducts === r.products,
    },
  ];
  if (r.delay) rows.push(syncDelayTarget(r.delay));
  return rows;
}

export function fullSyncDetails(r: FullSyncBenchResult): string[] {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const q = (x: number | null) => (x === null ? '-' : `${f1(x)} s`);
  return [
    `Full sync (\`bench/full-sync.ts\`): the Shopify sandbox and a bridge as two processes on scratch PostgreSQL databases. ${n0(r.products)} products (${n0(r.variants)} variants, ${r.archived} archived) bulk-loaded with SQL into the bridge's PIM in ${f1(r.loadSeconds)} s (\`bench/load.ts\`), dated before the shop was connected; the store's bucket ${r.bucketSize} points restoring ${r.restoreRate}/s (Shopify's Standard plan). The bridge reads the PIM over HTTP, 100 products a page with their variants and stock (\`include\`); from ${r.threshold} products on a full sync runs as bulk mutations, ${n0(r.chunk)} products per operation (stagedUploadsCreate → JSONL upload → bulkOperationRunMutation → polls of bulkOperation → the result file). Wall time from the POST to the GET answering \`completed\`: ${f1(r.seconds)} s; 25 %, 50 %, 75 % of the products done after ${q(r.quartiles[0])}, ${q(r.quartiles[1])}, ${q(r.quartiles[2])}. ${r.storeProducts} products in the store afterwards.${r.firstError ? ` First error: ${r.firstError}` : ''}`,
    '',
    ...(r.calls.length
      ? [
          row(['storefront call', 'count', 'THROTTLED', 'non-200', 'requested points', 'actual points']),
          row(['---', '---', '---', '---', '---', '---']),
          ...r.calls.map((c) => row([c.operation, c.count, c.throttled, c.failed, n0(c.requested), n0(c.actual)])),
          '',
        ]
      : []),
    ...(r.delay ? syncDelayDetails(r.delay) : []),
  ];
}

/** Alone (`npx tsx bench/full-sync.ts [--smoke] [--products N]`): scratch databases on BENCH_PG_URL's server. */
runIfMain(import.meta.url, 'full-sync', async () => {
  const smoke = process.argv.includes('--smoke');
  const n = process.argv.indexOf('--products');
  const r = await benchFullSync({
    pgBaseUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    products: n > 0 ? Number(process.argv[n + 1]) : smoke ? 1_000 : FULL_SYNC_PRODUCTS,
    delaySamples: smoke ? 3 : 8,
    delay: !process.argv.includes('--no-delay'),
    log: (msg) => process.stdout.write(`[full-sync] ${msg}\n`),
  });
  const rows = fullSyncTargets(r).map((t) => `| ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'pass' : '**FAIL**'} |`);
  process.stdout.write(`\n${rows.join('\n')}\n\n${fullSyncDetails(r).join('\n')}\n`);
});
