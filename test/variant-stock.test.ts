// Stock as one model: levels per variant and warehouse (GET/PUT /api/products/{id}/variants/{variantId}/stock), the
// variant's stock_quantity their sum, a product with variants the sum of its variants' stock and its per-warehouse view
// their levels summed; the writes that would contradict the model are 400s that change nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { assertError, createProduct, okData, sku, validEan, type Call } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`stock per variant and warehouse (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());

    const fresh = async (): Promise<Call> => h.as(await h.tenant());
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const warehouse = async (c: Call, code: string): Promise<any> => okData(await c('POST', '/api/warehouses', { code, name: `Warehouse ${code}` }), 201);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const variant = async (c: Call, productId: number, fields: Record<string, unknown> = {}): Promise<any> =>
      okData(await c('POST', `/api/products/${productId}/variants`, { sku: sku('V'), name: 'Variant', ...fields }), 201);
    const setLevel = (c: Call, productId: number, variantId: number, warehouseId: number, quantity: number) =>
      c('PUT', `/api/products/${productId}/variants/${variantId}/stock`, { warehouse_id: warehouseId, quantity });
    const stockOf = async (c: Call, productId: number) => okData(await c('GET', `/api/products/${productId}/stock`));
    const level = (w: { id: number; code: string }, quantity: number) => ({ warehouse_id: w.id, code: w.code, name: `Warehouse ${w.code}`, quantity });

    it("sets a variant's levels: its stock_quantity is their sum, the product's stock the sum of its variants'", async () => {
      const c = await fresh();
      const b = await warehouse(c, 'B');
      const a = await warehouse(c, 'A');
      const ean = validEan();
      const p = await createProduct(c, { ean });
      const red = await variant(c, p.id, { name: 'Red', position: 0 });
      const blue = await variant(c, p.id, { name: 'Blue', position: 1, stock_quantity: 4 });
      assert.deepEqual(red.warehouse_stock, []);
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, 4, 'the sum of the variants, one without levels');

      const answer = okData(await setLevel(c, p.id, red.id, b.id, 5));
      assert.deepEqual(answer, {
        product_id: p.id,
        variant_id: red.id,
        sku: red.sku,
        name: 'Red',
        stock_quantity: 5,
        stock_status: 'in_stock',
        warehouse_stock: [level(b, 5)],
      });
      okData(await setLevel(c, p.id, red.id, a.id, 2));
      okData(await setLevel(c, p.id, blue.id, b.id, 1));
      assert.deepEqual(okData(await c('GET', `/api/products/${p.id}/variants/${red.id}/stock`)).warehouse_stock, [level(a, 2), level(b, 5)], 'variant stock');

      const all = await stockOf(c, p.id);
      assert.deepEqual(
        { stock: all.stock, in_stock: all.in_stock, warehouse_stock: all.warehouse_stock },
        { stock: 8, in_stock: true, warehouse_stock: [level(a, 2), level(b, 6)] },
      );
      assert.deepEqual(
        all.variants.map((v: { variant_id: number; stock_quantity: number; warehouse_stock: unknown[] }) => [
          v.variant_id,
          v.stock_quantity,
          v.warehouse_stock,
        ]),
        [
          [red.id, 7, [level(a, 2), level(b, 5)]],
          [blue.id, 1, [level(b, 1)]],
        ],
        'the levels replace the count the variant had without any',
      );
      const product = okData(await c('GET', `/api/products/${p.id}?include=variants,warehouse_stock`));
      assert.equal(product.stock, 8);
      assert.deepEqual(product.warehouse_stock, all.warehouse_stock);
      assert.deepEqual(
        product.variants.map((v: { stock_quantity: number; warehouse_stock: unknown[] }) => [v.stock_quantity, v.warehouse_stock]),
        [
          [7, [level(a, 2), level(b, 5)]],
          [1, [level(b, 1)]],
        ],
      );
      assert.deepEqual(okData(await c('GET', `/api/products/${p.id}/variants/${red.id}`)).warehouse_stock, [level(a, 2), level(b, 5)], 'variant read');
      const scanned = okData(await c('GET', `/api/products/barcode/${ean}`));
      assert.deepEqual([scanned.stock, scanned.warehouse_stock], [8, [level(a, 2), level(b, 6)]], 'the barcode lookup sums the variants per warehouse');

      // Emptied: out of stock; a backorder variant stays on backorder.
      okData(await c('PATCH', `/api/products/${p.id}/variants/${blue.id}`, { stock_status: 'on_backorder' }));
      assert.equal(okData(await setLevel(c, p.id, blue.id, b.id, 0)).stock_status, 'on_backorder');
      okData(await setLevel(c, p.id, red.id, a.id, 0));
      const emptied = okData(await setLevel(c, p.id, red.id, b.id, 0));
      assert.deepEqual([emptied.stock_quantity, emptied.stock_status], [0, 'out_of_stock']);
      const none = okData(await c('GET', `/api/products/${p.id}`));
      assert.deepEqual([none.stock, none.in_stock], [0, false]);
    });

    it('refuses the writes that would contradict the model, and changes nothing', async () => {
      const c = await fresh();
      const w = await warehouse(c, 'MAIN');
      const p = await createProduct(c);
      const v = await variant(c, p.id, { stock_quantity: 3 });
      okData(await setLevel(c, p.id, v.id, w.id, 9));
      const before = await stockOf(c, p.id);

      assertError(
        await c('PUT', `/api/products/${p.id}/stock`, { warehouse_id: w.id, quantity: 1 }),
        400,
        new RegExp(
          `product ${p.id} has variants; its stock is the sum of theirs, set per variant with PUT /api/products/${p.id}/variants/\\{variant_id\\}/stock`,
        ),
      );
      assertError(
        await c('PATCH', `/api/products/${p.id}`, { stock: 1, name: 'Renamed' }),
        400,
        new RegExp(`field 'stock': product ${p.id} has variants; its stock is the sum of theirs`),
      );
      assertError(
        await c('PATCH', `/api/products/${p.id}/variants/${v.id}`, { stock_quantity: 1, name: 'Renamed' }),
        400,
        new RegExp(
          `field 'stock_quantity': variant ${v.id} has stock per warehouse; its stock_quantity is their sum, set with PUT /api/products/${p.id}/variants/${v.id}/stock`,
        ),
      );
      assert.deepEqual(await stockOf(c, p.id), before);
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).name, p.name);
      assert.equal(okData(await c('GET', `/api/products/${p.id}/variants/${v.id}`)).name, 'Variant');
      // Other fields still change.
      assert.equal(okData(await c('PATCH', `/api/products/${p.id}/variants/${v.id}`, { name: 'Renamed' })).stock_quantity, 9);

      // A product without variants and with units in its own levels gets no variant; with only zero levels it does,
      // and those levels go.
      const own = await createProduct(c);
      okData(await c('PUT', `/api/products/${own.id}/stock`, { warehouse_id: w.id, quantity: 2 }));
      const refusal = new RegExp(`product ${own.id} has stock per warehouse of its own; .*set its levels to 0 with PUT /api/products/${own.id}/stock`);
      assertError(await c('POST', `/api/products/${own.id}/variants`, { sku: sku('V'), name: 'New' }), 400, refusal);
      assertError(await c('POST', `/api/products/${own.id}/variants/options`, { options: [{ name: 'Size', values: ['S', 'M'] }] }), 400, refusal);
      assert.equal(okData(await c('GET', `/api/products/${own.id}/variants`)).total, 0);
      assert.equal((await stockOf(c, own.id)).stock, 2);
      okData(await c('PUT', `/api/products/${own.id}/stock`, { warehouse_id: w.id, quantity: 0 }));
      const made = okData(
        await c('POST', `/api/products/${own.id}/variants/options`, { options: [{ name: 'Size', values: ['S', 'M'] }], stock_quantity: 3 }),
        201,
      );
      assert.equal(made.total, 2);
      const after = await stockOf(c, own.id);
      assert.deepEqual([after.stock, after.warehouse_stock], [6, []]);
    });

    it('keeps the sums under the integer range: a write past it is a 400 that changes nothing', async () => {
      const c = await fresh();
      const [w1, w2, w3] = await Promise.all(['X1', 'X2', 'X3'].map((code) => warehouse(c, code)));
      const p = await createProduct(c);
      const v = await variant(c, p.id);
      okData(await setLevel(c, p.id, v.id, w1.id, 1_000_000_000));
      okData(await setLevel(c, p.id, v.id, w2.id, 1_000_000_000));
      assertError(await setLevel(c, p.id, v.id, w3.id, 1_000_000_000), 400, /field 'quantity': the variant's total stock would exceed 2147483647/);
      const other = await variant(c, p.id);
      assertError(
        await setLevel(c, p.id, other.id, w1.id, 1_000_000_000),
        400,
        /field 'quantity': the product's total stock, the sum of its variants', would leave/,
      );
      assertError(
        await c('POST', `/api/products/${p.id}/variants`, { sku: sku('V'), name: 'Big', stock_quantity: 1_000_000_000 }),
        400,
        /field 'stock_quantity'/,
      );
      const now = await stockOf(c, p.id);
      assert.equal(now.stock, 2_000_000_000);
      assert.deepEqual(
        now.variants.map((x: { stock_quantity: number; warehouse_stock: unknown[] }) => [x.stock_quantity, x.warehouse_stock.length]),
        [
          [2_000_000_000, 2],
          [0, 0],
        ],
      );
    });

    it("adding and deleting variants keeps the product's stock their sum; without variants it is set directly again", async () => {
      const c = await fresh();
      const w = await warehouse(c, 'MAIN');
      const p = await createProduct(c, { stock: 11 });
      const one = await variant(c, p.id, { stock_quantity: 2 });
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, 2, "the product's own count gives way to its variants'");
      const two = await variant(c, p.id);
      okData(await setLevel(c, p.id, two.id, w.id, 5));
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, 7);
      okData(await c('PATCH', `/api/products/${p.id}/variants/${one.id}`, { stock_quantity: 4 }));
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, 9);
      okData(await c('DELETE', `/api/products/${p.id}/variants/${two.id}`));
      assert.deepEqual((await stockOf(c, p.id)).warehouse_stock, [], "the deleted variant's levels went with it");
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, 4);
      okData(await c('DELETE', `/api/products/${p.id}/variants/${one.id}`));
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, 0);
      assert.equal(okData(await c('PATCH', `/api/products/${p.id}`, { stock: 6 })).stock, 6);
    });

    it('deleting a warehouse deletes variant levels and recomputes the variants and their products', async () => {
      const c = await fresh();
      const keep = await warehouse(c, 'KEEP');
      const drop = await warehouse(c, 'DROP');
      const p = await createProduct(c);
      const both = await variant(c, p.id, { position: 0 });
      const only = await variant(c, p.id, { position: 1 });
      const plain = await createProduct(c);
      okData(await setLevel(c, p.id, both.id, keep.id, 2));
      okData(await setLevel(c, p.id, both.id, drop.id, 3));
      okData(await setLevel(c, p.id, only.id, drop.id, 4));
      okData(await c('PUT', `/api/products/${plain.id}/stock`, { warehouse_id: drop.id, quantity: 1 }));
      const before = okData(await c('GET', `/api/products/${p.id}`));
      assert.equal(before.stock, 9);

      okData(await c('DELETE', `/api/warehouses/${drop.id}`));
      const after = await stockOf(c, p.id);
      assert.deepEqual([after.stock, after.warehouse_stock], [2, [level(keep, 2)]]);
      assert.deepEqual(
        after.variants.map((v: { stock_quantity: number; stock_status: string }) => [v.stock_quantity, v.stock_status]),
        [
          [2, 'in_stock'],
          [0, 'out_of_stock'],
        ],
      );
      assert.ok(okData(await c('GET', `/api/products/${p.id}`)).updated_at > before.updated_at);
      assert.equal((await stockOf(c, plain.id)).stock, 0);
      // With no level left, the variant's count is set directly again.
      assert.equal(okData(await c('PATCH', `/api/products/${p.id}/variants/${only.id}`, { stock_quantity: 6 })).stock_quantity, 6);
      assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, 8);
    });

    it('keeps the sums right under simultaneous writes and a warehouse deletion', async () => {
      const c = await fresh();
      const [a, b, gone] = await Promise.all(['A', 'B', 'GONE'].map((code) => warehouse(c, code)));
      const p = await createProduct(c);
      const vs = await Promise.all([0, 1, 2].map((position) => variant(c, p.id, { position })));
      const results = await Promise.all([
        ...vs.flatMap((v, i) => [setLevel(c, p.id, v.id, a.id, i + 1), setLevel(c, p.id, v.id, b.id, 10), setLevel(c, p.id, v.id, gone.id, 100)]),
        c('DELETE', `/api/warehouses/${gone.id}`),
      ]);
      for (const r of results) assert.ok([200, 400].includes(r.statusCode), r.body); // 400: the warehouse was gone
      const all = await stockOf(c, p.id);
      for (const v of all.variants) {
        assert.deepEqual(
          v.warehouse_stock.map((l: { code: string }) => l.code),
          ['A', 'B'],
        );
        assert.equal(
          v.stock_quantity,
          v.warehouse_stock.reduce((sum: number, l: { quantity: number }) => sum + l.quantity, 0),
        );
      }
      assert.equal(all.stock, 36);
      assert.deepEqual(all.warehouse_stock, [level(a, 6), level(b, 30)]);
    });

    it("the data migration: a product with variants loses levels of its own and gets its variants' sum", async () => {
      const c = await fresh();
      const w = await warehouse(c, 'OLD');
      const p = await createProduct(c);
      await variant(c, p.id, { stock_quantity: 2 });
      await variant(c, p.id, { stock_quantity: 5 });
      const plain = await createProduct(c);
      okData(await c('PUT', `/api/products/${plain.id}/stock`, { warehouse_id: w.id, quantity: 3 }));
      // As a database of the release before: the product's own level beside its variants, its stock that level's.
      await h.database.db.execute(sql`INSERT INTO product_stock (product_id, warehouse_id, quantity) VALUES (${p.id}, ${w.id}, 9)`);
      await h.database.db.execute(sql`UPDATE products SET stock = 9 WHERE id = ${p.id}`);
      const file = new URL('../src/db/migrations/0023_variant_stock_backfill.sql', import.meta.url);
      for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) await h.database.db.execute(sql.raw(statement));
      const migrated = await stockOf(c, p.id);
      assert.deepEqual([migrated.stock, migrated.warehouse_stock], [7, []]);
      const untouched = await stockOf(c, plain.id);
      assert.deepEqual([untouched.stock, untouched.warehouse_stock], [3, [level(w, 3)]], 'a product without variants keeps its levels');
    });

    it('validates, and keeps organizations apart', async () => {
      const c = await fresh();
      const other = await fresh();
      const w = await warehouse(c, 'MAIN');
      const theirWarehouse = await warehouse(other, 'THEIRS');
      const p = await createProduct(c);
      const v = await variant(c, p.id);
      const theirs = await createProduct(other);
      const theirVariant = await variant(other, theirs.id);
      const url = `/api/products/${p.id}/variants/${v.id}/stock`;
      const cases: [unknown, RegExp][] = [
        [{ warehouse_id: w.id }, /field 'quantity' is required/],
        [{ warehouse_id: w.id, quantity: -1 }, /field 'quantity' must be >= 0/],
        [{ warehouse_id: w.id, quantity: '3' }, /field 'quantity'/],
        [{ warehouse_id: w.id, quantity: 1, note: 'x' }, /field 'note' is not allowed/],
        [{ warehouse_id: theirWarehouse.id, quantity: 1 }, new RegExp(`field 'warehouse_id': unknown warehouse ${theirWarehouse.id}`)],
      ];
      for (const [body, message] of cases) assertError(await c('PUT', url, body), 400, message);
      assert.deepEqual(okData(await c('GET', url)).warehouse_stock, []);

      for (const path of [`/api/products/${theirs.id}/variants/${theirVariant.id}/stock`, `/api/products/${p.id}/variants/${theirVariant.id}/stock`]) {
        assertError(await c('GET', path), 404);
        assertError(await c('PUT', path, { warehouse_id: w.id, quantity: 1 }), 404);
      }
      assertError(await c('GET', `/api/products/${p.id}/variants/x/stock`), 400, /path parameter 'variantId'/);
      assertError(await h.as(null)('PUT', url, { warehouse_id: w.id, quantity: 1 }), 401);
      assertError(await h.as(null)('GET', url), 401);
      const untouched = okData(await other('GET', `/api/products/${theirs.id}/stock`));
      assert.deepEqual([untouched.stock, untouched.variants[0].warehouse_stock], [0, []]);
    });
  });
}
