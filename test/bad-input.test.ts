// Bad input on every PIM write route: always a 4xx in the {status: 0, data: null, error} envelope, never a 5xx,
// never a stack trace or SQL, and never a partial write.
import { sql } from 'drizzle-orm';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, insertCategory, LEAK, okData, raw, sku, type Call } from './helpers/pim.js';

interface Route {
  method: string;
  url: string;
  /** A body the route accepts (the DELETE routes take none). */
  valid?: Record<string, unknown>;
}

for (const target of databaseTargets()) {
  describe(`bad input (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    let call: Call;
    let productId: number;
    let variantId: number;
    let categoryId: number;
    let routes: Route[];

    /** Everything the organization has, as the API shows it. */
    const snapshot = async () => ({
      products: okData(await call('GET', '/api/products?limit=100')),
      translated: okData(await call('GET', `/api/products/${productId}?locale=de`)),
      variants: okData(await call('GET', `/api/products/${productId}/variants`)),
      channels: okData(await call('GET', '/api/channels')),
      brands: okData(await call('GET', '/api/brands')),
      suppliers: okData(await call('GET', '/api/suppliers')),
      vatRates: okData(await call('GET', '/api/vat-rates')),
    });

    before(async () => {
      h = await harness(target);
      t = await h.tenant();
      call = h.as(t);
      categoryId = await insertCategory(h, t.organizationId, 'Existing');
      const brand = okData(await call('POST', '/api/brands', { name: 'Existing Brand' }), 201);
      okData(await call('POST', '/api/suppliers', { name: 'Existing Supplier' }), 201);
      okData(await call('POST', '/api/vat-rates', { name: 'Standard', rate: '21', country_code: 'NL' }), 201);
      okData(await call('PUT', '/api/channels', { channels: [{ value: 'web' }, { value: 'api' }] }));
      const p = await createProduct(call, { name: 'Target', sku: 'TARGET-1', brand_id: brand.id, category_ids: [categoryId], price: '10' });
      productId = p.id;
      okData(await call('PUT', `/api/products/${productId}/translations/de`, { name: 'Ziel' }));
      variantId = okData(await call('POST', `/api/products/${productId}/variants`, { name: 'Target V', sku: 'TARGET-V1', stock_quantity: 2 }), 201).id;
      routes = [
        { method: 'POST', url: '/api/products', valid: { name: 'New', sku: 'NEW-1' } },
        { method: 'PATCH', url: `/api/products/${productId}`, valid: { name: 'Changed' } },
        { method: 'DELETE', url: `/api/products/${productId}` },
        { method: 'PUT', url: `/api/products/${productId}/translations/de`, valid: { name: 'Geändert' } },
        { method: 'DELETE', url: `/api/products/${productId}/translations/de` },
        { method: 'POST', url: `/api/products/${productId}/variants`, valid: { name: 'New V', sku: 'NEW-V1' } },
        { method: 'PATCH', url: `/api/products/${productId}/variants/${variantId}`, valid: { name: 'Changed V' } },
        { method: 'DELETE', url: `/api/products/${productId}/variants/${variantId}` },
        { method: 'PUT', url: '/api/channels', valid: { channels: [] } },
        { method: 'POST', url: '/api/brands', valid: { name: 'New Brand' } },
        { method: 'POST', url: '/api/suppliers', valid: { name: 'New Supplier' } },
        { method: 'POST', url: '/api/vat-rates', valid: { name: 'New', rate: '9', country_code: 'NL' } },
        { method: 'POST', url: '/api/products/bulk', valid: { action: 'archive', ids: [productId] } },
        { method: 'PATCH', url: '/api/products/batch', valid: { products: [{ id: productId, name: 'Batch' }] } },
        { method: 'POST', url: '/api/product-views', valid: { name: 'View', filters: {}, columns: ['name'] } },
      ];
    });
    after(() => h.close());

    it('answers malformed JSON with 400 naming the problem, on every write route', async () => {
      const before = await snapshot();
      for (const r of routes) {
        for (const body of ['{bad json', '{"name": "x",}', "{'name': 'x'}", '{"name": "x"', 'undefined', '{"a":1}{"b":2}']) {
          const error = assertError(await raw(call, r.method, r.url, body), 400, /JSON/);
          assert.doesNotMatch(error, LEAK, `${r.method} ${r.url}`);
        }
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('answers a body over 1 MB with 413 in the envelope, on every write route', async () => {
      const before = await snapshot();
      const huge = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), sku: 'HUGE-1' });
      for (const r of routes) assertError(await raw(call, r.method, r.url, huge), 413, /larger than 1 MB/);
      assert.deepEqual(await snapshot(), before);
    });

    it('answers a body that is not a JSON object with 400', async () => {
      const before = await snapshot();
      for (const r of routes.filter((r) => r.valid)) {
        for (const body of ['[]', '"text"', '42', 'null', 'true', `[${JSON.stringify(r.valid)}]`]) {
          assertError(await raw(call, r.method, r.url, body), 400, /the request body must be object/);
        }
        assertError(await call(r.method, r.url), 400, /the request body/);
        assertError(await raw(call, r.method, r.url, ''), 400, /the request body must be object/);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('answers unsupported content types with 415 and form text with 400', async () => {
      const before = await snapshot();
      for (const r of routes.filter((r) => r.valid)) {
        assertError(await raw(call, r.method, r.url, '<product/>', 'application/xml'), 415, /Unsupported Media Type/);
        assertError(await raw(call, r.method, r.url, 'name=x&sku=y', 'application/x-www-form-urlencoded'), 415, /Unsupported Media Type/);
        assertError(await raw(call, r.method, r.url, JSON.stringify(r.valid), 'text/plain'), 400, /the request body must be object/);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('refuses prototype pollution keys', async () => {
      const before = await snapshot();
      for (const r of routes.filter((r) => r.valid)) {
        const body = JSON.stringify(r.valid).replace(/^\{/, '{"__proto__":{"polluted":true},');
        assertError(await raw(call, r.method, r.url, body), 400, /JSON/);
        const ctor = JSON.stringify(r.valid).replace(/^\{/, '{"constructor":{"prototype":{"polluted":true}},');
        assertError(await raw(call, r.method, r.url, ctor), 400, /JSON/);
      }
      assert.equal(({} as { polluted?: boolean }).polluted, undefined);
      assert.deepEqual(await snapshot(), before);
    });

    it('rejects unknown fields, naming them, on every route with a body', async () => {
      const before = await snapshot();
      for (const r of routes.filter((r) => r.valid)) {
        assertError(await call(r.method, r.url, { ...r.valid, unexpected_field: 1 }), 400, /field 'unexpected_field' is not allowed/);
        assertError(await call(r.method, r.url, { ...r.valid, organization_id: 999 }), 400, /field 'organization_id' is not allowed/);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('refuses the NUL character in any text, naming the field, instead of failing in the database', async () => {
      const before = await snapshot();
      for (const r of routes.filter((r) => r.valid)) {
        const [field, value] = Object.entries(r.valid!).find(([, v]) => typeof v === 'string') ?? [];
        if (field === undefined) continue;
        assertError(await call(r.method, r.url, { ...r.valid, [field]: `a\u0000${value}` }), 400, new RegExp(`field '${field}' must not contain NUL`));
      }
      assertError(
        await call('POST', `/api/products/${productId}/variants`, { name: 'V', sku: sku(), attributes: [{ attribute_name: 'Size', value: 'M\u0000' }] }),
        400,
        /field 'attributes\[0\]\.value' must not contain NUL/,
      );
      assertError(
        await call('PUT', '/api/channels', { channels: [{ value: 'web', label: '\u0000' }] }),
        400,
        /field 'channels\[0\]\.label' must not contain NUL/,
      );
      assertError(await call('GET', '/api/products?search=a%00b'), 400, /query parameter 'search' must not contain NUL/);
      assert.deepEqual(await snapshot(), before);
    });

    it('rejects wrong types and over-long strings on product create and patch, naming the field', async () => {
      const before = await snapshot();
      const bad: [string, unknown][] = [
        ['name', 'x'.repeat(256)],
        ['name', 7],
        ['name', ['Name']],
        ['sku', 'x'.repeat(65)],
        ['sku', true],
        ['slug', 'x'.repeat(256)],
        ['slug', 5],
        ['description', 'x'.repeat(65_536)],
        ['description', { html: '<p/>' }],
        ['short_description', 'x'.repeat(5_001)],
        ['product_type', 'x'.repeat(65)],
        ['product_type', ''],
        ['price', 10],
        ['price', '1'.repeat(16)],
        ['sale_price', true],
        ['cost_price', ['1']],
        ['currency', 978],
        ['status', 1],
        ['stock', '5'],
        ['stock', 2_000_000_000],
        ['stock', 1e308],
        ['ean', 4006381333931],
        ['ean', '4'.repeat(15)],
        ['brand_id', '1'],
        ['brand_id', 0],
        ['brand_id', 2 ** 31],
        ['brand_id', 1.5],
        ['supplier_id', -1],
        ['vat_rate_id', 'NL'],
        ['category_ids', 1],
        ['category_ids', ['1']],
        ['category_ids', [0]],
        ['category_ids', [1.5]],
        ['category_ids', [categoryId, categoryId]],
        ['category_ids', Array.from({ length: 501 }, (_, i) => i + 1)],
        ['publishing_channels', Array.from({ length: 7 }, () => 'web')],
        ['publishing_channels', [1]],
        ['product_condition', 'mint'],
      ];
      for (const [field, value] of bad) {
        const message = new RegExp(`field '${field}(\\[\\d+\\])?'`);
        assertError(await call('POST', '/api/products', { name: 'Typed', sku: sku(), [field]: value }), 400, message);
        assertError(await call('PATCH', `/api/products/${productId}`, { [field]: value }), 400, message);
      }
      // The longest allowed values are fine (checked on a product of its own).
      const longest = await createProduct(call, {
        name: 'n'.repeat(255),
        sku: 's'.repeat(64),
        short_description: 'd'.repeat(5_000),
        description: 'D'.repeat(65_535),
      });
      assert.equal(longest.name.length, 255);
      assert.equal(longest.description.length, 65_535);
      okData(await call('DELETE', `/api/products/${longest.id}`));
      const after = await snapshot();
      assert.deepEqual({ ...after, products: null }, { ...before, products: null });
      const { products: afterProducts, pagination } = after.products;
      assert.equal(pagination.total_items, before.products.pagination.total_items + 1);
      assert.deepEqual(afterProducts.slice(0, -1), before.products.products);
    });

    it('rejects wrong types and over-long strings on translations, variants and reference data', async () => {
      const before = await snapshot();
      const tr = `/api/products/${productId}/translations/de`;
      assertError(await call('PUT', tr, { name: 'x'.repeat(256) }), 400, /field 'name'/);
      assertError(await call('PUT', tr, { description: 'x'.repeat(65_536) }), 400, /field 'description'/);
      assertError(await call('PUT', tr, { short_description: 'x'.repeat(5_001) }), 400, /field 'short_description'/);
      assertError(await call('PUT', tr, { name: ['Ziel'] }), 400, /field 'name'/);
      assertError(await call('PUT', tr, { description: 3 }), 400, /field 'description'/);

      const variants = `/api/products/${productId}/variants`;
      const variant = `${variants}/${variantId}`;
      const bad: [string, unknown][] = [
        ['sku', 'x'.repeat(65)],
        ['sku', 12],
        ['name', 'x'.repeat(256)],
        ['name', false],
        ['price', 5],
        ['sale_price', '5.00001'],
        ['cost', '-1'],
        ['weight', {}],
        ['stock_quantity', 1.5],
        ['stock_quantity', '3'],
        ['stock_quantity', 2_000_000_000],
        ['stock_status', 'gone'],
        ['is_enabled', 'true'],
        ['is_enabled', 1],
        ['position', 100_001],
        ['position', '1'],
        ['image', `https://x.example/${'a'.repeat(2040)}`],
        ['image', 5],
        ['attributes', [{ attribute_name: 'x'.repeat(101), value: 'v' }]],
        ['attributes', [{ attribute_name: 'Size', value: 'x'.repeat(256) }]],
        ['attributes', 'Size=M'],
      ];
      for (const [field, value] of bad) {
        const message = new RegExp(`field '${field}`);
        assertError(await call('POST', variants, { name: 'Typed', sku: sku(), [field]: value }), 400, message);
        assertError(await call('PATCH', variant, { [field]: value }), 400, message);
      }

      for (const path of ['/api/brands', '/api/suppliers']) {
        assertError(await call('POST', path, { name: 'x'.repeat(256) }), 400, /field 'name'/);
        assertError(await call('POST', path, { name: { en: 'Acme' } }), 400, /field 'name'/);
      }
      assertError(await call('POST', '/api/vat-rates', { name: 'x'.repeat(101), rate: '9', country_code: 'NL' }), 400, /field 'name'/);
      assertError(await call('POST', '/api/vat-rates', { name: 'Low', rate: 9, country_code: 'NL' }), 400, /field 'rate'/);
      assertError(await call('POST', '/api/vat-rates', { name: 'Low', rate: '9', country_code: ['NL'] }), 400, /field 'country_code'/);
      assert.deepEqual(await snapshot(), before);
    });

    it('writes nothing when one category id of many is unknown', async () => {
      const before = await snapshot();
      const count = before.products.pagination.total_items;
      assertError(await call('POST', '/api/products', { name: 'Half', sku: 'HALF-1', category_ids: [categoryId, 999_999] }), 400, /category_ids 999999/);
      assertError(
        await call('PATCH', `/api/products/${productId}`, { name: 'Half', category_ids: [999_999, categoryId], price: '1' }),
        400,
        /category_ids 999999/,
      );
      assert.equal(okData(await call('GET', '/api/products')).pagination.total_items, count);
      assert.deepEqual(okData(await call('GET', '/api/products?search=HALF-1')).products, []);
      assert.deepEqual(await snapshot(), before);
    });

    it('rejects bad path parameters on every write route', async () => {
      const before = await snapshot();
      const withBadIds = [
        ['PATCH', '/api/products/abc', { name: 'X' }],
        ['DELETE', '/api/products/1.5'],
        ['PUT', '/api/products/0/translations/de', { name: 'X' }],
        ['DELETE', '/api/products/-1/translations/de'],
        ['POST', '/api/products/x/variants', { name: 'X', sku: 'X' }],
        ['PATCH', `/api/products/${productId}/variants/abc`, { name: 'X' }],
        ['DELETE', `/api/products/${productId}/variants/0`],
        ['PATCH', '/api/products/99999999999', { name: 'X' }],
      ] as const;
      for (const [method, url, body] of withBadIds) {
        assertError(await call(method, url, body), 400, /path parameter '(id|variantId)' must be a positive integer id/);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('answers unknown routes and methods with a 404 envelope', async () => {
      assertError(await call('GET', '/api/nothing-here'), 404, /not found/);
      assertError(await call('PUT', `/api/products/${productId}`, { name: 'X' }), 404, /not found/);
      assertError(await call('POST', `/api/products/${productId}`, { name: 'X' }), 404, /not found/);
      assertError(await call('DELETE', '/api/channels'), 404, /not found/);
    });

    it('never answers odd but well-formed values with a 5xx', async () => {
      const odd: unknown[] = [
        null,
        true,
        false,
        0,
        -1,
        2 ** 53,
        1e308,
        -1e308,
        0.1,
        '',
        ' ',
        'x'.repeat(300),
        '😀',
        '\u202e',
        '\uFFFF',
        '\ud800',
        "'; DROP TABLE products; --",
        '%_\\',
        [],
        [null],
        [{}],
        {},
        { a: { b: { c: [1] } } },
        '1e999',
        'NaN',
        '-0',
        '2024-01-01',
      ];
      const fields: Record<string, string[]> = {
        '/api/products': ['name', 'sku', 'slug', 'price', 'stock', 'ean', 'brand_id', 'category_ids', 'publishing_channels', 'status'],
        [`/api/products/${productId}/variants`]: ['name', 'sku', 'price', 'stock_quantity', 'image', 'attributes', 'position', 'is_enabled'],
      };
      for (const [url, names] of Object.entries(fields)) {
        for (const field of names) {
          for (const value of odd) {
            const body = { name: 'Odd', sku: sku('ODD'), [field]: value };
            const res = await call('POST', url, body);
            assert.ok(res.statusCode === 201 || res.statusCode === 400, `${url} ${field}=${JSON.stringify(value)}: ${res.statusCode} ${res.body}`);
            if (res.statusCode === 400) assertError(res, 400, new RegExp(field));
            else okData(res, 201);
          }
        }
      }
      for (const value of odd) {
        for (const field of ['name', 'description', 'short_description']) {
          const res = await call('PUT', `/api/products/${productId}/translations/fr`, { [field]: value });
          assert.ok(res.statusCode === 200 || res.statusCode === 400, `translation ${field}=${JSON.stringify(value)}: ${res.statusCode}`);
          if (res.statusCode === 400) assertError(res, 400);
        }
        for (const path of ['/api/brands', '/api/suppliers']) {
          const res = await call('POST', path, { name: value });
          assert.ok([201, 400].includes(res.statusCode), `${path} name=${JSON.stringify(value)}: ${res.statusCode}`);
          if (res.statusCode === 400) assertError(res, 400);
        }
        const term = value === '\ud800' ? '%ED%A0%80' : encodeURIComponent(String(value));
        const search = await call('GET', `/api/products?search=${term}`);
        assert.ok([200, 400].includes(search.statusCode), `search=${String(value)}: ${search.statusCode}`);
        if (search.statusCode === 400) assertError(search, 400);
      }
    });

    // Last, because it breaks the database for a moment: a real server error keeps its details to the log,
    // and a write that fails half-way is rolled back as a whole.
    it('answers a database failure with a bare 500 envelope and rolls the write back', async () => {
      const db = h.database.db;
      const variantsBefore = okData(await call('GET', `/api/products/${productId}/variants`));
      const tables = ['product_categories', 'variants', 'product_translations'];
      for (const table of tables) await db.execute(sql.raw(`ALTER TABLE ${table} RENAME TO ${table}_away`));
      const outageSku = sku('OUTAGE');
      try {
        const failing = [
          call('GET', '/api/products'),
          call('GET', `/api/products/${productId}`),
          // The product row is written, then the category links fail: all of it must be undone.
          call('POST', '/api/products', { name: 'During outage', sku: outageSku, category_ids: [categoryId] }),
          call('PATCH', `/api/products/${productId}`, { name: 'During outage', price: '1', category_ids: [categoryId] }),
          call('GET', `/api/products/${productId}/variants`),
          call('POST', `/api/products/${productId}/variants`, { name: 'V', sku: sku() }),
          call('DELETE', `/api/products/${productId}/variants/${variantId}`),
          call('PUT', `/api/products/${productId}/translations/de`, { name: 'X' }),
        ];
        for (const res of await Promise.all(failing)) {
          assertError(res, 500, /^Internal server error$/);
          assert.doesNotMatch(res.body, /product_categories|variants|product_translations|relation|does not exist|SELECT|INSERT|\.ts:/);
        }
      } finally {
        for (const table of tables) await db.execute(sql.raw(`ALTER TABLE ${table}_away RENAME TO ${table}`));
      }
      const target = okData(await call('GET', `/api/products/${productId}?locale=de`));
      assert.equal(target.name, 'Ziel');
      assert.equal(target.price, '10.0000');
      assert.deepEqual(target.categories, [{ id: categoryId, name: 'Existing' }]);
      assert.equal(okData(await call('GET', `/api/products/${productId}`)).name, 'Target');
      assert.deepEqual(okData(await call('GET', `/api/products?search=${outageSku}`)).products, []);
      assert.deepEqual(okData(await call('GET', `/api/products/${productId}/variants`)), variantsBefore);
    });
  });
}
