// Product attribute definitions (/api/product-attributes) and the validation of a product's `attributes` against them.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { assertError, createProduct, okData, sku, type Call } from './helpers/pim.js';

const PATH = '/api/product-attributes';
const ATTRIBUTE_KEYS = ['code', 'created_at', 'id', 'is_required', 'metafield', 'name', 'options', 'required_channels', 'type', 'updated_at'];

for (const target of databaseTargets()) {
  describe(`product attributes (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());

    /** A new organization of its own. */
    const fresh = async (): Promise<Call> => h.as(await h.tenant());
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const define = async (c: Call, body: Record<string, unknown>): Promise<any> => okData(await c('POST', PATH, { name: String(body.code), ...body }), 201);
    /**
     * The attribute as if defined a second earlier (its stored timestamps moved back), read again: an attribute shows its
     * timestamps to the second, so a change must be a second later to show, and the test need not wait one out.
     */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const aged = async (c: Call, a: { id: number }): Promise<any> => {
      await h.database.db.execute(
        sql`UPDATE product_attributes SET created_at = created_at - interval '1 second', updated_at = updated_at - interval '1 second' WHERE id = ${a.id}`,
      );
      return okData(await c('GET', `${PATH}/${a.id}`));
    };

    describe('CRUD', () => {
      it('lists none at first', async () => {
        const c = await fresh();
        assert.deepEqual(okData(await c('GET', PATH)), { attributes: [], total: 0 });
      });

      it('creates with 201 and the full record, reads it back, lists by code', async () => {
        const c = await fresh();
        const res = await c('POST', PATH, { code: 'material', name: 'Material', type: 'text' });
        const material = okData(res, 201);
        assert.deepEqual(Object.keys(material).sort(), ATTRIBUTE_KEYS);
        assert.equal(typeof material.id, 'number');
        assert.equal(material.code, 'material');
        assert.equal(material.name, 'Material');
        assert.equal(material.type, 'text');
        assert.deepEqual(material.options, []);
        assert.equal(material.is_required, false);
        assert.match(material.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        assert.equal(material.updated_at, material.created_at);

        const color = await define(c, { code: 'color', name: 'Colour', type: 'select', options: ['red', 'green'], is_required: true });
        assert.deepEqual(color.options, ['red', 'green']);
        assert.equal(color.is_required, true);
        const tags = await define(c, { code: 'tags', type: 'multiselect', options: ['eco', 'sale'] });
        for (const type of ['textarea', 'number', 'boolean', 'date']) assert.equal((await define(c, { code: `a_${type}`, type })).type, type);

        assert.deepEqual(okData(await c('GET', `${PATH}/${color.id}`)), color);
        const list = okData(await c('GET', PATH));
        assert.deepEqual(Object.keys(list), ['attributes', 'total']);
        assert.equal(list.total, 7);
        assert.deepEqual(
          list.attributes.map((a: { code: string }) => a.code),
          ['a_boolean', 'a_date', 'a_number', 'a_textarea', 'color', 'material', 'tags'],
        );
        assert.deepEqual(
          list.attributes.find((a: { id: number }) => a.id === tags.id),
          tags,
        );
      });

      it('validates the body of a create', async () => {
        const c = await fresh();
        const cases: [unknown, RegExp][] = [
          [{ name: 'X', type: 'text' }, /field 'code' is required/],
          [{ code: 'x', type: 'text' }, /field 'name' is required/],
          [{ code: 'x', name: 'X' }, /field 'type' is required/],
          [{ code: 'x', name: 'X', type: 'color' }, /field 'type' must be one of: text, textarea, number, boolean, date, select, multiselect/],
          [{ code: 'Color', name: 'X', type: 'text' }, /field 'code' must start with a lower-case letter/],
          [{ code: '1x', name: 'X', type: 'text' }, /field 'code'/],
          [{ code: 'a-b', name: 'X', type: 'text' }, /field 'code'/],
          [{ code: 'a'.repeat(65), name: 'X', type: 'text' }, /field 'code'/],
          [{ code: '', name: 'X', type: 'text' }, /field 'code'/],
          [{ code: 'x', name: '', type: 'text' }, /field 'name'/],
          [{ code: 'x', name: 'X'.repeat(256), type: 'text' }, /field 'name'/],
          [{ code: 'x', name: 'X', type: 'select' }, /field 'options' must list at least one option for a select attribute/],
          [{ code: 'x', name: 'X', type: 'multiselect', options: [] }, /field 'options' must list at least one option for a multiselect attribute/],
          [{ code: 'x', name: 'X', type: 'text', options: ['a'] }, /field 'options' is only for select and multiselect attributes, not text/],
          [{ code: 'x', name: 'X', type: 'select', options: ['a', 'a'] }, /field 'options'/],
          [{ code: 'x', name: 'X', type: 'select', options: [''] }, /field 'options\[0\]'/],
          [{ code: 'x', name: 'X', type: 'select', options: [1] }, /field 'options\[0\]'/],
          [{ code: 'x', name: 'X', type: 'select', options: 'a,b' }, /field 'options'/],
          [{ code: 'x', name: 'X', type: 'text', is_required: 'yes' }, /field 'is_required'/],
          [{ code: 'x', name: 'X', type: 'text', id: 5 }, /field 'id' is not allowed/],
          [['x'], /the request body/],
        ];
        for (const [body, message] of cases) assertError(await c('POST', PATH, body), 400, message);
        assert.equal(okData(await c('GET', PATH)).total, 0);
        // Longest code and empty options on a non-select type are fine.
        assert.equal((await define(c, { code: `a${'b'.repeat(63)}`, type: 'text', options: [] })).code.length, 64);
      });

      it('keeps codes unique per organization, also for simultaneous creates', async () => {
        const c = await fresh();
        await define(c, { code: 'size', type: 'text' });
        assertError(
          await c('POST', PATH, { code: 'size', name: 'Size again', type: 'number' }),
          400,
          /field 'code': an attribute with code 'size' already exists/,
        );
        const other = await fresh();
        await define(other, { code: 'size', type: 'number' });

        const results = await Promise.all(Array.from({ length: 5 }, () => c('POST', PATH, { code: 'racer', name: 'Racer', type: 'text' })));
        assert.equal(results.filter((r) => r.statusCode === 201).length, 1);
        for (const r of results.filter((r) => r.statusCode !== 201)) assertError(r, 400, /field 'code': an attribute with code 'racer' already exists/);
        assert.equal(okData(await c('GET', PATH)).total, 2);
      });

      it('updates with PUT and PATCH alike (the fields given)', async () => {
        const c = await fresh();
        const a = await aged(c, await define(c, { code: 'fabric', name: 'Fabric', type: 'select', options: ['cotton'] }));
        const renamed = okData(await c('PATCH', `${PATH}/${a.id}`, { name: 'Fabric type' }));
        assert.deepEqual({ ...renamed, updated_at: a.updated_at }, { ...a, name: 'Fabric type' });
        assert.ok(renamed.updated_at > a.updated_at, 'updated_at moves');
        const put = okData(await c('PUT', `${PATH}/${a.id}`, { options: ['cotton', 'wool'], is_required: true }));
        assert.deepEqual(put.options, ['cotton', 'wool']);
        assert.equal(put.is_required, true);
        assert.equal(put.name, 'Fabric type');
        assert.deepEqual(okData(await c('GET', `${PATH}/${a.id}`)), put);

        // Leaving a select type drops the options; sending some for a non-select type is refused.
        assertError(await c('PATCH', `${PATH}/${a.id}`, { type: 'number', options: ['1'] }), 400, /field 'options' is only for select and multiselect/);
        const text = okData(await c('PUT', `${PATH}/${a.id}`, { type: 'text' }));
        assert.equal(text.type, 'text');
        assert.deepEqual(text.options, []);
        assertError(await c('PATCH', `${PATH}/${a.id}`, { type: 'multiselect' }), 400, /field 'options' must list at least one option for a multiselect/);
        assert.equal(okData(await c('PATCH', `${PATH}/${a.id}`, { type: 'multiselect', options: ['x', 'y'] })).type, 'multiselect');
        // A new code, free or taken.
        await define(c, { code: 'taken', type: 'text' });
        assertError(await c('PATCH', `${PATH}/${a.id}`, { code: 'taken' }), 400, /field 'code': an attribute with code 'taken' already exists/);
        assert.equal(okData(await c('PATCH', `${PATH}/${a.id}`, { code: 'fabric_type' })).code, 'fabric_type');
        assert.equal(okData(await c('PATCH', `${PATH}/${a.id}`, { code: 'fabric_type' })).code, 'fabric_type', 'keeping its own code is fine');
      });

      it('validates the body of an update', async () => {
        const c = await fresh();
        const a = await define(c, { code: 'weight', type: 'number' });
        for (const method of ['PUT', 'PATCH']) {
          assertError(await c(method, `${PATH}/${a.id}`, {}), 400, /the request body must name at least one field to change/);
          assertError(await c(method, `${PATH}/${a.id}`, { code: 'Bad Code' }), 400, /field 'code'/);
          assertError(await c(method, `${PATH}/${a.id}`, { type: 'float' }), 400, /field 'type' must be one of/);
          assertError(await c(method, `${PATH}/${a.id}`, { name: null }), 400, /field 'name'/);
          assertError(await c(method, `${PATH}/${a.id}`, { unit: 'kg' }), 400, /field 'unit' is not allowed/);
          assertError(await c(method, `${PATH}/abc`, { name: 'X' }), 400, /path parameter 'id'/);
        }
        assert.deepEqual(okData(await c('GET', `${PATH}/${a.id}`)), a);
      });

      it('deletes an unused attribute', async () => {
        const c = await fresh();
        const a = await define(c, { code: 'gone', type: 'boolean' });
        assert.deepEqual(okData(await c('DELETE', `${PATH}/${a.id}`)), { deleted: true });
        assertError(await c('GET', `${PATH}/${a.id}`), 404, new RegExp(`Product attribute ${a.id} not found`));
        assertError(await c('DELETE', `${PATH}/${a.id}`), 404);
        assert.equal(okData(await c('GET', PATH)).total, 0);
        // The code is free again.
        await define(c, { code: 'gone', type: 'text' });
      });

      it('answers 404 for unknown and foreign ids, 400 for bad ids, 401 without a key', async () => {
        const c = await fresh();
        const other = await fresh();
        const theirs = await define(other, { code: 'secret', type: 'text' });
        for (const id of [theirs.id, 2_000_000_000]) {
          assertError(await c('GET', `${PATH}/${id}`), 404, new RegExp(`Product attribute ${id} not found`));
          assertError(await c('PUT', `${PATH}/${id}`, { name: 'Mine' }), 404);
          assertError(await c('PATCH', `${PATH}/${id}`, { name: 'Mine' }), 404);
          assertError(await c('DELETE', `${PATH}/${id}`), 404);
        }
        assert.deepEqual(okData(await other('GET', `${PATH}/${theirs.id}`)), theirs, 'untouched');
        assert.equal(okData(await c('GET', PATH)).total, 0, 'not listed to another organization');
        assertError(await c('GET', `${PATH}/0`), 400, /path parameter 'id'/);
        assertError(await c('GET', `${PATH}/1.5`), 400, /path parameter 'id'/);

        const anonymous = h.as(null);
        for (const [method, url, body] of [
          ['GET', PATH],
          ['GET', `${PATH}/${theirs.id}`],
          ['POST', PATH, { code: 'x', name: 'X', type: 'text' }],
          ['PUT', `${PATH}/${theirs.id}`, { name: 'X' }],
          ['PATCH', `${PATH}/${theirs.id}`, { name: 'X' }],
          ['DELETE', `${PATH}/${theirs.id}`],
        ] as const) {
          assertError(await anonymous(method, url, body), 401);
          assertError(await h.as({ organizationId: 0, apiKey: 'pk_wrong', apiSecret: '', keyId: 0 })(method, url, body), 401);
        }
        assert.deepEqual(okData(await other('GET', `${PATH}/${theirs.id}`)), theirs);
      });
    });

    describe("a product's attributes", () => {
      let c: Call;
      before(async () => {
        c = await fresh();
        await define(c, { code: 'material', type: 'text' });
        await define(c, { code: 'care', type: 'textarea' });
        await define(c, { code: 'weight', type: 'number' });
        await define(c, { code: 'organic', type: 'boolean' });
        await define(c, { code: 'launch', type: 'date' });
        await define(c, { code: 'color', type: 'select', options: ['red', 'green', 'blue'] });
        await define(c, { code: 'tags', type: 'multiselect', options: ['eco', 'sale', 'new'] });
      });

      const full = {
        material: 'Cotton',
        care: 'Wash at 30°C.\nDo not tumble dry.',
        weight: 0.25,
        organic: true,
        launch: '2024-02-29',
        color: 'green',
        tags: ['sale', 'eco'],
      };

      it('stores valid values of every type on create and reads them back', async () => {
        const p = await createProduct(c, { attributes: full });
        assert.deepEqual(p.attributes, full);
        assert.deepEqual(okData(await c('GET', `/api/products/${p.id}`)).attributes, full);
        // Edge values: integers, zero, false, empty text and an empty multiselect.
        const edge = { weight: 0, organic: false, material: '', tags: [] };
        assert.deepEqual((await createProduct(c, { attributes: edge })).attributes, edge);
        assert.deepEqual((await createProduct(c, { attributes: {} })).attributes, {});
        assert.deepEqual((await createProduct(c, { attributes: { weight: -12, material: 'x'.repeat(255), care: 'y'.repeat(10_000) } })).attributes.weight, -12);
        // A null on create is the same as leaving the key out.
        assert.deepEqual((await createProduct(c, { attributes: { color: null, weight: 1 } })).attributes, { weight: 1 });
      });

      it('refuses each wrong value on create with 400 naming the attribute, and stores nothing', async () => {
        const bad: [Record<string, unknown>, RegExp][] = [
          [{ colour: 'red' }, /field 'attributes\.colour': no product attribute has this code/],
          [{ material: 5 }, /field 'attributes\.material' must be a string of at most 255 characters \(attribute 'material' is of type text\)/],
          [{ material: 'x'.repeat(256) }, /field 'attributes\.material' must be a string of at most 255/],
          [{ material: ['Cotton'] }, /field 'attributes\.material'/],
          [{ care: 'y'.repeat(65_536) }, /field 'attributes\.care' must be a string of at most 65535/],
          [{ care: { en: 'wash' } }, /field 'attributes\.care'/],
          [{ weight: '0.25' }, /field 'attributes\.weight' must be a finite number \(a JSON number, not a string\)/],
          [{ weight: true }, /field 'attributes\.weight' must be a finite number/],
          [{ organic: 'true' }, /field 'attributes\.organic' must be true or false/],
          [{ organic: 1 }, /field 'attributes\.organic' must be true or false/],
          [{ launch: '2023-02-29' }, /field 'attributes\.launch' must be a date written YYYY-MM-DD \(attribute 'launch' is of type date\)/],
          [{ launch: '2024-13-01' }, /field 'attributes\.launch' must be a date/],
          [{ launch: '2024-04-31' }, /field 'attributes\.launch' must be a date/],
          [{ launch: '2024-1-05' }, /field 'attributes\.launch' must be a date/],
          [{ launch: '2024-01-05T00:00:00Z' }, /field 'attributes\.launch' must be a date/],
          [{ launch: '0000-01-01' }, /field 'attributes\.launch' must be a date/],
          [{ launch: 20240105 }, /field 'attributes\.launch' must be a date/],
          [{ color: 'purple' }, /field 'attributes\.color' must be one of: red, green, blue/],
          [{ color: 'Red' }, /field 'attributes\.color' must be one of/],
          [{ color: ['red'] }, /field 'attributes\.color' must be one of/],
          [{ tags: 'eco' }, /field 'attributes\.tags' must be an array of distinct values from: eco, sale, new/],
          [{ tags: ['eco', 'eco'] }, /field 'attributes\.tags' must be an array of distinct values/],
          [{ tags: ['eco', 'cheap'] }, /field 'attributes\.tags' must be an array of distinct values/],
          [{ tags: [1] }, /field 'attributes\.tags'/],
          [{ material: 'Cotton', weight: 'heavy' }, /field 'attributes\.weight'/],
        ];
        const before = okData(await c('GET', '/api/products')).pagination.total_items;
        for (const [attributes, message] of bad) {
          assertError(await c('POST', '/api/products', { name: 'Bad', sku: sku(), attributes }), 400, message);
        }
        assertError(
          await c('POST', '/api/products', `{"name": "Huge", "sku": "${sku()}", "attributes": {"weight": 1e400}}`, { 'content-type': 'application/json' }),
          400,
          /field 'attributes\.weight' must be a finite number/,
        );
        for (const attributes of [[], 'color=red', 7, null]) {
          assertError(await c('POST', '/api/products', { name: 'Bad', sku: sku(), attributes }), 400, /field 'attributes'/);
        }
        assert.equal(okData(await c('GET', '/api/products')).pagination.total_items, before);
      });

      it('merges a PATCH into the attributes; null removes a key; a bad value changes nothing', async () => {
        const p = await createProduct(c, { attributes: { material: 'Cotton', color: 'red', tags: ['eco'] } });
        const patched = okData(await c('PATCH', `/api/products/${p.id}`, { attributes: { color: 'blue', weight: 2 } }));
        assert.deepEqual(patched.attributes, { material: 'Cotton', color: 'blue', tags: ['eco'], weight: 2 });
        assert.ok(patched.updated_at >= p.updated_at);
        const removed = okData(await c('PATCH', `/api/products/${p.id}`, { attributes: { tags: null, material: null } }));
        assert.deepEqual(removed.attributes, { color: 'blue', weight: 2 });
        // Removing a key the product does not have is a no-op; {} changes nothing.
        assert.deepEqual(okData(await c('PATCH', `/api/products/${p.id}`, { attributes: { organic: null } })).attributes, { color: 'blue', weight: 2 });
        assert.deepEqual(okData(await c('PATCH', `/api/products/${p.id}`, { attributes: {} })).attributes, { color: 'blue', weight: 2 });

        for (const [attributes, message] of [
          [{ color: 'purple' }, /field 'attributes\.color' must be one of/],
          [{ weight: '3' }, /field 'attributes\.weight' must be a finite number/],
          [{ launch: '2024-02-30' }, /field 'attributes\.launch' must be a date/],
          [{ tags: ['new', 'new'] }, /field 'attributes\.tags'/],
          [{ organic: 'no' }, /field 'attributes\.organic'/],
          [{ material: 1 }, /field 'attributes\.material'/],
          [{ care: false }, /field 'attributes\.care'/],
          [{ unknown_code: 1 }, /field 'attributes\.unknown_code': no product attribute has this code/],
          [{ unknown_code: null }, /field 'attributes\.unknown_code': no product attribute has this code/],
        ] as const) {
          assertError(await c('PATCH', `/api/products/${p.id}`, { attributes, name: 'Renamed' }), 400, message);
        }
        const now = okData(await c('GET', `/api/products/${p.id}`));
        assert.deepEqual(now.attributes, { color: 'blue', weight: 2 });
        assert.equal(now.name, p.name, 'a refused PATCH changes no field');
      });

      it('keeps concurrent PATCHes of different keys (the merge happens in the database)', async () => {
        const p = await createProduct(c);
        const results = await Promise.all([
          c('PATCH', `/api/products/${p.id}`, { attributes: { material: 'Linen' } }),
          c('PATCH', `/api/products/${p.id}`, { attributes: { weight: 7 } }),
          c('PATCH', `/api/products/${p.id}`, { attributes: { color: 'red' } }),
          c('PATCH', `/api/products/${p.id}`, { attributes: { organic: false } }),
        ]);
        for (const r of results) okData(r);
        assert.deepEqual(okData(await c('GET', `/api/products/${p.id}`)).attributes, { material: 'Linen', weight: 7, color: 'red', organic: false });
      });

      it('requires required attributes on create and keeps them from being removed', async () => {
        const r = await fresh();
        await define(r, { code: 'brand_line', type: 'text', is_required: true });
        await define(r, { code: 'sizes', type: 'multiselect', options: ['s', 'm'], is_required: true });
        await define(r, { code: 'note', type: 'text' });
        assertError(await r('POST', '/api/products', { name: 'No attrs', sku: sku() }), 400, /field 'attributes\.brand_line' is required/);
        assertError(
          await r('POST', '/api/products', { name: 'Half', sku: sku(), attributes: { brand_line: 'Pro' } }),
          400,
          /field 'attributes\.sizes' is required/,
        );
        assertError(
          await r('POST', '/api/products', { name: 'Null', sku: sku(), attributes: { brand_line: null, sizes: ['s'] } }),
          400,
          /field 'attributes\.brand_line' is required/,
        );
        assertError(
          await r('POST', '/api/products', { name: 'Blank', sku: sku(), attributes: { brand_line: '  ', sizes: ['s'] } }),
          400,
          /field 'attributes\.brand_line' must not be empty: the attribute is required/,
        );
        assertError(
          await r('POST', '/api/products', { name: 'Empty', sku: sku(), attributes: { brand_line: 'Pro', sizes: [] } }),
          400,
          /field 'attributes\.sizes' must hold at least one value/,
        );
        const p = await createProduct(r, { attributes: { brand_line: 'Pro', sizes: ['m'] } });
        assert.deepEqual(p.attributes, { brand_line: 'Pro', sizes: ['m'] });

        // A PATCH need not repeat them, may change them, may not remove or empty them.
        assert.equal(okData(await r('PATCH', `/api/products/${p.id}`, { name: 'Renamed' })).name, 'Renamed');
        assert.deepEqual(okData(await r('PATCH', `/api/products/${p.id}`, { attributes: { note: 'x', sizes: ['s', 'm'] } })).attributes, {
          brand_line: 'Pro',
          sizes: ['s', 'm'],
          note: 'x',
        });
        assertError(
          await r('PATCH', `/api/products/${p.id}`, { attributes: { brand_line: null } }),
          400,
          /field 'attributes\.brand_line': attribute 'brand_line' is required and cannot be removed/,
        );
        assertError(await r('PATCH', `/api/products/${p.id}`, { attributes: { sizes: [] } }), 400, /field 'attributes\.sizes' must hold at least one value/);
        assert.deepEqual(okData(await r('GET', `/api/products/${p.id}`)).attributes, { brand_line: 'Pro', sizes: ['s', 'm'], note: 'x' });

        // Making an attribute required later does not invalidate existing products; new ones need it.
        const later = await define(r, { code: 'origin', type: 'text' });
        okData(await r('PATCH', `${PATH}/${later.id}`, { is_required: true }));
        assert.equal(okData(await r('PATCH', `/api/products/${p.id}`, { name: 'Still fine' })).name, 'Still fine');
        assertError(
          await r('POST', '/api/products', { name: 'New', sku: sku(), attributes: { brand_line: 'Pro', sizes: ['s'] } }),
          400,
          /field 'attributes\.origin' is required/,
        );
      });

      it("checks values against the caller's own definitions only", async () => {
        const other = await fresh();
        await define(other, { code: 'color', type: 'text' });
        // 'color' is free text there, a select here; 'material' is not defined there at all.
        assert.deepEqual((await createProduct(other, { attributes: { color: 'purple' } })).attributes, { color: 'purple' });
        assertError(
          await other('POST', '/api/products', { name: 'X', sku: sku(), attributes: { material: 'Cotton' } }),
          400,
          /field 'attributes\.material': no product attribute has this code/,
        );
        assertError(
          await c('POST', '/api/products', { name: 'X', sku: sku(), attributes: { color: 'purple' } }),
          400,
          /field 'attributes\.color' must be one of/,
        );
      });
    });

    describe('changing or deleting an attribute that products use', () => {
      it('refuses to delete it and says how many products use it', async () => {
        const c = await fresh();
        const a = await define(c, { code: 'finish', type: 'select', options: ['matte', 'gloss'] });
        const p1 = await createProduct(c, { attributes: { finish: 'matte' } });
        const p2 = await createProduct(c, { attributes: { finish: 'gloss' }, status: 'archived' });
        assertError(await c('DELETE', `${PATH}/${a.id}`), 400, /Product attribute 'finish' is used by 2 products; remove it from them first/);
        okData(await c('PATCH', `/api/products/${p1.id}`, { attributes: { finish: null } }));
        assertError(await c('DELETE', `${PATH}/${a.id}`), 400, /is used by 1 product;/);
        okData(await c('PATCH', `/api/products/${p2.id}`, { attributes: { finish: null } }));
        assert.deepEqual(okData(await c('DELETE', `${PATH}/${a.id}`)), { deleted: true });
        assertError(await c('POST', '/api/products', { name: 'X', sku: sku(), attributes: { finish: 'matte' } }), 400, /no product attribute has this code/);
      });

      it("is not fooled by another organization's products with the same code", async () => {
        const c = await fresh();
        const other = await fresh();
        const mine = await define(c, { code: 'shared', type: 'text' });
        await define(other, { code: 'shared', type: 'text' });
        await createProduct(other, { attributes: { shared: 'theirs' } });
        assert.deepEqual(okData(await c('DELETE', `${PATH}/${mine.id}`)), { deleted: true });
      });

      it('refuses to drop options still in use (naming them), allows dropping unused ones', async () => {
        const c = await fresh();
        const size = await define(c, { code: 'size', type: 'select', options: ['s', 'm', 'l', 'xl'] });
        const tags = await define(c, { code: 'tags', type: 'multiselect', options: ['a', 'b', 'c'] });
        await createProduct(c, { attributes: { size: 's', tags: ['a', 'b'] } });
        await createProduct(c, { attributes: { size: 's', tags: ['b'] } });
        await createProduct(c, { attributes: { size: 'm' } });
        assertError(
          await c('PATCH', `${PATH}/${size.id}`, { options: ['l', 'xl'] }),
          400,
          /field 'options': attribute 'size' cannot drop options that products still use: 'm' \(1 product\), 's' \(2 products\)/,
        );
        assertError(await c('PUT', `${PATH}/${tags.id}`, { options: ['a', 'c'] }), 400, /field 'options': attribute 'tags' cannot drop .*'b' \(2 products\)/);
        assert.deepEqual(okData(await c('PATCH', `${PATH}/${size.id}`, { options: ['m', 's', 'xxl'] })).options, ['m', 's', 'xxl']);
        assert.deepEqual(okData(await c('PATCH', `${PATH}/${tags.id}`, { options: ['b', 'a'] })).options, ['b', 'a']);
        assertError(await c('POST', '/api/products', { name: 'X', sku: sku(), attributes: { size: 'xl' } }), 400, /must be one of: m, s, xxl/);
      });

      it('allows only type changes that keep the values valid', async () => {
        const c = await fresh();
        const ids: Record<string, number> = {};
        for (const [code, type, options] of [
          ['t', 'text', undefined],
          ['n', 'number', undefined],
          ['b', 'boolean', undefined],
          ['d', 'date', undefined],
          ['s', 'select', ['x', 'y']],
          ['m', 'multiselect', ['x', 'y']],
        ] as const) {
          ids[code] = (await define(c, { code, type, ...(options && { options }) })).id;
        }
        const p = await createProduct(c, { attributes: { t: 'text', n: 1, b: true, d: '2024-01-01', s: 'x', m: ['y'] } });
        for (const [code, to, options] of [
          ['t', 'number', undefined],
          ['t', 'select', ['text']],
          ['n', 'text', undefined],
          ['b', 'text', undefined],
          ['d', 'select', ['2024-01-01']],
          ['s', 'multiselect', undefined],
          ['m', 'select', undefined],
          ['m', 'text', undefined],
        ] as const) {
          assertError(
            await c('PATCH', `${PATH}/${ids[code]}`, { type: to, ...(options && { options }) }),
            400,
            new RegExp(`field 'type': attribute '${code}' is used by 1 product, whose \\w+ values would not be valid ${to} values`),
          );
        }
        assert.equal(okData(await c('PATCH', `${PATH}/${ids.t}`, { type: 'textarea' })).type, 'textarea');
        assert.equal(okData(await c('PATCH', `${PATH}/${ids.d}`, { type: 'text' })).type, 'text');
        const sAsText = okData(await c('PATCH', `${PATH}/${ids.s}`, { type: 'textarea' }));
        assert.deepEqual([sAsText.type, sAsText.options], ['textarea', []]);
        assert.deepEqual(okData(await c('GET', `/api/products/${p.id}`)).attributes, { t: 'text', n: 1, b: true, d: '2024-01-01', s: 'x', m: ['y'] });
        // Unused, any change goes.
        okData(await c('PATCH', `/api/products/${p.id}`, { attributes: { n: null } }));
        assert.equal(okData(await c('PATCH', `${PATH}/${ids.n}`, { type: 'boolean' })).type, 'boolean');
      });

      it('renames the key in every product of the organization when the code changes', async () => {
        const c = await fresh();
        const other = await fresh();
        const a = await define(c, { code: 'colour', type: 'select', options: ['red'] });
        await define(other, { code: 'colour', type: 'text' });
        const p1 = await createProduct(c, { attributes: { colour: 'red' } });
        const p2 = await createProduct(c, {});
        const theirs = await createProduct(other, { attributes: { colour: 'red' } });
        const renamed = okData(await c('PUT', `${PATH}/${a.id}`, { code: 'color', name: 'Color' }));
        assert.equal(renamed.code, 'color');
        const after1 = okData(await c('GET', `/api/products/${p1.id}`));
        assert.deepEqual(after1.attributes, { color: 'red' });
        assert.ok(after1.updated_at > p1.updated_at, 'the renamed product shows as changed');
        assert.equal(okData(await c('GET', `/api/products/${p2.id}`)).updated_at, p2.updated_at, 'a product without the key is untouched');
        assert.deepEqual(okData(await other('GET', `/api/products/${theirs.id}`)).attributes, { colour: 'red' });
        assertError(await c('PATCH', `/api/products/${p1.id}`, { attributes: { colour: 'red' } }), 400, /no product attribute has this code/);
        assert.deepEqual(okData(await c('PATCH', `/api/products/${p1.id}`, { attributes: { color: null } })).attributes, {});
      });

      it('never leaves a product with a value its definition rejects under concurrent changes', async () => {
        const c = await fresh();
        const a = await define(c, { code: 'grade', type: 'select', options: ['a', 'b'] });
        const products = await Promise.all(Array.from({ length: 4 }, () => createProduct(c)));
        const results = await Promise.all([
          ...products.map((p) => c('PATCH', `/api/products/${p.id}`, { attributes: { grade: 'b' } })),
          c('PATCH', `${PATH}/${a.id}`, { options: ['a'] }),
          c('DELETE', `${PATH}/${a.id}`),
        ]);
        for (const r of results) assert.ok([200, 400, 404].includes(r.statusCode), r.body); // 404: the PATCH of a definition deleted first
        const definition = await c('GET', `${PATH}/${a.id}`);
        const graded = [];
        for (const p of products) {
          const attrs = okData(await c('GET', `/api/products/${p.id}`)).attributes;
          if ('grade' in attrs) graded.push(attrs.grade);
        }
        if (definition.statusCode === 404) assert.deepEqual(graded, [], 'deleted only when no product used it');
        else for (const g of graded) assert.ok(okData(definition).options.includes(g), `value ${g} is among the options`);
      });
    });
  });
}
