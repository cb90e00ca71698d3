import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, insertCategory, listIds, okData, type Call } from './helpers/pim.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Product = any;

for (const target of databaseTargets()) {
  describe(`the product list as a workbench (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());

    const fresh = async (): Promise<{ c: Call; tenant: Tenant }> => {
      const tenant = await h.tenant();
      return { c: h.as(tenant), tenant };
    };
    const get = async (c: Call, id: number): Promise<Product> => okData(await c('GET', `/api/products/${id}`));
    /** The product's newest history entry: its action and its fields old → new. */
    const newest = async (c: Call, id: number) => {
      const entry = okData(await c('GET', `/api/products/${id}/history`)).changes[0];
      return { action: entry.action, by: entry.who.kind, changes: entry.changes.map((f: Product) => [f.field, f.old, f.new]) };
    };

    describe('sort', () => {
      it('orders the list by each key, both ways, ties by id, across pages', async () => {
        const { c } = await fresh();
        const a = await createProduct(c, { name: 'Banana', sku: 'S-B', price: '5.00', stock: 3, status: 'active' });
        const b = await createProduct(c, { name: 'apple', sku: 'S-A', price: '9.00', stock: 3 });
        const d = await createProduct(c, { name: 'Cherry', sku: 'S-C', stock: 1, status: 'archived' });
        assert.deepEqual(await listIds(c, 'sort=price'), [a.id, b.id, d.id], 'no price last going up');
        assert.deepEqual(await listIds(c, 'sort=-price'), [d.id, b.id, a.id]);
        assert.deepEqual(await listIds(c, 'sort=sku'), [b.id, a.id, d.id]);
        assert.deepEqual(await listIds(c, 'sort=-sku'), [d.id, a.id, b.id]);
        assert.deepEqual(await listIds(c, 'sort=stock'), [d.id, a.id, b.id]);
        assert.deepEqual(await listIds(c, 'sort=-stock'), [b.id, a.id, d.id]);
        assert.deepEqual(await listIds(c, 'sort=status'), [a.id, d.id, b.id]);
        assert.deepEqual(await listIds(c, 'sort=-id'), [d.id, b.id, a.id]);
        assert.deepEqual(await listIds(c, 'sort=updated_at'), [a.id, b.id, d.id]);
        // Names in the database's collation (letter case first in C, last in a language's): Banana before Cherry both ways.
        const byName = await listIds(c, 'sort=name');
        assert.ok(byName.indexOf(a.id) < byName.indexOf(d.id));
        assert.deepEqual(await listIds(c, 'sort=-name'), [...byName].reverse());
        assert.deepEqual(await listIds(c, 'sort=-price&limit=2&page=2'), [a.id]);
        assert.deepEqual(await listIds(c, 'sort=-price&search=s-'), [d.id, b.id, a.id], 'with a search too');
        assert.deepEqual(await listIds(c, 'sort=price&status=archived'), [d.id]);
      });

      it('refuses an unknown key, and sort with keyset paging', async () => {
        const { c } = await fresh();
        assertError(await c('GET', '/api/products?sort=description'), 400, /sort.*must be one of id, name, sku, price, stock, status, updated_at/);
        assertError(await c('GET', '/api/products?sort=--price'), 400, /sort/);
        assertError(await c('GET', '/api/products?sort=price;drop'), 400, /sort/);
        assertError(await c('GET', '/api/products?sort=price&after_id=0'), 400, /sort.*after_id/);
      });
    });

    describe('bulk changes and their undo', () => {
      const bulk = async (c: Call, body: object) => okData(await c('POST', '/api/products/bulk', body));
      const undo = async (c: Call, id: number) => okData(await c('POST', `/api/products/bulk/${id}/undo`));

      it('sets the status of the products named, and puts it back', async () => {
        const { c } = await fresh();
        const a = await createProduct(c, { status: 'active' });
        const b = await createProduct(c);
        const before = (await get(c, b.id)).updated_at;
        const done = await bulk(c, { ids: [a.id, b.id], action: 'set_status', value: 'active' });
        assert.deepEqual({ ...done, id: 0 }, { id: 0, action: 'set_status', matched: 2, changed: 1, product_ids: [b.id], undone: false });
        assert.equal((await get(c, b.id)).status, 'active');
        assert.ok((await get(c, b.id)).updated_at > before, 'the delta sync sees the change');
        // In the product's history, by the key that made it; the product left as it was gets no entry.
        assert.deepEqual(await newest(c, b.id), { action: 'updated', by: 'api_key', changes: [['status', 'draft', 'active']] });
        assert.equal(okData(await c('GET', `/api/products/${a.id}/history`)).changes.length, 1, 'only its creation');
        // The undo takes no body (or `{}`): one with fields is refused and undoes nothing.
        assertError(await c('POST', `/api/products/bulk/${done.id}/undo`, { value: 'draft' }), 400, /field 'value' is not allowed/);
        assert.equal((await get(c, b.id)).status, 'active');
        const undone = await undo(c, done.id);
        assert.deepEqual(undone.product_ids, [b.id]);
        assert.equal((await get(c, b.id)).status, 'draft');
        assert.deepEqual(await newest(c, b.id), { action: 'updated', by: 'api_key', changes: [['status', 'active', 'draft']] });
        assert.equal((await get(c, a.id)).status, 'active');
        assertError(await c('POST', `/api/products/bulk/${done.id}/undo`), 400, /undone already/);
      });

      it('forgets bulk changes older than 30 days when a new one is made: they can no longer be undone', async () => {
        const { c } = await fresh();
        const p = await createProduct(c);
        const old = await bulk(c, { ids: [p.id], action: 'set_status', value: 'active' });
        const recent = await bulk(c, { ids: [p.id], action: 'add_channel', value: 'web' });
        await h.database.db.execute(sql`UPDATE product_bulk_changes SET created_at = now() - interval '31 days' WHERE id = ${old.id}`);
        await bulk(c, { ids: [p.id], action: 'add_channel', value: 'mobile' });
        assertError(await c('POST', `/api/products/bulk/${old.id}/undo`), 404, /can be undone for 30 days/);
        assert.equal((await get(c, p.id)).status, 'active');
        assert.equal((await undo(c, recent.id)).action, 'add_channel', 'a recent change can still be undone');
      });

      it('archives every product the filter matches, and brings them back', async () => {
        const { c } = await fresh();
        const a = await createProduct(c, { name: 'Red shirt', status: 'active' });
        const b = await createProduct(c, { name: 'Red cap' });
        const other = await createProduct(c, { name: 'Blue cap', status: 'active' });
        const done = await bulk(c, { filter: { search: 'red' }, action: 'archive' });
        assert.deepEqual([done.matched, done.changed], [2, 2]);
        assert.deepEqual([(await get(c, a.id)).status, (await get(c, b.id)).status, (await get(c, other.id)).status], ['archived', 'archived', 'active']);
        await undo(c, done.id);
        assert.deepEqual([(await get(c, a.id)).status, (await get(c, b.id)).status], ['active', 'draft']);
      });

      it('adds and removes a channel, and undoes each', async () => {
        const { c } = await fresh();
        const a = await createProduct(c, { publishing_channels: ['web'] });
        const b = await createProduct(c, { publishing_channels: ['mobile'] });
        const added = await bulk(c, { ids: [a.id, b.id], action: 'add_channel', value: 'web' });
        assert.deepEqual(added.product_ids, [b.id]);
        assert.deepEqual((await get(c, b.id)).publishing_channels, ['mobile', 'web']);
        const removed = await bulk(c, { ids: [a.id, b.id], action: 'remove_channel', value: 'mobile' });
        assert.deepEqual((await get(c, b.id)).publishing_channels, ['web']);
        await undo(c, removed.id);
        assert.deepEqual((await get(c, b.id)).publishing_channels, ['mobile', 'web']);
        await undo(c, added.id);
        assert.deepEqual((await get(c, b.id)).publishing_channels, ['mobile']);
        assert.deepEqual((await get(c, a.id)).publishing_channels, ['web']);
      });

      it('adds and removes a category, and undoes each', async () => {
        const { c, tenant } = await fresh();
        const shoes = await insertCategory(h, tenant.organizationId, 'Shoes');
        const a = await createProduct(c, { category_ids: [shoes] });
        const b = await createProduct(c);
        const added = await bulk(c, { ids: [a.id, b.id], action: 'add_category', value: shoes });
        assert.deepEqual(added.product_ids, [b.id]);
        assert.deepEqual(await listIds(c, `category=${shoes}`), [a.id, b.id]);
        await undo(c, added.id);
        assert.deepEqual(await listIds(c, `category=${shoes}`), [a.id]);
        const removed = await bulk(c, { filter: { category: shoes }, action: 'remove_category', value: shoes });
        assert.deepEqual(removed.product_ids, [a.id]);
        assert.deepEqual(await listIds(c, `category=${shoes}`), []);
        await undo(c, removed.id);
        assert.deepEqual(await listIds(c, `category=${shoes}`), [a.id]);
      });

      it('sets and clears the brand, and undoes it', async () => {
        const { c } = await fresh();
        const acme = okData(await c('POST', '/api/brands', { name: 'Acme' }), 201);
        const zen = okData(await c('POST', '/api/brands', { name: 'Zen' }), 201);
        const a = await createProduct(c, { brand_id: zen.id });
        const b = await createProduct(c);
        const set = await bulk(c, { ids: [a.id, b.id], action: 'set_brand', value: acme.id });
        assert.deepEqual([(await get(c, a.id)).brand?.name, (await get(c, b.id)).brand?.name], ['Acme', 'Acme']);
        await undo(c, set.id);
        assert.deepEqual([(await get(c, a.id)).brand?.name, (await get(c, b.id)).brand], ['Zen', null]);
        const cleared = await bulk(c, { ids: [a.id], action: 'set_brand', value: null });
        assert.equal((await get(c, a.id)).brand, null);
        await undo(c, cleared.id);
        assert.equal((await get(c, a.id)).brand?.name, 'Zen');
      });

      it('refuses bad bodies with a 400 and changes nothing', async () => {
        const { c } = await fresh();
        const other = await fresh();
        const a = await createProduct(c, { status: 'active' });
        const foreignCategory = await insertCategory(h, other.tenant.organizationId, 'Theirs');
        const foreignBrand = okData(await other.c('POST', '/api/brands', { name: 'Theirs' }), 201);
        const cases: [object, RegExp][] = [
          [{ action: 'archive' }, /either 'ids' or 'filter'/],
          [{ ids: [a.id], filter: {}, action: 'archive' }, /either 'ids' or 'filter'/],
          [{ ids: [a.id], action: 'set_status', value: 'gone' }, /value.*one of draft/],
          [{ ids: [a.id], action: 'add_channel', value: 'fax' }, /value.*one of web/],
          [{ ids: [a.id], action: 'add_category', value: foreignCategory }, /Unknown references: category/],
          [{ ids: [a.id], action: 'set_brand', value: foreignBrand.id }, /Unknown references: brand_id/],
          [{ ids: [a.id], action: 'archive', value: 'x' }, /value.*absent/],
          [{ ids: [a.id], action: 'explode' }, /action/],
          [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1), action: 'archive' }, /ids/],
        ];
        for (const [body, message] of cases) assertError(await c('POST', '/api/products/bulk', body), 400, message);
        assert.equal((await get(c, a.id)).status, 'active');
        assertError(await c('POST', '/api/products/bulk/999999/undo'), 404);
      });

      it("never touches another organization's products, nor undoes its changes", async () => {
        const mine = await fresh();
        const theirs = await fresh();
        const their = await createProduct(theirs.c, { status: 'active' });
        const done = await bulk(mine.c, { ids: [their.id], action: 'archive' });
        assert.deepEqual([done.matched, done.changed], [0, 0]);
        const all = await bulk(mine.c, { filter: {}, action: 'archive' });
        assert.equal(all.matched, 0);
        assert.equal((await get(theirs.c, their.id)).status, 'active');
        const theirChange = await bulk(theirs.c, { ids: [their.id], action: 'archive' });
        assertError(await mine.c('POST', `/api/products/bulk/${theirChange.id}/undo`), 404);
        assert.equal((await get(theirs.c, their.id)).status, 'archived');
      });
    });

    describe('batch', () => {
      it('saves every row in one go', async () => {
        const { c } = await fresh();
        const a = await createProduct(c, { price: '1.00', stock: 1 });
        const b = await createProduct(c, { price: '2.00', name: 'Old' });
        const saved = okData(
          await c('PATCH', '/api/products/batch', {
            products: [
              { id: a.id, price: '10.50', sale_price: '9.00', compare_at_price: '12.00', stock: 7, status: 'active' },
              { id: b.id, name: 'New', price: null },
            ],
          }),
        );
        assert.deepEqual(saved, { updated: 2, product_ids: [a.id, b.id] });
        const [pa, pb] = [await get(c, a.id), await get(c, b.id)];
        assert.deepEqual([pa.price, pa.sale_price, pa.compare_at_price, pa.stock, pa.status], ['10.5000', '9.0000', '12.0000', 7, 'active']);
        assert.deepEqual([pb.name, pb.price, pb.stock, pb.status], ['New', null, 0, 'draft']);
        const history = await newest(c, b.id);
        assert.equal(history.action, 'updated');
        assert.deepEqual(
          history.changes.find(([field]: string[]) => field === 'name'),
          ['name', 'Old', 'New'],
        );
      });

      it('names every refused row and saves none of them', async () => {
        const { c } = await fresh();
        const theirs = await fresh();
        const a = await createProduct(c, { price: '1.00' });
        const b = await createProduct(c, { price: '2.00' });
        const their = await createProduct(theirs.c, { price: '3.00' });
        const warehouse = okData(await c('POST', '/api/warehouses', { code: 'WH1', name: 'Main' }), 201);
        okData(await c('PUT', `/api/products/${b.id}/stock`, { warehouse_id: warehouse.id, quantity: 4 }));
        const error = assertError(
          await c('PATCH', '/api/products/batch', {
            products: [
              { id: a.id, price: '5.00' },
              { id: their.id, price: '6.00' },
              { id: b.id, stock: 9 },
              { id: a.id, price: '7.00' },
            ],
          }),
          400,
        );
        assert.match(error, /3 of 4 rows cannot be saved, nothing was saved/);
        assert.match(error, new RegExp(`row 2 \\(product ${their.id}\\): no such product`));
        assert.match(error, new RegExp(`row 3 \\(product ${b.id}\\): field 'stock'`));
        assert.match(error, /row 4 .*twice/);
        // A product with variants: its stock is theirs.
        const withVariants = await createProduct(c);
        okData(await c('POST', `/api/products/${withVariants.id}/variants`, { sku: `${withVariants.sku}-V`, name: 'V', stock_quantity: 2 }), 201);
        assertError(await c('PATCH', '/api/products/batch', { products: [{ id: withVariants.id, stock: 9 }] }), 400, /sum of its variants/);
        assert.equal((await get(c, withVariants.id)).stock, 2);
        assert.equal((await get(c, a.id)).price, '1.0000');
        assert.equal((await get(theirs.c, their.id)).price, '3.0000');
        assertError(await c('PATCH', '/api/products/batch', { products: [{ id: a.id, price: 5 }] }), 400, /price/);
        assertError(await c('PATCH', '/api/products/batch', { products: [{ id: a.id }] }), 400, /at least one field/);
        assertError(await c('PATCH', '/api/products/batch', { products: [] }), 400);
        assert.equal((await get(c, a.id)).price, '1.0000');
      });
    });

    describe('saved views', () => {
      const view = { name: 'Active shirts', filters: { status: 'active', search: 'shirt' }, columns: ['sku', 'name', 'price'], sort: '-price' };

      it("are each key's own: saved, replaced by name, listed, deleted", async () => {
        const { c, tenant } = await fresh();
        const secondKey = (await h.admin('POST', `/admin/organizations/${tenant.organizationId}/api-keys`, {})).json();
        const colleague = h.as({ ...tenant, apiKey: secondKey.api_key, keyId: secondKey.id });
        const saved = okData(await c('POST', '/api/product-views', view));
        assert.deepEqual({ ...saved, id: 0, updated_at: '' }, { ...view, id: 0, updated_at: '' });
        const replaced = okData(await c('POST', '/api/product-views', { ...view, sort: null, columns: ['name'] }));
        assert.equal(replaced.id, saved.id);
        okData(await c('POST', '/api/product-views', { ...view, name: 'All' }));
        assert.deepEqual(
          okData(await c('GET', '/api/product-views')).views.map((v: { name: string; sort: string | null }) => [v.name, v.sort]),
          [
            ['Active shirts', null],
            ['All', '-price'],
          ],
        );
        assert.deepEqual(okData(await colleague('GET', '/api/product-views')), { views: [] }, "another user's views are not mine");
        assertError(await colleague('DELETE', `/api/product-views/${saved.id}`), 404);
        okData(await c('DELETE', `/api/product-views/${saved.id}`));
        assert.deepEqual(
          okData(await c('GET', '/api/product-views')).views.map((v: { name: string }) => v.name),
          ['All'],
        );
      });

      it('are invisible to other organizations, and refuse bad bodies', async () => {
        const { c } = await fresh();
        const other = await fresh();
        const saved = okData(await c('POST', '/api/product-views', view));
        assert.deepEqual(okData(await other.c('GET', '/api/product-views')), { views: [] });
        assertError(await other.c('DELETE', `/api/product-views/${saved.id}`), 404);
        assertError(await c('POST', '/api/product-views', { ...view, sort: 'colour' }), 400, /sort/);
        assertError(await c('POST', '/api/product-views', { ...view, name: '' }), 400, /name/);
        assertError(await c('POST', '/api/product-views', { ...view, name: '   ' }), 400, /blank/);
        assertError(await c('POST', '/api/product-views', { ...view, filters: { colour: 'red' } }), 400, /colour/);
      });
    });
  });
}
