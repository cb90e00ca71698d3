import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { assertError, createProduct, okData, type Call } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`reference data: brands, suppliers, VAT rates (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());

    const fresh = async (): Promise<Call> => h.as(await h.tenant());

    for (const [path, key, noun] of [
      ['/api/brands', 'brands', 'brand'],
      ['/api/suppliers', 'suppliers', 'supplier'],
    ] as const) {
      describe(key, () => {
        it('lists none at first', async () => {
          const c = await fresh();
          assert.deepEqual(okData(await c('GET', path)), { [key]: [], total: 0 });
        });

        it('creates with 201 {id, name} and lists sorted by name', async () => {
          const c = await fresh();
          const zeta = okData(await c('POST', path, { name: 'Zeta' }), 201);
          assert.deepEqual(Object.keys(zeta), ['id', 'name']);
          assert.equal(zeta.name, 'Zeta');
          assert.equal(typeof zeta.id, 'number');
          const alpha = okData(await c('POST', path, { name: 'Alpha' }), 201);
          const mid = okData(await c('POST', path, { name: 'Müller & Söhne' }), 201);
          const data = okData(await c('GET', path));
          assert.deepEqual(Object.keys(data), [key, 'total']);
          assert.equal(data.total, 3);
          assert.deepEqual(data[key], [alpha, mid, zeta]);
        });

        it('rejects a duplicate name with 400 naming it, and allows it in another organization', async () => {
          const c = await fresh();
          okData(await c('POST', path, { name: 'Acme' }), 201);
          assertError(await c('POST', path, { name: 'Acme' }), 400, new RegExp(`${noun} 'Acme' already exists`));
          assert.equal(okData(await c('GET', path)).total, 1);
          const other = await fresh();
          assert.equal(okData(await other('POST', path, { name: 'Acme' }), 201).name, 'Acme');
        });

        it('gives concurrent creates of one name exactly one winner', async () => {
          const c = await fresh();
          const results = await Promise.all(Array.from({ length: 5 }, () => c('POST', path, { name: 'Racer' })));
          assert.equal(results.filter((r) => r.statusCode === 201).length, 1);
          for (const r of results.filter((r) => r.statusCode !== 201)) assertError(r, 400, /already exists/);
          assert.equal(okData(await c('GET', path)).total, 1);
        });

        it('validates the body', async () => {
          const c = await fresh();
          const cases: [unknown, RegExp][] = [
            [{}, /field 'name' is required/],
            [{ name: '' }, /field 'name'/],
            [{ name: 42 }, /field 'name'/],
            [{ name: null }, /field 'name'/],
            [{ name: 'x'.repeat(256) }, /field 'name'/],
            [{ name: 'Ok', id: 3 }, /field 'id' is not allowed/],
            [['Acme'], /the request body/],
          ];
          for (const [body, message] of cases) assertError(await c('POST', path, body), 400, message);
          assert.equal(okData(await c('GET', path)).total, 0);
          assert.equal(okData(await c('POST', path, { name: 'x'.repeat(255) }), 201).name.length, 255);
        });
      });
    }

    describe('VAT rates', () => {
      it('lists none at first', async () => {
        const c = await fresh();
        assert.deepEqual(okData(await c('GET', '/api/vat-rates')), { vat_rates: [], total: 0 });
      });

      it('creates with 201 and the rate as a decimal string with 4 places; lists by country, then name', async () => {
        const c = await fresh();
        const nl = okData(await c('POST', '/api/vat-rates', { name: 'Standard', rate: '21', country_code: 'NL' }), 201);
        assert.deepEqual(nl, { id: nl.id, name: 'Standard', rate: '21.0000', country_code: 'NL' });
        const deReduced = okData(await c('POST', '/api/vat-rates', { name: 'Reduced', rate: '7.0', country_code: 'DE' }), 201);
        const deStandard = okData(await c('POST', '/api/vat-rates', { name: 'Standard', rate: '19', country_code: 'DE' }), 201);
        const zero = okData(await c('POST', '/api/vat-rates', { name: 'Zero', rate: '0', country_code: 'NL' }), 201);
        const fine = okData(await c('POST', '/api/vat-rates', { name: 'Odd', rate: '5.5555', country_code: 'FR' }), 201);
        assert.equal(deReduced.rate, '7.0000');
        assert.equal(zero.rate, '0.0000');
        assert.equal(fine.rate, '5.5555');
        assert.deepEqual(okData(await c('GET', '/api/vat-rates')), { vat_rates: [deReduced, deStandard, fine, nl, zero], total: 5 });
      });

      it('rejects a duplicate name within a country, allows it in another country and another organization', async () => {
        const c = await fresh();
        okData(await c('POST', '/api/vat-rates', { name: 'Standard', rate: '21', country_code: 'BE' }), 201);
        assertError(await c('POST', '/api/vat-rates', { name: 'Standard', rate: '20', country_code: 'BE' }), 400, /VAT rate 'Standard' for BE already exists/);
        okData(await c('POST', '/api/vat-rates', { name: 'Standard', rate: '20', country_code: 'AT' }), 201);
        assert.equal(okData(await c('GET', '/api/vat-rates')).total, 2);
        okData(await (await fresh())('POST', '/api/vat-rates', { name: 'Standard', rate: '21', country_code: 'BE' }), 201);
      });

      it('rejects a bad rate or country code', async () => {
        const c = await fresh();
        const base = { name: 'Standard', rate: '21', country_code: 'DE' };
        for (const rate of ['abc', '1000', '-5', '21.12345', '', '21%', '2,5', ' 21']) {
          assertError(await c('POST', '/api/vat-rates', { ...base, rate }), 400, /field 'rate' must be a percentage/);
        }
        assertError(await c('POST', '/api/vat-rates', { ...base, rate: 21 }), 400, /field 'rate'/);
        for (const country_code of ['de', 'DEU', 'D', 'D1', '', 'Germany']) {
          assertError(await c('POST', '/api/vat-rates', { ...base, country_code }), 400, /field 'country_code' must be a two-letter ISO 3166 country code/);
        }
        assertError(await c('POST', '/api/vat-rates', { rate: '21', country_code: 'DE' }), 400, /field 'name' is required/);
        assertError(await c('POST', '/api/vat-rates', { name: 'X', country_code: 'DE' }), 400, /field 'rate' is required/);
        assertError(await c('POST', '/api/vat-rates', { name: 'X', rate: '21' }), 400, /field 'country_code' is required/);
        assertError(await c('POST', '/api/vat-rates', { ...base, name: 'x'.repeat(101) }), 400, /field 'name'/);
        assertError(await c('POST', '/api/vat-rates', { ...base, default: true }), 400, /field 'default' is not allowed/);
        assert.equal(okData(await c('GET', '/api/vat-rates')).total, 0);
      });
    });

    describe('use in products', () => {
      it('shows the brand, supplier and VAT rate on a product and keeps their ids apart', async () => {
        const c = await fresh();
        const brand = okData(await c('POST', '/api/brands', { name: 'Linked Brand' }), 201);
        const supplier = okData(await c('POST', '/api/suppliers', { name: 'Linked Supplier' }), 201);
        const vat = okData(await c('POST', '/api/vat-rates', { name: 'Reduced', rate: '9', country_code: 'NL' }), 201);
        const p = await createProduct(c, { brand_id: brand.id, supplier_id: supplier.id, vat_rate_id: vat.id });
        assert.deepEqual(p.brand, brand);
        assert.deepEqual(p.supplier, supplier);
        assert.deepEqual(p.vat_rate, vat);
        // A brand id is not a supplier id: the tables are separate.
        const swapped = await c('POST', '/api/products', { name: 'Swapped', sku: 'SWAP-1', brand_id: supplier.id + 100_000 });
        assertError(swapped, 400, /brand_id/);
      });

      it('an edit of a brand, supplier or VAT rate shows on its products and moves their updated_at (the delta sync sends them)', async () => {
        const c = await fresh();
        const brand = okData(await c('POST', '/api/brands', { name: 'Old Brand' }), 201);
        const supplier = okData(await c('POST', '/api/suppliers', { name: 'Old Supplier' }), 201);
        const vat = okData(await c('POST', '/api/vat-rates', { name: 'Standard', rate: '21', country_code: 'NL' }), 201);
        const p = await createProduct(c, { brand_id: brand.id, supplier_id: supplier.id, vat_rate_id: vat.id });
        const other = await createProduct(c, {});
        await h.database.db.execute(sql`UPDATE products SET updated_at = now() - interval '1 hour'`);
        const before = okData(await c('GET', `/api/products/${other.id}`)).updated_at;

        assert.deepEqual(okData(await c('PUT', `/api/brands/${brand.id}`, { name: 'New Brand' })), { id: brand.id, name: 'New Brand' });
        assert.deepEqual(okData(await c('PUT', `/api/suppliers/${supplier.id}`, { name: 'New Supplier' })), { id: supplier.id, name: 'New Supplier' });
        const changed = okData(await c('PUT', `/api/vat-rates/${vat.id}`, { name: 'Standard', rate: '9', country_code: 'NL' }));
        assert.equal(Number(changed.rate), 9);
        const shown = okData(await c('GET', `/api/products/${p.id}`));
        assert.equal(shown.brand.name, 'New Brand');
        assert.equal(shown.supplier.name, 'New Supplier');
        assert.equal(Number(shown.vat_rate.rate), 9);
        assert.ok(Date.parse(shown.updated_at) > Date.now() - 60_000, 'the product moved');
        assert.equal(okData(await c('GET', `/api/products/${other.id}`)).updated_at, before, 'a product without them did not');
      });

      it("an edit refuses a duplicate name, an unknown id and another organization's row, and changes nothing", async () => {
        const c = await fresh();
        const a = okData(await c('POST', '/api/brands', { name: 'A' }), 201);
        okData(await c('POST', '/api/brands', { name: 'B' }), 201);
        assertError(await c('PUT', `/api/brands/${a.id}`, { name: 'B' }), 400, /brand 'B' already exists/);
        assert.deepEqual(okData(await c('PUT', `/api/brands/${a.id}`, { name: 'A' })), a, 'keeping its own name is fine');
        assertError(await c('PUT', '/api/brands/999999', { name: 'C' }), 404, /Brand 999999 not found/);
        assertError(await (await fresh())('PUT', `/api/brands/${a.id}`, { name: 'Stolen' }), 404, /not found/);
        assertError(await c('PUT', `/api/brands/${a.id}`, { name: '' }), 400, /field 'name'/);
        const vat = okData(await c('POST', '/api/vat-rates', { name: 'Std', rate: '21', country_code: 'NL' }), 201);
        okData(await c('POST', '/api/vat-rates', { name: 'Low', rate: '9', country_code: 'NL' }), 201);
        assertError(await c('PUT', `/api/vat-rates/${vat.id}`, { name: 'Low', rate: '9', country_code: 'NL' }), 400, /already exists/);
        assertError(await c('PUT', `/api/vat-rates/${vat.id}`, { name: 'Std', rate: 'x', country_code: 'NL' }), 400, /field 'rate'/);
        assert.deepEqual(
          okData(await c('GET', '/api/brands')).brands.map((b: { name: string }) => b.name),
          ['A', 'B'],
        );
        assert.equal(Number(okData(await c('GET', '/api/vat-rates')).vat_rates.find((v: { id: number }) => v.id === vat.id).rate), 21);
      });

      it('the product list filters by category', async () => {
        const c = await fresh();
        const cat = okData(await c('POST', '/api/categories', { name: 'Chairs' }), 201);
        const inside = await createProduct(c, { category_ids: [cat.id] });
        await createProduct(c, {});
        const list = okData(await c('GET', `/api/products?category=${cat.id}`));
        assert.deepEqual(
          list.products.map((p: { id: number }) => p.id),
          [inside.id],
        );
        assert.equal(list.pagination.total_items, 1);
        assertError(await c('GET', '/api/products?category=abc'), 400, /category/);
      });
    });
  });
}
