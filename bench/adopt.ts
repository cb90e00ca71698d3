// Adoption of a shop's existing catalogue: 10,000 products in a sandbox shop with an emulated Standard budget
// (bucket 2000, restore 100/s, as bench/full-sync.ts), target ≤ 2 minutes, on PostgreSQL. The Shopify sandbox and a
// bridge from src/ run as two processes on scratch databases of their own (test/helpers/bridge-processes.ts). The PIM
// is bulk-loaded with SQL (bench/load.ts), dated before the shop was connected (so the delta sync leaves it alone). The
// shop is written with SQL straight into the sandbox's tables (sandbox_products, sandbox_variants, one location): the
// rows a productSet without media or metafields makes, about a second instead of minutes of productSet. It mirrors the
// PIM by row number (i = 0-based, in id order): i % 100 < 80 by SKU (the PIM product's SKU, or its variants'), < 88 by
// barcode (the first variant's barcode = the PIM's EAN, SKUs of the shop's own), < 94 by handle (= the PIM's slug,
// nothing else in common), else the PIM product has no shop product and a shop-only product takes its place; 1–4
// variants each. Archived PIM products (5 %) match nothing but our metafield, so their shop products stay unmatched.
// Then POST /api/adopt and GET /api/adopt/{id} until it ends: the wall time is from the POST to the answer showing
// `completed`. A second run with `import_unmatched: true` on the same stack after the first run's mappings are deleted.
// `npx tsx bench/adopt.ts [--smoke] [--products N] [--no-import]`; `npm run bench` runs it too (bench/run.ts).
import pg from 'pg';
import { startBridgeStack, type BridgeStack } from '../test/helpers/bridge-processes.js';
import { loadCatalogue } from './load.js';
import { runIfMain } from './scratch.js';

export const ADOPT_PRODUCTS = 10_000;
export const ADOPT_TARGET_SECONDS = 120;
const STANDARD = { bucketSize: 2000, restoreRate: 100 };

type Rule = 'sku' | 'barcode' | 'handle';
const categoryOf = (i: number): Rule | 'pim_only' => (i % 100 < 80 ? 'sku' : i % 100 < 88 ? 'barcode' : i % 100 < 94 ? 'handle' : 'pim_only');

/** GET /api/adopt/{id}'s counts. */
interface Counts {
  shop_products: number;
  pim_products: number;
  matched: number;
  matched_by: Record<string, number>;
  already_mapped: number;
  unmatched_shop: number;
  unmatched_pim: number;
  imported: number;
}

export interface AdoptRun {
  importUnmatched: boolean;
  state: string;
  /** POST /api/adopt → GET showing completed (or failed). */
  seconds: number;
  /** Seconds after the POST at which the GET first showed each phase. */
  phases: Record<string, number>;
  counts: Counts;
  error: string | null;
  /** Mappings of the integration in the bridge's database afterwards. */
  mappings: number;
  /** The sandbox's product and variant rows (count, last updated_at) were the same after the run as before. */
  shopUntouched: boolean;
  shopProductsAfter: number;
}

export interface AdoptBenchResult {
  products: number;
  pimVariants: number;
  archived: number;
  shopProducts: number;
  shopVariants: number;
  /** Shop products by variant count (1–4). */
  variantSpread: number[];
  pimLoadSeconds: number;
  shopLoadSeconds: number;
  bucketSize: number;
  restoreRate: number;
  /** What the seeding implies the plain run must answer. */
  expected: Pick<Counts, 'shop_products' | 'pim_products' | 'matched' | 'unmatched_shop' | 'unmatched_pim'> & { matched_by: Record<Rule, number> };
  plain: AdoptRun;
  withImport: AdoptRun | null;
}

export interface AdoptBenchOptions {
  pgBaseUrl: string;
  products?: number;
  /** Also the run with import_unmatched: true. */
  withImport?: boolean;
  log?: (msg: string) => void;
}

/** The sandbox's database: startBridgeStack names it pimbridge_sandbox_{pid}_{hex}; the one holding our store's domain. */
async function sandboxDatabase(pgBaseUrl: string, domain: string): Promise<{ url: string; storeId: number }> {
  const admin = new pg.Client(pgBaseUrl);
  await admin.connect();
  let names: string[];
  try {
    names = (await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`pimbridge_sandbox_${process.pid}_%`])).rows.map(
      (r) => r.datname,
    );
  } finally {
    await admin.end();
  }
  for (const name of names) {
    const url = Object.assign(new URL(pgBaseUrl), { pathname: `/${name}` }).toString();
    const db = new pg.Client(url);
    await db.connect();
    try {
      const row = (await db.query<{ id: number }>(`SELECT id FROM sandbox_stores WHERE domain = $1`, [domain])).rows[0];
      if (row) return { url, storeId: row.id };
    } finally {
      await db.end();
    }
  }
  throw new Error(`no sandbox database holds the store ${domain}`);
}

interface PimRow {
  id: number;
  sku: string;
  slug: string;
  name: string;
  ean: string | null;
  status: string;
  price: string;
  variants: string[];
}

/** The shop as a merchant had it before the bridge, from the PIM's rows (see the header); and what adopting it must find. */
function shopCatalogue(pim: PimRow[]) {
  const SIZES = ['S', 'M', 'L', 'XL'];
  const COLORS = ['Navy', 'Oat', 'Black', 'Olive'];
  const products: object[] = [];
  const variants: object[] = [];
  const expected = {
    shop_products: 0,
    pim_products: 0,
    matched: 0,
    unmatched_shop: 0,
    unmatched_pim: 0,
    matched_by: { sku: 0, barcode: 0, handle: 0 } as Record<Rule, number>,
  };
  const add = (
    n: number,
    handle: string,
    title: string,
    vendor: string,
    vs: { sku: string; price: string; barcode?: string | null; option: [string, string] | null }[],
  ) => {
    const option = vs[0].option?.[0];
    products.push({
      n,
      handle,
      title,
      description_html: `<p>${title}, as the shop describes it.</p>`,
      vendor,
      product_type: 'Apparel',
      options: option ? [{ name: option, values: vs.map((v) => v.option![1]) }] : [{ name: 'Title', values: ['Default Title'] }],
    });
    vs.forEach((v, k) => {
      variants.push({
        handle,
        sku: v.sku,
        price: v.price,
        barcode: v.barcode ?? null,
        option_values: option ? [{ optionName: option, name: v.option![1] }] : [{ optionName: 'Title', name: 'Default Title' }],
        qty: (n * 7 + k) % 25,
        position: k + 1,
      });
    });
    expected.shop_products++;
  };
  pim.forEach((p, i) => {
    const rule = categoryOf(i);
    const archived = p.status === 'archived';
    if (!archived) expected.pim_products++;
    const price = Number(p.price).toFixed(2);
    if (rule === 'pim_only') {
      if (!archived) expected.unmatched_pim++;
      // A product the PIM does not know, in its place: 1–4 sizes.
      add(
        i,
        `shop-only-${i}`,
        `Shop-only item ${i}`,
        'Merchant Co',
        SIZES.slice(0, 1 + (i % 4)).map((s) => ({ sku: `SO-${i}-${s}`, price, option: ['Size', s] as [string, string] })),
      );
      expected.unmatched_shop++;
      return;
    }
    if (archived) expected.unmatched_shop++;
    else {
      expected.matched++;
      expected.matched_by[rule]++;
    }
    const own = (k: number) => `SHOP-${i}-${k + 1}`;
    let vs: { sku: string; price: string; barcode?: string | null; option: [string, string] | null }[];
    if (p.variants.length > 0) {
      // The PIM's S, M, L (and an XL the PIM lacks for every second one).
      const sizes = SIZES.slice(0, i % 2 === 0 ? 4 : 3);
      vs = sizes.map((s, k) => ({ sku: rule === 'sku' ? (p.variants[k] ?? `${p.sku}-${s}`) : own(k), price, option: ['Size', s] as [string, string] }));
    } else if (i % 3 === 0) {
      // Two colours; the first carries the PIM product's SKU.
      vs = COLORS.slice(0, 2).map((c, k) => ({
        sku: rule === 'sku' ? (k === 0 ? p.sku : `${p.sku}-${c.toUpperCase()}`) : own(k),
        price,
        option: ['Color', c] as [string, string],
      }));
    } else vs = [{ sku: rule === 'sku' ? p.sku : own(0), price, option: null }];
    if (rule === 'barcode') vs[0].barcode = p.ean;
    // Every mirrored product keeps the PIM's slug as its handle; only the handle rule relies on it (SKU and barcode come first).
    add(i, p.slug, p.name, 'Merchant Co', vs);
  });
  return { products, variants, expected };
}

/** Count and last change of the shop's product and variant rows: equal before and after = nothing written. */
async function shopFingerprint(sandboxUrl: string, storeId: number): Promise<{ products: number; key: string }> {
  const db = new pg.Client(sandboxUrl);
  await db.connect();
  try {
    const r = (
      await db.query<{ products: number; variants: number; p: string | null; v: string | null }>(
        `SELECT count(DISTINCT p.id)::int AS products, count(v.id)::int AS variants, max(p.updated_at)::text AS p, max(v.updated_at)::text AS v
         FROM sandbox_products p LEFT JOIN sandbox_variants v ON v.product_id = p.id WHERE p.store_id = $1`,
        [storeId],
      )
    ).rows[0];
    return { products: r.products, key: `${r.products}/${r.variants}/${r.p}/${r.v}` };
  } finally {
    await db.end();
  }
}

async function mappingCount(s: BridgeStack): Promise<number> {
  const db = new pg.Client(s.bridgeDatabaseUrl!);
  await db.connect();
  try {
    return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM product_mappings WHERE integration_id = $1`, [s.integrationId])).rows[0].n;
  } finally {
    await db.end();
  }
}

/** One adoption: POST /api/adopt, then GET /api/adopt/{id} every 250 ms until it ends. */
async function adopt(s: BridgeStack, sandbox: { url: string; storeId: number }, importUnmatched: boolean, log: (msg: string) => void): Promise<AdoptRun> {
  const before = await shopFingerprint(sandbox.url, sandbox.storeId);
  const started = performance.now();
  const res = await s.connector('POST', '/api/adopt', importUnmatched ? { import_unmatched: true } : undefined);
  if (res.status !== 200) throw new Error(`POST /api/adopt: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.data.id as string;
  const phases: Record<string, number> = {};
  let data: { state: string; progress: { phase: string | null; done: number; total: number | null }; counts: Counts; error: string | null };
  let lastLog = 0;
  for (;;) {
    const p = await s.connector('GET', `/api/adopt/${id}`);
    if (p.status !== 200) throw new Error(`GET /api/adopt/${id}: ${p.status} ${JSON.stringify(p.body)}`);
    data = p.body.data;
    const elapsed = (performance.now() - started) / 1000;
    if (data.progress.phase && !(data.progress.phase in phases)) phases[data.progress.phase] = elapsed;
    if (data.state === 'completed' || data.state === 'failed') break;
    if (elapsed - lastLog >= 10) {
      lastLog = elapsed;
      log(`adoption: ${elapsed.toFixed(0)} s, ${data.state}, ${data.progress.phase ?? '-'} ${data.progress.done}/${data.progress.total ?? '?'}`);
    }
    if (elapsed > 5 * ADOPT_TARGET_SECONDS) throw new Error(`the adoption did not end within ${5 * ADOPT_TARGET_SECONDS} s: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await shopFingerprint(sandbox.url, sandbox.storeId);
  log(`adoption${importUnmatched ? ' with import_unmatched' : ''}: ${data.state} in ${seconds.toFixed(1)} s: ${JSON.stringify(data.counts)}`);
  return {
    importUnmatched,
    state: data.state,
    seconds,
    phases,
    counts: data.counts,
    error: data.error,
    mappings: await mappingCount(s),
    shopUntouched: before.key === after.key,
    shopProductsAfter: after.products,
  };
}

export async function benchAdopt(o: AdoptBenchOptions): Promise<AdoptBenchResult> {
  const log = o.log ?? (() => {});
  const count = o.products ?? ADOPT_PRODUCTS;
  // The defaults: the delta sync polls every 30 s, as in production (the PIM predates the connection, so it finds nothing).
  const s = await startBridgeStack({ kind: 'postgres', pgBaseUrl: o.pgBaseUrl, logLevel: 'warn' });
  try {
    await s.configureSandbox({
      bucket_size: STANDARD.bucketSize,
      restore_rate: STANDARD.restoreRate,
      error_rate: 0,
      timeout_rate: 0,
      fail_after_commit_rate: 0,
      latency_ms: 0,
    });

    // The PIM: bench/load.ts's catalogue, dated before the connection.
    log(`adopt: loading ${count} products into the bridge's PIM`);
    let t = performance.now();
    const bridgeDb = new pg.Client(s.bridgeDatabaseUrl!);
    await bridgeDb.connect();
    let pim: PimRow[];
    let pimVariants: number;
    try {
      pimVariants = (await loadCatalogue(bridgeDb, s.tenant.organizationId, count, { predatesConnection: true })).variants;
      pim = (
        await bridgeDb.query<PimRow>(
          `SELECT p.id, p.sku, p.slug, p.name, p.ean, p.status, p.price::text AS price,
             coalesce(array_agg(v.sku ORDER BY v.position) FILTER (WHERE v.id IS NOT NULL), '{}') AS variants
           FROM products p LEFT JOIN variants v ON v.product_id = p.id WHERE p.organization_id = $1 GROUP BY p.id ORDER BY p.id`,
          [s.tenant.organizationId],
        )
      ).rows;
    } finally {
      await bridgeDb.end();
    }
    const pimLoadSeconds = (performance.now() - t) / 1000;

    // The shop: one statement of products and their variants, stocked at the store's one location.
    t = performance.now();
    const sandbox = await sandboxDatabase(o.pgBaseUrl, s.domain);
    const shop = shopCatalogue(pim);
    const sandboxDb = new pg.Client(sandbox.url);
    await sandboxDb.connect();
    try {
      await sandboxDb.query('BEGIN');
      const location =
        (await sandboxDb.query<{ id: string }>(`SELECT id FROM sandbox_locations WHERE store_id = $1 ORDER BY id LIMIT 1`, [sandbox.storeId])).rows[0] ??
        (await sandboxDb.query<{ id: string }>(`INSERT INTO sandbox_locations (store_id, name) VALUES ($1, 'Shop location') RETURNING id`, [sandbox.storeId]))
          .rows[0];
      await sandboxDb.query(
        `WITH p AS (
           INSERT INTO sandbox_products (store_id, handle, title, description_html, vendor, product_type, status, options)
           SELECT $1, x.handle, x.title, x.description_html, x.vendor, x.product_type, 'ACTIVE', x.options
           FROM jsonb_to_recordset($2::jsonb) AS x(n int, handle text, title text, description_html text, vendor text, product_type text, options jsonb)
           ORDER BY x.n
           RETURNING id, handle)
         INSERT INTO sandbox_variants (product_id, sku, price, barcode, option_values, inventory, position)
         SELECT p.id, v.sku, v.price, v.barcode, v.option_values, jsonb_build_object($3::text, v.qty), v.position
         FROM jsonb_to_recordset($4::jsonb) AS v(handle text, sku text, price text, barcode text, option_values jsonb, qty int, position int)
         JOIN p USING (handle)`,
        [sandbox.storeId, JSON.stringify(shop.products), String(location.id), JSON.stringify(shop.variants)],
      );
      await sandboxDb.query('COMMIT');
      await sandboxDb.query('VACUUM ANALYZE sandbox_products, sandbox_variants');
    } finally {
      await sandboxDb.end();
    }
    const shopLoadSeconds = (performance.now() - t) / 1000;
    const spread = [1, 2, 3, 4].map(() => 0);
    const perProduct = new Map<string, number>();
    for (const v of shop.variants as { handle: string }[]) perProduct.set(v.handle, (perProduct.get(v.handle) ?? 0) + 1);
    for (const n of perProduct.values()) spread[n - 1]++;
    // The sandbox must see them as its own: productsCount over GraphQL.
    const seen = (await s.graphql<{ productsCount: { count: number } }>('{ productsCount { count } }')).productsCount.count;
    if (seen !== shop.expected.shop_products) throw new Error(`the sandbox counts ${seen} products, ${shop.expected.shop_products} were written`);
    log(
      `adopt: PIM loaded in ${pimLoadSeconds.toFixed(1)} s, shop (${shop.products.length} products, ${shop.variants.length} variants) in ${shopLoadSeconds.toFixed(1)} s`,
    );

    const plain = await adopt(s, sandbox, false, log);
    let withImport: AdoptRun | null = null;
    if (o.withImport !== false && plain.state === 'completed') {
      // The same shop and PIM from scratch: the first run's links removed (the adoption rows stay, all ended).
      const db = new pg.Client(s.bridgeDatabaseUrl!);
      await db.connect();
      try {
        await db.query(`DELETE FROM product_mappings WHERE integration_id = $1`, [s.integrationId]);
      } finally {
        await db.end();
      }
      withImport = await adopt(s, sandbox, true, log);
    }
    return {
      products: count,
      pimVariants,
      archived: pim.filter((p) => p.status === 'archived').length,
      shopProducts: shop.products.length,
      shopVariants: shop.variants.length,
      variantSpread: spread,
      pimLoadSeconds,
      shopLoadSeconds,
      bucketSize: STANDARD.bucketSize,
      restoreRate: STANDARD.restoreRate,
      expected: shop.expected,
      plain,
      withImport,
    };
  } finally {
    await s.close();
  }
}

const f1 = (x: number) => x.toFixed(1);
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');

/** The plain run answered what the seeding implies, linked exactly its matches and wrote nothing to the shop. */
function plainCorrect(r: AdoptBenchResult): boolean {
  const c = r.plain.counts;
  const e = r.expected;
  return (
    r.plain.state === 'completed' &&
    c.shop_products === e.shop_products &&
    c.pim_products === e.pim_products &&
    c.matched === e.matched &&
    c.unmatched_shop === e.unmatched_shop &&
    c.unmatched_pim === e.unmatched_pim &&
    (['sku', 'barcode', 'handle'] as const).every((k) => c.matched_by[k] === e.matched_by[k]) &&
    r.plain.mappings === c.matched &&
    r.plain.shopUntouched
  );
}

const countsText = (c: Counts) =>
  `${n0(c.matched)} matched (SKU ${n0(c.matched_by.sku)}, barcode ${n0(c.matched_by.barcode)}, handle ${n0(c.matched_by.handle)}), unmatched ${n0(c.unmatched_shop)} shop / ${n0(c.unmatched_pim)} PIM${c.imported ? `, ${n0(c.imported)} imported` : ''}`;

export function adoptTargets(r: AdoptBenchResult) {
  const budget = `under a Standard budget (${r.bucketSize} points, ${r.restoreRate}/s)`;
  const rows = [
    {
      what: `adoption of a ${n0(r.shopProducts)}-product shop (${n0(r.products)} PIM products) ${budget}: POST /api/adopt → completed`,
      target: `≤ ${ADOPT_TARGET_SECONDS / 60} min`,
      measured: `${f1(r.plain.seconds)} s (${countsText(r.plain.counts)})`,
      pass: r.plain.seconds <= ADOPT_TARGET_SECONDS && plainCorrect(r),
    },
  ];
  if (r.withImport) {
    const w = r.withImport;
    rows.push({
      what: `the same with \`import_unmatched: true\` (the shop's unmatched products imported into the PIM and linked)`,
      target: `≤ ${ADOPT_TARGET_SECONDS / 60} min`,
      measured: `${f1(w.seconds)} s (${countsText(w.counts)})`,
      pass: w.seconds <= ADOPT_TARGET_SECONDS && w.state === 'completed' && w.mappings === w.counts.matched + w.counts.imported,
    });
  }
  return rows;
}

export function adoptDetails(r: AdoptBenchResult): string[] {
  const e = r.expected;
  const phases = (run: AdoptRun) =>
    Object.entries(run.phases)
      .map(([k, v]) => `${k} ${f1(v)} s`)
      .join(', ');
  const run = (name: string, x: AdoptRun) =>
    `${name}: ${x.state} in ${f1(x.seconds)} s; phases first seen after ${phases(x) || '-'}; ${n0(x.mappings)} mappings afterwards; the shop's rows ${x.shopUntouched ? 'unchanged' : `**changed** (${n0(x.shopProductsAfter)} products)`}.${x.error ? ` Error: ${x.error}` : ''}`;
  return [
    `Adoption (\`bench/adopt.ts\`): the Shopify sandbox and a bridge as two processes on scratch PostgreSQL databases; the store's bucket ${r.bucketSize} points restoring ${r.restoreRate}/s (Shopify's Standard plan). PIM: ${n0(r.products)} products (${n0(r.pimVariants)} variants, ${r.archived} archived) bulk-loaded with SQL in ${f1(r.pimLoadSeconds)} s (\`bench/load.ts\`), dated before the connection. Shop: ${n0(r.shopProducts)} products, ${n0(r.shopVariants)} variants (${r.variantSpread.map((n, i) => `${n0(n)} with ${i + 1}`).join(', ')}) written with SQL into the sandbox's tables in ${f1(r.shopLoadSeconds)} s, mirroring the PIM: 80 % by SKU, 8 % by barcode (= EAN), 6 % by handle (= slug), 6 % of the PIM products without a shop product and as many shop-only products; archived PIM products match only by our metafield. Expected: ${n0(e.matched)} matched (SKU ${n0(e.matched_by.sku)}, barcode ${n0(e.matched_by.barcode)}, handle ${n0(e.matched_by.handle)}), ${n0(e.unmatched_shop)} unmatched shop products, ${n0(e.unmatched_pim)} unmatched PIM products (of ${n0(e.pim_products)} not archived). Wall time from the POST to the GET (every 250 ms) answering \`completed\`.`,
    '',
    `- ${run('plain', r.plain)} Answer ${plainCorrect(r) ? 'as expected' : '**not as expected**'}: ${JSON.stringify(r.plain.counts)}.`,
    ...(r.withImport
      ? [`- ${run("with import_unmatched (the first run's mappings deleted first)", r.withImport)} Answer: ${JSON.stringify(r.withImport.counts)}.`]
      : []),
    '',
  ];
}

/** Alone (`npx tsx bench/adopt.ts [--smoke] [--products N] [--no-import]`): scratch databases on BENCH_PG_URL's server. */
runIfMain(import.meta.url, 'adopt', async () => {
  const smoke = process.argv.includes('--smoke');
  const n = process.argv.indexOf('--products');
  const r = await benchAdopt({
    pgBaseUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    products: n > 0 ? Number(process.argv[n + 1]) : smoke ? 1_000 : ADOPT_PRODUCTS,
    withImport: !process.argv.includes('--no-import'),
    log: (msg) => process.stdout.write(`[adopt] ${msg}\n`),
  });
  const rows = adoptTargets(r).map((t) => `| ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'pass' : '**FAIL**'} |`);
  process.stdout.write(`\n${rows.join('\n')}\n\n${adoptDetails(r).join('\n')}\n`);
});
