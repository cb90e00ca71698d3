import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, instantBetween, listIds, okData, sku, VARIANT_KEYS, type Call } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`variants (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    let call: Call;
    before(async () => {
      h = await harness(target);
      t = await h.tenant();
      call = h.as(t);
    });
    after(() => h.close());

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const createVariant = async (productId: number, fields: Record<string, unknown> = {}, c: Call = call): Promise<any> =>
      okData(await c('POST', `/api/products/${productId}/variants`, { name: 'Variant', sku: sku('V'), ...fields }), 201);

    describe('list and get (the spec routes)', () => {
      it('lists no variants of a new product in the exact shape', async () => {
        const p = await createProduct(call, { name: 'Plain Tee' });
        const data = okData(await call('GET', `/api/products/${p.id}/variants`));
        assert.deepEqual(data, { product_id: p.id, product_name: 'Plain Tee', variants: [], total: 0 });
        assert.deepEqual(Object.keys(data), ['product_id', 'product_name', 'variants', 'total']);
      });

      it('lists variants ordered by position, then id, with the total', async () => {
        const p = await createProduct(call, { name: 'Ordered Tee' });
        const late = await createVariant(p.id, { name: 'Late', position: 5 });
        const early = await createVariant(p.id, { name: 'Early', position: 1 });
        const alsoEarly = await createVariant(p.id, { name: 'Also early', position: 1 });
        const data = okData(await call('GET', `/api/products/${p.id}/variants`));
        assert.equal(data.product_id, p.id);
        assert.equal(data.product_name, 'Ordered Tee');
        assert.equal(data.total, 3);
        assert.deepEqual(
          data.variants.map((v: { id: number }) => v.id),
          [early.id, alsoEarly.id, late.id],
        );
        for (const v of data.variants) assert.deepEqual(Object.keys(v).sort(), VARIANT_KEYS);
        assert.deepEqual(data.variants[2], late);
      });

      it('gets a single variant in the Variant shape', async () => {
        const p = await createProduct(call);
        const v = await createVariant(p.id, { name: 'Single', price: '9.5', attributes: [{ attribute_name: 'Size', value: 'L' }] });
        const got = okData(await call('GET', `/api/products/${p.id}/variants/${v.id}`));
        assert.deepEqual(got, v);
        assert.deepEqual(Object.keys(got).sort(), VARIANT_KEYS);
      });

      it('follows the product’s current name', async () => {
        const p = await createProduct(call, { name: 'Before' });
        okData(await call('PATCH', `/api/products/${p.id}`, { name: 'After' }));
        assert.equal(okData(await call('GET', `/api/products/${p.id}/variants`)).product_name, 'After');
      });

      it('answers 404 for an unknown product or variant, and for a variant of another product', async () => {
        const p = await createProduct(call);
        const other = await createProduct(call);
        const v = await createVariant(other.id);
        assertError(await call('GET', '/api/products/999999/variants'), 404, /Product 999999 not found/);
        assertError(await call('GET', `/api/products/${p.id}/variants/999999`), 404, /Variant 999999/);
        assertError(await call('GET', `/api/products/${p.id}/variants/${v.id}`), 404, new RegExp(`Variant ${v.id} of product ${p.id} not found`));
        assertError(await call('GET', `/api/products/999999/variants/${v.id}`), 404, /not found/);
      });

      it('answers 400 for ids that are not positive integers', async () => {
        assertError(await call('GET', '/api/products/abc/variants'), 400, /path parameter 'id'/);
        assertError(await call('GET', '/api/products/1/variants/abc'), 400, /path parameter 'variantId'/);
        assertError(await call('GET', '/api/products/1/variants/0'), 400, /path parameter 'variantId'/);
        assertError(await call('GET', '/api/products/1/variants/-4'), 400, /path parameter 'variantId'/);
      });

      it('still lists the variants of an archived product', async () => {
        const p = await createProduct(call, { name: 'Archived Tee' });
        const v = await createVariant(p.id);
        okData(await call('DELETE', `/api/products/${p.id}`));
        const data = okData(await call('GET', `/api/products/${p.id}/variants`));
        assert.equal(data.total, 1);
        assert.equal(data.variants[0].id, v.id);
      });
    });

    describe('create', () => {
      it('creates a variant with every field and decimals with 4 places', async () => {
        const p = await createProduct(call);
        const v = await createVariant(p.id, {
          sku: 'TEE-RED-M',
          name: 'Red / M',
          price: '19.9',
          sale_price: '15',
          cost: '7.1234',
          weight: '0.25',
          stock_quantity: 8,
          stock_status: 'in_stock',
          is_enabled: false,
          position: 3,
          image: 'https://cdn.example.com/tee-red.jpg',
          attributes: [
            { attribute_name: 'Color', value: 'Red' },
            { attribute_name: 'Size', value: 'M' },
          ],
          barcode: 'ISBN 978-3-16-148410-0',
          compare_at_price: '12.5',
          weight_unit: 'lb',
          inventory_policy: 'continue',
          inventory_tracked: false,
          taxable: false,
          requires_shipping: true,
        });
        assert.deepEqual(v, {
          id: v.id,
          product_id: p.id,
          sku: 'TEE-RED-M',
          sku_generated: false,
          name: 'Red / M',
          price: '19.9000',
          sale_price: '15.0000',
          cost: '7.1234',
          weight: '0.2500',
          stock_quantity: 8,
          stock_status: 'in_stock',
          is_enabled: false,
          position: 3,
          image: 'https://cdn.example.com/tee-red.jpg',
          attributes: [
            { attribute_name: 'Color', value: 'Red' },
            { attribute_name: 'Size', value: 'M' },
          ],
          barcode: 'ISBN 978-3-16-148410-0',
          compare_at_price: '12.5000',
          weight_unit: 'lb',
          inventory_policy: 'continue',
          inventory_tracked: false,
          taxable: false,
          requires_shipping: true,
          warehouse_stock: [],
        });
        assert.equal(typeof v.id, 'number');
      });

      it('fills defaults: no prices, quantity 0, out of stock, enabled, no image, no attributes', async () => {
        const p = await createProduct(call);
        const v = await createVariant(p.id, { sku: 'DEFAULTS-1', name: 'Defaults' });
        assert.deepEqual(
          { ...v, id: 0 },
          {
            id: 0,
            product_id: p.id,
            sku: 'DEFAULTS-1',
            sku_generated: false,
            name: 'Defaults',
            price: null,
            sale_price: null,
            cost: null,
            weight: null,
            stock_quantity: 0,
            stock_status: 'out_of_stock',
            is_enabled: true,
            position: 0,
            image: null,
            attributes: [],
            barcode: null,
            compare_at_price: null,
            weight_unit: null,
            inventory_policy: null,
            inventory_tracked: null,
            taxable: null,
            requires_shipping: null,
            warehouse_stock: [],
          },
        );
      });

      it('derives stock_status from stock_quantity when not given', async () => {
        const p = await createProduct(call);
        assert.equal((await createVariant(p.id, { stock_quantity: 5 })).stock_status, 'in_stock');
        assert.equal((await createVariant(p.id, { stock_quantity: 1 })).stock_status, 'in_stock');
        assert.equal((await createVariant(p.id, { stock_quantity: 0 })).stock_status, 'out_of_stock');
        assert.equal((await createVariant(p.id, { stock_quantity: -3 })).stock_status, 'out_of_stock');
        // A given status wins.
        const backorder = await createVariant(p.id, { stock_quantity: 0, stock_status: 'on_backorder' });
        assert.equal(backorder.stock_status, 'on_backorder');
        assert.equal((await createVariant(p.id, { stock_quantity: 4, stock_status: 'out_of_stock' })).stock_status, 'out_of_stock');
        assertError(
          await call('POST', `/api/products/${p.id}/variants`, { name: 'X', sku: sku(), stock_status: 'sold_out' }),
          400,
          /field 'stock_status' must be one of: in_stock, out_of_stock, on_backorder/,
        );
      });

      it('appends at the next position by default', async () => {
        const p = await createProduct(call);
        assert.equal((await createVariant(p.id)).position, 0);
        assert.equal((await createVariant(p.id)).position, 1);
        assert.equal((await createVariant(p.id, { position: 10 })).position, 10);
        assert.equal((await createVariant(p.id)).position, 11);
        // Positions are per product.
        const other = await createProduct(call);
        assert.equal((await createVariant(other.id)).position, 0);
      });

      it('keeps variant SKUs unique per organization but allows them in another organization', async () => {
        const a = await createProduct(call);
        const b = await createProduct(call);
        await createVariant(a.id, { sku: 'VAR-UNIQUE' });
        assertError(await call('POST', `/api/products/${a.id}/variants`, { name: 'Dup', sku: 'VAR-UNIQUE' }), 400, /field 'sku'.*VAR-UNIQUE/);
        assertError(await call('POST', `/api/products/${b.id}/variants`, { name: 'Dup', sku: 'VAR-UNIQUE' }), 400, /field 'sku'/);
        assert.equal(okData(await call('GET', `/api/products/${b.id}/variants`)).total, 0);
        const other = h.as(await h.tenant());
        const foreignProduct = await createProduct(other);
        assert.equal((await createVariant(foreignProduct.id, { sku: 'VAR-UNIQUE' }, other)).sku, 'VAR-UNIQUE');
      });

      it('gives concurrent creates of one SKU exactly one winner', async () => {
        const p = await createProduct(call);
        const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', `/api/products/${p.id}/variants`, { name: 'Race', sku: 'VAR-RACE' })));
        assert.equal(results.filter((r) => r.statusCode === 201).length, 1);
        for (const r of results.filter((r) => r.statusCode !== 201)) assertError(r, 400, /field 'sku'/);
        assert.equal(okData(await call('GET', `/api/products/${p.id}/variants`)).total, 1);
      });

      it('validates the attributes as [{attribute_name, value}]', async () => {
        const p = await createProduct(call);
        const bad: [unknown, RegExp][] = [
          [{ Color: 'Red' }, /field 'attributes'/],
          [[{ attribute_name: 'Color' }], /field 'attributes\[0\]\.value' is required/],
          [[{ value: 'Red' }], /field 'attributes\[0\]\.attribute_name' is required/],
          [[{ attribute_name: '', value: 'Red' }], /field 'attributes\[0\]\.attribute_name'/],
          [[{ attribute_name: 'Color', value: 5 }], /field 'attributes\[0\]\.value'/],
          [[{ attribute_name: 'Color', value: 'Red', extra: 1 }], /field 'attributes\[0\]\.extra' is not allowed/],
          [['Color=Red'], /field 'attributes\[0\]'/],
          [Array.from({ length: 51 }, (_, i) => ({ attribute_name: `a${i}`, value: 'v' })), /field 'attributes'/],
        ];
        for (const [attributes, message] of bad) {
          assertError(await call('POST', `/api/products/${p.id}/variants`, { name: 'Attr', sku: sku(), attributes }), 400, message);
        }
        assert.equal(okData(await call('GET', `/api/products/${p.id}/variants`)).total, 0, 'nothing was written');
        const v = await createVariant(p.id, { attributes: [{ attribute_name: 'Material', value: '' }] });
        assert.deepEqual(v.attributes, [{ attribute_name: 'Material', value: '' }]);
      });

      it('requires sku and name and validates the other fields', async () => {
        const p = await createProduct(call);
        const url = `/api/products/${p.id}/variants`;
        assertError(await call('POST', url, { name: 'No SKU' }), 400, /field 'sku' is required/);
        assertError(await call('POST', url, { sku: sku() }), 400, /field 'name' is required/);
        assertError(await call('POST', url, { name: 'X', sku: ' padded' }), 400, /field 'sku'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), price: 10 }), 400, /field 'price'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), weight: '-1' }), 400, /field 'weight'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), stock_quantity: '5' }), 400, /field 'stock_quantity'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), stock_quantity: 2.5 }), 400, /field 'stock_quantity'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), is_enabled: 'yes' }), 400, /field 'is_enabled'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), position: -1 }), 400, /field 'position'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), image: 'ftp://example.com/a.jpg' }), 400, /field 'image' must be an http\(s\) URL/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), image: 'not a url' }), 400, /field 'image'/);
        assertError(await call('POST', url, { name: 'X', sku: sku(), colour: 'red' }), 400, /field 'colour' is not allowed/);
        assert.equal(okData(await call('GET', url)).total, 0);
      });

      it('answers 404 when the product does not exist', async () => {
        assertError(await call('POST', '/api/products/999999/variants', { name: 'X', sku: sku() }), 404, /Product 999999 not found/);
      });
    });

    describe('patch', () => {
      it('changes only the given fields', async () => {
        const p = await createProduct(call);
        const v = await createVariant(p.id, {
          name: 'Blue / S',
          price: '10',
          stock_quantity: 3,
          attributes: [{ attribute_name: 'Size', value: 'S' }],
          image: 'https://x.example/a.png',
        });
        const patched = okData(await call('PATCH', `/api/products/${p.id}/variants/${v.id}`, { price: '11.25' }));
        assert.deepEqual(patched, { ...v, price: '11.2500' });
        const renamed = okData(
          await call('PATCH', `/api/products/${p.id}/variants/${v.id}`, { name: 'Blue / M', attributes: [{ attribute_name: 'Size', value: 'M' }] }),
        );
        assert.deepEqual(renamed, { ...v, price: '11.2500', name: 'Blue / M', attributes: [{ attribute_name: 'Size', value: 'M' }] });
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}/variants/${v.id}`)), renamed);
      });

      it('clears nullable fields with null and refuses null for the others', async () => {
        const p = await createProduct(call);
        const v = await createVariant(p.id, { price: '1', sale_price: '0.5', cost: '0.2', weight: '1', image: 'https://x.example/b.png' });
        const cleared = okData(await call('PATCH', `/api/products/${p.id}/variants/${v.id}`, { sale_price: null, image: null, cost: null, weight: null }));
        assert.deepEqual(cleared, { ...v, sale_price: null, image: null, cost: null, weight: null });
        for (const field of ['sku', 'name', 'stock_quantity', 'is_enabled', 'position', 'attributes', 'stock_status']) {
          assertError(await call('PATCH', `/api/products/${p.id}/variants/${v.id}`, { [field]: null }), 400, new RegExp(`field '${field}'`));
        }
      });

      it('re-derives stock_status from a new quantity unless one is given or the variant is on backorder', async () => {
        const p = await createProduct(call);
        const v = await createVariant(p.id, { stock_quantity: 2 });
        const url = `/api/products/${p.id}/variants/${v.id}`;
        assert.equal(okData(await call('PATCH', url, { stock_quantity: 0 })).stock_status, 'out_of_stock');
        assert.equal(okData(await call('PATCH', url, { stock_quantity: 6 })).stock_status, 'in_stock');
        assert.equal(okData(await call('PATCH', url, { name: 'No quantity' })).stock_status, 'in_stock');
        const given = okData(await call('PATCH', url, { stock_quantity: 0, stock_status: 'on_backorder' }));
        assert.deepEqual([given.stock_quantity, given.stock_status], [0, 'on_backorder']);
        assert.equal(okData(await call('PATCH', url, { stock_quantity: 9 })).stock_status, 'on_backorder', 'backorder is kept');
        assert.equal(okData(await call('PATCH', url, { stock_status: 'in_stock' })).stock_status, 'in_stock');
      });

      it('keeps SKUs unique and lets a variant keep its own', async () => {
        const p = await createProduct(call);
        const a = await createVariant(p.id);
        const b = await createVariant(p.id);
        assertError(await call('PATCH', `/api/products/${p.id}/variants/${b.id}`, { sku: a.sku, name: 'Stolen' }), 400, /field 'sku'/);
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}/variants/${b.id}`)), b, 'nothing changed');
        assert.equal(okData(await call('PATCH', `/api/products/${p.id}/variants/${a.id}`, { sku: a.sku })).sku, a.sku);
        assert.equal(okData(await call('PATCH', `/api/products/${p.id}/variants/${b.id}`, { sku: 'NEW-SKU-B' })).sku, 'NEW-SKU-B');
      });

      it('rejects an empty body and unknown fields', async () => {
        const p = await createProduct(call);
        const v = await createVariant(p.id);
        const url = `/api/products/${p.id}/variants/${v.id}`;
        assertError(await call('PATCH', url, {}), 400, /at least one field/);
        assertError(await call('PATCH', url, { product_id: 5 }), 400, /field 'product_id' is not allowed/);
        assertError(await call('PATCH', url, { name: 'X', id: 1 }), 400, /field 'id' is not allowed/);
        assert.deepEqual(okData(await call('GET', url)), v);
      });

      it('answers 404 for an unknown variant, a variant of another product, or an unknown product', async () => {
        const p = await createProduct(call);
        const other = await createProduct(call);
        const v = await createVariant(other.id, { name: 'Elsewhere' });
        assertError(await call('PATCH', `/api/products/${p.id}/variants/${v.id}`, { name: 'Hijack' }), 404, /not found/);
        assertError(await call('PATCH', `/api/products/${p.id}/variants/999999`, { name: 'X' }), 404, /not found/);
        assertError(await call('PATCH', `/api/products/999999/variants/${v.id}`, { name: 'X' }), 404, /not found/);
        assert.equal(okData(await call('GET', `/api/products/${other.id}/variants/${v.id}`)).name, 'Elsewhere');
      });
    });

    describe('delete', () => {
      it('deletes a variant; it is gone from get and list', async () => {
        const p = await createProduct(call);
        const a = await createVariant(p.id);
        const b = await createVariant(p.id);
        assert.deepEqual(okData(await call('DELETE', `/api/products/${p.id}/variants/${a.id}`)), { deleted: true });
        assertError(await call('GET', `/api/products/${p.id}/variants/${a.id}`), 404, /not found/);
        const list = okData(await call('GET', `/api/products/${p.id}/variants`));
        assert.equal(list.total, 1);
        assert.deepEqual(
          list.variants.map((v: { id: number }) => v.id),
          [b.id],
        );
        assertError(await call('DELETE', `/api/products/${p.id}/variants/${a.id}`), 404, /not found/);
        // Its SKU is free again.
        assert.equal((await createVariant(p.id, { sku: a.sku })).sku, a.sku);
      });

      it('answers 404 for a variant of another product and leaves it alone', async () => {
        const p = await createProduct(call);
        const other = await createProduct(call);
        const v = await createVariant(other.id);
        assertError(await call('DELETE', `/api/products/${p.id}/variants/${v.id}`), 404, /not found/);
        assertError(await call('DELETE', `/api/products/999999/variants/${v.id}`), 404, /not found/);
        assert.deepEqual(okData(await call('GET', `/api/products/${other.id}/variants/${v.id}`)), v);
      });
    });

    describe('product updated_at', () => {
      it('is bumped by variant create, patch and delete, and not by a failed write', async () => {
        const c = h.as(await h.tenant());
        const p = await createProduct(c);
        const bystander = await createProduct(c);
        const changedSince = async (since: string) => listIds(c, `updated_since=${encodeURIComponent(since)}`);

        let since = await instantBetween();
        const v = await createVariant(p.id, {}, c);
        assert.deepEqual(await changedSince(since), [p.id]);

        since = await instantBetween();
        okData(await c('PATCH', `/api/products/${p.id}/variants/${v.id}`, { stock_quantity: 4 }));
        assert.deepEqual(await changedSince(since), [p.id]);

        since = await instantBetween();
        assertError(await c('PATCH', `/api/products/${bystander.id}/variants/${v.id}`, { stock_quantity: 1 }), 404, /not found/);
        assertError(await c('POST', `/api/products/${bystander.id}/variants`, { name: 'Dup', sku: v.sku }), 400, /field 'sku'/);
        assertError(await c('DELETE', `/api/products/${bystander.id}/variants/${v.id}`), 404, /not found/);
        assert.deepEqual(await changedSince(since), [], 'failed writes touch nothing');

        since = await instantBetween();
        okData(await c('DELETE', `/api/products/${p.id}/variants/${v.id}`));
        assert.deepEqual(await changedSince(since), [p.id]);
      });
    });
  });
}
