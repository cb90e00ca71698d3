// POST /api/products/{id}/variants/options on both databases: every missing combination made at once, in order, named
// and with SKUs as a merchant would; run again it makes nothing; bad options are a 400 that writes nothing; another
// organization's product is a 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { assertError, createProduct, okData, type Call } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`variant options (${target.name})`, () => {
    let h: Harness;
    let call: Call;
    before(async () => {
      h = await harness(target);
      call = h.as(await h.tenant());
    });
    after(() => h.close());

    const matrix = (id: number, body: unknown, c: Call = call) => c('POST', `/api/products/${id}/variants/options`, body);
    const variantsOf = async (id: number) => okData(await call('GET', `/api/products/${id}/variants`)).variants;

    it('makes a variant for every missing combination, in order, at the product price, and bumps the product', async () => {
      const p = await createProduct(call, { name: 'Harbour Tee', sku: 'HTEE', price: '25.00' });
      // One combination exists already, typed differently.
      okData(
        await call('POST', `/api/products/${p.id}/variants`, {
          sku: 'HTEE-MINE',
          name: 'Mine',
          attributes: [
            { attribute_name: 'size', value: 's' },
            { attribute_name: 'colour', value: 'NAVY' },
          ],
        }),
        201,
      );
      // A SKU the generated ones would take.
      const other = await createProduct(call, { sku: 'HTEE-OTHER' });
      okData(await call('POST', `/api/products/${other.id}/variants`, { sku: 'HTEE-M-OAT', name: 'Taken' }), 201);

      const result = okData(
        await matrix(p.id, {
          options: [
            { name: 'Size', values: ['S', 'M'] },
            { name: 'Colour', values: ['Navy', 'Oat'] },
          ],
          stock_quantity: 3,
        }),
        201,
      );
      assert.equal(result.product_id, p.id);
      assert.equal(result.total, 4);
      assert.deepEqual(
        result.created.map((v: { sku: string; name: string; price: string; stock_quantity: number; stock_status: string; position: number }) => [
          v.sku,
          v.name,
          v.price,
          v.stock_quantity,
          v.stock_status,
          v.position,
        ]),
        [
          ['HTEE-S-OAT', 'Harbour Tee / S / Oat', '25.0000', 3, 'in_stock', 1],
          ['HTEE-M-NAVY', 'Harbour Tee / M / Navy', '25.0000', 3, 'in_stock', 2],
          ['HTEE-M-OAT-2', 'Harbour Tee / M / Oat', '25.0000', 3, 'in_stock', 3],
        ],
      );
      assert.deepEqual(result.created[0].attributes, [
        { attribute_name: 'Size', value: 'S' },
        { attribute_name: 'Colour', value: 'Oat' },
      ]);
      assert.equal((await variantsOf(p.id)).length, 4);
      assert.ok(okData(await call('GET', `/api/products/${p.id}`)).updated_at >= p.updated_at);

      // The same matrix again makes nothing: 200, created empty.
      const again = okData(
        await matrix(p.id, {
          options: [
            { name: 'Size', values: ['S', 'M'] },
            { name: 'Colour', values: ['Navy', 'Oat'] },
          ],
        }),
        200,
      );
      assert.deepEqual([again.created, again.total], [[], 4]);
    });

    it('takes a price of its own', async () => {
      const p = await createProduct(call, { sku: 'PRICED', price: '10.00' });
      const result = okData(await matrix(p.id, { options: [{ name: 'Size', values: ['L'] }], price: '12.50' }), 201);
      assert.deepEqual(
        result.created.map((v: { sku: string; price: string; stock_status: string }) => [v.sku, v.price, v.stock_status]),
        [['PRICED-L', '12.5000', 'out_of_stock']],
      );
    });

    it('refuses bad options with a 400 naming the field, and writes nothing', async () => {
      const p = await createProduct(call, { sku: 'BAD-OPTS' });
      assertError(await matrix(p.id, {}), 400, /field 'options' is required/);
      assertError(await matrix(p.id, { options: [] }), 400, /field 'options'/);
      assertError(
        await matrix(p.id, {
          options: [
            { name: 'Size', values: ['S'] },
            { name: ' size ', values: ['M'] },
          ],
        }),
        400,
        /^field 'options\/1\/name': the option ' size ' is named twice$/,
      );
      assertError(await matrix(p.id, { options: [{ name: 'Size', values: ['S', 's'] }] }), 400, /^field 'options\/0\/values': 's' is given twice for Size$/);
      assertError(await matrix(p.id, { options: ['A', 'B', 'C', 'D'].map((name) => ({ name, values: ['1'] })) }), 400, /field 'options'/);
      const many = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
      assertError(
        await matrix(p.id, {
          options: [
            { name: 'A', values: many(30) },
            { name: 'B', values: many(30) },
            { name: 'C', values: many(3) },
          ],
        }),
        400,
        /^field 'options': 2700 new variants would make 2700, over the 2048 a product may have$/,
      );
      assertError(await matrix(p.id, { options: [{ name: 'Size', values: ['S'] }], price: '-1' }), 400, /field 'price'/);
      assert.equal((await variantsOf(p.id)).length, 0);
    });

    it("is 404 for another organization's product", async () => {
      const p = await createProduct(call, { sku: 'MINE-ONLY' });
      const other = h.as(await h.tenant());
      assertError(await matrix(p.id, { options: [{ name: 'Size', values: ['S'] }] }, other), 404);
      assert.equal((await variantsOf(p.id)).length, 0);
    });
  });
}
