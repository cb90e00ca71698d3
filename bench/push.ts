// The push scenario: the Shopify sandbox in a process of its own and a Pimbridge bridge from src/
// (through tsx) in another, each on a scratch PostgreSQL database (test/helpers/bridge-processes.ts), with a recording
// proxy between them that keeps the sandbox's cost figures of every call. Products (2 variants, 1 image each) are
// seeded through the PIM API and pushed by id with POST /api/products/push, 50 at a time.
// (a) No throttle (the store's bucket set huge): the wall time of a 50-product push, new products (creates) and the
//     same products again (updates), over several rounds of 50 distinct products after a warm-up round.
// (b) Sustained throughput under an emulated Standard budget (bucket 2000, restore 100/s): pushes of 50 back to back
//     until the bucket has been drained and then for a measured window; products committed per second in the window,
//     against the budget's theoretical product rate, restore rate ÷ the actual cost of one productSet (the sandbox's
//     own figure, read from the answers).
// run.ts runs it with the others; `npx tsx bench/push.ts [--smoke]` runs it alone (--smoke: 2 rounds, a 10 s window).
import { startBridgeStack, type BridgeStack, type SeededProduct, type StorefrontCall } from '../test/helpers/bridge-processes.js';
import { runIfMain } from './scratch.js';
import { costPerProduct, operationsText, type CallCost } from './storefront-calls.js';

export const PUSH_BATCH = 50;
export const PUSH_TARGET_MS = 500;
export const SUSTAINED_TARGET = 0.9;
const STANDARD = { bucketSize: 2000, restoreRate: 100 };

export interface PushLatency {
  pushes: number;
  /** ms per push of 50, each run */
  runs: number[];
  p50: number;
  p95: number;
  max: number;
}

export interface PushBenchResult {
  /** What the products carry beyond variants and images (PushBenchOptions.everyField). */
  fields: string;
  batch: number;
  variantsPerProduct: number;
  imagesPerProduct: number;
  seedSeconds: number;
  creates: PushLatency;
  updates: PushLatency;
  /** Calls per product and the productSet's costs seen in (a). */
  callsPerProduct: number;
  /**
   * Calls and points per product in (a): the measured rounds' creates and unchanged updates, and the first (warm-up)
   * push of new products, which also pays the shop's one-time work.
   */
  perProduct: { create: CallCost; update: CallCost; firstPush: CallCost };
  sustained: {
    bucketSize: number;
    restoreRate: number;
    /** Products pushed in all, and seconds from the first push to the end of the last. */
    products: number;
    totalSeconds: number;
    /** Seconds until the bucket first fell below one productSet's requested cost (the initial 2000 points spent). */
    drainSeconds: number;
    /** The measured window: from the drain to the end of the last push. */
    windowSeconds: number;
    windowProducts: number;
    productsPerSecond: number;
    /** Mean actual and requested cost of one productSet in the window (the sandbox's figures). */
    productSetActualCost: number;
    productSetRequestedCost: number;
    /** Points of every call (productSet and anything else) per product committed in the window. */
    pointsPerProduct: number;
    /** The bucket's level when the window opened and at its end; the products their difference paid for are not counted. */
    levelAtStart: number;
    levelAtEnd: number;
    creditProducts: number;
    /** restoreRate ÷ productSetActualCost */
    theoreticalRate: number;
    ratio: number;
    throttledAnswers: number;
    failedProducts: number;
  };
}

export interface PushBenchOptions {
  /** PostgreSQL server URL (any database): the sandbox and the bridge get scratch databases of their own there. */
  pgBaseUrl: string;
  rounds?: number;
  /** Length of the measured steady-state window of (b). */
  windowSeconds?: number;
  /**
   * Products with the category and translation fields: one of 5 PIM categories each (its shop collection, made by the first push
   * of one of its products) and a German translation (name, description) the shop has enabled, registered after the
   * productSet. Off: variants and images only, as before categories and translations were pushed.
   */
  everyField?: boolean;
  log?: (msg: string) => void;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function latency(runs: number[]): PushLatency {
  const sorted = [...runs].sort((a, b) => a - b);
  return { pushes: runs.length, runs, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] };
}

/** One push of these products; throws unless every product succeeded with the expected method. */
async function timedPush(s: BridgeStack, products: SeededProduct[], method: 'create' | 'update'): Promise<number> {
  const started = performance.now();
  const res = await s.push(products.map((p) => p.id));
  const ms = performance.now() - started;
  const results = (res.body?.data?.results ?? []) as { status: string; method?: string; message: string }[];
  const bad = results.filter((r) => r.status !== 'success' || r.method !== method);
  if (res.status !== 200 || results.length !== products.length || bad.length > 0) {
    throw new Error(`push of ${products.length} (${method}): ${res.status} ${JSON.stringify(bad.slice(0, 3)) || JSON.stringify(res.body).slice(0, 500)}`);
  }
  return ms;
}

export async function benchPush(o: PushBenchOptions): Promise<PushBenchResult> {
  const log = o.log ?? (() => {});
  const rounds = o.rounds ?? 5;
  const windowSeconds = o.windowSeconds ?? 30;
  const variants = 2;
  const images = 1;
  const s = await startBridgeStack({ kind: 'postgres', pgBaseUrl: o.pgBaseUrl, recordCalls: true, logLevel: 'warn' });
  try {
    const extra = o.everyField ? await everyFieldOf(s) : {};
    // (a) No throttle.
    await s.configureSandbox({ bucket_size: 10_000_000, restore_rate: 10_000_000, error_rate: 0, timeout_rate: 0, fail_after_commit_rate: 0, latency_ms: 0 });
    log(`push: seeding ${(rounds + 1) * PUSH_BATCH} products`);
    let seedStarted = performance.now();
    const batches: SeededProduct[][] = [];
    for (let i = 0; i <= rounds; i++) batches.push(await s.seedProducts(PUSH_BATCH, { prefix: `A${i}`, variants, images, channels: ['web'], ...extra }));
    let seedMs = performance.now() - seedStarted;
    const creates: number[] = [];
    const updates: number[] = [];
    const callsBefore = s.calls.length;
    const createCalls: StorefrontCall[] = [];
    const updateCalls: StorefrontCall[] = [];
    let warmUpCalls: StorefrontCall[] = [];
    for (const [i, batch] of batches.entries()) {
      const at = s.calls.length;
      const c = await timedPush(s, batch, 'create');
      const mid = s.calls.length;
      const u = await timedPush(s, batch, 'update');
      // warm-up: the sandbox loads graphql-js and the schema on its first call, the bridge warms its JIT; and the
      // shop's one-time work is done (its publications and locations read, definitions and collections made)
      if (i === 0) {
        warmUpCalls = s.calls.slice(at, mid);
        continue;
      }
      createCalls.push(...s.calls.slice(at, mid));
      updateCalls.push(...s.calls.slice(mid));
      creates.push(c);
      updates.push(u);
      log(`push: round ${i}: create ${c.toFixed(0)} ms, update ${u.toFixed(0)} ms`);
    }
    const callsPerProduct = (s.calls.length - callsBefore) / (batches.length * 2 * PUSH_BATCH);
    const pointsPerCall = mean(s.calls.slice(callsBefore).map((c) => c.actualCost ?? 0)) * callsPerProduct;
    log(`push: calls in (a): ${summary(s.calls.slice(callsBefore))}`);
    const measuredProducts = creates.length * PUSH_BATCH;
    const perProduct = {
      create: costPerProduct(createCalls, measuredProducts),
      update: costPerProduct(updateCalls, measuredProducts),
      firstPush: costPerProduct(warmUpCalls, PUSH_BATCH),
    };

    // (b) Sustained under the Standard budget: enough products to drain the full bucket, then fill the window.
    const estimate = Math.max(1, pointsPerCall);
    const needed = Math.ceil((STANDARD.bucketSize + windowSeconds * STANDARD.restoreRate * 1.1) / estimate / PUSH_BATCH + 1) * PUSH_BATCH;
    log(`push: ~${estimate.toFixed(1)} points per product; seeding ${needed} products for the sustained run`);
    seedStarted = performance.now();
    const sustainedBatches: SeededProduct[][] = [];
    for (let i = 0; i < needed / PUSH_BATCH; i++)
      sustainedBatches.push(await s.seedProducts(PUSH_BATCH, { prefix: `B${i}`, variants, images, channels: ['web'], ...extra }));
    seedMs += performance.now() - seedStarted;

    await s.configureSandbox({ bucket_size: STANDARD.bucketSize, restore_rate: STANDARD.restoreRate });
    const from = s.calls.length;
    const started = performance.now();
    let pushed = 0;
    let failed = 0;
    let drainedAt: number | null = null;
    for (const batch of sustainedBatches) {
      const res = await s.push(batch.map((p) => p.id));
      const results = (res.body?.data?.results ?? []) as { status: string }[];
      pushed += batch.length;
      failed += results.filter((r) => r.status !== 'success').length + (batch.length - results.length);
      drainedAt ??= firstDrain(s.calls.slice(from), STANDARD.bucketSize * DRAINED);
      if (drainedAt !== null && performance.now() - drainedAt >= windowSeconds * 1000) break;
      log(
        `push: sustained: ${pushed} products, ${((performance.now() - started) / 1000).toFixed(1)} s${drainedAt === null ? '' : `, ${((performance.now() - drainedAt) / 1000).toFixed(1)} s since the bucket ran dry`}`,
      );
    }
    const ended = performance.now();
    log(`push: calls in (b): ${summary(s.calls.slice(from))}`);
    if (drainedAt === null) throw new Error('the sustained run never drained the bucket: seed more products');
    const run = s.calls.slice(from);
    // Calls sent once the window is open: one in flight at its opening was charged before the level it starts from.
    const window = run.filter((c) => c.sent > drainedAt!);
    const windowSets = window.filter((c) => c.productSetOk);
    const windowSec = (ended - drainedAt) / 1000;
    const productSetActualCost = mean(windowSets.map((c) => c.actualCost ?? 0));
    const pointsPerProduct = windowSets.length ? window.reduce((a, c) => a + (c.actualCost ?? 0), 0) / windowSets.length : 0;
    // What was left of the initial points when the window opened, less what is left at its end, is not the restore
    // rate's doing: the products it paid for are taken out.
    const levelAtStart = run.filter((c) => c.at <= drainedAt! && c.currentlyAvailable !== null).at(-1)?.currentlyAvailable ?? 0;
    const levelAtEnd = run.filter((c) => c.currentlyAvailable !== null).at(-1)?.currentlyAvailable ?? 0;
    const creditProducts = pointsPerProduct > 0 ? (levelAtStart - levelAtEnd) / pointsPerProduct : 0;
    const productsPerSecond = (windowSets.length - creditProducts) / windowSec;
    // Every call a product needs counts (productSet, publishing, stock): the budget's product rate is the restore rate
    // divided by what one product costs in all.
    const theoreticalRate = STANDARD.restoreRate / pointsPerProduct;
    return {
      fields: o.everyField ? 'a category (its collection) and a German translation each' : 'variants and images only',
      batch: PUSH_BATCH,
      variantsPerProduct: variants,
      imagesPerProduct: images,
      seedSeconds: seedMs / 1000,
      creates: latency(creates),
      updates: latency(updates),
      callsPerProduct,
      perProduct,
      sustained: {
        ...STANDARD,
        products: pushed,
        totalSeconds: (ended - started) / 1000,
        drainSeconds: (drainedAt - started) / 1000,
        windowSeconds: windowSec,
        windowProducts: windowSets.length,
        productsPerSecond,
        productSetActualCost,
        productSetRequestedCost: mean(windowSets.map((c) => c.requestedCost ?? 0)),
        pointsPerProduct,
        levelAtStart,
        levelAtEnd,
        creditProducts,
        theoreticalRate,
        ratio: productsPerSecond / theoreticalRate,
        throttledAnswers: run.filter((c) => c.throttled).length,
        failedProducts: failed,
      },
    };
  } finally {
    await s.close();
  }
}

/** Five PIM categories and German enabled in the shop: what seedProducts needs for products with every field. */
async function everyFieldOf(s: BridgeStack): Promise<{ categoryIds: number[]; locales: string[] }> {
  const categoryIds: number[] = [];
  for (const name of ['Jackets', 'Shirts', 'Trousers', 'Shoes', 'Hats']) {
    const res = await s.pim('POST', '/api/categories', { name });
    if (res.status !== 201) throw new Error(`category ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    categoryIds.push(res.body.data.id);
  }
  const de = await s.graphql('mutation { shopLocaleEnable(locale: "de") { userErrors { message } } }');
  if (de.shopLocaleEnable.userErrors.length > 0) throw new Error(`shopLocaleEnable: ${JSON.stringify(de.shopLocaleEnable.userErrors)}`);
  return { categoryIds, locales: ['de'] };
}

/** The bucket counts as drained once its level is at most this share of its size. */
const DRAINED = 0.1;

/**
 * When the bucket's level first fell to `level`: the initial points are spent from then on (the bridge waits for a
 * call's requested cost before sending it, so the level it leaves hovers about the largest requested cost, not at 0).
 */
function firstDrain(calls: StorefrontCall[], level: number): number | null {
  const hit = calls.find((c) => c.currentlyAvailable !== null && c.currentlyAvailable <= level);
  return hit ? hit.at : null;
}

/** Calls by operation: count, mean requested and actual cost, lowest bucket level seen, THROTTLED answers. */
function summary(calls: StorefrontCall[]): string {
  const by = new Map<string, StorefrontCall[]>();
  for (const c of calls) by.set(c.operation, [...(by.get(c.operation) ?? []), c]);
  return [...by]
    .map(([op, cs]) => {
      const levels = cs.flatMap((c) => (c.currentlyAvailable === null ? [] : [c.currentlyAvailable]));
      return `${op} ×${cs.length} (requested ${mean(cs.map((c) => c.requestedCost ?? 0)).toFixed(1)}, actual ${mean(cs.map((c) => c.actualCost ?? 0)).toFixed(1)}, lowest level ${levels.length ? Math.min(...levels).toFixed(0) : '-'}, throttled ${cs.filter((c) => c.throttled).length}, non-200 ${cs.filter((c) => c.status !== 200).length})`;
    })
    .join('; ');
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

/** The rows for the targets table of RESULTS.md. */
export function pushTargets(r: PushBenchResult) {
  const worst = Math.max(r.creates.p50, r.updates.p50);
  const t = r.sustained;
  return [
    {
      what: `push of ${r.batch} products to the sandbox (${r.fields}), no throttle: p50 of \`POST /api/products/push\``,
      target: `≤ ${PUSH_TARGET_MS} ms`,
      measured: `creates ${ms(r.creates.p50)} (p95 ${ms(r.creates.p95)}), updates ${ms(r.updates.p50)} (p95 ${ms(r.updates.p95)})`,
      pass: worst <= PUSH_TARGET_MS,
    },
    {
      what: `sustained push (${r.fields}) under a Standard budget (${t.bucketSize} points, ${t.restoreRate}/s) vs its theoretical product rate`,
      target: `≥ ${SUSTAINED_TARGET * 100} %`,
      measured: `${(t.ratio * 100).toFixed(0)} % (${f2(t.productsPerSecond)} products/s; theoretical ${t.restoreRate} ÷ ${f1(t.pointsPerProduct)} points per product, all calls = ${f2(t.theoreticalRate)}/s)${t.failedProducts ? `, ${t.failedProducts} failed` : ''}`,
      pass: t.ratio >= SUSTAINED_TARGET && t.failedProducts === 0,
    },
  ];
}

/** The paragraph and table for the details of RESULTS.md. */
export function pushDetails(r: PushBenchResult): string[] {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const t = r.sustained;
  return [
    `Push (\`bench/push.ts\`): the Shopify sandbox (\`pimbridge sandbox\`) and a bridge (\`pimbridge serve\` from src/ through tsx) as two processes on scratch PostgreSQL databases of their own, a recording proxy in the benchmark process between them (node:http with keep-alive; it reads the sandbox's \`extensions.cost\` of every call and adds one local hop to each). Products with ${r.variantsPerProduct} variants and ${r.imagesPerProduct} image each (${r.fields}), seeded through the PIM API in ${r.seedSeconds.toFixed(1)} s, pushed by id (\`{products: [{id}, …]}\`: the bridge reads the batch from its PIM over HTTP, one \`GET /api/products?ids=…\`), ${r.batch} per push. ${f2(r.callsPerProduct)} storefront calls per product.`,
    '',
    row(['storefront calls', 'calls per product', 'points per product', 'calls (points)']),
    row(['---', '---', '---', '---']),
    ...(
      [
        ['first push of 50 new products (one-time work of the shop included)', r.perProduct.firstPush],
        ['creates', r.perProduct.create],
        ['unchanged updates', r.perProduct.update],
      ] as const
    ).map(([what, c]) => row([what, f2(c.calls), f1(c.points), operationsText(c.byOperation)])),
    '',
    `No throttle (the store's bucket set to 10,000,000 points): ${r.creates.pushes} rounds after a warm-up round, each a push of ${r.batch} new products (creates), then the same ${r.batch} again (updates); wall time of the HTTP request.`,
    '',
    row(['push of 50', 'pushes', 'each (ms)', 'p50', 'p95', 'max']),
    row(['---', '---', '---', '---', '---', '---']),
    row(['creates', r.creates.pushes, r.creates.runs.map((x) => x.toFixed(0)).join(', '), ms(r.creates.p50), ms(r.creates.p95), ms(r.creates.max)]),
    row(['updates', r.updates.pushes, r.updates.runs.map((x) => x.toFixed(0)).join(', '), ms(r.updates.p50), ms(r.updates.p95), ms(r.updates.max)]),
    '',
    `Sustained (bucket ${t.bucketSize} points, restore ${t.restoreRate}/s, as Shopify's Standard plan): pushes of ${r.batch} new products back to back, ${t.products} products in ${f1(t.totalSeconds)} s. The bucket starts full, and its 2,000 points would flatter the rate, so the measurement starts when the bucket first ran dry (its level fell to ${DRAINED * 100} % of its size or below) after ${f1(t.drainSeconds)} s, and runs ${f1(t.windowSeconds)} s to the end of the last push, the gaps between pushes included (products whose productSet was sent in the window; one already in flight when it opened was charged before); the level was ${t.levelAtStart.toFixed(0)} points when the window opened and ${t.levelAtEnd.toFixed(0)} at its end, so the ${f1(t.creditProducts)} products that difference paid for are not counted (the bridge waits for a call's requested cost, ${f1(t.productSetRequestedCost)} points for a productSet, before sending it, so the level hovers above 0). Theoretical rate: the restore rate divided by what one product costs in all the calls it needs (the sandbox's \`actualQueryCost\`: ${f1(t.pointsPerProduct)} points per product in the window, of which the productSet ${f1(t.productSetActualCost)}), i.e. what the budget allows if every point went into products. ${t.throttledAnswers} THROTTLED answers in the run (the bridge waits before a call instead; a THROTTLED answer is retried, never reported).`,
    '',
    row(['window', 'products committed', 'less the initial credit', 'products/s', 'theoretical products/s', 'ratio', 'failed products']),
    row(['---', '---', '---', '---', '---', '---', '---']),
    row([
      `${f1(t.windowSeconds)} s`,
      t.windowProducts,
      f1(t.windowProducts - t.creditProducts),
      f2(t.productsPerSecond),
      f2(t.theoreticalRate),
      `${(t.ratio * 100).toFixed(0)} %`,
      t.failedProducts,
    ]),
    '',
  ];
}

/** Alone (`npx tsx bench/push.ts [--smoke]`): scratch databases on BENCH_PG_URL's server. */
// `--every-field`: products with a category and a translation too; `--both`: the plain products, then those, in one run.
runIfMain(import.meta.url, 'push', async () => {
  const smoke = process.argv.includes('--smoke');
  const modes = process.argv.includes('--both') ? [false, true] : [process.argv.includes('--every-field')];
  for (const everyField of modes) {
    const r = await benchPush({
      pgBaseUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      rounds: smoke ? 2 : 5,
      windowSeconds: smoke ? 10 : 30,
      everyField,
      log: (msg) => process.stdout.write(`[push] ${msg}\n`),
    });
    const rows = pushTargets(r).map((t) => `| ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'pass' : '**FAIL**'} |`);
    process.stdout.write(`\n${rows.join('\n')}\n\n${pushDetails(r).join('\n')}\n`);
  }
});
