import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';

for (const target of databaseTargets()) {
  describe(`products (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    let call: ReturnType<Harness['as']>;
    before(async () => {
      h = await harness(target);
      t = await h.tenant();
      call = h.as(t);
    });
    after(() => h.close());

    it('creates a product with 201 and the full Product shape', async () => {
      const res = await call('POST', '/api/products', { name: 'Blue Shirt', sku: 'SHIRT-1', price: '19.9', publishing_channels: ['web'] });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.status, 1);
      assert.equal(body.error, null);
      const p = body.data;
      assert.equal(p.name, 'Blue Shirt');
      assert.equal(p.slug, 'blue-shirt');
      assert.equal(p.price, '19.9000');
      assert.equal(p.sale_price, null);
      assert.equal(p.status, 'draft');
      assert.equal(p.in_stock, false);
      assert.deepEqual(p.publishing_channels, ['web']);
      assert.deepEqual(p.categories, []);
      assert.deepEqual(p.available_translations, []);
      assert.match(p.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it('rejects a duplicate SKU with 400 naming the field', async () => {
      const res = await call('POST', '/api/products', { name: 'Other', sku: 'SHIRT-1' });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().error, /sku/);
    });

    it('rejects a number where a decimal string is required', async () => {
      const res = await call('POST', '/api/products', { name: 'X', sku: 'X-1', price: 19.9 });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.json()), ['status', 'data', 'error']);
      assert.match(res.json().error, /price/);
    });
  });
}
