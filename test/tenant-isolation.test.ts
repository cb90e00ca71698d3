// Tenant isolation on every PIM route: another organization's key never sees or changes the first one's objects.
// Objects of another organization are 404 (never 403, never visible); referencing them is a 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, insertCategory, instantBetween, listIds, okData, sku, validEan, type Call } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`tenant isolation (${target.name})`, () => {
    let h: Harness;
    let a: Call;
    let b: Call;
    let tenantB: Tenant;
    // Organization A's objects.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let product: any;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let variant: any;
    let brandId: number;
    let supplierId: number;
    let vatRateId: number;
    let categoryId: number;
    // Organization B's own product.
    let ownProductId: number;

    /** Everything organization A has, as A sees it. */
    const snapshotA = async () => ({
      list: okData(await a('GET', '/api/products?limit=100')),
      product: okData(await a('GET', `/api/products/${product.id}`)),
      german: okData(await a('GET', `/api/products/${product.id}?locale=de`)),
      variants: okData(await a('GET', `/api/products/${product.id}/variants`)),
      channels: okData(await a('GET', '/api/channels')),
      brands: okData(await a('GET', '/api/brands')),
      suppliers: okData(await a('GET', '/api/suppliers')),
      vatRates: okData(await a('GET', '/api/vat-rates')),
    });
    let initialA: Awaited<ReturnType<typeof snapshotA>>;

    before(async () => {
      h = await harness(target);
      const tenantA = await h.tenant('Org A');
      tenantB = await h.tenant('Org B');
      a = h.as(tenantA);
      b = h.as(tenantB);
      brandId = okData(await a('POST', '/api/brands', { name: 'A Brand' }), 201).id;
      supplierId = okData(await a('POST', '/api/suppliers', { name: 'A Supplier' }), 201).id;
      vatRateId = okData(await a('POST', '/api/vat-rates', { name: 'A Standard', rate: '21', country_code: 'NL' }), 201).id;
      categoryId = await insertCategory(h, tenantA.organizationId, 'A Category');
      okData(await a('PUT', '/api/channels', { channels: [{ value: 'api', label: 'A API' }, { value: 'email' }] }));
      product = await createProduct(a, {
        name: 'Secret Product',
        sku: 'SECRET-1',
        ean: validEan(),
        description: 'confidential',
        status: 'active',
        brand_id: brandId,
        supplier_id: supplierId,
        vat_rate_id: vatRateId,
        category_ids: [categoryId],
        publishing_channels: ['web', 'api'],
      });
      okData(await a('PUT', `/api/products/${product.id}/translations/de`, { name: 'Geheimes Produkt' }));
      variant = okData(await a('POST', `/api/products/${product.id}/variants`, { name: 'Secret V', sku: 'SECRET-V1', stock_quantity: 3 }), 201);
      ownProductId = (await createProduct(b, { name: 'B Product', sku: 'B-1' })).id;
      initialA = await snapshotA();
    });
    after(() => h.close());

    it('does not list the other organization’s products, whatever the filters', async () => {
      const data = okData(await b('GET', '/api/products?limit=100'));
      assert.deepEqual(
        data.products.map((p: { id: number }) => p.id),
        [ownProductId],
      );
      assert.equal(data.pagination.total_items, 1);
      for (const query of [
        'search=secret',
        'search=SECRET-1',
        'search=confidential',
        `brand=${brandId}`,
        'channel=api',
        'status=active',
        'locale=de',
        'updated_since=2000-01-01T00:00:00Z',
        'page=2&limit=1',
      ]) {
        const ids = await listIds(b, query);
        assert.ok(!ids.includes(product.id), query);
        assert.ok(
          ids.every((id) => id === ownProductId),
          query,
        );
      }
    });

    it('answers 404 for get, exactly as for an id that does not exist', async () => {
      assertError(await b('GET', `/api/products/${product.id}`), 404, new RegExp(`^Product ${product.id} not found$`));
      assertError(await b('GET', `/api/products/${product.id}?locale=de`), 404, /not found/);
      const missing = 999_999;
      assertError(await b('GET', `/api/products/${missing}`), 404, new RegExp(`^Product ${missing} not found$`));
    });

    it('answers 404 for patch and delete and changes nothing', async () => {
      assertError(await b('PATCH', `/api/products/${product.id}`, { name: 'Stolen', price: '0' }), 404, /not found/);
      assertError(await b('PATCH', `/api/products/${product.id}`, { category_ids: [] }), 404, /not found/);
      assertError(await b('DELETE', `/api/products/${product.id}`), 404, /not found/);
      const seen = okData(await a('GET', `/api/products/${product.id}`));
      assert.equal(seen.status, 'active');
      assert.equal(seen.name, 'Secret Product');
    });

    it('answers 404 for translations of the other organization’s product', async () => {
      assertError(await b('PUT', `/api/products/${product.id}/translations/de`, { name: 'Gestohlen' }), 404, /not found/);
      assertError(await b('PUT', `/api/products/${product.id}/translations/fr`, { name: 'Volé' }), 404, /not found/);
      assertError(await b('DELETE', `/api/products/${product.id}/translations/de`), 404, /not found/);
      const seen = okData(await a('GET', `/api/products/${product.id}?locale=de`));
      assert.equal(seen.name, 'Geheimes Produkt');
      assert.deepEqual(seen.available_translations, ['de']);
    });

    it('answers 404 for every variant route on the other organization’s product', async () => {
      const base = `/api/products/${product.id}/variants`;
      assertError(await b('GET', base), 404, /not found/);
      assertError(await b('GET', `${base}/${variant.id}`), 404, /not found/);
      assertError(await b('POST', base, { name: 'Injected', sku: sku('INJ') }), 404, /not found/);
      assertError(await b('PATCH', `${base}/${variant.id}`, { stock_quantity: 0 }), 404, /not found/);
      assertError(await b('DELETE', `${base}/${variant.id}`), 404, /not found/);
      // Nor through a product of its own.
      const own = `/api/products/${ownProductId}/variants/${variant.id}`;
      assertError(await b('GET', own), 404, /not found/);
      assertError(await b('PATCH', own, { name: 'Moved' }), 404, /not found/);
      assertError(await b('DELETE', own), 404, /not found/);
      assert.deepEqual(okData(await a('GET', `${base}/${variant.id}`)), variant);
    });

    it('refuses references to the other organization’s brand, supplier, VAT rate and categories with 400', async () => {
      const before = okData(await b('GET', '/api/products')).pagination.total_items;
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ brand_id: brandId }, new RegExp(`brand_id ${brandId}`)],
        [{ supplier_id: supplierId }, new RegExp(`supplier_id ${supplierId}`)],
        [{ vat_rate_id: vatRateId }, new RegExp(`vat_rate_id ${vatRateId}`)],
        [{ category_ids: [categoryId] }, new RegExp(`category_ids ${categoryId}`)],
      ];
      for (const [fields, message] of cases) {
        assertError(await b('POST', '/api/products', { name: 'Borrowing', sku: sku('BRW'), ...fields }), 400, message);
        assertError(await b('PATCH', `/api/products/${ownProductId}`, fields), 400, message);
      }
      assert.equal(okData(await b('GET', '/api/products')).pagination.total_items, before);
      const own = okData(await b('GET', `/api/products/${ownProductId}`));
      assert.deepEqual([own.brand, own.supplier, own.vat_rate, own.categories], [null, null, null, []]);
    });

    it('keeps channels, brands, suppliers and VAT rates per organization', async () => {
      assert.deepEqual(okData(await b('GET', '/api/channels')), {
        channels: [
          { value: 'web', label: 'Web', description: 'Online store' },
          { value: 'mobile', label: 'Mobile', description: 'Mobile app' },
        ],
        total: 2,
      });
      okData(await b('PUT', '/api/channels', { channels: [{ value: 'social' }] }));
      okData(await b('PUT', '/api/channels', { channels: [] }));
      assert.deepEqual(okData(await b('GET', '/api/brands')), { brands: [], total: 0 });
      assert.deepEqual(okData(await b('GET', '/api/suppliers')), { suppliers: [], total: 0 });
      assert.deepEqual(okData(await b('GET', '/api/vat-rates')), { vat_rates: [], total: 0 });
      // The same names are free in B.
      const brand = okData(await b('POST', '/api/brands', { name: 'A Brand' }), 201);
      assert.notEqual(brand.id, brandId);
      okData(await b('POST', '/api/suppliers', { name: 'A Supplier' }), 201);
      okData(await b('POST', '/api/vat-rates', { name: 'A Standard', rate: '21', country_code: 'NL' }), 201);
      assert.deepEqual(
        okData(await a('GET', '/api/brands')).brands.map((x: { id: number }) => x.id),
        [brandId],
      );
      assert.equal(okData(await a('GET', '/api/suppliers')).total, 1);
      assert.equal(okData(await a('GET', '/api/vat-rates')).total, 1);
      // B's brand filter does not reach A's products either.
      assert.deepEqual(await listIds(a, `brand=${brand.id}`), []);
    });

    it('lets the other organization reuse SKUs, slugs, EANs and variant SKUs', async () => {
      const twin = await createProduct(b, { name: product.name, sku: product.sku, ean: product.ean });
      assert.equal(twin.sku, product.sku);
      assert.equal(twin.slug, product.slug);
      assert.equal(twin.ean, product.ean);
      const twinVariant = okData(await b('POST', `/api/products/${twin.id}/variants`, { name: 'Twin V', sku: variant.sku }), 201);
      assert.equal(twinVariant.sku, variant.sku);
      // A's own uniqueness is unaffected by B's twins.
      assertError(await a('POST', '/api/products', { name: 'Again', sku: product.sku }), 400, /field 'sku'/);
    });

    it('left every object of the first organization exactly as it was, updated_at included', async () => {
      assert.deepEqual(await snapshotA(), initialA);
      const since = await instantBetween();
      assertError(await b('DELETE', `/api/products/${product.id}/variants/${variant.id}`), 404, /not found/);
      assertError(await b('DELETE', `/api/products/${product.id}/translations/de`), 404, /not found/);
      assert.deepEqual(await listIds(a, `updated_since=${encodeURIComponent(since)}`), [], 'no write of B touched A');
    });
  });
}
