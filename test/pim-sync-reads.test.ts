// The PIM reads a sync makes: `include` (variants and warehouse levels with the product), `after_id` keyset paging
// (by id, and after (updated_since, after_id) in (updated_at, id) order, ties within one millisecond included), and
// the connector's PimClient over real HTTP: one read per product, a batch by `ids`, pages, changes, a PIM without these
// extensions, and 429 with Retry-After.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PimClient } from '../src/connector/pim/pim-client.js';
import { PimReadError } from '../src/connector/pim/pim-http.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, okData, sku, type Call } from './helpers/pim.js';
import { serveHttp, type TestServer } from './helpers/servers.js';

const MS_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

for (const target of databaseTargets()) {
  describe(`PIM reads for sync [${target.name}]`, () => {
    let h: ConnectorHarness;
    let tenant: Tenant;
    let c: Call;
    let client: PimClient;
    const conn = () => ({ baseUrl: h.pimUrl, apiKey: tenant.apiKey });
    /** Products of this tenant: [plain, with 2 variants and 2 levels, with 1 variant]. */
    let ids: number[] = [];

    before(async () => {
      h = await connectorHarness(target);
      tenant = await h.tenant();
      c = h.as(tenant);
      client = new PimClient({ allowPrivateNetworks: true, publicUrl: h.pimUrl });
      const plain = await createProduct(c, { name: 'Plain' });
      const rich = await createProduct(c, { name: 'Rich', price: '10.00' });
      const richVariants: { id: number }[] = [];
      for (const [i, size] of ['M', 'S'].entries()) {
        richVariants[i] = okData(
          await c('POST', `/api/products/${rich.id}/variants`, {
            sku: sku('V'),
            name: `Rich ${size}`,
            price: '10.50',
            weight: '0.25',
            stock_quantity: 2,
            position: 1 - i,
            attributes: [{ attribute_name: 'Size', value: size }],
          }),
          201,
        );
      }
      for (const code of ['ZRH', 'AMS']) {
        const w = okData(await c('POST', '/api/warehouses', { code, name: `Warehouse ${code}` }), 201);
        // Stock per variant: M holds 1 in each warehouse, S the rest (AMS 3, ZRH 4 for the product).
        okData(await c('PUT', `/api/products/${rich.id}/variants/${richVariants[0].id}/stock`, { warehouse_id: w.id, quantity: 1 }));
        okData(await c('PUT', `/api/products/${rich.id}/variants/${richVariants[1].id}/stock`, { warehouse_id: w.id, quantity: code === 'AMS' ? 2 : 3 }));
      }
      const one = await createProduct(c, { name: 'One' });
      okData(await c('POST', `/api/products/${one.id}/variants`, { sku: sku('V'), name: 'One only' }), 201);
      ids = [plain.id, rich.id, one.id];
    });
    after(() => h.close());

    /** What the spec's own routes answer for a product's variants and levels. */
    const separately = async (id: number) => ({
      variants: okData(await c('GET', `/api/products/${id}/variants`)).variants,
      warehouse_stock: okData(await c('GET', `/api/products/${id}/stock`)).warehouse_stock,
    });

    it('include on GET /api/products/{id}: the same lists as …/variants and …/stock, only when asked', async () => {
      for (const id of ids) {
        const plain = okData(await c('GET', `/api/products/${id}`));
        assert.equal('variants' in plain, false);
        assert.equal('warehouse_stock' in plain, false);
        assert.match(plain.updated_at, MS_ISO);
        const both = okData(await c('GET', `/api/products/${id}?include=variants,warehouse_stock`));
        assert.deepEqual(both, { ...plain, ...(await separately(id)) });
        const onlyVariants = okData(await c('GET', `/api/products/${id}?include=variants`));
        assert.deepEqual(onlyVariants, { ...plain, variants: both.variants });
        const onlyStock = okData(await c('GET', `/api/products/${id}?include=warehouse_stock&locale=de`));
        assert.deepEqual(onlyStock, { ...plain, warehouse_stock: both.warehouse_stock });
      }
      const rich = okData(await c('GET', `/api/products/${ids[1]}?include=warehouse_stock,variants`));
      assert.deepEqual(
        rich.variants.map((v: any) => v.name),
        ['Rich S', 'Rich M'],
        'by position',
      );
      assert.deepEqual(
        rich.warehouse_stock.map((w: any) => [w.code, w.quantity]),
        [
          ['AMS', 3],
          ['ZRH', 4],
        ],
        'by warehouse code',
      );
      assert.equal(rich.variants[0].price, '10.5000');
      assert.equal(rich.variants[0].weight, '0.2500');
    });

    it('include on the list: every product carries its lists, computed with the page', async () => {
      const data = okData(await c('GET', '/api/products?include=variants,warehouse_stock&limit=100'));
      assert.deepEqual(
        data.products.map((p: any) => p.id),
        ids,
      );
      for (const p of data.products) assert.deepEqual({ variants: p.variants, warehouse_stock: p.warehouse_stock }, await separately(p.id));
      const plain = okData(await c('GET', '/api/products?limit=100'));
      assert.ok(plain.products.every((p: any) => !('variants' in p) && !('warehouse_stock' in p)));
    });

    it('an unknown include, an empty one or a repeated parameter is a 400 naming it', async () => {
      for (const q of ['include=stock', 'include=variants,foo', 'include=', 'include=variants,', 'include=VARIANTS']) {
        assertError(await c('GET', `/api/products?${q}`), 400, /query parameter 'include' must be a comma-separated list of: variants, warehouse_stock/);
        assertError(await c('GET', `/api/products/${ids[0]}?${q}`), 400, /query parameter 'include'/);
      }
      assertError(await c('GET', '/api/products?include=variants&include=warehouse_stock'), 400, /query parameter 'include'/);
    });

    it('after_id pages by id; total_items counts what follows the cursor', async () => {
      const first = okData(await c('GET', '/api/products?after_id=0&limit=2'));
      assert.deepEqual(
        first.products.map((p: any) => p.id),
        ids.slice(0, 2),
      );
      assert.deepEqual(first.pagination, { current_page: 1, total_pages: 2, total_items: 3, items_per_page: 2 });
      const second = okData(await c('GET', `/api/products?after_id=${ids[1]}&limit=2&include=variants`));
      assert.deepEqual(
        second.products.map((p: any) => p.id),
        [ids[2]],
      );
      assert.equal(second.products[0].variants.length, 1);
      assert.deepEqual(second.pagination, { current_page: 1, total_pages: 1, total_items: 1, items_per_page: 2 });
      const end = okData(await c('GET', `/api/products?after_id=${ids[2]}`));
      assert.deepEqual(end, { products: [], pagination: { current_page: 1, total_pages: 0, total_items: 0, items_per_page: 20 } });
      // Filters apply as on the plain list.
      assert.deepEqual(okData(await c('GET', '/api/products?after_id=0&status=active')).products, []);
      okData(await c('GET', '/api/products?after_id=0&page=1'));
    });

    it('the OpenAPI document shows include and after_id, and the included lists in the product schema', async () => {
      const spec = (await h.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json();
      const names = (path: string) => spec.paths[path].get.parameters.map((p: { name: string }) => p.name);
      assert.ok(names('/api/products').includes('include') && names('/api/products').includes('after_id'));
      assert.ok(names('/api/products/{id}').includes('include'));
      const ref = spec.paths['/api/products/{id}'].get.responses['200'].content['application/json'].schema.properties.data.$ref as string;
      const product = spec.components.schemas[ref.split('/').pop()!];
      assert.ok(product.properties.variants && product.properties.warehouse_stock && !product.required.includes('variants'));
    });

    it('after_id: bad values and combinations are 400s', async () => {
      for (const bad of ['-1', 'abc', '1.5', '2147483648']) assertError(await c('GET', `/api/products?after_id=${bad}`), 400, /query parameter 'after_id'/);
      assertError(await c('GET', '/api/products?after_id=0&page=2'), 400, /'page' cannot be combined with 'after_id'/);
      assertError(await c('GET', '/api/products?after_id=0&search=plain'), 400, /'search' cannot be combined with 'after_id'/);
    });

    it('updated_since + after_id walks (updated_at, id) with ties inside one millisecond, each product once', async () => {
      const own = await h.tenant();
      const o = h.as(own);
      const made: number[] = [];
      for (let i = 0; i < 7; i++) made.push((await createProduct(o, { name: `Tie ${i}` })).id);
      const since = okData(await o('GET', `/api/products/${made[0]}`)).updated_at as string;
      // One request assigns them all in one transaction: one updated_at for the seven (reverse order of ids on purpose).
      const category = okData(await o('POST', '/api/categories', { name: 'Ties' }), 201);
      okData(await o('POST', `/api/categories/${category.id}/products`, { product_ids: [...made].reverse() }));
      const later = (await createProduct(o, { name: 'Later' })).id;
      const seen: { id: number; updated_at: string }[] = [];
      let cursor = { since, afterId: 0 };
      for (let guard = 0; guard < 20; guard++) {
        const data = okData(await o('GET', `/api/products?updated_since=${encodeURIComponent(cursor.since)}&after_id=${cursor.afterId}&limit=3`));
        if (data.products.length === 0) break;
        for (const p of data.products) seen.push({ id: p.id, updated_at: p.updated_at });
        const last = data.products.at(-1);
        cursor = { since: last.updated_at, afterId: last.id };
      }
      assert.deepEqual(
        seen.map((p) => p.id),
        [...made, later],
        'id order inside the tie, the later change last, nothing twice',
      );
      assert.equal(new Set(seen.slice(0, 7).map((p) => p.updated_at)).size, 1, 'the seven share one updated_at');
      assert.ok(seen[7].updated_at > seen[0].updated_at);
      // Without after_id the list keeps its order by id (and its page/offset paging).
      const plain = okData(await o('GET', `/api/products?updated_since=${encodeURIComponent(since)}&limit=100`));
      assert.deepEqual(
        plain.products.map((p: any) => p.id),
        [...made, later],
      );
      // The same walk through the connector's client.
      const changes: number[] = [];
      let at = { since, afterId: 0 };
      for (let guard = 0; guard < 20; guard++) {
        const page = await client.changedProducts({ baseUrl: h.pimUrl, apiKey: own.apiKey }, { ...at, limit: 2 });
        if (page.length === 0) break;
        for (const p of page) {
          assert.match(p.updated_at, MS_ISO);
          assert.equal(p.status, 'draft');
          changes.push(p.id);
        }
        at = { since: page.at(-1)!.updated_at, afterId: page.at(-1)!.id };
      }
      assert.deepEqual(changes, [...made, later]);
    });

    it('PimClient.productSnapshot: one read with include, the same snapshot as the three reads', async () => {
      for (const id of ids) {
        const snap = await client.productSnapshot(conn(), id);
        const product = okData(await c('GET', `/api/products/${id}`));
        const { variants, warehouse_stock } = await separately(id);
        // The one read carries the translations too (include=translations); the three reads of the spec have none.
        assert.deepEqual(snap, { ...product, variants, warehouse_stock, translations: {} });
      }
      const missing = await client.productSnapshot(conn(), 2_000_000_000).catch((err) => err);
      assert.ok(missing instanceof PimReadError && missing.kind === 'not_found', String(missing));
    });

    it('ids on the list: only those products, whole with include; bad lists are 400s naming ids', async () => {
      const [plain, rich, one] = ids;
      const page = okData(await c('GET', `/api/products?ids=${one},${plain},${one}&include=variants,warehouse_stock`));
      assert.deepEqual(
        page.products.map((p: { id: number }) => p.id),
        [plain, one],
      );
      assert.equal(page.pagination.total_items, 2);
      for (const p of page.products) assert.deepEqual({ variants: p.variants, warehouse_stock: p.warehouse_stock }, await separately(p.id));
      // Another organization's product and one that does not exist are simply not there.
      const other = await createProduct(h.as(await h.tenant()), { name: 'Not yours' });
      assert.deepEqual(
        okData(await c('GET', `/api/products?ids=${rich},${other.id},2000000000`)).products.map((p: { id: number }) => p.id),
        [rich],
      );
      const tooMany = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
      for (const bad of ['', 'a', '1,,2', '1.5', '-1', tooMany])
        assertError(await c('GET', `/api/products?ids=${encodeURIComponent(bad)}`), 400, /query parameter 'ids'/);
      for (const bad of ['0', '2147483648']) assertError(await c('GET', `/api/products?ids=1,${bad}`), 400, /query parameter 'ids'/);
    });

    it('PimClient.productSnapshots: the batch in one read, the same snapshots as one by one; unknown ids left out', async () => {
      const snaps = await client.productSnapshots(conn(), [...ids, 2_000_000_000, ids[0]]);
      assert.deepEqual(
        [...snaps.keys()].sort((a, b) => a - b),
        [...ids].sort((a, b) => a - b),
      );
      for (const id of ids) assert.deepEqual(snaps.get(id), await client.productSnapshot(conn(), id));
    });

    it('PimClient.productPage: whole products by id, page after page, with what is left', async () => {
      const pages: { ids: number[]; total: number }[] = [];
      let afterId = 0;
      for (;;) {
        const page = await client.productPage(conn(), { afterId, limit: 2 });
        if (page.products.length === 0) break;
        pages.push({ ids: page.products.map((p) => p.id), total: page.total });
        for (const p of page.products) assert.deepEqual({ variants: p.variants, warehouse_stock: p.warehouse_stock }, await separately(p.id));
        afterId = page.products.at(-1)!.id;
      }
      assert.deepEqual(pages, [
        { ids: ids.slice(0, 2), total: 3 },
        { ids: [ids[2]], total: 1 },
      ]);
    });
  });
}

describe('PimClient against a PIM without the extensions, and 429', () => {
  let server: TestServer;
  let handler: (url: URL) => { status: number; body?: unknown; headers?: Record<string, string> };
  const client = new PimClient({ allowPrivateNetworks: true, publicUrl: 'http://localhost:1' });
  const ok = (data: unknown) => ({ status: 200, body: { status: 1, data, error: null } });
  const conn = () => ({ baseUrl: server.url, apiKey: 'k' });

  before(async () => {
    server = await serveHttp((req, res) => {
      const a = handler(new URL(req.url ?? '/', 'http://x'));
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(JSON.stringify(a.body ?? {}));
    });
  });
  after(() => server.close());

  it('a PIM with include answers the snapshot in one request', async () => {
    server.hits.length = 0;
    handler = (url) =>
      url.pathname === '/api/products/5'
        ? ok({ id: 5, name: 'Five', sku: 'F', updated_at: '2026-01-01T00:00:00.123Z', variants: [{ sku: 'F-1' }], warehouse_stock: [] })
        : { status: 500 };
    const snap = await client.productSnapshot(conn(), 5);
    assert.deepEqual(server.hits, ['/api/products/5?include=variants,warehouse_stock,translations']);
    assert.deepEqual(snap.variants, [{ sku: 'F-1' }]);
    assert.deepEqual(snap.warehouse_stock, []);
    assert.equal(snap.updated_at, '2026-01-01T00:00:00.123Z');
  });

  it('a PIM that ignores include is read the spec way; one that ignores after_id is refused, not paged for ever', async () => {
    server.hits.length = 0;
    const product = (id: number) => ({ id, name: `P${id}`, sku: `S${id}`, updated_at: '2026-01-01T00:00:00.000Z' });
    handler = (url) => {
      if (url.pathname === '/api/products') return ok({ products: [product(1), product(2)], pagination: { total_items: 2 } });
      const variants = /^\/api\/products\/(\d+)\/variants$/.exec(url.pathname);
      if (variants) return ok({ variants: [{ sku: `S${variants[1]}-V` }] });
      return { status: 404, body: { status: 0, data: null, error: 'Not found' } };
    };
    const first = await client.productPage(conn(), { afterId: 0, limit: 100 });
    assert.deepEqual(
      first.products.map((p) => [p.id, p.variants[0].sku, 'warehouse_stock' in p]),
      [
        [1, 'S1-V', false],
        [2, 'S2-V', false],
      ],
    );
    assert.equal(first.total, 2);
    const again = await client.productPage(conn(), { afterId: 2, limit: 100 }).catch((err) => err);
    assert.ok(again instanceof PimReadError && again.kind === 'unavailable' && /does not page by after_id/.test(again.message), String(again));
    const changes = await client.changedProducts(conn(), { since: '2026-01-01T00:00:00.000Z', afterId: 1, limit: 100 }).catch((err) => err);
    assert.ok(changes instanceof PimReadError && /does not page by updated_since with after_id/.test(changes.message), String(changes));
  });

  it('a PIM that ignores ids: its other products are not taken for the ones asked', async () => {
    server.hits.length = 0;
    const product = (id: number) => ({ id, name: `P${id}`, sku: `S${id}`, variants: [], warehouse_stock: [] });
    handler = (url) =>
      url.pathname === '/api/products' ? ok({ products: [product(1), product(2), product(3)], pagination: { total_items: 3 } }) : { status: 500 };
    const snaps = await client.productSnapshots(conn(), [2, 9]);
    assert.deepEqual([...snaps.keys()], [2]);
    assert.deepEqual(server.hits, ['/api/products?ids=2,9&after_id=0&limit=2&include=variants,warehouse_stock,translations']);
  });

  it('429: waits Retry-After and reads again; a wait beyond the budget fails at once as unavailable', async () => {
    let calls = 0;
    handler = () =>
      ++calls === 1
        ? { status: 429, headers: { 'retry-after': '1' }, body: { status: 0, data: null, error: 'slow down' } }
        : ok({ products: [], pagination: { total_items: 0 } });
    const started = Date.now();
    assert.deepEqual(await client.changedProducts(conn(), { since: '2026-01-01T00:00:00.000Z', afterId: 0, limit: 10 }), []);
    assert.equal(calls, 2);
    assert.ok(Date.now() - started >= 950, 'waited the second it was told');

    calls = 0;
    handler = () => {
      calls++;
      return { status: 429, headers: { 'retry-after': '45' }, body: {} };
    };
    const t0 = Date.now();
    const err = await client.productSnapshot(conn(), 5).catch((e) => e);
    assert.ok(
      err instanceof PimReadError && err.kind === 'unavailable' && /rate-limited GET \/api\/products\/5 \(HTTP 429, retry after 45 s\)/.test(err.message),
      String(err),
    );
    assert.equal(calls, 1, 'no retry when the wait exceeds the budget');
    assert.ok(Date.now() - t0 < 1_000);

    // Retries stop once their waits add up past the budget.
    const tight = new PimClient({ allowPrivateNetworks: true, publicUrl: 'http://localhost:1', rateLimitWaitMs: 2_000 });
    calls = 0;
    handler = () => {
      calls++;
      return { status: 429, headers: { 'retry-after': '1' }, body: {} };
    };
    const limited = await tight.changedProducts(conn(), { since: '2026-01-01T00:00:00.000Z', afterId: 0, limit: 10 }).catch((e) => e);
    assert.ok(limited instanceof PimReadError && limited.kind === 'unavailable', String(limited));
    assert.equal(calls, 3, 'two waits of 1 s fit in 2 s, the third does not');
  });
});
