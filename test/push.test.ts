// POST /api/products/push over real HTTP, with the PIM of the same app read over a real port. The service's rules
// (results, mappings, sync logs, codes and statuses) run against a counting in-memory StorefrontPort; the end-to-end
// part pushes through the real Shopify adapter into the built-in sandbox. PimClient.productSnapshot's error kinds
// run against small local servers.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { PimClient } from '../src/connector/pim/pim-client.js';
import { PimReadError } from '../src/connector/pim/pim-http.js';
import { PUSH_CONCURRENCY } from '../src/connector/push/push.service.js';
import { SyncLogRepository } from '../src/connector/push/sync-log.repository.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { mappingOf, mappingsOf, publicStatusOf, storefrontStateOf, syncLogOf, syncLogsOf } from './helpers/connector-reads.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { assertError, FakeStorefront, pimProduct, StorefrontSwitch } from './helpers/push.js';
import { serveHttp, type TestServer } from './helpers/servers.js';
import { until } from './helpers/until.js';

const YMD_HIS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

for (const target of databaseTargets()) {
  describe(`POST /api/products/push (${target.name})`, () => {
    let h: ConnectorHarness;
    let fake: FakeStorefront;
    const storefront = new StorefrontSwitch();

    before(async () => {
      h = await connectorHarness(target, {}, 0, { syncStorefront: storefront });
    });
    after(async () => h.close());

    const fresh = () => {
      fake = storefront.use(new FakeStorefront());
      return fake;
    };

    it('an id-only product is read from the PIM (variants, warehouse stock), created, mapped and logged', async () => {
      fresh();
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Trail Shoe', 2);
      const wh = await h.as(c.tenant)('POST', '/api/warehouses', { code: 'MAIN', name: 'Main' });
      assert.equal(wh.statusCode, 201, wh.body);
      // A product with variants keeps its stock per variant: the first variant's level, summed for the product.
      const [first] = (await h.as(c.tenant)('GET', `/api/products/${id}/variants`)).json().data.variants;
      const st = await h.as(c.tenant)('PUT', `/api/products/${id}/variants/${first.id}/stock`, { warehouse_id: wh.json().data.id, quantity: 7 });
      assert.equal(st.statusCode, 200, st.body);

      const res = await h.call('POST', '/api/products/push', c.token, { id });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.status, 'success');
      assert.ok(body.code === undefined || body.code === null);
      const { data } = body;
      assert.deepEqual(Object.keys(data).sort(), ['failed_count', 'results', 'successful_count', 'sync_log_id', 'total_products']);
      assert.equal(data.total_products, 1);
      assert.equal(data.successful_count, 1);
      assert.equal(data.failed_count, 0);
      const [r] = data.results;
      assert.deepEqual(Object.keys(r).sort(), ['message', 'method', 'pim_product_id', 'status', 'storefront_handle', 'storefront_product_id']);
      assert.equal(r.status, 'success');
      assert.equal(r.method, 'create');
      assert.equal(r.pim_product_id, id);
      assert.equal(r.storefront_product_id, 9_000_000_001);
      assert.equal(r.storefront_handle, `pim-${id}`);

      assert.equal(fake.calls.length, 1);
      const sent = fake.calls[0].snapshot;
      assert.equal(sent.id, id);
      assert.equal(sent.name, 'Trail Shoe');
      assert.equal(sent.variants.length, 2);
      assert.deepEqual(
        sent.warehouse_stock?.map((w) => [w.code, w.quantity]),
        [['MAIN', 7]],
      );
      // No mapping row before this push: the adapter is told nothing of ours can be on the storefront yet.
      assert.deepEqual(fake.calls[0].known, { productId: null, variantIds: {}, mediaIds: {}, neverPushed: true });

      assert.deepEqual(
        (await mappingsOf(h, c.token)).map((m) => m.pim_product_id),
        [id],
        'one mapping, of this product',
      );
      const m = (await mappingOf(h, c.token, id))!;
      assert.equal(m.sync_status, 'synced');
      assert.equal(m.sync_error, null);
      assert.equal(m.storefront_product_id, 9_000_000_001);
      assert.equal(m.storefront_variant_id, 90_000_000_010);
      assert.deepEqual(m.metadata, {
        storefront_handle: `pim-${id}`,
        storefront_title: 'Trail Shoe',
        variant_count: 2,
        image_count: 0,
        last_push_method: 'create',
      });
      assert.ok(m.last_synced_at);
      // The storefront ids kept for the next push (sent back to the storefront, shown by no route).
      const state = (await storefrontStateOf(h.database.db, c.integrationId, id))!;
      assert.equal(state.productId, 'gid://shopify/Product/9000000001');
      assert.equal(Object.keys(state.variantIds).length, 2);

      // The log is the integration's (GET /api/sync/logs lists the caller's integration's only).
      const log = await syncLogOf(h, c.token, data.sync_log_id);
      assert.equal(log.operation, 'products.push');
      assert.equal(log.status, 'success');
      assert.equal(log.records_processed, 1);
      assert.equal(log.records_failed, 0);
      assert.equal(log.error, null);
      assert.ok(log.completed_at);
      assert.ok((await publicStatusOf(h, c.integrationId)).last_sync_at, 'last_sync_at is set');
    });

    it('pushing twice updates the same storefront product (method update, known ids sent back)', async () => {
      fresh();
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Idempotent Jacket', 1);
      const first = (await h.call('POST', '/api/products/push', c.token, { products: [{ id }] })).json().data.results[0];
      const second = await h.call('POST', '/api/products/push', c.token, { products: [{ id }] });
      assert.equal(second.statusCode, 200, second.body);
      const r = second.json().data.results[0];
      assert.equal(r.method, 'update');
      assert.equal(r.storefront_product_id, first.storefront_product_id);
      assert.equal(fake.products.size, 1);
      assert.equal(fake.calls[1].known.productId, `gid://shopify/Product/${first.storefront_product_id}`);
      assert.equal(Object.keys(fake.calls[1].known.variantIds).length, 1);
      const mapping = await h.call('GET', `/api/products/mapping/${id}`, c.token);
      assert.equal(mapping.json().data.metadata.last_push_method, 'update');
      assert.equal((await mappingsOf(h, c.token)).length, 1);
    });

    it('a product object with more fields than id is the full snapshot: the PIM is not read', async () => {
      fresh();
      const c = await h.connected();
      const snapshot = {
        id: 777_001,
        sku: 'SNAP-1',
        name: 'Snapshot Lamp',
        status: 'active',
        price: '5.00',
        images: ['https://img.example/a.jpg'],
        variants: [],
      };
      const res = await h.call('POST', '/api/products/push', c.token, snapshot);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.results[0].pim_product_id, 777_001);
      assert.equal(fake.calls.length, 1);
      assert.deepEqual(fake.calls[0].snapshot, snapshot);
      const m = (await h.call('GET', '/api/products/mapping/777001', c.token)).json().data;
      assert.equal(m.metadata.image_count, 1);
      // variants absent → []; sku absent → ''.
      const bare = await h.call('POST', '/api/products/push', c.token, { id: 777_002, name: 'No variants given' });
      assert.equal(bare.statusCode, 200, bare.body);
      assert.deepEqual(fake.calls[1].snapshot.variants, []);
    });

    it('207 partial without code: a PIM 404, a validation failure and a malformed item fail, the others go, in request order', async () => {
      fresh();
      const c = await h.connected();
      const good = await pimProduct(h, c.tenant, 'Good One');
      const good2 = await pimProduct(h, c.tenant, 'Good Two');
      const invalid = await pimProduct(h, c.tenant, 'Has TOO MANY OPTIONS');
      // A product synced before, now failing validation: the mapping keeps its storefront ids.
      const wasSynced = await pimProduct(h, c.tenant, 'Was Fine');
      const firstPush = (await h.call('POST', '/api/products/push', c.token, { id: wasSynced })).json().data.results[0];
      const res = await h.call('POST', '/api/products/push', c.token, {
        products: [{ id: good }, { id: 99_999_999 }, { id: invalid }, { id: 'seven' }, { id: wasSynced, sku: 'X', name: '' }, { id: good2 }],
      });
      assert.equal(res.statusCode, 207, res.body);
      const body = res.json();
      assert.equal(body.status, 'partial');
      assert.ok(!('code' in body), 'no top-level code');
      assert.equal(typeof body.message, 'string');
      const { data } = body;
      assert.equal(data.total_products, 6);
      assert.equal(data.successful_count, 2);
      assert.equal(data.failed_count, 4);
      assert.deepEqual(
        data.results.map((r: any) => [r.status, r.pim_product_id]),
        [
          ['success', good],
          ['error', 99_999_999],
          ['error', invalid],
          ['error', null],
          ['error', wasSynced],
          ['success', good2],
        ],
      );
      const [, notFound, invalidR, malformed, blank] = data.results;
      assert.deepEqual(Object.keys(notFound).sort(), ['message', 'pim_product_id', 'status', 'storefront_product_id', 'validation_errors']);
      assert.equal(notFound.message, 'PIM product 99999999 not found');
      assert.equal(notFound.storefront_product_id, null);
      assert.deepEqual(notFound.validation_errors, []);
      assert.deepEqual(invalidR.validation_errors, ['options: a product has at most 3 options']);
      assert.match(invalidR.message, /at most 3 options/);
      assert.match(malformed.validation_errors[0], /id is required and must be a positive integer/);
      assert.deepEqual(blank.validation_errors, ["title: Title can't be blank"]);
      assert.equal(blank.storefront_product_id, null);

      const byPim = new Map((await mappingsOf(h, c.token)).map((m) => [m.pim_product_id, m]));
      assert.equal(byPim.has(99_999_999), false, 'a product the PIM does not have gets no mapping');
      assert.equal(byPim.get(invalid)!.sync_status, 'error');
      assert.match(byPim.get(invalid)!.sync_error!, /at most 3 options/);
      assert.equal(byPim.get(invalid)!.storefront_product_id, null);
      assert.equal(byPim.get(wasSynced)!.sync_status, 'error');
      assert.equal(byPim.get(wasSynced)!.storefront_product_id, firstPush.storefront_product_id, 'storefront ids kept');
      assert.equal((await storefrontStateOf(h.database.db, c.integrationId, wasSynced))!.productId, `gid://shopify/Product/${firstPush.storefront_product_id}`);
      assert.equal(byPim.get(good)!.sync_status, 'synced');

      const log = await syncLogOf(h, c.token, data.sync_log_id);
      assert.equal(log.status, 'partial');
      assert.equal(log.records_processed, 6);
      assert.equal(log.records_failed, 4);
      assert.match(log.error!, /^4 of 6 products failed; first: PIM product 99999999 not found/);
    });

    it('a batch is read from the PIM in one call; a product it lacks is read on its own (and is not found)', async () => {
      fresh();
      const c = await h.connected();
      const ids = [await pimProduct(h, c.tenant, 'Batch A', 2), await pimProduct(h, c.tenant, 'Batch B'), await pimProduct(h, c.tenant, 'Batch C', 1)];
      const reads: string[] = [];
      const count = (req: { method?: string; url?: string }) => {
        if (req.method === 'GET' && req.url?.startsWith('/api/products')) reads.push(req.url);
      };
      h.app.server.on('request', count);
      try {
        const res = await h.call('POST', '/api/products/push', c.token, { products: [...ids, 99_999_998].map((id) => ({ id })) });
        assert.equal(res.statusCode, 207, res.body);
        assert.deepEqual(
          res.json().data.results.map((r: any) => [r.pim_product_id, r.status, r.message]),
          [...ids.map((id) => [id, 'success', 'Product created on the storefront']), [99_999_998, 'error', 'PIM product 99999998 not found']],
        );
      } finally {
        h.app.server.off('request', count);
      }
      assert.deepEqual(reads, [
        `/api/products?ids=${ids.join(',')},99999998&after_id=0&limit=4&include=variants,warehouse_stock,translations`,
        '/api/products/99999998?include=variants,warehouse_stock,translations',
      ]);
      // Each product went whole, as a read of its own would give it.
      assert.deepEqual(
        fake.calls.map((call) => [call.snapshot.id, call.snapshot.variants.length]).sort((a, b) => a[0] - b[0]),
        [
          [ids[0], 2],
          [ids[1], 0],
          [ids[2], 1],
        ],
      );
    });

    it('an error mapping becomes synced again with sync_error cleared', async () => {
      fresh();
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Recovering');
      await h.call('POST', '/api/products/push', c.token, { id, sku: 'R', name: '' });
      let m = (await h.call('GET', `/api/products/mapping/${id}`, c.token)).json().data;
      assert.equal(m.sync_status, 'error');
      assert.equal(m.storefront_product_id, null);
      assert.ok(m.sync_error);
      const ok = await h.call('POST', '/api/products/push', c.token, { id });
      assert.equal(ok.statusCode, 200, ok.body);
      m = (await h.call('GET', `/api/products/mapping/${id}`, c.token)).json().data;
      assert.equal(m.sync_status, 'synced');
      assert.equal(m.sync_error, null);
      assert.equal(m.metadata.last_push_method, 'create');
    });

    it('the same PIM id twice in one batch: pushed once, the later item is an error naming the first', async () => {
      fresh();
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Twice');
      const res = await h.call('POST', '/api/products/push', c.token, { products: [{ id }, { id }] });
      assert.equal(res.statusCode, 207, res.body);
      const [a, b] = res.json().data.results;
      assert.equal(a.status, 'success');
      assert.equal(b.status, 'error');
      assert.match(b.message, /appears more than once in this batch: it is pushed once, as item 1/);
      assert.equal(fake.calls.length, 1);
    });

    it('INVALID_JSON, NO_PRODUCTS and BATCH_SIZE_EXCEEDED (400) write nothing', async () => {
      fresh();
      const c = await h.connected();
      assertError(await h.call('POST', '/api/products/push', c.token, '{"products": ['), 400, 'INVALID_JSON');
      assertError(await h.call('POST', '/api/products/push', c.token, 'not json'), 400, 'INVALID_JSON');
      assertError(await h.call('POST', '/api/products/push', c.token, 'x', { 'content-type': 'text/plain' }), 400, 'INVALID_JSON');
      assertError(await h.call('POST', '/api/products/push', c.token, {}), 400, 'NO_PRODUCTS');
      assertError(await h.call('POST', '/api/products/push', c.token, { products: [] }), 400, 'NO_PRODUCTS');
      assertError(await h.call('POST', '/api/products/push', c.token, { products: {} }), 400, 'NO_PRODUCTS');
      assertError(await h.call('POST', '/api/products/push', c.token, '[]'), 400, 'NO_PRODUCTS');
      assertError(await h.call('POST', '/api/products/push', c.token, 'null'), 400, 'NO_PRODUCTS');
      assertError(await h.call('POST', '/api/products/push', c.token), 400, 'NO_PRODUCTS');
      const tooMany = { products: Array.from({ length: 51 }, (_, i) => ({ id: i + 1 })) };
      assertError(await h.call('POST', '/api/products/push', c.token, tooMany), 400, 'BATCH_SIZE_EXCEEDED');
      assert.equal(fake.calls.length, 0);
      assert.deepEqual(await syncLogsOf(h, c.token), []);
    });

    it("a malformed snapshot is that item's error, not a 400", async () => {
      fresh();
      const c = await h.connected();
      const res = await h.call('POST', '/api/products/push', c.token, {
        products: [{ id: 5, name: 7 }, { id: 6, name: 'x', variants: {} }, { id: 7, name: 'x', variants: [1] }, 'str'],
      });
      assert.equal(res.statusCode, 207, res.body);
      const results = res.json().data.results;
      assert.match(results[0].validation_errors[0], /name must be a string/);
      assert.match(results[1].validation_errors[0], /variants must be an array/);
      assert.match(results[2].validation_errors[0], /variants\[0\] must be a variant object/);
      assert.equal(results[3].pim_product_id, null);
      assert.equal(fake.calls.length, 0);
      const [log, ...more] = await syncLogsOf(h, c.token);
      assert.equal(more.length, 0);
      assert.equal(log.status, 'error', 'every product failed');
    });

    it('AUTHENTICATION_FAILED without a token; INSUFFICIENT_SCOPE for a read token; a write token pushes', async () => {
      fresh();
      const c = await h.connected();
      assertError(await h.call('POST', '/api/products/push', null, { id: 1 }), 401, 'AUTHENTICATION_FAILED');
      assertError(await h.call('POST', '/api/products/push', 'pbt_nope', { id: 1 }), 401, 'AUTHENTICATION_FAILED');
      const read = (await h.call('POST', '/api/tokens', c.token, { scope: 'read' })).json().data.api_token;
      assertError(await h.call('POST', '/api/products/push', read, { id: 1 }), 403, 'INSUFFICIENT_SCOPE');
      const write = (await h.call('POST', '/api/tokens', c.token, { scope: 'write' })).json().data.api_token;
      const id = await pimProduct(h, c.tenant, 'Writer');
      assert.equal((await h.call('POST', '/api/products/push', write, { id })).statusCode, 200);
      // After disconnect every token is revoked: no push.
      assert.equal((await h.call('POST', '/api/disconnect', c.token)).statusCode, 200);
      assertError(await h.call('POST', '/api/products/push', write, { id }), 401, 'AUTHENTICATION_FAILED');
    });

    it("the PIM refusing the stored credentials is each product's error", async () => {
      fresh();
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Orphan');
      assert.equal((await h.admin('DELETE', `/admin/api-keys/${c.tenant.keyId}`)).statusCode, 204);
      const res = await h.call('POST', '/api/products/push', c.token, { id });
      assert.equal(res.statusCode, 207, res.body);
      assert.equal(res.json().data.results[0].message, "the PIM refused the integration's credentials");
      assert.equal(fake.calls.length, 0);
    });

    it('a storefront refusing the token fails the whole push honestly; the log completes in error; status shows it', async () => {
      const f = fresh();
      f.refuseToken = true;
      const c = await h.connected();
      const ids = [];
      for (let i = 0; i < 10; i++) ids.push(await pimProduct(h, c.tenant, `Refused ${i}`));
      const res = await h.call('POST', '/api/products/push', c.token, { products: ids.map((id) => ({ id })) });
      assert.equal(res.statusCode, 207, res.body);
      const { data } = res.json();
      assert.equal(data.failed_count, 10);
      assert.ok(data.results.every((r: any) => r.status === 'error' && /refused the shop's access token|access token/.test(r.message)));
      // At most the products already in flight when the first refusal came back (PUSH_CONCURRENCY) reach the storefront.
      assert.ok(f.calls.length <= 8, `the remaining products are not sent once the token was refused (${f.calls.length} calls)`);
      const log = await syncLogOf(h, c.token, data.sync_log_id);
      assert.equal(log.status, 'error');
      assert.equal(log.records_failed, 10);
      assert.ok(log.completed_at);
      assert.match(log.error!, /access token/);
      const status = await h.call('GET', `/api/status/${c.integrationId}`);
      assert.equal(status.statusCode, 200, status.body);
      const s = status.json();
      assert.match(s.last_error, /access token/);
      assert.equal(s.sync_stats.last_24h.failed_syncs, 1);
      assert.equal(s.sync_stats.product_mappings.failed, 10);
    });

    it(`a running push shows as a running sync log; batches run at most ${PUSH_CONCURRENCY} products at once`, async () => {
      const f = fresh();
      let release!: () => void;
      f.gate = new Promise<void>((r) => (release = r));
      const c = await h.connected();
      const ids = [];
      for (let i = 0; i < 9; i++) ids.push(await pimProduct(h, c.tenant, `Gate ${i}`));
      const pending = h.call('POST', '/api/products/push', c.token, { products: ids.map((id) => ({ id })) });
      // Wait (by polling the storefront double, not the clock) until the first storefront calls are in.
      await until('the first storefront calls', () => f.calls.length > 0, 20_000, 5);
      const [running, ...more] = await syncLogsOf(h, c.token);
      assert.equal(more.length, 0);
      assert.equal(running.status, 'running');
      assert.equal(running.completed_at, null);
      const pendingMappings = await mappingsOf(h, c.token);
      assert.ok(
        pendingMappings.length > 0 && pendingMappings.every((m) => m.sync_status === 'pending'),
        'a pending mapping is written before the storefront call',
      );
      release();
      const res = await pending;
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(f.calls.length, 9);
      assert.ok(f.maxInFlight <= PUSH_CONCURRENCY, `at most ${PUSH_CONCURRENCY} at once (${f.maxInFlight})`);
    });

    it('a push closes, as error, the running logs of pushes whose process ended (started over 30 minutes ago)', async () => {
      fresh();
      const c = await h.connected();
      // Two pushes that started and never completed (their processes ended): running logs, as a push starts them.
      const logs = new SyncLogRepository(h.database.db);
      const stale = await logs.start(c.integrationId, 'products.push', new Date(Date.now() - 31 * 60_000));
      const recent = await logs.start(c.integrationId, 'products.push', new Date(Date.now() - 60_000));
      const id = await pimProduct(h, c.tenant, 'After a crash');
      const res = await h.call('POST', '/api/products/push', c.token, { id });
      assert.equal(res.statusCode, 200, res.body);
      const closed = await syncLogOf(h, c.token, stale);
      assert.equal(closed.status, 'error');
      assert.match(closed.error!, /^Interrupted/);
      assert.notEqual(closed.completed_at, null);
      // A push started a minute ago may still be running on another node: left alone.
      assert.equal((await syncLogOf(h, c.token, recent)).status, 'running');
    });

    it('the status endpoints show recent_syncs and product_mapping_stats', async () => {
      fresh();
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Status');
      await h.call('POST', '/api/products/push', c.token, { id });
      await h.call('POST', '/api/products/push', c.token, { products: [{ id }, { id: 99_999_998 }] });
      const s = (await h.call('GET', `/api/status/${c.integrationId}`)).json();
      assert.equal(s.sync_stats.last_24h.total_syncs, 2);
      assert.equal(s.sync_stats.last_24h.successful_syncs, 1);
      assert.equal(s.sync_stats.last_24h.failed_syncs, 1);
      assert.deepEqual(s.sync_stats.product_mappings, { total: 1, synced: 1, pending: 0, failed: 0 });
      assert.ok(s.last_sync_at);
      const logs = (await syncLogsOf(h, c.token)).sort((a, b) => a.id - b.id);
      assert.deepEqual(
        logs.map(({ status, records_processed, records_failed }) => ({ status, records_processed, records_failed })),
        [
          { status: 'success', records_processed: 1, records_failed: 0 },
          { status: 'partial', records_processed: 2, records_failed: 1 },
        ],
      );
    });

    it('integrations are isolated: each pushes its own PIM products and sees only its own mappings', async () => {
      fresh();
      const a = await h.connected();
      const b = await h.connected();
      const idA = await pimProduct(h, a.tenant, 'Tenant A product');
      // B's PIM account cannot read A's product: B's push of A's id is a not-found, and creates nothing.
      const res = await h.call('POST', '/api/products/push', b.token, { id: idA });
      assert.equal(res.statusCode, 207);
      assert.equal(res.json().data.results[0].message, `PIM product ${idA} not found`);
      assert.equal((await h.call('POST', '/api/products/push', a.token, { id: idA })).statusCode, 200);
      assertError(await h.call('GET', `/api/products/mapping/${idA}`, b.token), 404, 'MAPPING_NOT_FOUND');
      assert.equal((await h.call('GET', '/api/products/mappings', b.token)).json().data.pagination.total, 0);
      assert.equal((await h.call('GET', '/api/products/mappings', a.token)).json().data.pagination.total, 1);
    });
  });

  describe(`push end to end through the Shopify adapter and the sandbox (${target.name})`, () => {
    let h: ConnectorHarness;
    let token: string;
    let tenant: Tenant;

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain: 'push-e2e.myshopify.com', platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: 'push-e2e.myshopify.com',
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      token = res.json().data.api_token;
    });
    after(async () => h.close());

    it('creates, then updates the same sandbox product; the mapping carries the storefront ids and metadata', async () => {
      const id = await pimProduct(h, tenant, 'Sandbox Boot', 2);
      const first = await h.call('POST', '/api/products/push', token, { id });
      assert.equal(first.statusCode, 200, first.body);
      const r1 = first.json().data.results[0];
      assert.equal(r1.method, 'create');
      assert.ok(Number.isInteger(r1.storefront_product_id) && r1.storefront_product_id > 0);
      assert.equal(typeof r1.storefront_handle, 'string');
      const second = await h.call('POST', '/api/products/push', token, { products: [{ id }] });
      assert.equal(second.statusCode, 200, second.body);
      const r2 = second.json().data.results[0];
      assert.equal(r2.method, 'update');
      assert.equal(r2.storefront_product_id, r1.storefront_product_id);
      const m = (await h.call('GET', `/api/products/mapping/${id}`, token)).json().data;
      assert.equal(m.sync_status, 'synced');
      assert.equal(m.storefront_product_id, r1.storefront_product_id);
      assert.ok(Number.isInteger(m.storefront_variant_id) && m.storefront_variant_id > 0);
      assert.equal(m.metadata.storefront_handle, r1.storefront_handle);
      assert.equal(m.metadata.storefront_title, 'Sandbox Boot');
      assert.equal(m.metadata.variant_count, 2);
      assert.equal(m.metadata.last_push_method, 'update');
      assert.match(m.last_synced_at, YMD_HIS);

      // A crash between the storefront's answer and our write leaves the mapping pending (or lost): the next push
      // finds the storefront product made earlier and updates it — never a duplicate.
      await h.database.db.execute(
        sql`update product_mappings set sync_status = 'pending', storefront_product_id = null, storefront_state = '{}'::jsonb where pim_product_id = ${id}`,
      );
      const third = await h.call('POST', '/api/products/push', token, { id });
      assert.equal(third.statusCode, 200, third.body);
      assert.equal(third.json().data.results[0].storefront_product_id, r1.storefront_product_id);
      assert.equal(third.json().data.results[0].method, 'update');
    });

    it("a pre-flight failure is that product's validation_errors; the other product goes", async () => {
      const ok = await pimProduct(h, tenant, 'Sandbox Fine');
      const longSeo = { id: 880_001, sku: 'BAD-1', name: '', status: 'active', variants: [] };
      const res = await h.call('POST', '/api/products/push', token, { products: [longSeo, { id: ok }] });
      assert.equal(res.statusCode, 207, res.body);
      const [bad, good] = res.json().data.results;
      assert.equal(bad.status, 'error');
      assert.ok(bad.validation_errors.length > 0, JSON.stringify(bad));
      assert.equal(good.status, 'success');
    });

    it('GET /api/status now shows the pushes in recent_syncs and the mappings in product_mapping_stats', async () => {
      const res = await h.call('GET', '/api/status', token);
      assert.equal(res.statusCode, 200, res.body);
      const s = res.json().data;
      assert.equal(s.recent_syncs.length, 4);
      const [latest] = s.recent_syncs;
      assert.equal(latest.operation, 'products.push');
      assert.equal(latest.status, 'partial');
      assert.equal(latest.records_processed, 2);
      assert.equal(latest.records_failed, 1);
      assert.match(latest.duration, /^\d+(\.\d+)?s$/);
      assert.match(latest.completed_at, YMD_HIS);
      assert.deepEqual(
        s.recent_syncs.map((r: any) => r.status),
        ['partial', 'success', 'success', 'success'],
      );
      assert.deepEqual(s.product_mapping_stats, { synced: 2, pending: 0, error: 1 });
      assert.equal(s.storefront_status.status, 'connected');
      assert.match(s.last_sync_at, YMD_HIS);
    });
  });
}

describe('PimClient.productSnapshot', () => {
  let server: TestServer;
  const answers = new Map<string, { status: number; body: unknown }>();
  const client = new PimClient({ allowPrivateNetworks: true, publicUrl: 'http://localhost:1' });
  const product = { id: 5, sku: 'P5', name: 'Five', status: 'active' };

  before(async () => {
    server = await serveHttp((req, res) => {
      const a = answers.get((req.url ?? '').split('?')[0]) ?? { status: 404, body: { status: 0, data: null, error: { message: 'not found' } } };
      assert.equal(req.headers['x-api-key'], 'k');
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
  });
  after(async () => server.close());

  const read = () => client.productSnapshot({ baseUrl: server.url, apiKey: 'k' }, 5);
  const kind = async () =>
    read().then(
      () => 'ok',
      (err) => (err instanceof PimReadError ? `${err.kind}: ${err.message}` : String(err)),
    );

  it('reads product, variants and stock; no stock route → no warehouse_stock', async () => {
    answers.clear();
    answers.set('/api/products/5', { status: 200, body: { status: 1, data: product, error: null } });
    answers.set('/api/products/5/variants', { status: 200, body: { status: 1, data: { variants: [{ id: 1, sku: 'P5-1' }] }, error: null } });
    const snap = await read();
    assert.equal(snap.name, 'Five');
    assert.equal(snap.variants.length, 1);
    assert.equal('warehouse_stock' in snap, false);
    answers.set('/api/products/5/stock', {
      status: 200,
      body: { status: 1, data: { warehouse_stock: [{ warehouse_id: 1, code: 'W', name: 'W', quantity: 3 }] }, error: null },
    });
    assert.equal((await read()).warehouse_stock?.[0].quantity, 3);
  });

  it('404 → not_found, 401/403 → unauthorized, 5xx / non-JSON / unreachable → unavailable', async () => {
    answers.clear();
    assert.equal(await kind(), 'not_found: PIM product 5 not found');
    answers.set('/api/products/5', { status: 401, body: {} });
    assert.equal(await kind(), "unauthorized: the PIM refused the integration's credentials");
    answers.set('/api/products/5', { status: 403, body: {} });
    assert.match(await kind(), /^unauthorized/);
    answers.set('/api/products/5', { status: 503, body: {} });
    assert.match(await kind(), /^unavailable: The PIM at .* answered HTTP 503 to GET \/api\/products\/5$/);
    answers.set('/api/products/5', { status: 200, body: 'hello' });
    assert.match(await kind(), /^unavailable: .*did not answer a PIM envelope/);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const down = await client.productSnapshot({ baseUrl: closed, apiKey: 'k' }, 5).catch((err) => err);
    assert.ok(down instanceof PimReadError && down.kind === 'unavailable' && /could not be reached: connection refused/.test(down.message), String(down));
  });
});
