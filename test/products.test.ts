import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import {
  assertError,
  createProduct,
  insertCategory,
  instantBetween,
  listIds,
  okData,
  PRODUCT_KEYS,
  productCount,
  raw,
  sku,
  validEan,
  wrongCheckDigit,
  type Call,
} from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`products (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    let call: Call;
    before(async () => {
      h = await harness(target);
      t = await h.tenant();
      call = h.as(t);
    });
    after(() => h.close());

    /** A new organization of its own, so list counts start from zero. */
    const freshTenant = async () => h.as(await h.tenant());

    describe('create', () => {
      it('creates a product with 201 and the full Product shape', async () => {
        const res = await call('POST', '/api/products', { name: 'Blue Shirt', sku: 'SHIRT-1', price: '19.9', publishing_channels: ['web'] });
        assert.equal(res.statusCode, 201, res.body);
        const body = res.json();
        assert.equal(body.status, 1);
        assert.equal(body.error, null);
        const p = body.data;
        assert.deepEqual(Object.keys(p).sort(), PRODUCT_KEYS);
        assert.equal(p.name, 'Blue Shirt');
        assert.equal(p.sku, 'SHIRT-1');
        assert.equal(p.slug, 'blue-shirt');
        assert.equal(p.price, '19.9000');
        assert.equal(p.sale_price, null);
        assert.equal(p.cost_price, null);
        assert.equal(p.description, null);
        assert.equal(p.short_description, null);
        assert.equal(p.ean, null);
        assert.equal(p.status, 'draft');
        assert.equal(p.product_type, 'simple');
        assert.equal(p.product_condition, 'new');
        assert.equal(p.currency, 'EUR');
        assert.equal(p.stock, 0);
        assert.equal(p.in_stock, false);
        assert.equal(p.brand, null);
        assert.equal(p.supplier, null);
        assert.equal(p.vat_rate, null);
        assert.deepEqual(p.publishing_channels, ['web']);
        assert.deepEqual(p.categories, []);
        assert.deepEqual(p.images, []);
        assert.deepEqual(p.attributes, {});
        assert.deepEqual(p.available_translations, []);
        assert.equal(typeof p.id, 'number');
        assert.match(p.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        // updated_at to the millisecond: the delta sync's cursor (updated_since + after_id) continues from it.
        assert.match(p.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
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

      it('stores every optional field and returns the references as objects', async () => {
        const brand = okData(await call('POST', '/api/brands', { name: 'Create Brand' }), 201);
        const supplier = okData(await call('POST', '/api/suppliers', { name: 'Create Supplier' }), 201);
        const vat = okData(await call('POST', '/api/vat-rates', { name: 'Standard', rate: '21', country_code: 'NL' }), 201);
        const catB = await insertCategory(h, t.organizationId, 'Shirts');
        const catA = await insertCategory(h, t.organizationId, 'Apparel');
        const p = await createProduct(call, {
          name: 'Full Product',
          sku: 'FULL-1',
          description: '<p>Soft <b>cotton</b></p>',
          short_description: 'Soft cotton',
          price: '29.99',
          sale_price: '24.5',
          cost_price: '10',
          currency: 'USD',
          status: 'active',
          stock: 12,
          ean: '4006381333931',
          brand_id: brand.id,
          supplier_id: supplier.id,
          vat_rate_id: vat.id,
          category_ids: [catB, catA],
          publishing_channels: ['web', 'mobile', 'api', 'marketplace', 'social', 'email'],
          product_type: 'variable',
          product_condition: 'refurbished',
        });
        assert.equal(p.description, '<p>Soft <b>cotton</b></p>');
        assert.equal(p.short_description, 'Soft cotton');
        assert.equal(p.price, '29.9900');
        assert.equal(p.sale_price, '24.5000');
        assert.equal(p.cost_price, '10.0000');
        assert.equal(p.currency, 'USD');
        assert.equal(p.status, 'active');
        assert.equal(p.stock, 12);
        assert.equal(p.in_stock, true);
        assert.equal(p.ean, '4006381333931');
        assert.deepEqual(p.brand, { id: brand.id, name: 'Create Brand' });
        assert.deepEqual(p.supplier, { id: supplier.id, name: 'Create Supplier' });
        assert.deepEqual(p.vat_rate, { id: vat.id, name: 'Standard', rate: '21.0000', country_code: 'NL' });
        assert.deepEqual(
          p.categories,
          [
            { id: catB, name: 'Shirts' },
            { id: catA, name: 'Apparel' },
          ].sort((a, b) => a.id - b.id),
        );
        assert.deepEqual(p.publishing_channels, ['web', 'mobile', 'api', 'marketplace', 'social', 'email']);
        assert.equal(p.product_type, 'variable');
        assert.equal(p.product_condition, 'refurbished');
        // What was returned is what is stored.
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}`)), p);
      });

      it('returns every price with exactly 4 decimal places', async () => {
        const cases: [string, string][] = [
          ['0', '0.0000'],
          ['7', '7.0000'],
          ['0.1', '0.1000'],
          ['12.34', '12.3400'],
          ['1.2345', '1.2345'],
          ['999999999999999.9999', '999999999999999.9999'],
        ];
        for (const [given, shown] of cases) {
          const p = await createProduct(call, { price: given, sale_price: given, cost_price: given });
          assert.equal(p.price, shown, given);
          assert.equal(p.sale_price, shown, given);
          assert.equal(p.cost_price, shown, given);
        }
      });

      it('rejects prices that are not non-negative decimal strings with up to 4 places', async () => {
        for (const price of ['1.23456', '-1', '1e3', '12,50', '', ' 1', '1.', '.5', '1234567890123456', 'NaN']) {
          assertError(await call('POST', '/api/products', { name: 'Bad price', sku: sku(), price }), 400, /field 'price'/);
        }
        for (const field of ['sale_price', 'cost_price']) {
          assertError(await call('POST', '/api/products', { name: 'Bad price', sku: sku(), [field]: 5 }), 400, new RegExp(`field '${field}'`));
        }
      });

      it('requires name and sku', async () => {
        assertError(await call('POST', '/api/products', { sku: sku() }), 400, /field 'name' is required/);
        assertError(await call('POST', '/api/products', { name: 'No SKU' }), 400, /field 'sku' is required/);
        assertError(await call('POST', '/api/products', { name: '', sku: sku() }), 400, /field 'name'/);
        assertError(await call('POST', '/api/products', { name: 'Blank SKU', sku: '' }), 400, /field 'sku'/);
        assertError(await call('POST', '/api/products', { name: 'Padded SKU', sku: ' PAD-1 ' }), 400, /field 'sku'/);
        assertError(await call('POST', '/api/products', { name: null, sku: sku() }), 400, /field 'name'/);
      });

      it('keeps SKUs unique per organization but allows the same SKU in another organization', async () => {
        await createProduct(call, { name: 'Mug', sku: 'MUG-1' });
        assertError(await call('POST', '/api/products', { name: 'Mug again', sku: 'MUG-1' }), 400, /field 'sku'.*MUG-1/);
        const other = await freshTenant();
        const p = await createProduct(other, { name: 'Mug', sku: 'MUG-1' });
        assert.equal(p.sku, 'MUG-1');
        assert.equal(p.slug, 'mug');
      });

      it('generates the slug from the name and makes it unique with -2, -3', async () => {
        const first = await createProduct(call, { name: 'Red Hat' });
        const second = await createProduct(call, { name: 'Red Hat' });
        const third = await createProduct(call, { name: 'red  HAT!' });
        assert.deepEqual([first.slug, second.slug, third.slug], ['red-hat', 'red-hat-2', 'red-hat-3']);
        assert.equal((await createProduct(call, { name: 'Crème Brûlée — 50% off' })).slug, 'crème-brûlée-50-off');
        assert.equal((await createProduct(call, { name: 'Рубашка синяя' })).slug, 'рубашка-синяя', 'letters of every script are kept');
        assert.equal((await createProduct(call, { name: '!!!' })).slug, 'product');
        // Another organization starts from the plain slug again.
        assert.equal((await createProduct(await freshTenant(), { name: 'Red Hat' })).slug, 'red-hat');
      });

      it('keeps an explicit slug, refuses a taken or malformed one', async () => {
        const p = await createProduct(call, { name: 'Whatever Name', slug: 'my-custom-slug' });
        assert.equal(p.slug, 'my-custom-slug');
        // What a Shopify handle takes: lower-case letters of any script, digits, single hyphens.
        for (const slug of ['東京-tシャツ', 'синий-свитер', 'ümlaut']) assert.equal((await createProduct(call, { name: 'Unicode', slug })).slug, slug);
        assertError(await call('POST', '/api/products', { name: 'Other', sku: sku(), slug: 'my-custom-slug' }), 400, /field 'slug'/);
        for (const slug of ['Not A Slug', 'UPPER', 'Ümlaut', 'trailing-', '-leading', 'double--hyphen', 'under_score', '']) {
          assertError(await call('POST', '/api/products', { name: 'Other', sku: sku(), slug }), 400, /field 'slug'/);
        }
        // A generated slug steps around an explicit one.
        await createProduct(call, { name: 'Taken', slug: 'green-lamp' });
        assert.equal((await createProduct(call, { name: 'Green Lamp' })).slug, 'green-lamp-2');
      });

      it('accepts valid GTIN-8/12/13/14 barcodes and rejects bad check digits', async () => {
        for (const ean of ['96385074', '036000291452', '5901234123457', '10614141000415']) {
          assert.equal((await createProduct(call, { ean })).ean, ean);
        }
        const before = await productCount(call);
        for (const ean of ['4006381333932', '96385075', '123456789', '1234567', '400638133393A', '123456789012345']) {
          assertError(await call('POST', '/api/products', { name: 'Bad EAN', sku: sku(), ean }), 400, /field 'ean'/);
        }
        assert.equal(await productCount(call), before, 'no product was written');
      });

      it('keeps one EAN per organization even for simultaneous creates (the database enforces it)', async () => {
        const ean = validEan();
        const results = await Promise.all(Array.from({ length: 6 }, (_, i) => call('POST', '/api/products', { name: `Racing EAN ${i}`, sku: sku(), ean })));
        assert.equal(results.filter((r) => r.statusCode === 201).length, 1, results.map((r) => r.statusCode).join(','));
        for (const r of results.filter((r) => r.statusCode !== 201)) assertError(r, 400, /field 'ean'/);
      });

      it('keeps EANs unique per organization', async () => {
        const other = await freshTenant();
        await createProduct(other, { ean: '4012345678901' });
        assertError(await other('POST', '/api/products', { name: 'Dup EAN', sku: sku(), ean: '4012345678901' }), 400, /field 'ean'/);
        // The same barcode in another organization is fine, and products without EAN do not collide.
        assert.equal((await createProduct(call, { ean: '4012345678901' })).ean, '4012345678901');
        await createProduct(other, { ean: null });
        await createProduct(other, {});
        assert.equal(await productCount(other), 3);
      });

      it('rejects unknown brand, supplier, VAT rate and category ids and writes nothing', async () => {
        const tenant = await h.tenant();
        const own = h.as(tenant);
        const cat = await insertCategory(h, tenant.organizationId, 'Real');
        await createProduct(own);
        const cases: [Record<string, unknown>, RegExp][] = [
          [{ brand_id: 999_999 }, /brand_id 999999/],
          [{ supplier_id: 999_999 }, /supplier_id 999999/],
          [{ vat_rate_id: 999_999 }, /vat_rate_id 999999/],
          [{ category_ids: [999_999] }, /category_ids 999999/],
          [{ category_ids: [cat, 999_998] }, /category_ids 999998/],
        ];
        for (const [fields, message] of cases) {
          assertError(await own('POST', '/api/products', { name: 'Dangling', sku: sku(), ...fields }), 400, message);
        }
        const list = okData(await own('GET', '/api/products'));
        assert.equal(list.pagination.total_items, 1);
        assert.ok(list.products.every((p: { name: string }) => p.name !== 'Dangling'));
      });

      it('accepts only the six publishing channels, each once', async () => {
        const p = await createProduct(call, { publishing_channels: ['email', 'social'] });
        assert.deepEqual(p.publishing_channels, ['email', 'social']);
        const error = assertError(
          await call('POST', '/api/products', { name: 'X', sku: sku(), publishing_channels: ['tiktok'] }),
          400,
          /publishing_channels\[0\]/,
        );
        assert.match(error, /web, mobile, api, marketplace, social, email/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), publishing_channels: ['web', 'web'] }), 400, /publishing_channels/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), publishing_channels: 'web' }), 400, /publishing_channels/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), publishing_channels: ['WEB'] }), 400, /publishing_channels/);
      });

      it('validates status, currency, stock and condition', async () => {
        for (const status of ['draft', 'active', 'archived', 'out_of_stock']) assert.equal((await createProduct(call, { status })).status, status);
        assertError(
          await call('POST', '/api/products', { name: 'X', sku: sku(), status: 'published' }),
          400,
          /field 'status' must be one of: draft, active, archived, out_of_stock/,
        );
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), currency: 'eur' }), 400, /field 'currency'/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), currency: 'EURO' }), 400, /field 'currency'/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), stock: 1.5 }), 400, /field 'stock'/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), stock: '3' }), 400, /field 'stock'/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), product_condition: 'broken' }), 400, /field 'product_condition'/);
        const negative = await createProduct(call, { stock: -2 });
        assert.equal(negative.stock, -2);
        assert.equal(negative.in_stock, false);
      });

      it('gives concurrent creates of one SKU exactly one winner and the others a 400', async () => {
        const c = await freshTenant();
        const results = await Promise.all(Array.from({ length: 6 }, () => c('POST', '/api/products', { name: 'Race', sku: 'RACE-1' })));
        assert.equal(results.filter((r) => r.statusCode === 201).length, 1);
        for (const r of results.filter((r) => r.statusCode !== 201)) assertError(r, 400, /field 'sku'/);
        assert.equal(await productCount(c), 1);
      });

      it('gives concurrent creates of one name distinct slugs', async () => {
        const c = await freshTenant();
        const results = await Promise.all(Array.from({ length: 6 }, (_, i) => c('POST', '/api/products', { name: 'Same Name', sku: `SAME-${i}` })));
        const slugs = results.map((r) => okData(r, 201).slug).sort();
        assert.deepEqual(slugs, ['same-name', 'same-name-2', 'same-name-3', 'same-name-4', 'same-name-5', 'same-name-6']);
      });
    });

    describe('fields a Shopify product holds (beyond the spec)', () => {
      it('stores and returns them, and PATCH changes only what it names', async () => {
        const created = okData(
          await call('POST', '/api/products', {
            name: 'Gift card',
            sku: sku(),
            tags: ['summer', 'Sale'],
            seo_title: 'Buy a gift',
            seo_description: 'For someone you like',
            gift_card: true,
            taxonomy_category: 'gc-1',
            weight: '0.5',
            weight_unit: 'lb',
            barcode: 'ISBN 978-3-16-148410-0',
            compare_at_price: '10',
            inventory_policy: 'continue',
            inventory_tracked: false,
            taxable: false,
            requires_shipping: false,
          }),
          201,
        );
        assert.deepEqual(created.tags, ['summer', 'Sale']);
        assert.equal(created.weight, '0.5000');
        assert.equal(created.weight_unit, 'lb');
        assert.equal(created.compare_at_price, '10.0000');
        assert.equal(created.barcode, 'ISBN 978-3-16-148410-0');
        assert.equal(created.ean, null, 'a free-text barcode is not the GTIN');
        assert.deepEqual(
          [created.gift_card, created.inventory_policy, created.inventory_tracked, created.taxable, created.requires_shipping],
          [true, 'continue', false, false, false],
        );
        const patched = okData(await call('PATCH', `/api/products/${created.id}`, { tags: [], inventory_policy: null }));
        assert.deepEqual(patched.tags, []);
        assert.equal(patched.inventory_policy, null);
        assert.equal(patched.seo_title, 'Buy a gift');
        const plain = await createProduct(call);
        assert.deepEqual(
          [plain.tags, plain.gift_card, plain.barcode, plain.weight, plain.inventory_tracked],
          [[], false, null, null, null],
          'not set in the PIM: null (the push then leaves the shop its own value)',
        );
      });

      it('refuses values Shopify would not take, naming the field', async () => {
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), weight_unit: 'stone' }), 400, /weight_unit/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), inventory_policy: 'sometimes' }), 400, /inventory_policy/);
        assertError(await call('POST', '/api/products', { name: 'X', sku: sku(), tags: Array.from({ length: 251 }, (_, i) => `t${i}`) }), 400, /tags/);
      });

      it("gives a product created without a currency the organization's default currency", async () => {
        const own = await freshTenant();
        assert.equal(okData(await own('GET', '/api/organization')).default_currency, null);
        assert.equal((await createProduct(own)).currency, 'EUR', 'no default set: EUR, as before');
        const org = okData(await own('PATCH', '/api/organization', { default_currency: 'VND' }));
        assert.equal(org.default_currency, 'VND');
        assert.equal((await createProduct(own)).currency, 'VND');
        assert.equal((await createProduct(own, { currency: 'USD' })).currency, 'USD', "a product's own currency wins");
        assert.equal((await createProduct(call)).currency, 'EUR', "another organization's default is not this one's");
        assertError(await own('PATCH', '/api/organization', { default_currency: 'dong' }), 400, /default_currency/);
      });
    });

    describe('get', () => {
      it('returns the product by id', async () => {
        const p = await createProduct(call, { name: 'Gettable', description: 'Desc' });
        const got = okData(await call('GET', `/api/products/${p.id}`));
        assert.deepEqual(got, p);
      });

      it('answers 404 for an unknown id and for another organization’s product', async () => {
        assertError(await call('GET', '/api/products/999999'), 404, /Product 999999 not found/);
        const foreign = await createProduct(await freshTenant(), { name: 'Foreign' });
        assertError(await call('GET', `/api/products/${foreign.id}`), 404, new RegExp(`Product ${foreign.id} not found`));
      });

      it('answers 400 for an id that is not a positive integer', async () => {
        for (const id of ['abc', '1.5', '0', '-1', '99999999999', '%20']) {
          assertError(await call('GET', `/api/products/${id}`), 400, /path parameter 'id'/);
        }
      });
    });

    describe('list', () => {
      let c: Call;
      let ids: number[];
      before(async () => {
        c = await freshTenant();
        ids = [];
        for (let i = 1; i <= 25; i++) ids.push((await createProduct(c, { name: `Item ${String(i).padStart(2, '0')}` })).id);
      });

      it('defaults to page 1 of 20, ordered by id, with the exact pagination object', async () => {
        const data = okData(await c('GET', '/api/products'));
        assert.deepEqual(Object.keys(data).sort(), ['pagination', 'products']);
        assert.deepEqual(data.pagination, { current_page: 1, total_pages: 2, total_items: 25, items_per_page: 20 });
        assert.deepEqual(
          data.products.map((p: { id: number }) => p.id),
          ids.slice(0, 20),
        );
        for (const p of data.products) assert.deepEqual(Object.keys(p).sort(), PRODUCT_KEYS);
      });

      it('pages through the rest', async () => {
        const second = okData(await c('GET', '/api/products?page=2'));
        assert.deepEqual(second.pagination, { current_page: 2, total_pages: 2, total_items: 25, items_per_page: 20 });
        assert.deepEqual(
          second.products.map((p: { id: number }) => p.id),
          ids.slice(20),
        );
        const third = okData(await c('GET', '/api/products?limit=10&page=3'));
        assert.deepEqual(third.pagination, { current_page: 3, total_pages: 3, total_items: 25, items_per_page: 10 });
        assert.deepEqual(
          third.products.map((p: { id: number }) => p.id),
          ids.slice(20),
        );
        const one = okData(await c('GET', '/api/products?limit=1&page=7'));
        assert.deepEqual(one.pagination, { current_page: 7, total_pages: 25, total_items: 25, items_per_page: 1 });
        assert.deepEqual(
          one.products.map((p: { id: number }) => p.id),
          [ids[6]],
        );
        const all = okData(await c('GET', '/api/products?limit=100'));
        assert.deepEqual(all.pagination, { current_page: 1, total_pages: 1, total_items: 25, items_per_page: 100 });
        assert.equal(all.products.length, 25);
      });

      it('answers a page past the end with an empty list and the correct total', async () => {
        const data = okData(await c('GET', '/api/products?page=4&limit=10'));
        assert.deepEqual(data.products, []);
        assert.deepEqual(data.pagination, { current_page: 4, total_pages: 3, total_items: 25, items_per_page: 10 });
        const far = okData(await c('GET', '/api/products?page=1000'));
        assert.deepEqual(far.products, []);
        assert.equal(far.pagination.total_items, 25);
        assert.equal(far.pagination.total_pages, 2);
      });

      it('answers an empty organization with zero items', async () => {
        const data = okData(await (await freshTenant())('GET', '/api/products'));
        assert.deepEqual(data, { products: [], pagination: { current_page: 1, total_pages: 0, total_items: 0, items_per_page: 20 } });
      });

      it('rejects a limit outside 1-100 or not an integer, and a page below 1', async () => {
        for (const limit of ['0', '101', 'abc', '-1', '1.5', '']) {
          assertError(await c('GET', `/api/products?limit=${limit}`), 400, /query parameter 'limit'/);
        }
        for (const page of ['0', '-1', 'abc', '2.5', '']) {
          assertError(await c('GET', `/api/products?page=${page}`), 400, /query parameter 'page'/);
        }
        assertError(await c('GET', '/api/products?limit=1&limit=2'), 400, /query parameter 'limit'/);
      });
    });

    describe('search and filters', () => {
      let c: Call;
      let tenant: Tenant;
      const p: Record<string, { id: number }> = {};
      before(async () => {
        tenant = await h.tenant();
        c = h.as(tenant);
        const brandA = okData(await c('POST', '/api/brands', { name: 'Brand A' }), 201);
        const brandB = okData(await c('POST', '/api/brands', { name: 'Brand B' }), 201);
        p.alpha = await createProduct(c, {
          name: 'Alpha Widget',
          description: 'Made of STEEL',
          sku: 'ALP-001',
          status: 'active',
          brand_id: brandA.id,
          publishing_channels: ['web', 'mobile'],
        });
        p.beta = await createProduct(c, {
          name: 'Beta Gadget',
          description: 'Contains 100% cotton',
          sku: 'BET_002',
          status: 'draft',
          brand_id: brandB.id,
          publishing_channels: ['mobile'],
        });
        p.gamma = await createProduct(c, { name: 'Gamma Gizmo', sku: 'GAM-003', status: 'active', brand_id: brandA.id, publishing_channels: ['api'] });
        p.delta = await createProduct(c, { name: 'Delta', description: 'plain', sku: 'DLT-004', status: 'out_of_stock' });
        p.brandA = brandA;
        p.brandB = brandB;
      });

      it('searches name, description and SKU case-insensitively', async () => {
        assert.deepEqual(await listIds(c, 'search=widget'), [p.alpha.id]);
        assert.deepEqual(await listIds(c, 'search=WIDGET'), [p.alpha.id]);
        assert.deepEqual(await listIds(c, 'search=steel'), [p.alpha.id], 'description');
        assert.deepEqual(await listIds(c, 'search=gam-0'), [p.gamma.id], 'SKU');
        assert.deepEqual(await listIds(c, 'search=bet_002'), [p.beta.id], 'SKU, lower-case');
        assert.deepEqual(await listIds(c, 'search=g'), [p.alpha.id, p.beta.id, p.gamma.id]);
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent('  gadget  ')}`), [p.beta.id], 'trimmed');
        const none = okData(await c('GET', '/api/products?search=nothing-matches-this'));
        assert.deepEqual(none, { products: [], pagination: { current_page: 1, total_pages: 0, total_items: 0, items_per_page: 20 } });
      });

      it('takes % and _ in the search term literally', async () => {
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent('%')}`), [p.beta.id]);
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent('100%')}`), [p.beta.id]);
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent('_')}`), [p.beta.id]);
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent('a_p')}`), [], '_ is not a one-character wildcard');
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent('a%t')}`), [], '% is not a wildcard');
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent('\\')}`), [], 'a backslash is no escape');
        assert.deepEqual(await listIds(c, `search=${encodeURIComponent("'; DROP TABLE products; --")}`), []);
        assert.equal(await productCount(c), 4);
      });

      it('rejects a search term over 200 characters', async () => {
        assertError(await c('GET', `/api/products?search=${'a'.repeat(201)}`), 400, /query parameter 'search'/);
        okData(await c('GET', `/api/products?search=${'a'.repeat(200)}`));
      });

      it('filters by status', async () => {
        assert.deepEqual(await listIds(c, 'status=active'), [p.alpha.id, p.gamma.id]);
        assert.deepEqual(await listIds(c, 'status=draft'), [p.beta.id]);
        assert.deepEqual(await listIds(c, 'status=out_of_stock'), [p.delta.id]);
        assert.deepEqual(await listIds(c, 'status=archived'), []);
        assertError(await c('GET', '/api/products?status=published'), 400, /query parameter 'status' must be one of: draft, active, archived, out_of_stock/);
        assertError(await c('GET', '/api/products?status=ACTIVE'), 400, /query parameter 'status'/);
      });

      it('filters by brand id', async () => {
        assert.deepEqual(await listIds(c, `brand=${p.brandA.id}`), [p.alpha.id, p.gamma.id]);
        assert.deepEqual(await listIds(c, `brand=${p.brandB.id}`), [p.beta.id]);
        assert.deepEqual(await listIds(c, 'brand=999999'), []);
        for (const brand of ['abc', '1.5', '0', '-3', 'Brand%20A']) {
          assertError(await c('GET', `/api/products?brand=${brand}`), 400, /query parameter 'brand'/);
        }
      });

      it('filters by publishing channel', async () => {
        assert.deepEqual(await listIds(c, 'channel=mobile'), [p.alpha.id, p.beta.id]);
        assert.deepEqual(await listIds(c, 'channel=web'), [p.alpha.id]);
        assert.deepEqual(await listIds(c, 'channel=api'), [p.gamma.id]);
        assert.deepEqual(await listIds(c, 'channel=email'), []);
        const error = assertError(await c('GET', '/api/products?channel=tiktok'), 400, /query parameter 'channel'/);
        assert.match(error, /web, mobile, api, marketplace, social, email/);
      });

      it('combines filters and counts only the matches', async () => {
        const data = okData(await c('GET', `/api/products?status=active&brand=${p.brandA.id}&channel=api&search=gizmo`));
        assert.deepEqual(
          data.products.map((x: { id: number }) => x.id),
          [p.gamma.id],
        );
        assert.deepEqual(data.pagination, { current_page: 1, total_pages: 1, total_items: 1, items_per_page: 20 });
        const paged = okData(await c('GET', '/api/products?status=active&limit=1&page=2'));
        assert.deepEqual(
          paged.products.map((x: { id: number }) => x.id),
          [p.gamma.id],
        );
        assert.deepEqual(paged.pagination, { current_page: 2, total_pages: 2, total_items: 2, items_per_page: 1 });
      });

      it('filters by updated_since (ISO 8601) and rejects anything else', async () => {
        const own = await freshTenant();
        const old = await createProduct(own, { name: 'Old' });
        const since = await instantBetween();
        const fresh = await createProduct(own, { name: 'Fresh' });
        assert.deepEqual(await listIds(own, `updated_since=${encodeURIComponent(since)}`), [fresh.id]);
        // The same instant written with an offset.
        const d = new Date(since);
        const shifted = new Date(d.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
        assert.deepEqual(await listIds(own, `updated_since=${encodeURIComponent(shifted)}`), [fresh.id]);
        assert.deepEqual(await listIds(own, 'updated_since=2000-01-01T00:00:00Z'), [old.id, fresh.id]);
        assert.deepEqual(await listIds(own, 'updated_since=2999-01-01T00:00:00Z'), []);
        // A change to the old product brings it in.
        okData(await own('PATCH', `/api/products/${old.id}`, { stock: 3 }));
        assert.deepEqual(await listIds(own, `updated_since=${encodeURIComponent(since)}`), [old.id, fresh.id]);
        for (const bad of ['yesterday', '2024-13-01T00:00:00Z', '2024-01-01T25:00:00Z', '2024-02-30T00:00:00Z', '1700000000', '']) {
          assertError(await own('GET', `/api/products?updated_since=${encodeURIComponent(bad)}`), 400, /query parameter 'updated_since'/);
        }
      });
    });

    describe('translations and ?locale=', () => {
      let c: Call;
      let shirt: { id: number; updated_at: string };
      let mug: { id: number };
      before(async () => {
        c = await freshTenant();
        shirt = await createProduct(c, { name: 'Shirt', description: 'A shirt', short_description: 'Shirt.' });
        mug = await createProduct(c, { name: 'Mug', description: 'A mug' });
      });

      it('sets a translation and overlays it on get with ?locale=', async () => {
        const tr = okData(await c('PUT', `/api/products/${shirt.id}/translations/de`, { name: 'Hemd', description: 'Ein Hemd' }));
        assert.deepEqual(tr, {
          product_id: shirt.id,
          locale: 'de',
          name: 'Hemd',
          description: 'Ein Hemd',
          short_description: null,
          seo_title: null,
          seo_description: null,
        });
        const de = okData(await c('GET', `/api/products/${shirt.id}?locale=de`));
        assert.equal(de.name, 'Hemd');
        assert.equal(de.description, 'Ein Hemd');
        assert.equal(de.short_description, 'Shirt.', 'an untranslated field falls back to the original');
        assert.deepEqual(de.available_translations, ['de']);
        const plain = okData(await c('GET', `/api/products/${shirt.id}`));
        assert.equal(plain.name, 'Shirt');
        assert.equal(plain.description, 'A shirt');
        assert.deepEqual(plain.available_translations, ['de']);
        const unknown = okData(await c('GET', `/api/products/${shirt.id}?locale=ja`));
        assert.equal(unknown.name, 'Shirt', 'a locale without translation shows the original');
      });

      it('overlays translations in the list, leaving untranslated products as they are', async () => {
        const data = okData(await c('GET', '/api/products?locale=de'));
        const byId = new Map(data.products.map((p: { id: number }) => [p.id, p]));
        assert.equal((byId.get(shirt.id) as { name: string }).name, 'Hemd');
        assert.equal((byId.get(mug.id) as { name: string }).name, 'Mug');
        assert.deepEqual((byId.get(mug.id) as { available_translations: string[] }).available_translations, []);
        const plain = okData(await c('GET', '/api/products'));
        assert.equal(plain.products.find((p: { id: number }) => p.id === shirt.id).name, 'Shirt');
      });

      it('updates only the given fields of an existing translation; null clears one', async () => {
        okData(await c('PUT', `/api/products/${shirt.id}/translations/de`, { short_description: 'Hemd.' }));
        let de = okData(await c('GET', `/api/products/${shirt.id}?locale=de`));
        assert.deepEqual([de.name, de.description, de.short_description], ['Hemd', 'Ein Hemd', 'Hemd.']);
        const tr = okData(await c('PUT', `/api/products/${shirt.id}/translations/de`, { description: null }));
        assert.deepEqual(tr, {
          product_id: shirt.id,
          locale: 'de',
          name: 'Hemd',
          description: null,
          short_description: 'Hemd.',
          seo_title: null,
          seo_description: null,
        });
        de = okData(await c('GET', `/api/products/${shirt.id}?locale=de`));
        assert.equal(de.description, 'A shirt', 'a cleared translation falls back to the original');
      });

      it('lists available translations sorted, with region codes', async () => {
        okData(await c('PUT', `/api/products/${shirt.id}/translations/fr-CA`, { name: 'Chemise' }));
        okData(await c('PUT', `/api/products/${shirt.id}/translations/es`, { name: 'Camisa' }));
        assert.deepEqual(okData(await c('GET', `/api/products/${shirt.id}`)).available_translations, ['de', 'es', 'fr-CA']);
        assert.equal(okData(await c('GET', `/api/products/${shirt.id}?locale=fr-CA`)).name, 'Chemise');
      });

      it('rejects bad locales and bad bodies', async () => {
        for (const locale of ['xx_YY', 'DE', 'english', 'de-de', 'd', 'de-DEU', '12']) {
          assertError(await c('PUT', `/api/products/${shirt.id}/translations/${locale}`, { name: 'X' }), 400, /path parameter 'locale'/);
          assertError(await c('DELETE', `/api/products/${shirt.id}/translations/${locale}`), 400, /path parameter 'locale'/);
        }
        assertError(await c('GET', `/api/products/${shirt.id}?locale=xx_YY`), 400, /query parameter 'locale'/);
        assertError(await c('GET', '/api/products?locale=EN'), 400, /query parameter 'locale'/);
        assertError(
          await c('PUT', `/api/products/${shirt.id}/translations/it`, {}),
          400,
          /must carry name, description, short_description, seo_title or seo_description/,
        );
        assertError(await c('PUT', `/api/products/${shirt.id}/translations/it`, { title: 'X' }), 400, /field 'title' is not allowed/);
        assertError(await c('PUT', `/api/products/${shirt.id}/translations/it`, { name: '' }), 400, /field 'name'/);
        assertError(await c('PUT', `/api/products/${shirt.id}/translations/it`, { name: 5 }), 400, /field 'name'/);
        assertError(await c('PUT', `/api/products/${shirt.id}/translations/it`, { name: 'x'.repeat(256) }), 400, /field 'name'/);
        assert.ok(!okData(await c('GET', `/api/products/${shirt.id}`)).available_translations.includes('it'));
      });

      it('answers 404 for an unknown product', async () => {
        assertError(await c('PUT', '/api/products/999999/translations/de', { name: 'X' }), 404, /Product 999999 not found/);
        assertError(await c('DELETE', '/api/products/999999/translations/de'), 404, /Product 999999 not found/);
      });

      it('bumps the product’s updated_at on put and delete', async () => {
        const since = await instantBetween();
        assert.deepEqual(await listIds(c, `updated_since=${encodeURIComponent(since)}`), []);
        okData(await c('PUT', `/api/products/${mug.id}/translations/nl`, { name: 'Mok' }));
        assert.deepEqual(await listIds(c, `updated_since=${encodeURIComponent(since)}`), [mug.id]);
        const later = await instantBetween();
        assert.deepEqual(okData(await c('DELETE', `/api/products/${mug.id}/translations/nl`)), { deleted: true });
        assert.deepEqual(await listIds(c, `updated_since=${encodeURIComponent(later)}`), [mug.id]);
        // A failed delete (no such translation) touches nothing.
        const last = await instantBetween();
        assertError(await c('DELETE', `/api/products/${mug.id}/translations/nl`), 404, /no 'nl' translation/);
        assert.deepEqual(await listIds(c, `updated_since=${encodeURIComponent(last)}`), []);
      });

      it('deletes a translation: it leaves available_translations and the overlay', async () => {
        assert.deepEqual(okData(await c('DELETE', `/api/products/${shirt.id}/translations/es`)), { deleted: true });
        const p = okData(await c('GET', `/api/products/${shirt.id}?locale=es`));
        assert.equal(p.name, 'Shirt');
        assert.deepEqual(p.available_translations, ['de', 'fr-CA']);
        assertError(await c('DELETE', `/api/products/${shirt.id}/translations/es`), 404, /no 'es' translation/);
      });
    });

    describe('patch', () => {
      it('changes only the given fields', async () => {
        const brand = okData(await call('POST', '/api/brands', { name: 'Patch Brand' }), 201);
        const cat = await insertCategory(h, t.organizationId, 'Patch Cat');
        const p = await createProduct(call, {
          name: 'Patchable',
          description: 'Original',
          price: '10',
          sale_price: '8',
          stock: 4,
          ean: validEan(),
          brand_id: brand.id,
          category_ids: [cat],
          publishing_channels: ['web'],
          status: 'active',
        });
        const patched = okData(await call('PATCH', `/api/products/${p.id}`, { price: '12.5' }));
        assert.equal(patched.price, '12.5000');
        const { price: _a, updated_at: _b, ...restBefore } = p;
        const { price: _c, updated_at: _d, ...restAfter } = patched;
        assert.deepEqual(restAfter, restBefore);
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}`)), patched);

        const renamed = okData(await call('PATCH', `/api/products/${p.id}`, { name: 'Renamed', status: 'out_of_stock', stock: 0 }));
        assert.equal(renamed.name, 'Renamed');
        assert.equal(renamed.slug, 'patchable', 'a new name keeps the slug');
        assert.equal(renamed.status, 'out_of_stock');
        assert.equal(renamed.in_stock, false);
        assert.equal(renamed.description, 'Original');
        assert.equal(renamed.price, '12.5000');
        assert.deepEqual(renamed.brand, { id: brand.id, name: 'Patch Brand' });
        assert.deepEqual(renamed.categories, [{ id: cat, name: 'Patch Cat' }]);
      });

      it('clears a nullable field with null', async () => {
        const brand = okData(await call('POST', '/api/brands', { name: 'Clear Brand' }), 201);
        const p = await createProduct(call, { description: 'D', short_description: 'S', sale_price: '1', ean: validEan(), brand_id: brand.id });
        const cleared = okData(
          await call('PATCH', `/api/products/${p.id}`, { description: null, short_description: null, sale_price: null, ean: null, brand_id: null }),
        );
        assert.equal(cleared.description, null);
        assert.equal(cleared.short_description, null);
        assert.equal(cleared.sale_price, null);
        assert.equal(cleared.ean, null);
        assert.equal(cleared.brand, null);
        assert.equal(cleared.name, p.name);
        for (const field of ['name', 'sku', 'status', 'currency', 'stock', 'publishing_channels']) {
          assertError(await call('PATCH', `/api/products/${p.id}`, { [field]: null }), 400, new RegExp(`field '${field}'`));
        }
      });

      it('replaces categories, and [] removes them all', async () => {
        const a = await insertCategory(h, t.organizationId, 'Cat A');
        const b = await insertCategory(h, t.organizationId, 'Cat B');
        const p = await createProduct(call, { category_ids: [a] });
        assert.deepEqual(okData(await call('PATCH', `/api/products/${p.id}`, { category_ids: [b, a] })).categories, [
          { id: a, name: 'Cat A' },
          { id: b, name: 'Cat B' },
        ]);
        assert.deepEqual(okData(await call('PATCH', `/api/products/${p.id}`, { category_ids: [] })).categories, []);
      });

      it('rejects an empty body and unknown fields', async () => {
        const p = await createProduct(call);
        assertError(await call('PATCH', `/api/products/${p.id}`, {}), 400, /at least one field/);
        assertError(await call('PATCH', `/api/products/${p.id}`, { colour: 'red' }), 400, /field 'colour' is not allowed/);
        assertError(await call('PATCH', `/api/products/${p.id}`, { name: 'New', id: 5 }), 400, /field 'id' is not allowed/);
        assertError(await call('PATCH', `/api/products/${p.id}`, { name: 'New', in_stock: true }), 400, /field 'in_stock' is not allowed/);
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}`)), p, 'nothing changed');
      });

      it('keeps SKU, slug and EAN unique, but lets a product keep its own', async () => {
        const a = await createProduct(call, { name: 'Uniq A', ean: validEan() });
        const b = await createProduct(call, { name: 'Uniq B' });
        assertError(await call('PATCH', `/api/products/${b.id}`, { sku: a.sku }), 400, /field 'sku'/);
        assertError(await call('PATCH', `/api/products/${b.id}`, { slug: a.slug }), 400, /field 'slug'/);
        assertError(await call('PATCH', `/api/products/${b.id}`, { ean: a.ean }), 400, /field 'ean'/);
        assertError(await call('PATCH', `/api/products/${b.id}`, { ean: wrongCheckDigit(validEan()) }), 400, /field 'ean'.*check digit/);
        assert.deepEqual(okData(await call('GET', `/api/products/${b.id}`)), b);
        const same = okData(await call('PATCH', `/api/products/${a.id}`, { sku: a.sku, slug: a.slug, ean: a.ean }));
        assert.equal(same.sku, a.sku);
        const moved = okData(await call('PATCH', `/api/products/${b.id}`, { slug: 'uniq-b-moved', sku: 'UNIQ-B-2' }));
        assert.equal(moved.slug, 'uniq-b-moved');
        assert.equal(moved.sku, 'UNIQ-B-2');
      });

      it('rejects unknown references and leaves the product untouched', async () => {
        const cat = await insertCategory(h, t.organizationId, 'Kept');
        const p = await createProduct(call, { category_ids: [cat] });
        for (const fields of [{ brand_id: 999_999 }, { supplier_id: 999_999 }, { vat_rate_id: 999_999 }, { category_ids: [cat, 999_999] }]) {
          assertError(await call('PATCH', `/api/products/${p.id}`, { name: 'Should not stick', ...fields }), 400, /Unknown references/);
        }
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}`)), p);
      });

      it('answers 404 for an unknown id and 400 for a bad id', async () => {
        assertError(await call('PATCH', '/api/products/999999', { name: 'X' }), 404, /Product 999999 not found/);
        assertError(await call('PATCH', '/api/products/abc', { name: 'X' }), 400, /path parameter 'id'/);
      });
    });

    describe('delete', () => {
      it('archives the product, keeps it readable, and is idempotent', async () => {
        const p = await createProduct(call, { name: 'Doomed', status: 'active', price: '5' });
        const archived = okData(await call('DELETE', `/api/products/${p.id}`));
        assert.equal(archived.id, p.id);
        assert.equal(archived.status, 'archived');
        const got = okData(await call('GET', `/api/products/${p.id}`));
        assert.equal(got.status, 'archived');
        const { status: _s, updated_at: _u, ...rest } = got;
        const { status: _s2, updated_at: _u2, ...restBefore } = p;
        assert.deepEqual(rest, restBefore, 'only the status changed');
        assert.ok((await listIds(call, 'status=archived&limit=100')).includes(p.id));
        const again = okData(await call('DELETE', `/api/products/${p.id}`));
        assert.equal(again.status, 'archived');
        assert.equal(okData(await call('GET', `/api/products/${p.id}`)).status, 'archived');
      });

      it('archives on a DELETE that declares a JSON body but sends none', async () => {
        const p = await createProduct(call, { name: 'Empty-bodied delete' });
        const res = await raw(call, 'DELETE', `/api/products/${p.id}`, '');
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().data.status, 'archived');
      });

      it('lets an archived product be edited and brought back', async () => {
        const p = await createProduct(call, { name: 'Phoenix' });
        okData(await call('DELETE', `/api/products/${p.id}`));
        assert.equal(okData(await call('PATCH', `/api/products/${p.id}`, { status: 'active' })).status, 'active');
      });

      it('answers 404 for an unknown id and 400 for a bad id', async () => {
        assertError(await call('DELETE', '/api/products/999999'), 404, /Product 999999 not found/);
        assertError(await call('DELETE', '/api/products/abc'), 400, /path parameter 'id'/);
        assertError(await call('DELETE', '/api/products/0'), 400, /path parameter 'id'/);
      });
    });
  });
}
