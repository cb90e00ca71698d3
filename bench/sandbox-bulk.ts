// `npx tsx bench/sandbox-bulk.ts [lines] [postgres-url]`: one bulk upsert of `lines` products (default 10,000; two
// variants and one image each) through the Shopify adapter into the built-in sandbox, on embedded PGlite or, given a
// URL, on a scratch PostgreSQL database (dropped afterwards). Prints the time to build and upload the file, the
// sandbox's run (lines/s) and the result file's parse. Not part of `npm run bench`; figures go to docs/sandbox/README.md.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { startApp } from '../src/server/start-app.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import type { BulkUpsertItem } from '../src/storefront/port/bulk.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import { freePort } from './util.js';

const lines = Number(process.argv[2] ?? 10_000);
const pgUrl = process.argv[3];

function product(id: number): PimProductSnapshot {
  const variant = (n: number, size: string) => ({
    id: id * 10 + n,
    sku: `B-${id}-${size}`,
    name: size,
    price: '19.9900',
    sale_price: null,
    cost: null,
    weight: null,
    stock_quantity: 5,
    stock_status: 'in_stock',
    is_enabled: true,
    position: n,
    image: null,
    attributes: [{ attribute_name: 'Size', value: size }],
  });
  return {
    id,
    sku: `B-${id}`,
    slug: `bulk-product-${id}`,
    name: `Bulk product ${id}`,
    description: '<p>Made for the bulk benchmark.</p>',
    price: '19.9900',
    status: 'active',
    brand: { id: 1, name: 'Acme' },
    categories: [{ id: 1, name: 'Benchmark' }],
    images: [`https://pim.example/media/${id}.jpg`],
    variants: [variant(1, 'S'), variant(2, 'M')],
  };
}

async function main(): Promise<void> {
  let dbName: string | null = null;
  let database: Database;
  if (pgUrl) {
    dbName = `pimbridge_bulkbench_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${dbName}`;
    database = await openDatabase({ kind: 'postgres', url: url.toString() });
  } else {
    database = await openDatabase({ kind: 'pglite', dataDir: null });
  }
  const port = await freePort();
  const app = await startApp({
    config: loadConfig({
      ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SHOPIFY_SANDBOX: 'true',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/nonexistent-bench-data-dir',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }),
    database,
    logger: false,
  });
  try {
    await database.migrate();
    await app.listen({ port, host: '127.0.0.1' });
    const domain = 'bulk-bench.myshopify.com';
    const { accessToken } = await app.services.sandbox!.stores.create(domain);
    const shop = { domain, apiBaseUrl: `http://127.0.0.1:${port}/sandbox/shopify/${domain}`, accessToken };
    const adapter = new ShopifyAdapter({ timeoutMs: 30_000 });
    const [location] = await adapter.locations(shop);
    const BENCH_PLACEMENT = {
      channelPublications: {},
      warehouseLocations: {},
      unsyncedWarehouses: [],
      variantStockLocation: location?.id ?? null,
      pricesConvertedElsewhere: true,
    };
    const items: BulkUpsertItem[] = Array.from({ length: lines }, (_, i) => ({
      product: product(i + 1),
      known: { productId: null, variantIds: {}, mediaIds: {}, neverPushed: true },
      placement: BENCH_PLACEMENT,
    }));

    const t0 = performance.now();
    const { operationId } = await adapter.startBulkUpsert(shop, items);
    const t1 = performance.now();
    let state = await adapter.bulkUpsertState(shop, operationId, items);
    while (state.state === 'running') {
      await new Promise((r) => setTimeout(r, 250));
      state = await adapter.bulkUpsertState(shop, operationId, items);
    }
    const t2 = performance.now();
    if (state.state !== 'completed') throw new Error(`bulk operation ${state.state}: ${state.message}`);
    const ok = state.outcomes.filter((o) => o.ok).length;
    const run = (t2 - t1) / 1000;
    process.stdout.write(
      `${database.kind}: ${lines} lines — start (build, stage, upload, run) ${((t1 - t0) / 1000).toFixed(2)} s; ` +
        `run until completed and result parsed ${run.toFixed(2)} s = ${Math.round(lines / run)} lines/s; ${ok} ok\n`,
    );
    if (ok !== lines) throw new Error(`${lines - ok} items failed: ${JSON.stringify(state.outcomes.find((o) => !o.ok))}`);
  } finally {
    await app.close();
    await database.close();
    if (dbName) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
