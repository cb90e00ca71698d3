// The bridge's reliability over real processes: the Shopify sandbox runs as a process of its
// own and the bridge as another, each on its own database (test/helpers/bridge-processes.ts). A SIGKILL of the bridge
// in the middle of a 50-product push, then a restart and a second push: exactly 50 storefront products and 50 mappings.
// A storefront that commits but loses its answer: the retry updates, never duplicates. A storefront failing 30 % of
// calls and throttling hard: every product ends synced or with an honest error, never THROTTLED. Images are uploaded
// once. Storefront edits to fields we do not manage (vendor, a merchant's tag) survive a push.
// No timing assertions: the sandbox's latency only makes the push long enough to be killed mid-way.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseUrl } from '../src/config.js';
import { allMappings, gql, NO_FAULTS, startBridgeStack, type BridgeStack, type SeededProduct } from './helpers/bridge-processes.js';
import { mustHold, until } from './helpers/until.js';

const STEP = { timeout: 120_000 };
const THROTTLED = /throttl/i;

const targets: { kind: 'pglite' | 'postgres'; pgBaseUrl?: string }[] = [{ kind: 'pglite' }];
const pgUrl = testDatabaseUrl();
if (pgUrl) targets.push({ kind: 'postgres', pgBaseUrl: pgUrl });

interface StorefrontProduct {
  id: string;
  handle: string;
  vendor: string;
  tags: string[];
  media: { nodes: { id: string }[] };
  metafield: { value: string } | null;
}

const productsCount = async (s: BridgeStack) =>
  (await gql<{ productsCount: { count: number } }>(s, '{ productsCount { count precision } }')).productsCount.count;

/** Every storefront product, with its media and the PIM id metafield the bridge writes. */
async function storefrontProducts(s: BridgeStack): Promise<StorefrontProduct[]> {
  const out: StorefrontProduct[] = [];
  let after: string | null = null;
  for (;;) {
    const data: { products: { nodes: StorefrontProduct[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } = await gql(
      s,
      `query All($after: String) { products(first: 100, after: $after) {
        nodes { id handle vendor tags media(first: 20) { nodes { id } } metafield(namespace: "pimbridge", key: "pim_product_id") { value } }
        pageInfo { hasNextPage endCursor } } }`,
      { after },
    );
    out.push(...data.products.nodes);
    if (!data.products.pageInfo.hasNextPage) return out;
    after = data.products.pageInfo.endCursor;
  }
}

/** Storefront products by PIM id; fails on two storefront products for one PIM product (a duplicate). */
async function byPimId(s: BridgeStack): Promise<Map<number, StorefrontProduct>> {
  const map = new Map<number, StorefrontProduct>();
  for (const p of await storefrontProducts(s)) {
    assert.ok(p.metafield, `storefront product ${p.handle} carries its PIM id`);
    const id = Number(p.metafield.value);
    assert.ok(!map.has(id), `PIM product ${id} is on the storefront twice (${map.get(id)?.handle}, ${p.handle})`);
    map.set(id, p);
  }
  return map;
}

interface PushResult {
  status: 'success' | 'error';
  message: string;
  pim_product_id: number;
  storefront_product_id: number | null;
  storefront_handle?: string;
  method?: 'create' | 'update';
  validation_errors?: string[];
}

/** A push answered with the spec's shape: 200 success or 207 partial (no top-level code); returns the results. */
function pushResults(res: { status: number; body: any }, ids: number[]): PushResult[] {
  assert.ok(res.status === 200 || res.status === 207, `push answered ${res.status} ${JSON.stringify(res.body)}`);
  const { data } = res.body;
  assert.equal(res.body.status, res.status === 200 ? 'success' : 'partial');
  if (res.status === 207) assert.equal(res.body.code, undefined);
  assert.equal(data.total_products, ids.length);
  assert.equal(data.successful_count + data.failed_count, ids.length);
  const results = data.results as PushResult[];
  assert.deepEqual(
    results.map((r) => r.pim_product_id).sort((a, b) => a - b),
    [...ids].sort((a, b) => a - b),
  );
  assert.equal(results.filter((r) => r.status === 'success').length, data.successful_count);
  return results;
}

const numericId = (gid: string) => Number(gid.split('/').pop());

// The two databases run side by side (each its own processes and databases): most of the time is spent waiting on the
// sandbox's latency, faults and bucket, not on the CPU.
describe('bridge reliability over real processes', { concurrency: true }, () => {
  for (const target of targets) {
    describe(`bridge reliability over real processes (${target.kind})`, { concurrency: false }, () => {
      let s: BridgeStack;
      let crashBatch: SeededProduct[];
      let commitBatch: SeededProduct[];
      let faultBatch: SeededProduct[];
      let imageProduct: SeededProduct;

      before(async () => {
        // Push-only: with the delta sync on, the bridge would also sync the other seeded products by itself.
        s = await startBridgeStack({ kind: target.kind, pgBaseUrl: target.pgBaseUrl, recordCalls: true, bridgeEnv: { SYNC_POLL_SECONDS: '0' } });
        crashBatch = await s.seedProducts(50, { prefix: 'CRASH', variants: 2, images: 1 });
        commitBatch = await s.seedProducts(10, { prefix: 'COMMIT', variants: 2, images: 1 });
        faultBatch = await s.seedProducts(50, { prefix: 'FAULT', variants: 2, images: 1 });
        [imageProduct] = await s.seedProducts(1, { prefix: 'IMAGES', variants: 3, images: 3 });
      }, STEP);

      after(async () => {
        await s?.close();
      }, STEP);

      it('SIGKILL of the bridge mid-push, restart, push again: exactly 50 storefront products and 50 mappings', STEP, async () => {
        const ids = crashBatch.map((p) => p.id);
        // Latency on every sandbox call makes the push take seconds, so it can be killed with some products committed.
        await s.configureSandbox({ ...NO_FAULTS, latency_ms: 120 });
        const inFlight = s.push(ids).then(
          (res) => ({ res }),
          (err: Error) => ({ err }),
        );
        let committed = 0;
        await until(
          'three products on the storefront',
          async () => {
            if ((committed = await productsCount(s)) >= 3) return true;
            mustHold(() => assert.ok(s.bridge().running(), 'the bridge is still pushing'));
            return false;
          },
          STEP.timeout,
        );
        await s.killBridge();
        const outcome = await inFlight;
        assert.ok('err' in outcome, 'the killed push never answered');
        const afterKill = await productsCount(s);
        assert.ok(afterKill >= committed && afterKill < 50, `the kill came mid-push (${afterKill} of 50 on the storefront)`);

        await s.configureSandbox(NO_FAULTS);
        await s.startBridge();
        const results = pushResults(await s.push(ids), ids);
        assert.deepEqual(
          results.filter((r) => r.status !== 'success'),
          [],
        );
        assert.equal(await productsCount(s), 50);
        const onStore = await byPimId(s);
        assert.deepEqual(
          [...onStore.keys()].sort((a, b) => a - b),
          [...ids].sort((a, b) => a - b),
        );
        for (const r of results) assert.equal(r.storefront_product_id, numericId(onStore.get(r.pim_product_id)!.id));

        const rows = await allMappings(s);
        assert.equal(rows.length, 50);
        assert.deepEqual(
          rows.filter((m) => m.sync_status !== 'synced'),
          [],
        );
        for (const m of rows) assert.equal(m.storefront_product_id, numericId(onStore.get(m.pim_product_id)!.id));
      });

      it('a storefront that commits but loses its answer: the retry updates, it never duplicates', STEP, async (t) => {
        const ids = commitBatch.map((p) => p.id);
        const before = await productsCount(s);
        // Half the calls that ran answer 503 anyway (the storefront did the work; the answer was lost).
        await s.configureSandbox({ ...NO_FAULTS, fail_after_commit_rate: 0.5, fault_seed: 7 });
        const from = s.calls.length;
        const first = pushResults(await s.push(ids), ids);
        const lost = s.calls.slice(from).filter((c) => c.operation === 'ProductSetSync' && c.status === 503).length;
        assert.ok(lost > 0, 'some productSet was applied and its answer lost');
        t.diagnostic(
          `${lost} productSet answers lost after the commit; ${first.filter((r) => r.status === 'success').length} of ${ids.length} synced by the first push`,
        );
        for (const r of first.filter((x) => x.status === 'error')) {
          assert.ok(r.message.length > 0, 'an error says what went wrong');
          assert.equal(r.storefront_product_id, null);
        }
        await s.configureSandbox(NO_FAULTS);
        const onStoreAfterFirst = await byPimId(s);
        for (const r of first.filter((x) => x.status === 'success'))
          assert.ok(onStoreAfterFirst.has(r.pim_product_id), `product ${r.pim_product_id} reported synced is on the storefront`);

        const second = pushResults(await s.push(ids), ids);
        assert.deepEqual(
          second.filter((r) => r.status !== 'success'),
          [],
        );
        // Whatever the first push committed without knowing it, the second found and updated.
        for (const r of second) {
          const committedBefore = onStoreAfterFirst.get(r.pim_product_id);
          if (committedBefore) {
            assert.equal(r.method, 'update', `product ${r.pim_product_id} was already on the storefront`);
            assert.equal(r.storefront_product_id, numericId(committedBefore.id));
          }
        }
        assert.equal(await productsCount(s), before + ids.length);
        await byPimId(s);
      });

      it('30 % of calls failing (5xx, timeouts) and a tiny bucket: every product synced or honestly failed, never THROTTLED', STEP, async (t) => {
        const ids = faultBatch.map((p) => p.id);
        const before = await productsCount(s);
        await s.configureSandbox({ ...NO_FAULTS, error_rate: 0.25, timeout_rate: 0.05, fault_seed: 11, bucket_size: 100, restore_rate: 200 });
        const from = s.calls.length;
        const results = pushResults(await s.push(ids), ids);
        const calls = s.calls.slice(from);
        // The storefront really misbehaved: 5xx answers, and calls it held until the bridge gave up.
        assert.ok(
          calls.some((c) => c.status >= 500),
          'the sandbox answered 5xx',
        );
        assert.ok(
          calls.some((c) => c.status === 0),
          'the sandbox held calls until the bridge timed out',
        );
        for (const r of results) {
          assert.doesNotMatch(r.message, THROTTLED, `product ${r.pim_product_id}: ${r.message}`);
          if (r.status === 'success') {
            assert.equal(typeof r.storefront_product_id, 'number');
            continue;
          }
          assert.equal(r.storefront_product_id, null);
          assert.ok(r.message.length > 0);
          assert.ok(Array.isArray(r.validation_errors));
          for (const e of r.validation_errors!) assert.doesNotMatch(e, THROTTLED);
        }
        const synced = results.filter((r) => r.status === 'success');
        const levels = calls.flatMap((c) => (c.currentlyAvailable === null ? [] : [c.currentlyAvailable]));
        t.diagnostic(
          `${synced.length} of ${ids.length} synced; ${calls.length} calls: ${calls.filter((c) => c.status >= 500).length} 5xx, ` +
            `${calls.filter((c) => c.status === 0).length} timeouts, ${calls.filter((c) => c.throttled).length} THROTTLED; lowest bucket level ${Math.min(...levels)}`,
        );
        const rows = new Map((await allMappings(s)).map((m) => [m.pim_product_id, m]));
        for (const r of results) {
          const m = rows.get(r.pim_product_id);
          if (r.status === 'success') assert.equal(m?.sync_status, 'synced');
          else if (m) {
            assert.equal(m.sync_status, 'error');
            assert.ok(m.sync_error && !THROTTLED.test(m.sync_error), `sync_error of ${r.pim_product_id}: ${m.sync_error}`);
          }
        }

        await s.configureSandbox(NO_FAULTS);
        const onStore = await byPimId(s);
        for (const r of synced) assert.equal(numericId(onStore.get(r.pim_product_id)!.id), r.storefront_product_id);
        // The faults left no duplicate behind: once the storefront is healthy, one push brings every product, once.
        const again = pushResults(await s.push(ids), ids);
        assert.deepEqual(
          again.filter((r) => r.status !== 'success'),
          [],
        );
        assert.equal(await productsCount(s), before + ids.length);
        await byPimId(s);
      });

      it('pushing the same product twice uploads its images once', STEP, async () => {
        await s.configureSandbox(NO_FAULTS);
        const [first] = pushResults(await s.push([imageProduct.id]), [imageProduct.id]);
        assert.equal(first.status, 'success', first.message);
        assert.equal(first.method, 'create');
        const mediaAfterFirst = (await byPimId(s)).get(imageProduct.id)!.media.nodes.map((m) => m.id);
        assert.equal(mediaAfterFirst.length, 3);
        const [second] = pushResults(await s.push([imageProduct.id]), [imageProduct.id]);
        assert.equal(second.status, 'success', second.message);
        assert.equal(second.method, 'update');
        const mediaAfterSecond = (await byPimId(s)).get(imageProduct.id)!.media.nodes.map((m) => m.id);
        assert.deepEqual(mediaAfterSecond, mediaAfterFirst, 'the same media, none uploaded again');
        const mapping = await s.connector('GET', `/api/products/mapping/${imageProduct.id}`);
        assert.equal(mapping.status, 200, JSON.stringify(mapping.body));
        assert.equal(mapping.body.data.metadata.image_count, 3);
        assert.equal(mapping.body.data.metadata.last_push_method, 'update');
      });

      it('storefront edits to fields we do not manage survive a push (vendor, a merchant tag)', STEP, async () => {
        await s.configureSandbox(NO_FAULTS);
        const product = crashBatch[0];
        const before = (await byPimId(s)).get(product.id)!;
        // A merchant edits the product in the storefront's admin: a vendor (our products have no brand, so we never
        // send one) and a tag of their own. productSet leaves out the lists it is not sent (variants, files, metafields).
        const edit = await gql<{ productSet: { userErrors: unknown[] } }>(
          s,
          `mutation Edit($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
            productSet(identifier: $identifier, input: $input, synchronous: true) { product { id } userErrors { field message code } } }`,
          { identifier: { id: before.id }, input: { vendor: 'Merchant Supply Co', tags: [...before.tags, 'merchant-pick'] } },
        );
        assert.deepEqual(edit.productSet.userErrors, []);
        const pim = await s.pim('PATCH', `/api/products/${product.id}`, { name: 'Renamed in the PIM' });
        assert.equal(pim.status, 200, JSON.stringify(pim.body));
        const [r] = pushResults(await s.push([product.id]), [product.id]);
        assert.equal(r.status, 'success', r.message);
        assert.equal(r.method, 'update');
        const afterPush = (await byPimId(s)).get(product.id)!;
        assert.equal(afterPush.id, before.id);
        assert.equal(afterPush.vendor, 'Merchant Supply Co');
        assert.ok(afterPush.tags.includes('merchant-pick'), `tags after the push: ${afterPush.tags.join(', ')}`);
        assert.deepEqual(afterPush.media.nodes, before.media.nodes);
        const title = await gql<{ product: { title: string } }>(s, 'query One($id: ID!) { product(id: $id) { title } }', { id: before.id });
        assert.equal(title.product.title, 'Renamed in the PIM');
      });
    });
  }
});
