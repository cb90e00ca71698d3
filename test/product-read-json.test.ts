// GET /api/products/{id} sends the product as the database built its JSON, without Fastify's serializer: the answer
// must be exactly what the serializer would have made of it (the same keys, no more, the same types), for every shape
// (locale or not, each include) and a product with every kind of field filled in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fastJson from 'fast-json-stringify';
import { Type } from '@sinclair/typebox';
import { ProductWithIncludes } from '../src/pim/products/product-with-includes.schema.js';
import { Variant } from '../src/pim/variants/variant.schemas.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { createProduct, okData, sku, validEan, type Call } from './helpers/pim.js';

/** Fastify's serializer of the route's 200 answer: the envelope around ProductWithIncludes (Variant by reference). */
type FjsSchema = Parameters<typeof fastJson>[0];
const serialize = fastJson(Type.Object({ status: Type.Integer(), data: Type.Ref(ProductWithIncludes), error: Type.Null() }) as FjsSchema, {
  schema: { ProductWithIncludes: ProductWithIncludes as FjsSchema, [Variant.$id as string]: Variant as FjsSchema },
});

for (const target of databaseTargets()) {
  describe(`the product read's JSON (${target.name})`, () => {
    let h: Harness;
    let call: Call;
    let id: number;
    before(async () => {
      h = await harness(target);
      call = h.as(await h.tenant());
      const brand = okData(await call('POST', '/api/brands', { name: 'Acme "Quoted" \\ Brand' }), 201);
      const supplier = okData(await call('POST', '/api/suppliers', { name: 'Supplier ü' }), 201);
      const category = okData(await call('POST', '/api/categories', { name: 'Tops' }), 201);
      const warehouse = okData(await call('POST', '/api/warehouses', { code: 'MAIN', name: 'Main' }), 201);
      const product = await createProduct(call, {
        name: 'Line\nbreak, tab\t and emoji 🧶',
        description: '<p>HTML & "quotes"</p>',
        price: '19.9',
        sale_price: '14.5',
        ean: validEan(),
        brand_id: brand.id,
        supplier_id: supplier.id,
        category_ids: [category.id],
        publishing_channels: ['web'],
        tags: ['a', 'b'],
        seo_title: 'SEO',
        weight: '0.25',
        weight_unit: 'kg',
      });
      id = product.id;
      const small = okData(await call('POST', `/api/products/${id}/variants`, { sku: sku('V'), name: 'Small', price: '19.9' }), 201);
      okData(await call('PUT', `/api/products/${id}/translations/de`, { name: 'Pullover', description: 'Warm' }));
      okData(await call('PUT', `/api/products/${id}/variants/${small.id}/stock`, { warehouse_id: warehouse.id, quantity: 7 }));
    });
    after(() => h.close());

    for (const query of [
      '',
      '?locale=de',
      '?include=variants',
      '?include=warehouse_stock',
      '?include=translations',
      '?include=variants,warehouse_stock,translations&locale=de',
    ]) {
      it(`answers what the serializer would (${query || 'no query'})`, async () => {
        const res = await call('GET', `/api/products/${id}${query}`);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        const body = res.json();
        assert.deepEqual(Object.keys(body), ['status', 'data', 'error']);
        // Serialized again by the schema, the answer is unchanged: no key the schema leaves out, no value it would coerce.
        assert.deepEqual(JSON.parse(serialize(body)), body);
        assert.equal(body.data.id, id);
        if (query.includes('locale=de')) assert.equal(body.data.name, 'Pullover');
        if (query.includes('variants')) assert.equal(body.data.variants.length, 1);
        if (query.includes('warehouse_stock')) assert.equal(body.data.warehouse_stock[0].quantity, 7);
        if (query.includes('translations')) assert.equal(body.data.translations.de.name, 'Pullover');
      });
    }

    it('reads back exactly what was written, text escaped as JSON', async () => {
      const { data } = (await call('GET', `/api/products/${id}`)).json();
      assert.equal(data.name, 'Line\nbreak, tab\t and emoji 🧶');
      assert.equal(data.description, '<p>HTML & "quotes"</p>');
      assert.equal(data.brand.name, 'Acme "Quoted" \\ Brand');
      assert.equal(data.supplier.name, 'Supplier ü');
    });

    it('a product that is not there: 404 in the envelope', async () => {
      const res = await call('GET', '/api/products/2147483647');
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { status: 0, data: null, error: 'Product 2147483647 not found' });
    });
  });
}
