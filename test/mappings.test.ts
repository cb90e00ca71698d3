// GET /api/products/mappings and GET /api/products/mapping/{pimProductId} over real HTTP: fields and formats, metadata
// only on the single mapping, pagination and has_more, the status filter, bad query values, MAPPING_NOT_FOUND, scopes
// and isolation between integrations. Mappings are made by real pushes (a counting in-memory StorefrontPort).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import { assertError, FakeStorefront, pimProduct } from './helpers/push.js';

const YMD_HIS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FIELDS = [
  'created_at',
  'id',
  'last_synced_at',
  'pim_product_id',
  'storefront_product_id',
  'storefront_variant_id',
  'sync_error',
  'sync_status',
  'updated_at',
];

for (const target of databaseTargets()) {
  describe(`product mappings (${target.name})`, () => {
    let h: ConnectorHarness;
    let c: Awaited<ReturnType<ConnectorHarness['connected']>>;
    let synced: number[];
    let failed: number[];
    let readToken: string;

    before(async () => {
      h = await connectorHarness(target, {}, 0, { syncStorefront: new FakeStorefront() });
      c = await h.connected();
      synced = [];
      for (let i = 0; i < 5; i++) synced.push(await pimProduct(h, c.tenant, `Mapped ${i}`, i % 2));
      // Three products the storefront refuses (a blank title in the snapshot): mappings in `error`.
      failed = [900_001, 900_002, 900_003];
      const res = await h.call('POST', '/api/products/push', c.token, {
        products: [...synced.map((id) => ({ id })), ...failed.map((id) => ({ id, sku: `F${id}`, name: '' }))],
      });
      assert.equal(res.statusCode, 207, res.body);
      readToken = (await h.call('POST', '/api/tokens', c.token, { scope: 'read' })).json().data.api_token;
    });
    after(async () => h.close());

    it('lists the mappings by id, without metadata, defaults limit 20 offset 0', async () => {
      const res = await h.call('GET', '/api/products/mappings', readToken);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.status, 'success');
      const { mappings, pagination } = body.data;
      assert.deepEqual(pagination, { total: 8, limit: 20, offset: 0, has_more: false });
      assert.equal(mappings.length, 8);
      const ids = mappings.map((m: any) => m.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      // Mapping ids follow the order products were first written (a batch runs 4 at a time), not the request order.
      assert.deepEqual(
        mappings.map((m: any) => m.pim_product_id).sort((a: number, b: number) => a - b),
        [...synced, ...failed],
      );
      for (const m of mappings) {
        assert.deepEqual(Object.keys(m).sort(), FIELDS);
        assert.match(m.created_at, YMD_HIS);
        assert.match(m.updated_at, YMD_HIS);
      }
      const s = mappings.find((m: any) => m.pim_product_id === synced[0]);
      assert.equal(s.sync_status, 'synced');
      assert.equal(s.sync_error, null);
      assert.ok(Number.isInteger(s.storefront_product_id));
      assert.ok(Number.isInteger(s.storefront_variant_id));
      assert.match(s.last_synced_at, YMD_HIS);
      const e = mappings.find((m: any) => m.pim_product_id === failed[2]);
      assert.equal(e.sync_status, 'error');
      assert.match(e.sync_error, /Title can't be blank/);
      assert.equal(e.storefront_product_id, null);
      assert.equal(e.last_synced_at, null);
    });

    it('pages with limit and offset; has_more says whether rows remain', async () => {
      const page = async (q: string) => (await h.call('GET', `/api/products/mappings?${q}`, readToken)).json().data;
      const p1 = await page('limit=3');
      assert.deepEqual(p1.pagination, { total: 8, limit: 3, offset: 0, has_more: true });
      const p3 = await page('limit=3&offset=6');
      assert.deepEqual(p3.pagination, { total: 8, limit: 3, offset: 6, has_more: false });
      assert.equal(p3.mappings.length, 2);
      const exact = await page('limit=4&offset=4');
      assert.equal(exact.pagination.has_more, false);
      const beyond = await page('offset=100');
      assert.deepEqual(beyond.mappings, []);
      assert.equal(beyond.pagination.has_more, false);
      assert.equal((await page('limit=100')).mappings.length, 8);
      assert.equal((await page('limit=1')).mappings.length, 1);
    });

    it('filters by status', async () => {
      const page = async (q: string) => (await h.call('GET', `/api/products/mappings?${q}`, readToken)).json().data;
      const s = await page('status=synced');
      assert.equal(s.pagination.total, 5);
      assert.ok(s.mappings.every((m: any) => m.sync_status === 'synced'));
      const e = await page('status=error&limit=2');
      assert.deepEqual(e.pagination, { total: 3, limit: 2, offset: 0, has_more: true });
      assert.equal((await page('status=pending')).pagination.total, 0);
    });

    it('VALIDATION_FAILED (400) for a bad limit, offset or status', async () => {
      for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x', 'status=failed', 'status=']) {
        assertError(await h.call('GET', `/api/products/mappings?${q}`, readToken), 400, 'VALIDATION_FAILED');
      }
    });

    it('one mapping by PIM product id, with metadata', async () => {
      const res = await h.call('GET', `/api/products/mapping/${synced[1]}`, readToken);
      assert.equal(res.statusCode, 200, res.body);
      const m = res.json().data;
      assert.deepEqual(Object.keys(m).sort(), [...FIELDS, 'metadata'].sort());
      assert.equal(m.pim_product_id, synced[1]);
      assert.deepEqual(m.metadata, {
        storefront_handle: `pim-${synced[1]}`,
        storefront_title: 'Mapped 1',
        variant_count: 1,
        image_count: 0,
        last_push_method: 'create',
      });
      const e = (await h.call('GET', `/api/products/mapping/${failed[0]}`, readToken)).json().data;
      assert.equal(e.sync_status, 'error');
      assert.deepEqual(e.metadata, { storefront_handle: null, storefront_title: null, variant_count: 0, image_count: 0, last_push_method: null });
    });

    it('MAPPING_NOT_FOUND (404) for an unknown or non-numeric id', async () => {
      for (const id of ['123456789', 'abc', '1.5', '-3', '0', '99999999999999999999', `${synced[0]}x`]) {
        assertError(await h.call('GET', `/api/products/mapping/${id}`, readToken), 404, 'MAPPING_NOT_FOUND');
      }
    });

    it('needs a token; another integration sees none of these', async () => {
      assertError(await h.call('GET', '/api/products/mappings'), 401, 'AUTHENTICATION_FAILED');
      assertError(await h.call('GET', `/api/products/mapping/${synced[0]}`), 401, 'AUTHENTICATION_FAILED');
      const other = await h.connected();
      const list = (await h.call('GET', '/api/products/mappings', other.token)).json().data;
      assert.deepEqual(list, { mappings: [], pagination: { total: 0, limit: 20, offset: 0, has_more: false } });
      assertError(await h.call('GET', `/api/products/mapping/${synced[0]}`, other.token), 404, 'MAPPING_NOT_FOUND');
    });
  });
}
