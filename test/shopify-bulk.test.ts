// The Shopify adapter's bulk upserts: startBulkUpsert / bulkUpsertState against the built-in sandbox on both databases
// (creates and updates by mapped id in one file, the same items again without duplicates, userErrors per item, five bulk
// mutations per shop, an operation that died) and against a fake Shopify (a start whose answer was lost is adopted,
// not run twice; result URLs off the shop's own host are refused unless public). A 1,000-item run is timed.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sandboxBulkOperations } from '../src/sandbox/bulk.tables.js';
import { bulkTagged, ProductSetBulk } from '../src/storefront/shopify/operations.js';
import { BULK_FIND_MIN } from '../src/storefront/shopify/ours-in-bulk.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import type { BulkUpsertItem } from '../src/storefront/port/bulk.js';
import { StorefrontError } from '../src/storefront/port/errors.js';
import type { KnownStorefrontProduct } from '../src/storefront/port/known-product.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import type { SyncPlacement } from '../src/storefront/port/placement.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { BulkPause } from './helpers/sandbox-graphql.js';
import { mustHold, until } from './helpers/until.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';

// The PIM's images, on a local server: the sandbox fetches every image it is sent, as Shopify does.
const picture = await makeImage('png', 8, 6);
const images = await serveHttp((_req, res) => {
  res.writeHead(200, { 'content-type': 'image/png' });
  res.end(picture);
});
after(() => images.close());

const NEW: KnownStorefrontProduct = { productId: null, variantIds: {}, mediaIds: {}, neverPushed: true };
const PLACEMENT: SyncPlacement = {
  channelPublications: {},
  warehouseLocations: {},
  unsyncedWarehouses: [],
  variantStockLocation: null,
  pricesConvertedElsewhere: true,
};

function snapshot(id: number, extra: Partial<PimProductSnapshot> = {}): PimProductSnapshot {
  return {
    id,
    sku: `BK-${id}`,
    slug: `bulk-item-${id}`,
    name: `Bulk item ${id}`,
    price: '12.5000',
    status: 'active',
    stock: 3,
    categories: [{ id: 1, name: 'Bulk' }],
    variants: [],
    ...extra,
  };
}

const TEE = snapshot(42, {
  name: 'Bulk Tee',
  slug: 'bulk-tee',
  images: [`${images.url}/media/tee-a.png`, `${images.url}/media/tee-b.png`],
  variants: ['S', 'M'].map((size, i) => ({
    id: 420 + i,
    sku: `TEE-${size}`,
    name: size,
    price: '25.0000',
    sale_price: null,
    cost: null,
    weight: null,
    stock_quantity: 2,
    stock_status: 'in_stock',
    is_enabled: true,
    position: i + 1,
    image: null,
    attributes: [{ attribute_name: 'Size', value: size }],
  })),
});

for (const target of databaseTargets()) {
  describe(`bulk upserts against the sandbox (${target.name})`, () => {
    let h: Harness;
    let shop: StorefrontShop;
    const adapter = new ShopifyAdapter({ timeoutMs: 30_000 });
    const pause = new BulkPause();

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, { sandbox: { bulk: { pause: pause.check } } });
      await h.app.listen({ port, host: '127.0.0.1' });
      const domain = 'bulk-adapter.myshopify.com';
      const { accessToken } = await h.app.services.sandbox!.stores.create(domain);
      // The products' images are on a local server (127.0.0.1): the store opts in to fetch them, as a real shop would not.
      await h.app.services.sandbox!.stores.configure(domain, { allow_private_media_sources: true });
      shop = { domain, apiBaseUrl: `http://127.0.0.1:${port}/sandbox/shopify/${domain}`, accessToken };
    });
    after(async () => h.close());

    async function completed(operationId: string, items: BulkUpsertItem[]) {
      return until(
        'the operation to finish',
        async () => {
          const state = await adapter.bulkUpsertState(shop, operationId, items);
          if (state.state === 'completed') return state.outcomes;
          mustHold(() => assert.equal(state.state, 'running', JSON.stringify(state)));
          return null;
        },
        120_000,
      );
    }

    /** The product's media ids on the store. */
    async function media(productId: string): Promise<string[]> {
      return (
        await adapter.request<{ product: { media: { nodes: { id: string }[] } } }>(
          shop,
          'query ($id: ID!) { product(id: $id) { media(first: 10) { nodes { id } } } }',
          { id: productId },
        )
      ).product.media.nodes.map((n) => n.id);
    }
    let mediaAfterFirst: string[] = [];

    async function count(): Promise<number> {
      return (await adapter.request<{ productsCount: { count: number } }>(shop, 'query { productsCount { count } }')).productsCount.count;
    }

    let first: Awaited<ReturnType<typeof completed>>;
    const firstItems: BulkUpsertItem[] = [
      { product: TEE, known: NEW, placement: PLACEMENT },
      { product: snapshot(1), known: NEW, placement: PLACEMENT },
      { product: snapshot(2), known: NEW, placement: PLACEMENT },
    ];

    it('creates new products: results per item in order (ids, variant ids by SKU, images unconfirmed, handle = the PIM slug)', async () => {
      const { operationId } = await adapter.startBulkUpsert(shop, firstItems);
      assert.match(operationId, /^gid:\/\/shopify\/BulkOperation\/\d+$/);
      first = await completed(operationId, firstItems);
      assert.equal(first.length, 3);
      for (const o of first) assert.ok(o.ok, JSON.stringify(o));
      const tee = first[0].ok ? first[0].result : assert.fail();
      assert.equal(tee.method, 'create');
      assert.equal(tee.handle, 'bulk-tee');
      assert.equal(tee.title, 'Bulk Tee');
      assert.deepEqual(Object.keys(tee.variantIds).sort(), ['TEE-M', 'TEE-S']);
      assert.equal(tee.firstVariantNumericId, Number(tee.variantIds['TEE-S'].split('/').pop()));
      // A bulk line selects one connection (the variants): the images are on the product, their ids not answered.
      assert.deepEqual([tee.mediaIds, tee.imagesUnconfirmed], [{}, TEE.images]);
      mediaAfterFirst = await media(tee.productId);
      assert.equal(mediaAfterFirst.length, 2);
      assert.equal(tee.variantCount, 2);
      assert.equal(tee.imageCount, 2);
      // Categories are collections, not tags: the PIM tags sent are recorded (none here), never the category names.
      assert.deepEqual(tee.owned.tags, []);
      assert.equal(first[1].ok && first[1].result.handle, 'bulk-item-1');
      assert.equal(await count(), 3);
    });

    it('updates mapped products by id and creates new ones in one file; the same products never duplicate', async () => {
      const known = (i: number): KnownStorefrontProduct => {
        const r = first[i].ok ? first[i].result : assert.fail();
        return { productId: r.productId, variantIds: r.variantIds, mediaIds: r.mediaIds, imagesUnconfirmed: r.imagesUnconfirmed, owned: r.owned };
      };
      const items: BulkUpsertItem[] = [
        { product: { ...TEE, name: 'Bulk Tee v2' }, known: known(0), placement: PLACEMENT },
        { product: snapshot(3), known: NEW, placement: PLACEMENT },
        { product: { ...snapshot(1), name: 'Renamed one' }, known: known(1), placement: PLACEMENT },
      ];
      const { operationId } = await adapter.startBulkUpsert(shop, items);
      const outcomes = await completed(operationId, items);
      const [tee, three, one] = outcomes.map((o) => (o.ok ? o.result : assert.fail(JSON.stringify(o))));
      assert.equal(tee.method, 'update');
      assert.equal(tee.productId, (first[0].ok && first[0].result.productId) || '');
      assert.equal(tee.title, 'Bulk Tee v2');
      assert.deepEqual(tee.variantIds, first[0].ok && first[0].result.variantIds, 'variants kept by id');
      const teeBefore = first[0].ok ? first[0].result : assert.fail();
      assert.deepEqual([tee.mediaIds, tee.imagesUnconfirmed], [{}, TEE.images], 'the unchanged images stay unconfirmed');
      assert.deepEqual(await media(tee.productId), mediaAfterFirst, 'images kept, not uploaded again');
      assert.equal(teeBefore.productId, tee.productId);
      assert.equal(three.method, 'create');
      assert.equal(one.method, 'update');
      assert.equal(one.title, 'Renamed one');
      assert.equal(await count(), 4);

      // The first items again with their mappings lost: found again (by customId), updated, no new products.
      const lost = firstItems.map((i) => ({ ...i, known: { productId: null, variantIds: {}, mediaIds: {} } }));
      const again = await completed((await adapter.startBulkUpsert(shop, lost)).operationId, lost);
      assert.deepEqual(
        again.map((o) => (o.ok ? [o.result.productId, o.result.method] : o.errors)),
        first.map((o) => (o.ok ? [o.result.productId, 'update'] : null)),
      );
      assert.equal(await count(), 4);

      // Even never pushed as far as we know (no lookup first), the customId identifier finds them: still no duplicates.
      const unknown = firstItems.map((i) => ({ ...i, known: NEW, placement: PLACEMENT }));
      const third = await completed((await adapter.startBulkUpsert(shop, unknown)).operationId, unknown);
      assert.deepEqual(
        third.map((o) => (o.ok ? o.result.productId : o.errors)),
        first.map((o) => (o.ok ? o.result.productId : null)),
      );
      assert.equal(await count(), 4);
    });

    it('a rerun of many products whose mappings lost their storefront ids finds them in one bulk query, not a lookup each', async () => {
      const made = Array.from({ length: BULK_FIND_MIN + 5 }, (_, i) => snapshot(700 + i));
      made[0] = { ...TEE, id: 700, slug: 'rerun-tee', variants: TEE.variants.map((v) => ({ ...v, sku: `RR-${v.sku}` })) };
      const fresh = made.map((product) => ({ product, known: NEW, placement: PLACEMENT }));
      const created = await completed((await adapter.startBulkUpsert(shop, fresh)).operationId, fresh);
      const before = await count();

      // As after a run whose operation failed or whose worker died: pending mappings without storefront ids.
      const sent: string[] = [];
      const counting = new ShopifyAdapter({
        timeoutMs: 30_000,
        fetch: (url, init) => {
          sent.push(/^\s*(?:query|mutation)\s+(\w+)/.exec(JSON.parse(String(init?.body ?? '{}')).query ?? '')?.[1] ?? 'unnamed');
          return fetch(url, init);
        },
      });
      const lost = made.map((product) => ({
        product: { ...product, name: `${product.name} again` },
        known: { productId: null, variantIds: {}, mediaIds: {} },
        placement: PLACEMENT,
      }));
      const { operationId } = await counting.startBulkUpsert(shop, lost);
      const again = await until(
        'the rerun to finish',
        async () => {
          const state = await counting.bulkUpsertState(shop, operationId, lost);
          if (state.state === 'completed') return state.outcomes;
          mustHold(() => assert.equal(state.state, 'running', JSON.stringify(state)));
          return null;
        },
        120_000,
      );
      // Every product found again and updated in place, variants kept by id: nothing made twice.
      assert.deepEqual(
        again.map((o) => (o.ok ? [o.result.productId, o.result.method, o.result.title] : o.errors)),
        created.map((o, i) => (o.ok ? [o.result.productId, 'update', `${made[i].name} again`] : null)),
      );
      assert.deepEqual(again[0].ok && again[0].result.variantIds, created[0].ok && created[0].result.variantIds);
      assert.equal(await count(), before);
      // One bulk query read them; no product was looked up by itself (ProductRecoveryLookup, ProductIdentities).
      assert.equal(sent.filter((name) => name === 'BulkOperationRunQuery').length, 1, sent.join(' '));
      assert.deepEqual(
        sent.filter((name) => /Lookup|Identities/.test(name)),
        [],
      );
    });

    it("after a bulk sync, a per-call push confirms the images' ids; a changed image list keeps the old images by id", async () => {
      const bulk = first[0].ok ? first[0].result : assert.fail();
      const known: KnownStorefrontProduct = {
        productId: bulk.productId,
        variantIds: bulk.variantIds,
        mediaIds: bulk.mediaIds,
        imagesUnconfirmed: bulk.imagesUnconfirmed,
        owned: bulk.owned,
      };
      const before = await media(bulk.productId);
      // Unchanged images: no files sent, the answer's media give their ids.
      const same = await adapter.upsertProduct(shop, TEE, known, PLACEMENT);
      assert.deepEqual(same.imagesUnconfirmed, []);
      assert.deepEqual(Object.values(same.mediaIds).sort(), [...before].sort());
      // A third image while two are unconfirmed: the product is read first (our file names), the two kept by id.
      const withThird = { ...TEE, images: [...TEE.images!, `${images.url}/media/tee-c.png`] };
      const more = await adapter.upsertProduct(shop, withThird, known, PLACEMENT);
      const after = await media(bulk.productId);
      assert.equal(after.length, 3);
      assert.deepEqual(after.slice(0, 2), before, 'the images the bulk line sent were not uploaded again');
      assert.deepEqual(more.imagesUnconfirmed, []);
      assert.equal(more.mediaIds[withThird.images[2]], after[2]);
      // Back to the product's two images for the tests after this one.
      await adapter.upsertProduct(shop, TEE, { ...known, mediaIds: more.mediaIds, imagesUnconfirmed: [] }, PLACEMENT);
    });

    it('active products are published on their channels by one bulk mutation of publishablePublish lines, not a call each', async () => {
      const publications = (
        await adapter.request<{ publications: { nodes: { id: string; catalog: { title: string } }[] } }>(
          shop,
          '{ publications(first: 10) { nodes { id catalog { title } } } }',
        )
      ).publications.nodes;
      const online = publications.find((p) => p.catalog.title === 'Online Store')!.id;
      const placement: SyncPlacement = { ...PLACEMENT, channelPublications: { web: [online] } };
      const items: BulkUpsertItem[] = [
        { product: snapshot(501, { publishing_channels: ['web'] }), known: NEW, placement },
        { product: snapshot(502, { publishing_channels: ['web'], status: 'draft' }), known: NEW, placement },
        { product: snapshot(503, { publishing_channels: ['web'] }), known: NEW, placement },
      ];
      const operations = async () =>
        (await adapter.request<{ bulkOperations: { nodes: { query: string }[] } }>(shop, '{ bulkOperations(first: 50) { nodes { query } } }')).bulkOperations
          .nodes;
      const before = await operations();
      const { operationId } = await adapter.startBulkUpsert(shop, items);
      const results = (await completed(operationId, items)).map((o) => (o.ok ? o.result : assert.fail(JSON.stringify(o))));
      assert.deepEqual(
        results.map((r) => r.publications),
        [[online], [], [online]],
      );
      assert.deepEqual(
        results.map((r) => r.problems),
        [[], [], []],
      );
      for (const [i, r] of results.entries()) {
        const on = await adapter.request<{ product: { publishedOnPublication: boolean } }>(
          shop,
          'query ($id: ID!, $p: ID!) { product(id: $id) { publishedOnPublication(publicationId: $p) } }',
          { id: r.productId, p: online },
        );
        assert.equal(on.product.publishedOnPublication, i !== 1, `product ${i}: only active products are published`);
      }
      const started = (await operations()).slice(0, (await operations()).length - before.length).map((o) => /mutation (\w+?)_/.exec(o.query)?.[1]);
      assert.deepEqual(started.sort(), ['ProductSetBulk', 'PublishablePublish'], 'one bulk productSet and one bulk publish');
    });

    it('an item the storefront refuses gets its userErrors; the others go through', async () => {
      const items: BulkUpsertItem[] = [
        { product: snapshot(5), known: NEW, placement: PLACEMENT },
        // A mapping to a product deleted in Shopify: productSet by {id} answers PRODUCT_DOES_NOT_EXIST.
        {
          product: snapshot(6),
          known: { productId: 'gid://shopify/Product/999999', variantIds: {}, mediaIds: {}, owned: { tags: [] } },
          placement: PLACEMENT,
        },
      ];
      const outcomes = await completed((await adapter.startBulkUpsert(shop, items)).operationId, items);
      assert.ok(outcomes[0].ok);
      assert.equal(outcomes[1].ok, false);
      assert.match(!outcomes[1].ok ? outcomes[1].errors.join() : '', /PRODUCT_DOES_NOT_EXIST/);
    });

    it("a create whose handle (the slug) a merchant's product holds: that item's error names the product; nothing is made for it, no suffix", async () => {
      const made = await adapter.request<{ productSet: { product: { id: string } } }>(
        shop,
        'mutation { productSet(input: { title: "Merchant Stool", handle: "bulk-stool" }, synchronous: true) { product { id } } }',
      );
      const merchant = made.productSet.product.id;
      const before = await count();
      const items: BulkUpsertItem[] = [
        { product: snapshot(60, { slug: 'bulk-stool' }), known: NEW, placement: PLACEMENT },
        { product: snapshot(61, { slug: 'стул' }), known: NEW, placement: PLACEMENT },
      ];
      const outcomes = await completed((await adapter.startBulkUpsert(shop, items)).operationId, items);
      assert.equal(outcomes[0].ok, false);
      const errors = !outcomes[0].ok ? outcomes[0].errors : [];
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.ok(errors[0].includes(`"Merchant Stool" (${merchant}, handle 'bulk-stool')`), errors[0]);
      assert.match(errors[0], /which the bridge does not own: adopt it/);
      assert.equal(outcomes[1].ok && outcomes[1].result.handle, 'стул', 'a Unicode slug is the handle, exactly');
      assert.equal(await count(), before + 1);
    });

    it('a sixth bulk upsert while five run on the shop is refused as unavailable', async () => {
      let open!: () => void;
      pause.gate = new Promise<void>((r) => (open = r));
      // Five bulk mutations may run at once per shop (API 2026-01 and later).
      const batches = [7, 70, 71, 72, 73].map((id) => [{ product: snapshot(id), known: NEW, placement: PLACEMENT }]);
      try {
        const operationIds: string[] = [];
        for (const items of batches) operationIds.push((await adapter.startBulkUpsert(shop, items)).operationId);
        const running = await adapter.bulkUpsertState(shop, operationIds[0], batches[0]);
        assert.equal(running.state, 'running');
        await assert.rejects(
          adapter.startBulkUpsert(shop, [{ product: snapshot(8), known: NEW, placement: PLACEMENT }]),
          (err: unknown) => err instanceof StorefrontError && err.kind === 'unavailable',
        );
        open();
        for (const [i, operationId] of operationIds.entries()) assert.ok((await completed(operationId, batches[i]))[0].ok);
      } finally {
        pause.gate = null;
        open();
      }
    });

    it('an operation whose process died reads as failed', async () => {
      const store = (await h.app.services.sandbox!.stores.find(shop.domain))!;
      const [row] = await h.database.db
        .insert(sandboxBulkOperations)
        .values({ storeId: store.id, status: 'RUNNING', mutation: ProductSetBulk, stagedUploadPath: 'tmp/x' })
        .returning({ id: sandboxBulkOperations.id });
      const state = await adapter.bulkUpsertState(shop, `gid://shopify/BulkOperation/${row.id}`, [{ product: snapshot(9), known: NEW, placement: PLACEMENT }]);
      assert.equal(state.state, 'failed');
      assert.match(state.state === 'failed' ? state.message : '', /INTERNAL_SERVER_ERROR/);
      const unknown = await adapter.bulkUpsertState(shop, 'gid://shopify/BulkOperation/99999999', []);
      assert.equal(unknown.state, 'failed');
    });

    it('1,000 items in one bulk upsert (timed, reported)', async (t) => {
      const items: BulkUpsertItem[] = Array.from({ length: 1000 }, (_, i) => ({
        product: snapshot(10_000 + i, { images: [`${images.url}/media/${i}.png`] }),
        known: NEW,
        placement: PLACEMENT,
      }));
      const t0 = performance.now();
      const { operationId } = await adapter.startBulkUpsert(shop, items);
      const t1 = performance.now();
      const outcomes = await completed(operationId, items);
      const t2 = performance.now();
      assert.equal(outcomes.filter((o) => o.ok).length, 1000);
      t.diagnostic(
        `${target.name}: 1,000 items — start ${Math.round(t1 - t0)} ms, run and results ${Math.round(t2 - t1)} ms (${Math.round(1000 / ((t2 - t1) / 1000))} items/s)`,
      );
    });
  });
}

describe('bulk upserts against a fake Shopify', () => {
  let server: TestServer;
  let other: TestServer;
  const seen: string[] = [];
  let operations: { id: string; status: string; query: string; url: string | null; createdAt: string }[] = [];
  let loseRunAnswer = false;
  /** A document another start runs right after the next one (its operation is the newest). */
  let intruder: string | null = null;
  let resultUrl: () => string | null = () => null;
  const cost = { requestedQueryCost: 10, actualQueryCost: 10, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990, restoreRate: 100 } };

  before(async () => {
    other = await serveHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/jsonl' });
      res.end('{"data":{"productSet":{"product":null,"userErrors":[]}},"__lineNumber":0}\n');
    });
    server = await serveHttp((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url?.endsWith('/result.jsonl')) {
          res.writeHead(200, { 'content-type': 'application/jsonl' });
          res.end('{"data":{"productSet":{"product":null,"userErrors":[]}},"__lineNumber":0}\n');
          return;
        }
        if (req.url === '/upload') {
          res.writeHead(201, { 'content-type': 'application/xml' });
          res.end('<PostResponse/>');
          return;
        }
        const { query, variables } = JSON.parse(body) as { query: string; variables: Record<string, any> };
        const op = /(?:query|mutation) (\w+)/.exec(query)?.[1] ?? '?';
        seen.push(op);
        let data: unknown;
        if (op === 'Locations')
          data = {
            locations: { nodes: [{ id: 'gid://shopify/Location/1', name: 'Main', isActive: true }], pageInfo: { hasNextPage: false, endCursor: null } },
          };
        else if (op === 'MetafieldDefinitionCreate')
          data = { metafieldDefinitionCreate: { createdDefinition: { id: 'gid://shopify/MetafieldDefinition/1' }, userErrors: [] } };
        else if (op === 'RecentBulkMutations') data = { bulkOperations: { nodes: operations.slice(-10).reverse() } };
        else if (op === 'StagedUploadsCreate')
          data = {
            stagedUploadsCreate: {
              stagedTargets: [{ url: `${server.url}/upload`, resourceUrl: null, parameters: [{ name: 'key', value: 'tmp/1/bulk/x/products.jsonl' }] }],
              userErrors: [],
            },
          };
        else if (op === 'BulkOperationRunMutation' && operations.filter((o) => o.status === 'RUNNING').length >= 5) {
          data = {
            bulkOperationRunMutation: {
              bulkOperation: null,
              userErrors: [{ field: null, message: 'Bulk operations limit reached. Please try again later.', code: 'LIMIT_REACHED' }],
            },
          };
        } else if (op === 'BulkOperationRunMutation') {
          const created = {
            id: `gid://shopify/BulkOperation/${operations.length + 1}`,
            status: 'CREATED',
            query: variables.mutation,
            url: null,
            createdAt: new Date().toISOString(),
            errorCode: null,
            completedAt: null,
            objectCount: '0',
          };
          operations.push(created);
          if (intruder) operations.push({ ...created, id: `gid://shopify/BulkOperation/${operations.length + 1}`, status: 'RUNNING', query: intruder });
          intruder = null;
          if (loseRunAnswer) {
            loseRunAnswer = false;
            res.writeHead(503, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ errors: 'Service Unavailable' }));
            return;
          }
          data = { bulkOperationRunMutation: { bulkOperation: created, userErrors: [] } };
        } else if (op === 'BulkOperationState') {
          data = {
            bulkOperation: {
              id: variables.id,
              status: 'COMPLETED',
              errorCode: null,
              createdAt: new Date().toISOString(),
              completedAt: null,
              objectCount: '1',
              url: resultUrl(),
              query: ProductSetBulk,
            },
          };
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data, extensions: { cost } }));
      });
    });
  });
  after(async () => {
    await server.close();
    await other.close();
  });
  beforeEach(() => {
    seen.length = 0;
    operations = [];
    loseRunAnswer = false;
    intruder = null;
  });

  const shop = (): StorefrontShop => ({ domain: 'fake.myshopify.com', apiBaseUrl: `${server.url}/s/fake.myshopify.com`, accessToken: 'shpat_x' });
  const adapter = () => new ShopifyAdapter({ retry: { baseDelayMs: 1, maxDelayMs: 2 } });
  const items: BulkUpsertItem[] = [{ product: snapshot(1), known: NEW, placement: PLACEMENT }];

  it("a start whose answer was lost is found by its own document among the shop's recent bulk mutations and adopted, not run twice", async () => {
    loseRunAnswer = true;
    const { operationId } = await adapter().startBulkUpsert(shop(), items);
    assert.equal(operationId, 'gid://shopify/BulkOperation/1');
    assert.equal(seen.filter((s) => s === 'BulkOperationRunMutation').length, 1);
    assert.equal(operations.length, 1);
    assert.match(operations[0].query, /mutation ProductSetBulk_[0-9a-f]{16}\(/, 'each start runs a document of its own');
  });

  it('a lost start is not confused with a newer bulk mutation of another of our starts (five may run at once)', async () => {
    loseRunAnswer = true;
    // Started by another job just after ours: the same productSet under another tag, and the shop's newest.
    intruder = bulkTagged(ProductSetBulk, '0123456789abcdef');
    const { operationId } = await adapter().startBulkUpsert(shop(), items);
    assert.deepEqual(
      operations.map((o) => o.id),
      ['gid://shopify/BulkOperation/1', 'gid://shopify/BulkOperation/2'],
    );
    assert.equal(operationId, 'gid://shopify/BulkOperation/1', 'its own operation, not the newest');
    assert.equal(seen.filter((s) => s === 'BulkOperationRunMutation').length, 1);
  });

  it('starts beside other running bulk mutations (five at once from 2026-01); a sixth is LIMIT_REACHED, answered as unavailable', async () => {
    for (let i = 0; i < 4; i++)
      operations.push({ id: `gid://shopify/BulkOperation/7${i}`, status: 'RUNNING', query: 'mutation other', url: null, createdAt: new Date().toISOString() });
    const { operationId } = await adapter().startBulkUpsert(shop(), items);
    assert.equal(operationId, 'gid://shopify/BulkOperation/5');
    operations[4].status = 'RUNNING';
    await assert.rejects(
      adapter().startBulkUpsert(shop(), items),
      (err: unknown) => err instanceof StorefrontError && err.kind === 'unavailable' && /LIMIT_REACHED|limit reached/.test(err.message),
    );
  });

  it("reads a result file on the shop's own host (or under its base path); refuses another private host or scheme", async () => {
    resultUrl = () => `${other.url}/result.jsonl`; // loopback, on another port than the shop's apiBaseUrl
    await assert.rejects(
      adapter().bulkUpsertState(shop(), 'gid://shopify/BulkOperation/1', items),
      (err: unknown) => err instanceof StorefrontError && err.kind === 'invalid_response' && /not a public address/.test(err.message),
    );
    resultUrl = () => 'file:///etc/passwd';
    await assert.rejects(
      adapter().bulkUpsertState(shop(), 'gid://shopify/BulkOperation/1', items),
      (err: unknown) => err instanceof StorefrontError && /only http and https/.test(err.message),
    );
    resultUrl = () => `${server.url}/result.jsonl`;
    const state = await adapter().bulkUpsertState(shop(), 'gid://shopify/BulkOperation/1', items);
    assert.equal(state.state, 'completed');
    assert.deepEqual(state.state === 'completed' && state.outcomes, [{ ok: false, errors: ['the result has no product'] }]);
    // Under the shop's base path on another origin (a sandbox behind a proxy names its own host): sent to the shop's origin.
    resultUrl = () => 'http://127.0.0.1:9/s/fake.myshopify.com/result.jsonl';
    const proxied = await adapter().bulkUpsertState(shop(), 'gid://shopify/BulkOperation/1', items);
    assert.equal(proxied.state, 'completed');
    resultUrl = () => null;
    const empty = await adapter().bulkUpsertState(shop(), 'gid://shopify/BulkOperation/1', items);
    assert.deepEqual(empty.state === 'completed' && empty.outcomes, [{ ok: false, errors: ['no result'] }]);
  });
});
