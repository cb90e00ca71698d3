// Warehouses (/api/warehouses), stock per warehouse (PUT /api/products/{id}/stock) and barcode lookup
// (GET /api/products/barcode/{barcode}).
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { gtinForms, withGtinCheckDigit } from '../src/lib/gtin.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { assertError, createProduct, okData, PRODUCT_KEYS, sku, validEan, wrongCheckDigit, type Call } from './helpers/pim.js';

const WAREHOUSE_KEYS = ['code', 'country_code', 'created_at', 'id', 'name', 'updated_at'];

describe('gtinForms', () => {
  it('gives the GTIN-8/12/13/14 spellings of one trade item', () => {
    assert.deepEqual(gtinForms('036000291452'), ['036000291452', '0036000291452', '00036000291452']);
    assert.deepEqual(gtinForms('0036000291452'), ['036000291452', '0036000291452', '00036000291452']);
    assert.deepEqual(gtinForms('00036000291452'), ['036000291452', '0036000291452', '00036000291452']);
    assert.deepEqual(gtinForms('4006381333931'), ['4006381333931', '04006381333931']);
    assert.deepEqual(gtinForms('10614141000415'), ['10614141000415']);
    assert.deepEqual(gtinForms('96385074'), ['96385074', '000096385074', '0000096385074', '00000096385074']);
    // Odd lengths are padded too: a UPC-A whose leading zero a scanner dropped.
    assert.deepEqual(gtinForms('36000291452'), ['036000291452', '0036000291452', '00036000291452']);
  });
});

for (const target of databaseTargets()) {
  describe(`warehouses, stock and barcode (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());

    const fresh = async (): Promise<Call> => h.as(await h.tenant());
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const warehouse = async (c: Call, code: string, fields: Record<string, unknown> = {}): Promise<any> =>
      okData(await c('POST', '/api/warehouses', { code, name: `Warehouse ${code}`, ...fields }), 201);
    const setStock = (c: Call, productId: number, warehouseId: number, quantity: number) =>
      c('PUT', `/api/products/${productId}/stock`, { warehouse_id: warehouseId, quantity });
    /**
     * The warehouse as if made a second earlier (its stored timestamps moved back), read again: a warehouse shows its
     * timestamps to the second, so a change must be a second later to show, and the test need not wait one out.
     */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const aged = async (c: Call, w: { id: number }): Promise<any> => {
      await h.database.db.execute(
        sql`UPDATE warehouses SET created_at = created_at - interval '1 second', updated_at = updated_at - interval '1 second' WHERE id = ${w.id}`,
      );
      return okData(await c('GET', `/api/warehouses/${w.id}`));
    };

    describe('warehouses', () => {
      it('lists none at first, creates with 201, reads, lists by code', async () => {
        const c = await fresh();
        assert.deepEqual(okData(await c('GET', '/api/warehouses')), { warehouses: [], total: 0 });
        const ber = okData(await c('POST', '/api/warehouses', { code: 'BER-1', name: 'Berlin', country_code: 'DE' }), 201);
        assert.deepEqual(Object.keys(ber).sort(), WAREHOUSE_KEYS);
        assert.equal(ber.code, 'BER-1');
        assert.equal(ber.name, 'Berlin');
        assert.equal(ber.country_code, 'DE');
        assert.match(ber.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        assert.equal(ber.updated_at, ber.created_at);
        const ams = await warehouse(c, 'AMS');
        assert.equal(ams.country_code, null);
        const nul = await warehouse(c, 'AAA.1_x', { country_code: null });
        assert.deepEqual(okData(await c('GET', `/api/warehouses/${ber.id}`)), ber);
        assert.deepEqual(okData(await c('GET', '/api/warehouses')), { warehouses: [nul, ams, ber], total: 3 });
      });

      it('validates the body', async () => {
        const c = await fresh();
        const cases: [unknown, RegExp][] = [
          [{ name: 'X' }, /field 'code' is required/],
          [{ code: 'X' }, /field 'name' is required/],
          [{ code: '', name: 'X' }, /field 'code' must be 1-64 letters/],
          [{ code: '-A', name: 'X' }, /field 'code'/],
          [{ code: 'A B', name: 'X' }, /field 'code'/],
          [{ code: 'A'.repeat(65), name: 'X' }, /field 'code'/],
          [{ code: 'A', name: '' }, /field 'name'/],
          [{ code: 'A', name: 'X'.repeat(256) }, /field 'name'/],
          [{ code: 'A', name: 'X', country_code: 'XX' }, /field 'country_code' must be an ISO 3166-1 alpha-2 country code in capitals/],
          [{ code: 'A', name: 'X', country_code: 'de' }, /field 'country_code' must be an ISO 3166-1/],
          [{ code: 'A', name: 'X', country_code: 'DEU' }, /field 'country_code'/],
          [{ code: 'A', name: 'X', country_code: 'EU' }, /field 'country_code'/],
          [{ code: 'A', name: 'X', country_code: 49 }, /field 'country_code'/],
          [{ code: 'A', name: 'X', city: 'Berlin' }, /field 'city' is not allowed/],
          [['A'], /the request body/],
        ];
        for (const [body, message] of cases) assertError(await c('POST', '/api/warehouses', body), 400, message);
        assert.equal(okData(await c('GET', '/api/warehouses')).total, 0);
        for (const country_code of ['DE', 'US', 'GB', 'AX', 'ZW'])
          assert.equal((await warehouse(c, `W-${country_code}`, { country_code })).country_code, country_code);
      });

      it('keeps codes unique per organization, also for simultaneous creates', async () => {
        const c = await fresh();
        await warehouse(c, 'MAIN');
        assertError(await c('POST', '/api/warehouses', { code: 'MAIN', name: 'Again' }), 400, /field 'code': a warehouse with code 'MAIN' already exists/);
        await warehouse(await fresh(), 'MAIN');
        const results = await Promise.all(Array.from({ length: 5 }, () => c('POST', '/api/warehouses', { code: 'RACE', name: 'Race' })));
        assert.equal(results.filter((r) => r.statusCode === 201).length, 1);
        for (const r of results.filter((r) => r.statusCode !== 201)) assertError(r, 400, /field 'code': a warehouse with code 'RACE' already exists/);
        assert.equal(okData(await c('GET', '/api/warehouses')).total, 2);
      });

      it('updates with PUT and PATCH alike; country_code null clears it', async () => {
        const c = await fresh();
        const w = await aged(c, await warehouse(c, 'HAM', { country_code: 'DE' }));
        await warehouse(c, 'TAKEN');
        const renamed = okData(await c('PATCH', `/api/warehouses/${w.id}`, { name: 'Hamburg Nord' }));
        assert.deepEqual({ ...renamed, updated_at: w.updated_at }, { ...w, name: 'Hamburg Nord' });
        assert.ok(renamed.updated_at > w.updated_at);
        const put = okData(await c('PUT', `/api/warehouses/${w.id}`, { code: 'HAM-2', country_code: null }));
        assert.deepEqual([put.code, put.name, put.country_code], ['HAM-2', 'Hamburg Nord', null]);
        assert.equal(okData(await c('PUT', `/api/warehouses/${w.id}`, { code: 'HAM-2', country_code: 'AT' })).country_code, 'AT');
        assertError(await c('PATCH', `/api/warehouses/${w.id}`, { code: 'TAKEN' }), 400, /field 'code': a warehouse with code 'TAKEN' already exists/);
        for (const method of ['PUT', 'PATCH']) {
          assertError(await c(method, `/api/warehouses/${w.id}`, {}), 400, /must name at least one field to change/);
          assertError(await c(method, `/api/warehouses/${w.id}`, { country_code: 'XX' }), 400, /field 'country_code'/);
          assertError(await c(method, `/api/warehouses/${w.id}`, { id: 3 }), 400, /field 'id' is not allowed/);
        }
        assert.equal(okData(await c('GET', `/api/warehouses/${w.id}`)).code, 'HAM-2');
      });

      it('answers 404 for unknown and foreign ids, 400 for bad ids, 401 without a key', async () => {
        const c = await fresh();
        const other = await fresh();
        const theirs = await warehouse(other, 'SECRET');
        for (const id of [theirs.id, 2_000_000_000]) {
          assertError(await c('GET', `/api/warehouses/${id}`), 404, new RegExp(`Warehouse ${id} not found`));
          assertError(await c('PUT', `/api/warehouses/${id}`, { name: 'Mine' }), 404);
          assertError(await c('PATCH', `/api/warehouses/${id}`, { name: 'Mine' }), 404);
          assertError(await c('DELETE', `/api/warehouses/${id}`), 404);
        }
        assertError(await c('GET', '/api/warehouses/0'), 400, /path parameter 'id'/);
        assertError(await c('DELETE', '/api/warehouses/x'), 400, /path parameter 'id'/);
        assert.deepEqual(okData(await other('GET', `/api/warehouses/${theirs.id}`)), theirs);
        assert.equal(okData(await c('GET', '/api/warehouses')).total, 0);

        const p = await createProduct(other);
        const anonymous = h.as(null);
        for (const [method, url, body] of [
          ['GET', '/api/warehouses'],
          ['GET', `/api/warehouses/${theirs.id}`],
          ['POST', '/api/warehouses', { code: 'X', name: 'X' }],
          ['PUT', `/api/warehouses/${theirs.id}`, { name: 'X' }],
          ['PATCH', `/api/warehouses/${theirs.id}`, { name: 'X' }],
          ['DELETE', `/api/warehouses/${theirs.id}`],
          ['GET', `/api/products/${p.id}/stock`],
          ['PUT', `/api/products/${p.id}/stock`, { warehouse_id: theirs.id, quantity: 1 }],
          ['GET', `/api/products/barcode/${validEan()}`],
        ] as const) {
          assertError(await anonymous(method, url, body), 401);
        }
        assert.deepEqual(okData(await other('GET', `/api/warehouses/${theirs.id}`)), theirs);
      });
    });

    describe('stock per warehouse', () => {
      it("sets levels; the product's stock is their sum and in_stock follows", async () => {
        const c = await fresh();
        const b = await warehouse(c, 'B');
        const a = await warehouse(c, 'A', { country_code: 'NL' });
        const p = await createProduct(c, { stock: 40 });
        assert.deepEqual(okData(await c('GET', `/api/products/${p.id}/stock`)), {
          product_id: p.id,
          stock: 40,
          in_stock: true,
          warehouse_stock: [],
          variants: [],
        });

        const first = okData(await setStock(c, p.id, b.id, 0));
        assert.deepEqual(first, {
          product_id: p.id,
          stock: 0,
          in_stock: false,
          warehouse_stock: [{ warehouse_id: b.id, code: 'B', name: 'Warehouse B', quantity: 0 }],
          variants: [],
        });
        const product = okData(await c('GET', `/api/products/${p.id}`));
        assert.deepEqual([product.stock, product.in_stock], [0, false]);
        assert.ok(product.updated_at > p.updated_at, 'updated_at moves with the stock');

        okData(await setStock(c, p.id, b.id, 5));
        const both = okData(await setStock(c, p.id, a.id, 7));
        assert.deepEqual(both, {
          product_id: p.id,
          stock: 12,
          in_stock: true,
          warehouse_stock: [
            { warehouse_id: a.id, code: 'A', name: 'Warehouse A', quantity: 7 },
            { warehouse_id: b.id, code: 'B', name: 'Warehouse B', quantity: 5 },
          ],
          variants: [],
        });
        assert.deepEqual(okData(await c('GET', `/api/products/${p.id}/stock`)), both);
        const listed = okData(await c('GET', '/api/products')).products.find((x: { id: number }) => x.id === p.id);
        assert.deepEqual([listed.stock, listed.in_stock], [12, true]);

        const emptied = okData(await setStock(c, okData(await c('GET', `/api/products/${p.id}`)).id, a.id, 0));
        assert.equal(emptied.stock, 5);
        okData(await setStock(c, p.id, b.id, 0));
        const none = okData(await c('GET', `/api/products/${p.id}`));
        assert.deepEqual([none.stock, none.in_stock], [0, false]);
      });

      it('keeps the sum right under simultaneous writes', async () => {
        const c = await fresh();
        const ws = await Promise.all(['W1', 'W2', 'W3', 'W4', 'W5'].map((code) => warehouse(c, code)));
        const p = await createProduct(c);
        const results = await Promise.all(ws.flatMap((w, i) => [setStock(c, p.id, w.id, i + 1), setStock(c, p.id, w.id, 10 * (i + 1))]));
        for (const r of results) okData(r);
        const levels = okData(await c('GET', `/api/products/${p.id}/stock`));
        const sum = levels.warehouse_stock.reduce((acc: number, l: { quantity: number }) => acc + l.quantity, 0);
        assert.equal(levels.stock, sum);
        assert.equal(okData(await c('GET', `/api/products/${p.id}`)).stock, sum);
      });

      it('refuses a PATCH of stock once the product has warehouse levels', async () => {
        const c = await fresh();
        const w = await warehouse(c, 'MAIN');
        const p = await createProduct(c, { stock: 3 });
        assert.equal(okData(await c('PATCH', `/api/products/${p.id}`, { stock: 4 })).stock, 4, 'without levels stock is set directly');
        okData(await setStock(c, p.id, w.id, 9));
        assertError(
          await c('PATCH', `/api/products/${p.id}`, { stock: 4, name: 'Renamed' }),
          400,
          new RegExp(`field 'stock': product ${p.id} has stock per warehouse.*PUT /api/products/${p.id}/stock`),
        );
        const now = okData(await c('GET', `/api/products/${p.id}`));
        assert.deepEqual([now.stock, now.name], [9, p.name]);
        assert.equal(okData(await c('PATCH', `/api/products/${p.id}`, { name: 'Renamed' })).stock, 9, 'other fields still change');
      });

      it('validates the body and the references', async () => {
        const c = await fresh();
        const other = await fresh();
        const w = await warehouse(c, 'MAIN');
        const theirs = await warehouse(other, 'THEIRS');
        const p = await createProduct(c, { stock: 2 });
        const cases: [unknown, RegExp][] = [
          [{ warehouse_id: w.id }, /field 'quantity' is required/],
          [{ quantity: 1 }, /field 'warehouse_id' is required/],
          [{ warehouse_id: w.id, quantity: -1 }, /field 'quantity' must be >= 0/],
          [{ warehouse_id: w.id, quantity: 1.5 }, /field 'quantity'/],
          [{ warehouse_id: w.id, quantity: '3' }, /field 'quantity'/],
          [{ warehouse_id: w.id, quantity: 1_000_000_001 }, /field 'quantity'/],
          [{ warehouse_id: 0, quantity: 1 }, /field 'warehouse_id' must be a positive integer id/],
          [{ warehouse_id: String(w.id), quantity: 1 }, /field 'warehouse_id'/],
          [{ warehouse_id: w.id, quantity: 1, note: 'x' }, /field 'note' is not allowed/],
          [{ warehouse_id: theirs.id, quantity: 1 }, new RegExp(`field 'warehouse_id': unknown warehouse ${theirs.id}`)],
          [{ warehouse_id: 2_000_000_000, quantity: 1 }, /field 'warehouse_id': unknown warehouse 2000000000/],
        ];
        for (const [body, message] of cases) assertError(await c('PUT', `/api/products/${p.id}/stock`, body), 400, message);
        assert.deepEqual(okData(await c('GET', `/api/products/${p.id}/stock`)), {
          product_id: p.id,
          stock: 2,
          in_stock: true,
          warehouse_stock: [],
          variants: [],
        });

        const theirProduct = await createProduct(other);
        for (const id of [theirProduct.id, 2_000_000_000]) {
          assertError(await setStock(c, id, w.id, 1), 404, new RegExp(`Product ${id} not found`));
          assertError(await c('GET', `/api/products/${id}/stock`), 404, new RegExp(`Product ${id} not found`));
        }
        assertError(await setStock(c, theirProduct.id, theirs.id, 1), 404);
        assertError(await c('GET', '/api/products/abc/stock'), 400, /path parameter 'id'/);
        assert.equal(okData(await other('GET', `/api/products/${theirProduct.id}`)).stock, 0);
      });

      it('refuses a total beyond the integer range and changes nothing', async () => {
        const c = await fresh();
        const [w1, w2, w3] = await Promise.all(['X1', 'X2', 'X3'].map((code) => warehouse(c, code)));
        const p = await createProduct(c);
        okData(await setStock(c, p.id, w1.id, 1_000_000_000));
        okData(await setStock(c, p.id, w2.id, 1_000_000_000));
        assertError(await setStock(c, p.id, w3.id, 1_000_000_000), 400, /field 'quantity': the product's total stock would exceed 2147483647/);
        const levels = okData(await c('GET', `/api/products/${p.id}/stock`));
        assert.equal(levels.stock, 2_000_000_000);
        assert.equal(levels.warehouse_stock.length, 2);
      });

      it('deleting a warehouse deletes its levels and recomputes the stock of the products that had one', async () => {
        const c = await fresh();
        const keep = await warehouse(c, 'KEEP');
        const drop = await warehouse(c, 'DROP');
        const both = await createProduct(c);
        const only = await createProduct(c);
        const untouched = await createProduct(c, { stock: 8 });
        okData(await setStock(c, both.id, keep.id, 2));
        okData(await setStock(c, both.id, drop.id, 3));
        okData(await setStock(c, only.id, drop.id, 4));
        const onlyBefore = okData(await c('GET', `/api/products/${only.id}`));

        assert.deepEqual(okData(await c('DELETE', `/api/warehouses/${drop.id}`)), { deleted: true });
        assertError(await c('GET', `/api/warehouses/${drop.id}`), 404);
        assert.deepEqual(okData(await c('GET', `/api/products/${both.id}/stock`)), {
          product_id: both.id,
          stock: 2,
          in_stock: true,
          warehouse_stock: [{ warehouse_id: keep.id, code: 'KEEP', name: 'Warehouse KEEP', quantity: 2 }],
          variants: [],
        });
        const onlyAfter = okData(await c('GET', `/api/products/${only.id}`));
        assert.deepEqual([onlyAfter.stock, onlyAfter.in_stock], [0, false]);
        assert.ok(onlyAfter.updated_at > onlyBefore.updated_at);
        assert.equal(okData(await c('GET', `/api/products/${untouched.id}`)).stock, 8);
        // With no level left, stock is set directly again.
        assert.equal(okData(await c('PATCH', `/api/products/${only.id}`, { stock: 6 })).stock, 6);
        assertError(await c('DELETE', `/api/warehouses/${drop.id}`), 404);
      });

      it('keeps stock consistent when a warehouse is deleted during stock writes', async () => {
        const c = await fresh();
        const a = await warehouse(c, 'A');
        const b = await warehouse(c, 'B');
        const products = await Promise.all(Array.from({ length: 4 }, () => createProduct(c)));
        for (const p of products) okData(await setStock(c, p.id, a.id, 1));
        const results = await Promise.all([
          ...products.flatMap((p) => [setStock(c, p.id, b.id, 5), setStock(c, p.id, a.id, 3)]),
          c('DELETE', `/api/warehouses/${b.id}`),
        ]);
        for (const r of results) assert.ok([200, 400].includes(r.statusCode), r.body); // 400: warehouse B was gone
        for (const p of products) {
          const levels = okData(await c('GET', `/api/products/${p.id}/stock`));
          assert.deepEqual(
            levels.warehouse_stock.map((l: { code: string }) => l.code),
            ['A'],
          );
          assert.equal(levels.stock, 3);
        }
      });
    });

    describe('barcode lookup', () => {
      it('returns the Product plus its warehouse stock, ordered by warehouse code', async () => {
        const c = await fresh();
        const z = await warehouse(c, 'Z-LAST');
        const a = await warehouse(c, 'A-FIRST');
        const ean = validEan();
        const p = await createProduct(c, { ean, name: 'Scanned' });
        okData(await setStock(c, p.id, z.id, 1));
        okData(await setStock(c, p.id, a.id, 2));
        const found = okData(await c('GET', `/api/products/barcode/${ean}`));
        assert.deepEqual(Object.keys(found).sort(), [...PRODUCT_KEYS, 'warehouse_stock'].sort());
        const { warehouse_stock, ...product } = found;
        assert.deepEqual(product, okData(await c('GET', `/api/products/${p.id}`)));
        assert.equal(product.stock, 3);
        assert.deepEqual(warehouse_stock, [
          { warehouse_id: a.id, code: 'A-FIRST', name: 'Warehouse A-FIRST', quantity: 2 },
          { warehouse_id: z.id, code: 'Z-LAST', name: 'Warehouse Z-LAST', quantity: 1 },
        ]);
        const plain = await createProduct(c, { ean: validEan() });
        assert.deepEqual(okData(await c('GET', `/api/products/barcode/${plain.ean}`)).warehouse_stock, []);
      });

      it('matches UPC-A, EAN-13, GTIN-14 and GTIN-8 spellings of the same code', async () => {
        const c = await fresh();
        const upc = await createProduct(c, { ean: '036000291452' });
        const ean13 = await createProduct(c, { ean: '0012345678905' });
        const gtin14 = await createProduct(c, { ean: '00614141000418' });
        const gtin8 = await createProduct(c, { ean: '96385074' });
        for (const [barcode, id] of [
          ['036000291452', upc.id],
          ['0036000291452', upc.id],
          ['00036000291452', upc.id],
          ['36000291452', upc.id],
          ['012345678905', ean13.id],
          ['0012345678905', ean13.id],
          ['00012345678905', ean13.id],
          ['614141000418', gtin14.id],
          ['0614141000418', gtin14.id],
          ['00614141000418', gtin14.id],
          ['96385074', gtin8.id],
          ['00000096385074', gtin8.id],
        ] as const) {
          assert.equal(okData(await c('GET', `/api/products/barcode/${barcode}`)).id, id, barcode);
        }
      });

      it('keeps one product per GTIN: another spelling of a taken code is a duplicate EAN', async () => {
        const c = await fresh();
        const p = await createProduct(c, { ean: '036000291452' });
        assertError(
          await c('POST', '/api/products', { name: 'Same item', sku: sku(), ean: '0036000291452' }),
          400,
          /field 'ean': another product already has ean/,
        );
        const q = await createProduct(c);
        assertError(await c('PATCH', `/api/products/${q.id}`, { ean: '00036000291452' }), 400, /field 'ean'/);
        // The product itself may switch to another spelling of its own code.
        assert.equal(okData(await c('PATCH', `/api/products/${p.id}`, { ean: '0036000291452' })).ean, '0036000291452');
        assert.equal(okData(await c('GET', '/api/products/barcode/036000291452')).id, p.id);
        // Another organization may hold the same code.
        assert.equal((await createProduct(await fresh(), { ean: '036000291452' })).ean, '036000291452');
      });

      it('checks GTIN check digits on create and PATCH', async () => {
        const c = await fresh();
        const good = validEan();
        assertError(await c('POST', '/api/products', { name: 'X', sku: sku(), ean: wrongCheckDigit(good) }), 400, /field 'ean' has an invalid check digit/);
        assertError(await c('POST', '/api/products', { name: 'X', sku: sku(), ean: '1234567890' }), 400, /field 'ean' has an invalid check digit or length/);
        const p = await createProduct(c, { ean: good });
        for (const ean of [wrongCheckDigit(good), '036000291453', '96385075', '00614141000419']) {
          assertError(await c('PATCH', `/api/products/${p.id}`, { ean }), 400, /field 'ean' has an invalid check digit/);
        }
        assert.equal(okData(await c('PATCH', `/api/products/${p.id}`, { ean: withGtinCheckDigit('590123412345') })).ean, '5901234123457');
        assert.equal(okData(await c('GET', `/api/products/${p.id}`)).ean, '5901234123457');
      });

      it('answers 404 for an unknown or foreign barcode and 400 unless it is 8 to 14 digits', async () => {
        const c = await fresh();
        const other = await fresh();
        const theirs = await createProduct(other, { ean: validEan() });
        assertError(await c('GET', `/api/products/barcode/${theirs.ean}`), 404, new RegExp(`No product with barcode '${theirs.ean}'`));
        assertError(await c('GET', `/api/products/barcode/${validEan()}`), 404);
        assertError(await c('GET', '/api/products/barcode/12345678'), 404, /No product with barcode '12345678'/);
        for (const barcode of ['1234567', '123456789012345', '40063813339a1', '4006381333931%20', '-4006381333931', '+4006381333', '1e10000000']) {
          assertError(await c('GET', `/api/products/barcode/${barcode}`), 400, /path parameter 'barcode' must be a barcode of 8 to 14 digits/);
        }
        assert.equal(okData(await other('GET', `/api/products/barcode/${theirs.ean}`)).id, theirs.id);
        // The static segment wins over /api/products/:id; without a code it is a product id, which "barcode" is not.
        assertError(await c('GET', '/api/products/barcode'), 400, /path parameter 'id'/);
      });
    });
  });
}
