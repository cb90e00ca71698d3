// The drift report and the push's dry run. Both run the Shopify sandbox and a bridge from src/ as two
// processes on scratch PostgreSQL databases of their own (test/helpers/bridge-processes.ts), with the recording proxy
// between them (every call's operation and the sandbox's `extensions.cost`).
// (a) Drift: 10,000 products bulk-loaded into the bridge's PIM (bench/load.ts, dated before the connection) and pushed
//     by a real bulk full sync (POST /api/sync/full, timed but not the target) into a shop whose bucket is Shopify's
//     Standard plan (2000 points, 100/s), so every mapping carries the `storefront_state.written` that sync wrote.
//     Then six products edited in the shop over the sandbox's Admin GraphQL as a merchant would (title, vendor, a
//     variant's price, status and tags changed; one product deleted), and POST /api/drift → GET /api/drift/{id} every
//     250 ms until `completed`: the wall time, target ≤ 2 minutes. The report must name exactly those products with
//     those fields (and nothing else), or the run fails.
// (b) Dry run: 50 products (2 variants, 1 image each) seeded through the PIM API and pushed (creates, then an unchanged
//     update: calls and points per product of a real push), 10 of them renamed in the PIM, then POST
//     /api/products/push?dry_run=true of the 50, a warm-up and 9 measured runs, sandbox without throttle: the median,
//     target ≤ 500 ms. Each answer must list the 10 renames and nothing else.
// run.ts runs both; `npx tsx bench/drift.ts [--smoke] [--products N] [--no-dry-run] [--no-drift]` runs them alone.
import pg from 'pg';
import { gql, startBridgeStack, type BridgeStack, type StorefrontCall } from '../test/helpers/bridge-processes.js';
import { loadIntoBridge } from './load.js';
import { runIfMain } from './scratch.js';
import { byOperation, costPerProduct, operationsText, type CallCost, type CallSummary } from './storefront-calls.js';

export const DRIFT_PRODUCTS = 10_000;
export const DRIFT_TARGET_SECONDS = 120;
export const DRY_RUN_PRODUCTS = 50;
export const DRY_RUN_TARGET_MS = 500;
const STANDARD = { bucketSize: 2000, restoreRate: 100 };
const NO_THROTTLE = { bucket_size: 10_000_000, restore_rate: 10_000_000, error_rate: 0, timeout_rate: 0, fail_after_commit_rate: 0, latency_ms: 0 };

type Edit = 'title' | 'vendor' | 'price' | 'status' | 'tags' | 'delete';
const EDITS: Edit[] = ['title', 'vendor', 'price', 'status', 'tags', 'delete'];

interface DriftCounts {
  mapped: number;
  compared: number;
  not_compared: number;
  shop_products: number;
  changed: number;
  missing_in_shop: number;
  orphan_in_shop: number;
}

interface DriftItem {
  kind: string;
  pim_product_id: number | null;
  storefront_product_id: number | null;
  handle: string | null;
  title: string | null;
  fields: { field: string; storefront: unknown; written: unknown }[];
}

export interface DriftBenchResult {
  products: number;
  variants: number;
  loadSeconds: number;
  bucketSize: number;
  restoreRate: number;
  /** The seeding full sync (not the target). */
  sync: { seconds: number; mode: string; synced: number; failed: number; mappingsWithWritten: number };
  /** The merchant's edits: the product, what was changed, the field the report must name. */
  edits: { edit: Edit; pimProductId: number; storefrontProductId: number; field: string | null }[];
  editSeconds: number;
  /** POST /api/drift → GET showing completed. */
  seconds: number;
  /** Seconds after the POST at which the GET first showed each state. */
  states: Record<string, number>;
  state: string;
  error: string | null;
  counts: DriftCounts | null;
  /** What the report listed: changed items with their fields, missing and orphan ids. */
  reported: { kind: string; pimProductId: number | null; fields: string[] }[];
  /** Problems found comparing the report with the edits (empty: the report is right). */
  problems: string[];
  calls: CallSummary[];
}

export interface DryRunBenchResult {
  products: number;
  variantsPerProduct: number;
  imagesPerProduct: number;
  renamed: number;
  runs: number[];
  median: number;
  min: number;
  max: number;
  problems: string[];
  /** Storefront calls and points per product: a create push, an unchanged update push, one dry run. */
  perProduct: ({ what: string } & CallCost)[];
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function bridgeQuery<T extends pg.QueryResultRow>(s: BridgeStack, text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client(s.bridgeDatabaseUrl!);
  await db.connect();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}

/** POST /api/sync/full and GET /api/sync/full/{id} until it ends. */
async function fullSync(s: BridgeStack, count: number, log: (msg: string) => void) {
  const started = performance.now();
  const res = await s.connector('POST', '/api/sync/full');
  if (res.status !== 200) throw new Error(`POST /api/sync/full: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.data.id as string;
  let lastLog = 0;
  for (;;) {
    const p = await s.connector('GET', `/api/sync/full/${id}`);
    if (p.status !== 200) throw new Error(`GET /api/sync/full/${id}: ${p.status} ${JSON.stringify(p.body)}`);
    const d = p.body.data as { status: string; mode: string; synced: number; failed: number; total: number };
    const elapsed = (performance.now() - started) / 1000;
    if (d.status === 'completed' || d.status === 'failed') {
      if (d.status !== 'completed' || d.failed > 0 || d.synced !== count) throw new Error(`the seeding full sync ended ${JSON.stringify(d)}`);
      return { seconds: elapsed, mode: d.mode, synced: d.synced, failed: d.failed };
    }
    if (elapsed - lastLog >= 15) {
      lastLog = elapsed;
      log(`drift: seeding full sync ${elapsed.toFixed(0)} s, ${d.synced} synced of ${d.total}`);
    }
    if (elapsed > 1200) throw new Error(`the seeding full sync did not end within 20 minutes: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

type Written = { status?: string; tags?: string[]; variants?: Record<string, { price?: string }> };

/** The merchant's edits, over the sandbox's Admin GraphQL (waiting out its bucket when throttled). */
async function editShop(s: BridgeStack, rows: { pim_product_id: number; storefront_product_id: string; written: Written }[]) {
  const edits: DriftBenchResult['edits'] = [];
  const gid = (n: string | number) => `gid://shopify/Product/${n}`;
  const used = new Set<number>();
  // Spread over the catalogue; each edit takes the first product from its spot on that suits it.
  for (const [k, edit] of EDITS.entries()) {
    const start = Math.floor(((k + 0.5) / EDITS.length) * rows.length);
    const suits = (r: (typeof rows)[number]) =>
      !used.has(r.pim_product_id) &&
      (edit === 'price'
        ? Object.values(r.written.variants ?? {}).some((v) => v.price !== undefined)
        : edit === 'status'
          ? r.written.status === 'ACTIVE'
          : edit === 'tags'
            ? (r.written.tags ?? []).length > 0
            : true);
    const row = [...rows.slice(start), ...rows.slice(0, start)].find(suits);
    if (!row) throw new Error(`no mapped product suits the ${edit} edit`);
    used.add(row.pim_product_id);
    const id = gid(row.storefront_product_id);
    let field: string | null = null;
    const update = async (product: Record<string, unknown>) => {
      const r = await gql<{ productUpdate: { userErrors: { message: string }[] } }>(
        s,
        `mutation U($product: ProductUpdateInput!) { productUpdate(product: $product) { product { id } userErrors { field message } } }`,
        { product: { id, ...product } },
      );
      if (r.productUpdate.userErrors.length) throw new Error(`productUpdate ${JSON.stringify(r.productUpdate.userErrors)}`);
    };
    if (edit === 'title') {
      await update({ title: 'Renamed by the merchant' });
      field = 'title';
    } else if (edit === 'vendor') {
      await update({ vendor: "The merchant's own vendor" });
      field = 'vendor';
    } else if (edit === 'status') {
      await update({ status: 'DRAFT' });
      field = 'status';
    } else if (edit === 'tags') {
      // The merchant replaces the tags: ours (the category names) are gone.
      await update({ tags: ['merchant-only'] });
      field = 'tags';
    } else if (edit === 'price') {
      const p = await gql<{ product: { variants: { nodes: { id: string; sku: string; price: string }[] } } }>(
        s,
        `query V($id: ID!) { product(id: $id) { variants(first: 10) { nodes { id sku price } } } }`,
        { id },
      );
      const v = p.product.variants.nodes.find((x) => x.sku && row.written.variants?.[x.sku]?.price !== undefined);
      if (!v) throw new Error(`product ${id} has no variant the bridge priced`);
      const r = await gql<{ productVariantsBulkUpdate: { userErrors: { message: string }[] } }>(
        s,
        `mutation P($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { field message } } }`,
        { productId: id, variants: [{ id: v.id, price: (Number(v.price) + 1).toFixed(2) }] },
      );
      if (r.productVariantsBulkUpdate.userErrors.length) throw new Error(`productVariantsBulkUpdate ${JSON.stringify(r.productVariantsBulkUpdate.userErrors)}`);
      field = `variants[${v.sku}].price`;
    } else {
      const r = await gql<{ productDelete: { deletedProductId: string | null } }>(
        s,
        `mutation D($id: ID!) { productDelete(input: { id: $id }) { deletedProductId userErrors { message } } }`,
        { id },
      );
      if (r.productDelete.deletedProductId !== id) throw new Error(`productDelete of ${id}: ${JSON.stringify(r)}`);
    }
    edits.push({ edit, pimProductId: row.pim_product_id, storefrontProductId: Number(row.storefront_product_id), field });
  }
  return edits;
}

/** Every item of a report, 100 a page. */
async function allItems(s: BridgeStack, id: string): Promise<DriftItem[]> {
  const out: DriftItem[] = [];
  for (let offset = 0; ; offset += 100) {
    const p = await s.connector('GET', `/api/drift/${id}?limit=100&offset=${offset}`);
    if (p.status !== 200) throw new Error(`GET /api/drift/${id}: ${p.status} ${JSON.stringify(p.body)}`);
    out.push(...(p.body.data.items as DriftItem[]));
    if (!p.body.data.pagination.has_more) return out;
  }
}

function checkReport(r: { counts: DriftCounts | null; edits: DriftBenchResult['edits']; items: DriftItem[]; products: number }): string[] {
  const problems: string[] = [];
  const c = r.counts;
  if (!c) return ['no counts'];
  const deleted = r.edits.filter((e) => e.edit === 'delete').length;
  const changedEdits = r.edits.filter((e) => e.field !== null);
  if (c.mapped !== r.products) problems.push(`mapped ${c.mapped}, expected ${r.products}`);
  if (c.compared !== r.products - deleted) problems.push(`compared ${c.compared}, expected ${r.products - deleted}`);
  if (c.not_compared !== 0) problems.push(`not_compared ${c.not_compared}`);
  if (c.shop_products !== r.products - deleted) problems.push(`shop_products ${c.shop_products}, expected ${r.products - deleted}`);
  if (c.changed !== changedEdits.length) problems.push(`changed ${c.changed}, expected ${changedEdits.length}`);
  if (c.missing_in_shop !== deleted) problems.push(`missing_in_shop ${c.missing_in_shop}, expected ${deleted}`);
  if (c.orphan_in_shop !== 0) problems.push(`orphan_in_shop ${c.orphan_in_shop}`);
  for (const e of r.edits) {
    const kind = e.field === null ? 'missing_in_shop' : 'changed';
    const item = r.items.find((i) => i.kind === kind && i.pim_product_id === e.pimProductId);
    if (!item) problems.push(`the ${e.edit} edit of PIM product ${e.pimProductId} is not reported as ${kind}`);
    else if (e.field !== null && item.fields.map((f) => f.field).join() !== e.field)
      problems.push(`PIM product ${e.pimProductId} (${e.edit}) reported with fields ${item.fields.map((f) => f.field).join(', ')}, expected ${e.field}`);
  }
  const expected = new Set(r.edits.map((e) => e.pimProductId));
  for (const i of r.items) if (!expected.has(i.pim_product_id ?? -1)) problems.push(`unexpected ${i.kind} item: ${JSON.stringify(i).slice(0, 300)}`);
  return problems;
}

export async function benchDrift(o: { pgBaseUrl: string; products?: number; log?: (msg: string) => void }): Promise<DriftBenchResult> {
  const log = o.log ?? (() => {});
  const count = o.products ?? DRIFT_PRODUCTS;
  const s = await startBridgeStack({
    kind: 'postgres',
    pgBaseUrl: o.pgBaseUrl,
    logLevel: 'warn',
    recordCalls: true,
    // The defaults, spelt out (bench/full-sync.ts): a bulk full sync seeds the shop; the delta sync as in production.
    bridgeEnv: { SYNC_BULK_THRESHOLD: '200', SYNC_BULK_CHUNK: '1000', SYNC_POLL_SECONDS: '30' },
  });
  try {
    await s.configureSandbox({ ...NO_THROTTLE, bucket_size: STANDARD.bucketSize, restore_rate: STANDARD.restoreRate });
    log(`drift: loading ${count} products into the bridge's PIM`);
    let t = performance.now();
    const { variants } = await loadIntoBridge(s, count);
    const loadSeconds = (performance.now() - t) / 1000;

    log('drift: seeding the shop with a full sync (not timed as the target)');
    const synced = await fullSync(s, count, log);
    const mapped = await bridgeQuery<{ pim_product_id: number; storefront_product_id: string; written: Written | null }>(
      s,
      `SELECT pim_product_id, storefront_product_id::text, storefront_state->'written' AS written FROM product_mappings
       WHERE integration_id = $1 AND storefront_product_id IS NOT NULL ORDER BY pim_product_id`,
      [s.integrationId],
    );
    const withWritten = mapped.filter((m) => m.written && typeof m.written === 'object');
    log(`drift: full sync ${synced.mode} in ${f1(synced.seconds)} s; ${withWritten.length} of ${mapped.length} mappings record what was written`);
    if (withWritten.length !== count) throw new Error(`${withWritten.length} mappings of ${count} record what was written: the report would compare nothing`);

    t = performance.now();
    const edits = await editShop(s, withWritten as { pim_product_id: number; storefront_product_id: string; written: Written }[]);
    const editSeconds = (performance.now() - t) / 1000;
    log(`drift: edited in the shop: ${edits.map((e) => `${e.edit} of ${e.pimProductId}`).join(', ')}`);
    // A fresh, full Standard bucket for the measured run (the edits and the sync's control calls drew on it).
    await s.configureSandbox({ bucket_size: STANDARD.bucketSize, restore_rate: STANDARD.restoreRate });

    const from = s.calls.length;
    const started = performance.now();
    const res = await s.connector('POST', '/api/drift');
    if (res.status !== 200) throw new Error(`POST /api/drift: ${res.status} ${JSON.stringify(res.body)}`);
    const id = res.body.data.id as string;
    const states: Record<string, number> = {};
    let data: { state: string; counts: DriftCounts | null; error: string | null };
    let lastLog = 0;
    for (;;) {
      const p = await s.connector('GET', `/api/drift/${id}?limit=1`);
      if (p.status !== 200) throw new Error(`GET /api/drift/${id}: ${p.status} ${JSON.stringify(p.body)}`);
      data = p.body.data;
      const elapsed = (performance.now() - started) / 1000;
      if (!(data.state in states)) states[data.state] = elapsed;
      if (data.state === 'completed' || data.state === 'failed') break;
      if (elapsed - lastLog >= 10) {
        lastLog = elapsed;
        log(`drift: ${elapsed.toFixed(0)} s, ${data.state}`);
      }
      if (elapsed > 5 * DRIFT_TARGET_SECONDS) throw new Error(`the drift report did not end within ${5 * DRIFT_TARGET_SECONDS} s: ${JSON.stringify(data)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const calls = byOperation(s.calls.slice(from));
    log(`drift: ${data.state} in ${f1(seconds)} s: ${JSON.stringify(data.counts)}${data.error ? ` (${data.error})` : ''}`);
    const items = data.state === 'completed' ? await allItems(s, id) : [];
    const problems =
      data.state === 'completed' ? checkReport({ counts: data.counts, edits, items, products: count }) : [`the report ${data.state}: ${data.error}`];
    if (problems.length) log(`drift: the report is not right: ${problems.join('; ')}`);
    return {
      products: count,
      variants,
      loadSeconds,
      bucketSize: STANDARD.bucketSize,
      restoreRate: STANDARD.restoreRate,
      sync: { ...synced, mappingsWithWritten: withWritten.length },
      edits,
      editSeconds,
      seconds,
      states,
      state: data.state,
      error: data.error,
      counts: data.counts,
      reported: items.map((i) => ({ kind: i.kind, pimProductId: i.pim_product_id, fields: i.fields.map((f) => f.field) })),
      problems,
      calls,
    };
  } finally {
    await s.close();
  }
}

export async function benchDryRun(o: { pgBaseUrl: string; runs?: number; log?: (msg: string) => void }): Promise<DryRunBenchResult> {
  const log = o.log ?? (() => {});
  const runs = o.runs ?? 9;
  const renamed = 10;
  // No delta sync: the PIM renames must wait for the dry run, not be pushed by the poller.
  const s = await startBridgeStack({ kind: 'postgres', pgBaseUrl: o.pgBaseUrl, logLevel: 'warn', recordCalls: true, bridgeEnv: { SYNC_POLL_SECONDS: '0' } });
  try {
    await s.configureSandbox(NO_THROTTLE);
    log(`dry run: seeding ${DRY_RUN_PRODUCTS} products`);
    const products = await s.seedProducts(DRY_RUN_PRODUCTS, { prefix: 'D', variants: 2, images: 1, channels: ['web'] });
    const ids = products.map((p) => p.id);
    const perProduct: DryRunBenchResult['perProduct'] = [];
    const account = (what: string, calls: StorefrontCall[]) => perProduct.push({ what, ...costPerProduct(calls, DRY_RUN_PRODUCTS) });
    for (const [what, method] of [
      ['push, creates', 'create'],
      ['push, unchanged updates', 'update'],
    ] as const) {
      const from = s.calls.length;
      const res = await s.push(ids);
      const bad = ((res.body?.data?.results ?? []) as { status: string; method?: string }[]).filter((r) => r.status !== 'success' || r.method !== method);
      if (res.status !== 200 || bad.length) throw new Error(`push (${method}): ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
      account(what, s.calls.slice(from));
    }
    // Ten renamed in the PIM: what the dry run must list.
    const changed = new Map<number, string>();
    for (const p of products.slice(0, renamed)) {
      const name = `Renamed in the PIM ${p.sku}`;
      const r = await s.pim('PATCH', `/api/products/${p.id}`, { name });
      if (r.status !== 200) throw new Error(`PATCH /api/products/${p.id}: ${r.status} ${JSON.stringify(r.body)}`);
      changed.set(p.id, name);
    }
    const problems: string[] = [];
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const from = s.calls.length;
      const started = performance.now();
      const res = await s.connector('POST', '/api/products/push?dry_run=true', { products: ids.map((id) => ({ id })) });
      const ms = performance.now() - started;
      if (i === 0) account('dry run', s.calls.slice(from));
      else times.push(ms);
      const results = (res.body?.data?.results ?? []) as {
        status: string;
        method?: string;
        pim_product_id: number;
        changes?: { field: string; pim: unknown }[];
      }[];
      if (res.status !== 200 || results.length !== DRY_RUN_PRODUCTS) {
        problems.push(`run ${i}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        continue;
      }
      for (const r of results) {
        const want = changed.get(r.pim_product_id);
        const got = (r.changes ?? []).map((c) => `${c.field}=${JSON.stringify(c.pim)}`).join(', ');
        const expected = want ? `title=${JSON.stringify(want)}` : '';
        if (r.status !== 'success' || r.method !== 'update' || got !== expected)
          problems.push(`run ${i}, product ${r.pim_product_id}: ${r.status} ${r.method} [${got}], expected update [${expected}]`);
      }
      if (i > 0) log(`dry run ${i}: ${ms.toFixed(0)} ms`);
    }
    if (problems.length) log(`dry run: answers not as expected: ${problems.slice(0, 5).join('; ')}`);
    return {
      products: DRY_RUN_PRODUCTS,
      variantsPerProduct: 2,
      imagesPerProduct: 1,
      renamed,
      runs: times,
      median: median(times),
      min: Math.min(...times),
      max: Math.max(...times),
      problems,
      perProduct,
    };
  } finally {
    await s.close();
  }
}

export function driftTargets(r: DriftBenchResult) {
  const c = r.counts;
  return [
    {
      what: `drift report of ${n0(r.products)} mapped products under a Standard budget (${r.bucketSize} points, ${r.restoreRate}/s), ${r.edits.length} edited in the shop: POST /api/drift → completed`,
      target: `≤ ${DRIFT_TARGET_SECONDS / 60} min`,
      measured: `${f1(r.seconds)} s (${c ? `${n0(c.compared)} compared, ${c.changed} changed, ${c.missing_in_shop} missing in the shop, ${c.orphan_in_shop} orphans` : r.state}; ${r.problems.length ? `**report wrong**: ${r.problems.length} problems` : 'every edit reported, nothing else'})`,
      pass: r.state === 'completed' && r.seconds <= DRIFT_TARGET_SECONDS && r.problems.length === 0,
    },
  ];
}

export function dryRunTargets(r: DryRunBenchResult) {
  return [
    {
      what: `dry run of ${r.products} mapped products (${r.renamed} renamed in the PIM), sandbox without throttle: median of \`POST /api/products/push?dry_run=true\``,
      target: `≤ ${DRY_RUN_TARGET_MS} ms`,
      measured: `${r.median.toFixed(0)} ms (${r.runs.length} runs, ${r.min.toFixed(0)}–${r.max.toFixed(0)} ms)${r.problems.length ? `; **answers wrong**: ${r.problems.length}` : ''}`,
      pass: r.median <= DRY_RUN_TARGET_MS && r.problems.length === 0,
    },
  ];
}

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

export function driftDetails(r: DriftBenchResult): string[] {
  const states = Object.entries(r.states)
    .map(([k, v]) => `${k} ${f1(v)} s`)
    .join(', ');
  return [
    `Drift (\`bench/drift.ts\`): the Shopify sandbox and a bridge as two processes on scratch PostgreSQL databases, the recording proxy between them; the store's bucket ${r.bucketSize} points restoring ${r.restoreRate}/s (Shopify's Standard plan). ${n0(r.products)} products (${n0(r.variants)} variants) bulk-loaded with SQL into the PIM in ${f1(r.loadSeconds)} s (\`bench/load.ts\`), dated before the connection, then pushed by a real full sync (${r.sync.mode}, ${f1(r.sync.seconds)} s, not part of the figure): ${n0(r.sync.mappingsWithWritten)} mappings record what it wrote. Edited in the shop over the sandbox's Admin GraphQL in ${f1(r.editSeconds)} s: ${r.edits.map((e) => `${e.edit} of PIM product ${e.pimProductId}${e.field ? ` (\`${e.field}\`)` : ''}`).join(', ')}. Then a fresh full bucket, and the wall time from \`POST /api/drift\` to the GET (every 250 ms) answering \`completed\`: ${f1(r.seconds)} s; states first seen after ${states}. Storefront calls of the report: ${operationsText(r.calls) || 'none'}.`,
    '',
    `- Counts: \`${JSON.stringify(r.counts)}\`.`,
    `- Reported: ${r.reported.map((i) => `${i.kind} ${i.pimProductId}${i.fields.length ? ` [${i.fields.join(', ')}]` : ''}`).join('; ') || 'nothing'}.`,
    `- ${r.problems.length ? `**Not as expected:** ${r.problems.join('; ')}` : 'As expected: each edited product reported with exactly the field edited, the deleted one as missing in the shop, nothing else.'}`,
    '',
  ];
}

export function dryRunDetails(r: DryRunBenchResult): string[] {
  return [
    `Dry run (\`bench/drift.ts\`): the same two processes, the sandbox without throttle (bucket 10,000,000 points), the delta sync off (\`SYNC_POLL_SECONDS=0\`). ${r.products} products with ${r.variantsPerProduct} variants and ${r.imagesPerProduct} image each, published on the web channel, seeded through the PIM API and pushed (creates, then the same again unchanged), ${r.renamed} of them renamed in the PIM; then \`POST /api/products/push?dry_run=true\` with the ${r.products} ids, a warm-up and ${r.runs.length} measured runs, wall time of the HTTP request: ${r.runs.map((x) => x.toFixed(0)).join(', ')} ms (median ${r.median.toFixed(0)} ms). Every answer ${r.problems.length ? `**was not as expected**: ${r.problems.slice(0, 3).join('; ')}` : `listed the ${r.renamed} renames as \`title\` changes of an update and nothing else`}.`,
    '',
    row(['storefront calls', 'calls per product', 'points per product', 'calls (points)']),
    row(['---', '---', '---', '---']),
    ...r.perProduct.map((p) => row([p.what, f2(p.calls), f1(p.points), operationsText(p.byOperation)])),
    '',
  ];
}

/** Alone: `npx tsx bench/drift.ts [--smoke] [--products N] [--no-dry-run] [--no-drift]`; scratch databases on BENCH_PG_URL's server. */
runIfMain(import.meta.url, 'drift', async () => {
  const smoke = process.argv.includes('--smoke');
  const n = process.argv.indexOf('--products');
  const pgBaseUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const log = (msg: string) => process.stdout.write(`[drift] ${msg}\n`);
  const rows: string[] = [];
  const details: string[] = [];
  if (!process.argv.includes('--no-dry-run')) {
    const d = await benchDryRun({ pgBaseUrl, runs: smoke ? 3 : 9, log });
    rows.push(...dryRunTargets(d).map((t) => row([t.what, t.target, t.measured, t.pass ? 'pass' : '**FAIL**'])));
    details.push(...dryRunDetails(d));
  }
  if (!process.argv.includes('--no-drift')) {
    const r = await benchDrift({ pgBaseUrl, products: n > 0 ? Number(process.argv[n + 1]) : smoke ? 1_000 : DRIFT_PRODUCTS, log });
    rows.push(...driftTargets(r).map((t) => row([t.what, t.target, t.measured, t.pass ? 'pass' : '**FAIL**'])));
    details.push(...driftDetails(r));
  }
  process.stdout.write(`\n${rows.join('\n')}\n\n${details.join('\n')}\n`);
});
