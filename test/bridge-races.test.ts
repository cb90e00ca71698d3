// The bridge's last races, each raced on real processes: the Shopify sandbox and the bridge as
// processes of their own, each on its own database (test/helpers/bridge-processes.ts), with proxies between the bridge
// and the shop and between the connector and its PIM that hold a call, or its answer, until the other side has moved.
// (a) A bulk full sync's line applied over a newer inline push, whose mapping write comes after the batch's: the store
// ends on the newer version. (c) An adopted shop product with more variants than its PIM product: the first push keeps
// the merchant's variants and says so; one that cannot be kept refuses the push instead of deleting it. (b) An adoption
// with import_unmatched while the delta poller runs every second: nothing is pushed before the links are written, and
// the imported products are then synced to the shop products they came from, never created a second time. One process
// set for the three (the bridge restarted once, with the poller on, for the last).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseUrl } from '../src/config.js';
import { gql, startBridgeStack, type BridgeStack, type ProxiedCall } from './helpers/bridge-processes.js';
import { until } from './helpers/until.js';

const STEP = { timeout: 120_000 };
/** Holds stay under the bridge's call timeouts (5 s to the shop and to the PIM), so the held call is not retried. */
const HOLD_MS = 3_500;

const targets: { kind: 'pglite' | 'postgres'; pgBaseUrl?: string }[] = [{ kind: 'pglite' }];
const pgUrl = testDatabaseUrl();
if (pgUrl) targets.push({ kind: 'postgres', pgBaseUrl: pgUrl });

type Json = any;

const PRODUCT_SET = /* GraphQL */ `
  mutation MerchantProduct($input: ProductSetInput!) {
    productSet(input: $input, synchronous: true) { product { id handle variants(first: 10) { nodes { id sku } } } userErrors { field message code } }
  }
`;
const PRODUCT = /* GraphQL */ `
  query Product($id: ID!) { product(id: $id) { id title variants(first: 10) { nodes { id sku selectedOptions { name value } } } } }
`;
const HANDLES = /* GraphQL */ `
  query Handles { products(first: 100) { nodes { id handle } } }
`;

/** A gate: `reached` once something got there, held until `open()`. */
function gate() {
  let open!: () => void;
  let reach!: () => void;
  const held = new Promise<void>((r) => (open = r));
  const reached = new Promise<void>((r) => (reach = r));
  let hit = false;
  return {
    held,
    reached,
    open,
    taken: () => hit,
    /** The first call that gets here is held (the others pass). */
    take(): Promise<void> | null {
      if (hit) return null;
      hit = true;
      reach();
      return held;
    },
  };
}

/** True when `p` resolves within `ms`, false when it fails or `ms` passes first (a race's window: the other side's time to move). */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A merchant's product made in the shop directly: variants as [sku, option value] of one option, Size. */
async function merchantProduct(
  s: BridgeStack,
  handle: string,
  title: string,
  variants: [string, string][],
): Promise<{ id: string; variants: { id: string; sku: string }[] }> {
  const data = await gql<Json>(s, PRODUCT_SET, {
    input: {
      title,
      handle,
      status: 'ACTIVE',
      productOptions: [{ name: 'Size', values: variants.map(([, value]) => ({ name: value })) }],
      variants: variants.map(([sku, value]) => ({ sku, price: '20.00', optionValues: [{ optionName: 'Size', name: value }] })),
    },
  });
  assert.deepEqual(data.productSet.userErrors, []);
  return { id: data.productSet.product.id, variants: data.productSet.product.variants.nodes };
}

async function mapping(s: BridgeStack, pimId: number): Promise<Json> {
  const res = await s.connector('GET', `/api/products/mapping/${pimId}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

async function adopt(s: BridgeStack, body: Json): Promise<Json> {
  const res = await s.connector('POST', '/api/adopt', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

async function adopted(s: BridgeStack, id: string): Promise<Json> {
  return until(
    `adoption ${id}`,
    async () => {
      const res = await s.connector('GET', `/api/adopt/${id}`);
      return res.body?.data?.state === 'completed' || res.body?.data?.state === 'failed' ? res.body.data : null;
    },
    60_000,
    100,
  );
}

describe('bridge races over real processes', { concurrency: true }, () => {
  for (const target of targets) {
    describe(`bridge races over real processes (${target.kind})`, { concurrency: false }, () => {
      let s: BridgeStack;

      before(async () => {
        s = await startBridgeStack({
          kind: target.kind,
          pgBaseUrl: target.pgBaseUrl,
          recordCalls: true,
          pimProxy: true,
          bridgeEnv: {
            // A full sync of two products or more runs as bulk mutations.
            SYNC_BULK_THRESHOLD: '2',
            SYNC_RETRY_DELAY_SECONDS: '1',
            // Delta polls only at the start (the slot is a day) until the last case turns them on.
            SYNC_POLL_SECONDS: '86400',
            // Nor at once on a PIM change (the wake): what runs here is what the test starts.
            SYNC_ON_PIM_CHANGE: 'false',
          },
        });
      }, STEP);
      after(async () => s?.close(), STEP);
      const release = () => {
        s.shopHolds.request = s.shopHolds.answer = null;
        s.pimHolds.request = s.pimHolds.answer = null;
      };

      it('(a) a bulk line applied over a newer inline push, the push writing its mapping last: the store ends on the newer version', STEP, async (t) => {
        const products = await s.seedProducts(3, { prefix: 'RACE', variants: 0, images: 0 });
        const ids = products.map((p) => p.id);
        const first = await s.push(ids);
        assert.equal(first.body.data?.successful_count, 3, JSON.stringify(first.body));
        const pushedFirst = first.body.data.results[0];
        const newer = 'RACE 1, newer';

        // The bulk batch has read the PIM (the older name) and built its file: its start is held at the shop.
        const bulk = gate();
        const applied = gate();
        const stocked = gate();
        // The inline push's productSet is applied in the shop; its answer is held, then its stock call (the quantity
        // changed too): the push holds the product's lease, its mapping write to come, for up to twice HOLD_MS.
        s.shopHolds.request = (call: ProxiedCall) => {
          if (call.operation === 'BulkOperationRunMutation' && call.body.includes('ProductSetBulk')) return bulk.take();
          return applied.taken() && call.operation.startsWith('Inventory') ? stocked.take() : null;
        };
        s.shopHolds.answer = (call) => (call.operation === 'ProductSetSync' && call.body.includes(newer) ? applied.take() : null);
        try {
          const started = await s.connector('POST', '/api/sync/full');
          assert.equal(started.status, 200, JSON.stringify(started.body));
          assert.ok(await within(bulk.reached, 30_000), 'the bulk operation was about to start');
          const renamed = await s.pim('PATCH', `/api/products/${ids[0]}`, { name: newer, stock: 7 });
          assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
          const pushing = s.push([ids[0]]);
          assert.ok(await within(applied.reached, HOLD_MS), 'the newer version reached the shop first');
          // The bulk operation runs now (its line of the first product writes the older name over the newer) and the
          // batch finishes while the push still holds the product's lease.
          bulk.open();
          const completed = until(
            'the full sync',
            async () => (await s.connector('GET', `/api/sync/full/${started.body.data.id}`)).body.data?.status === 'completed',
            2 * HOLD_MS,
            50,
          );
          const atAnswer = await within(completed, HOLD_MS);
          applied.open();
          const finished = atAnswer || (await within(completed, HOLD_MS));
          stocked.open();
          const pushed = await pushing;
          assert.equal(pushed.body.data?.results?.[0]?.status, 'success', JSON.stringify(pushed.body));
          t.diagnostic(`the batch finished while the push held its lease: ${finished} (${atAnswer ? 'at its productSet answer' : 'at its stock call'})`);
          assert.ok(finished, 'the race happened: the batch finished before the push wrote its mapping');
        } finally {
          bulk.open();
          applied.open();
          stocked.open();
          release();
        }

        const shopId = `gid://shopify/Product/${pushedFirst.storefront_product_id}`;
        await until('the store on the newer version', async () => (await gql<Json>(s, PRODUCT, { id: shopId })).product.title === newer, 30_000, 100);
        const m = await until('the mapping synced', async () => {
          const now = await mapping(s, ids[0]);
          return now.sync_status === 'synced' ? now : null;
        });
        assert.equal(m.storefront_product_id, pushedFirst.storefront_product_id);
        const handles = (await gql<Json>(s, HANDLES)).products.nodes.map((p: Json) => p.handle).sort();
        assert.deepEqual(handles, products.map((p) => p.slug).sort(), 'each product once in the shop');
      });

      it(
        '(c) an adopted product with more variants than its PIM product: the push keeps them and says so; one it cannot keep refuses the push',
        STEP,
        async () => {
          const tee = await merchantProduct(s, 'race-tee', 'Race Tee', [
            ['RT-S', 'S'],
            ['RT-M', 'M'],
            ['RT-L', 'L'],
          ]);
          const cap = await merchantProduct(s, 'race-cap', 'Race Cap', [
            ['RC-S', 'S'],
            ['RC-L', 'L'],
          ]);
          const teePim = (await s.pim('POST', '/api/products', { name: 'Race Tee', sku: 'RT', price: '20.00', status: 'active' })).body.data.id as number;
          for (const [sku, size] of [
            ['RT-S', 'S'],
            ['RT-M', 'M'],
          ]) {
            const v = await s.pim('POST', `/api/products/${teePim}/variants`, {
              sku,
              name: `Size ${size}`,
              price: '21.00',
              stock_quantity: 3,
              attributes: [{ attribute_name: 'Size', value: size }],
            });
            assert.equal(v.status, 201, JSON.stringify(v.body));
          }
          // The cap has no variants in the PIM: the shop's other size cannot sit beside its one default variant.
          const capPim = (await s.pim('POST', '/api/products', { name: 'Race Cap', sku: 'RC-S', price: '12.00', status: 'active' })).body.data.id as number;

          const done = await adopted(s, (await adopt(s, {})).id);
          assert.equal(done.state, 'completed', JSON.stringify(done));
          assert.equal(done.counts.matched, 2, JSON.stringify(done.counts));

          const pushed = await s.push([teePim, capPim]);
          const [teeResult, capResult] = pushed.body.data.results;
          assert.equal(teeResult.status, 'success', JSON.stringify(teeResult));
          assert.equal(teeResult.storefront_product_id, Number(tee.id.split('/').pop()));
          const variantsOf = async (id: string) =>
            (await gql<Json>(s, PRODUCT, { id })).product.variants.nodes.map((v: Json) => [v.id, v.sku, v.selectedOptions.map((o: Json) => o.value).join('/')]);
          assert.deepEqual(
            await variantsOf(tee.id),
            tee.variants.map((v, i) => [v.id, v.sku, ['S', 'M', 'L'][i]]),
            "the shop's third variant is still there, the same variant",
          );
          assert.match(teeResult.message, /'RT-L' \(Size: L\).*kept/, 'the answer says which shop variant was kept');
          const warnings = (await mapping(s, teePim)).metadata.warnings as string[];
          assert.ok(
            warnings?.some((w) => w.includes("'RT-L' (Size: L)")),
            `the mapping names the kept variant: ${JSON.stringify(warnings)}`,
          );

          assert.equal(capResult.status, 'error', JSON.stringify(capResult));
          assert.match(capResult.message, /'RC-L' \(Size: L\).*would delete/);
          assert.deepEqual(
            await variantsOf(cap.id),
            cap.variants.map((v, i) => [v.id, v.sku, ['S', 'L'][i]]),
            'nothing of the cap was changed',
          );

          // Once the PIM has the variant (same SKU), it is the PIM's: the same shop variant, no warning left.
          const added = await s.pim('POST', `/api/products/${teePim}/variants`, {
            sku: 'RT-L',
            name: 'Size L',
            price: '23.00',
            stock_quantity: 1,
            attributes: [{ attribute_name: 'Size', value: 'L' }],
          });
          assert.equal(added.status, 201, JSON.stringify(added.body));
          const again = await s.push([teePim]);
          assert.equal(again.body.data.results[0].status, 'success', JSON.stringify(again.body));
          const after = await gql<Json>(s, PRODUCT, { id: tee.id });
          assert.deepEqual(
            after.product.variants.nodes.map((v: Json) => v.id),
            tee.variants.map((v) => v.id),
          );
          assert.equal((await mapping(s, teePim)).metadata.warnings, undefined);
        },
      );

      it('(b) an adoption with import_unmatched and the delta poller: nothing pushed before the links are written, then synced once', STEP, async (t) => {
        // The poller on, every second.
        await s.killBridge();
        await s.startBridge({ SYNC_POLL_SECONDS: '1' });
        const made = [
          await merchantProduct(s, 'import-me-a', 'Import Me A', [['IMP-A', 'S']]),
          await merchantProduct(s, 'import-me-b', 'Import Me B', [
            ['IMP-B-S', 'S'],
            ['IMP-B-M', 'M'],
          ]),
        ];
        const shopBefore = (await gql<Json>(s, HANDLES)).products.nodes.length;
        // Every productSet of the shop's products made PIM products by the import is counted.
        let pushedImported = 0;
        s.shopHolds.request = (call) => {
          if (call.operation === 'ProductSetSync' && call.body.includes('IMP-')) pushedImported++;
          return null;
        };

        // The adoption's read of the products its import made is held: the import is done, the links not written yet.
        const links = gate();
        // (A page after the PIM's last id before the import; a push's reads go by id.)
        s.pimHolds.request = (call) => (/^\/api\/products\?after_id=[1-9]\d*&limit=\d+&include=variants$/.test(call.url) ? links.take() : null);
        let raced = false;
        try {
          const started = await adopt(s, { import_unmatched: true });
          assert.ok(await within(links.reached, 60_000), 'the import ended');
          // The poller's turn (it polls every second): would it push the new PIM products now, it does so in this window.
          raced = await within(
            until('a push during the adoption', () => pushedImported > 0, HOLD_MS, 50),
            HOLD_MS,
          );
          links.open();
          const done = await adopted(s, started.id);
          assert.equal(done.state, 'completed', JSON.stringify(done));
          assert.equal(done.counts.imported, 2, JSON.stringify(done.counts));
        } finally {
          links.open();
          release();
        }
        t.diagnostic(`productSet calls while the adoption held the sync: ${raced ? 'some' : 'none'}`);
        assert.equal(raced, false, 'nothing was pushed while the adoption was open');

        // Then the delta sync pushes them, to the shop products they came from.
        const list = (await s.pim('GET', '/api/products?limit=100')).body.data.products as Json[];
        const pimIds = ['import-me-a', 'import-me-b'].map((handle) => list.find((p) => p.sku === handle)?.id as number);
        assert.ok(pimIds.every(Number.isInteger), JSON.stringify(list.map((p) => p.sku)));
        for (const [i, id] of pimIds.entries()) {
          const m = await until(
            `PIM product ${id} synced`,
            async () => {
              const now = await mapping(s, id);
              return now.sync_status === 'synced' ? now : null;
            },
            30_000,
            100,
          );
          assert.equal(`gid://shopify/Product/${m.storefront_product_id}`, made[i].id);
        }
        assert.equal((await gql<Json>(s, HANDLES)).products.nodes.length, shopBefore, 'no product made a second time');
      });
    });
  }
});
