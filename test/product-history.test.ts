// A product's history: every write that changes a product recorded in its transaction (who, when, field old → new),
// read newest first, and "restore this version" (the product's own fields as they were right after a change).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { csv, importEnded, importFile, multipartFile, upload } from './helpers/catalogue-files.js';
import { form } from './helpers/form.js';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, okData, sku, type Call } from './helpers/pim.js';
import { makeImage } from './helpers/servers.js';

type Change = {
  id: number;
  action: string;
  who: { kind: string; key_id: number | null; key_name: string | null; label: string | null };
  changes: { field: string; old: unknown; new: unknown; variant_id?: number; variant_sku?: string; warehouse?: string }[];
};

for (const target of databaseTargets()) {
  describe(`product history (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    let call: Call;
    let dataDir: string;
    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-history-'));
      // SYNC_POLL_SECONDS=0: no delta poller, only the imports' jobs run.
      h = await harness(target, { DATA_DIR: dataDir, SYNC_RETRY_DELAY_SECONDS: '0', SYNC_POLL_SECONDS: '0' });
      await h.app.services.jobs.workers.start();
      const org = (await h.admin('POST', '/admin/organizations', { name: 'History Org' })).json();
      const key = (await h.admin('POST', `/admin/organizations/${org.id}/api-keys`, { name: 'ERP sync' })).json();
      t = { organizationId: org.id, apiKey: key.api_key, apiSecret: key.api_secret, keyId: key.id };
      call = h.as(t);
    });
    after(async () => {
      await h?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const history = async (id: number, query = ''): Promise<{ changes: Change[]; pagination: Record<string, number> }> =>
      okData(await call('GET', `/api/products/${id}/history${query}`));
    const fieldsOf = (c: Change) => Object.fromEntries(c.changes.map((f) => [f.field, [f.old, f.new]]));
    /** A change's lines as `field [variant SKU] [@warehouse]: old → new`, for the writes that name a variant or a warehouse. */
    const linesOf = (c: Change) =>
      c.changes.map((f) => {
        const where = [f.variant_sku, f.warehouse && `@${f.warehouse}`].filter(Boolean).join(' ');
        const text = (v: unknown) => (v !== null && typeof v === 'object' ? `{${(v as { sku?: string }).sku ?? '…'}}` : JSON.stringify(v));
        return `${f.field}${where ? ` ${where}` : ''}: ${text(f.old)} → ${text(f.new)}`;
      });

    it('records a create and an update from an API key: who (the key and its name), each field old → new, newest first', async () => {
      const p = await createProduct(call, { name: 'Lamp', price: '10.00', tags: ['home'] });
      okData(await call('PATCH', `/api/products/${p.id}`, { price: '12.50', name: 'Desk lamp' }));
      const { changes, pagination } = await history(p.id);
      assert.equal(pagination.total_items, 2);
      const [update, create] = changes;
      assert.equal(update.action, 'updated');
      assert.deepEqual(update.who, { kind: 'api_key', key_id: t.keyId, key_name: 'ERP sync', label: null });
      assert.deepEqual(fieldsOf(update), { price: ['10.0000', '12.5000'], name: ['Lamp', 'Desk lamp'] });
      assert.equal(create.action, 'created');
      assert.deepEqual(fieldsOf(create).price, [null, '10.0000']);
      assert.deepEqual(fieldsOf(create).tags, [null, ['home']]);
      assert.ok(update.id > create.id);
    });

    it('records nothing for a write that changes nothing', async () => {
      const p = await createProduct(call, { name: 'Chair', price: '40.00' });
      okData(await call('PATCH', `/api/products/${p.id}`, { price: '40.00', name: 'Chair' }));
      assert.equal((await history(p.id)).changes.length, 1);
    });

    it('records categories, attributes and archiving', async () => {
      const category = okData(await call('POST', '/api/categories', { name: `Cat ${sku()}` }), 201);
      const p = await createProduct(call, { name: 'Rug' });
      okData(await call('PATCH', `/api/products/${p.id}`, { category_ids: [category.id] }));
      okData(await call('DELETE', `/api/products/${p.id}`));
      const [archived, categorised] = (await history(p.id)).changes;
      assert.deepEqual(fieldsOf(categorised), { category_ids: [[], [category.id]] });
      assert.deepEqual(fieldsOf(archived), { status: ['draft', 'archived'] });
    });

    it('records a change from the console session as the console', async () => {
      const signIn = await h.app.inject({ method: 'POST', url: '/api/session', payload: { api_key: t.apiKey, api_secret: t.apiSecret } });
      const cookie = String(signIn.headers['set-cookie']).split(';')[0];
      const csrf = signIn.json().data.csrf_token as string;
      const p = await createProduct(call, { name: 'Vase', price: '5.00' });
      const res = await h.app.inject({ method: 'PATCH', url: `/api/products/${p.id}`, payload: { price: '6.00' }, headers: { cookie, 'x-csrf-token': csrf } });
      okData(res);
      const [change] = (await history(p.id)).changes;
      assert.deepEqual(change.who, { kind: 'console', key_id: t.keyId, key_name: 'ERP sync', label: null });
      assert.deepEqual(fieldsOf(change), { price: ['5.0000', '6.0000'] });
    });

    it('records an import (its file and key) and an adoption by the header the connector sends; an unchanged import records nothing', async () => {
      const s = sku('IMP');
      const first = csv([
        ['sku', 'name', 'price'],
        [s, 'Mug', '3.00'],
      ]);
      await importFile(call, first);
      const id = okData(await call('GET', `/api/products?search=${s}`)).products[0].id as number;
      await importFile(call, first);
      const accepted = okData(
        await upload(
          call,
          csv([
            ['sku', 'name', 'price'],
            [s, 'Mug', '3.50'],
          ]),
          '',
          { fileName: 'prices.csv' },
        ),
        202,
      );
      await importEnded(call, accepted);
      let { changes } = await history(id);
      assert.equal(changes.length, 2);
      assert.deepEqual(changes[0].who, { kind: 'import', key_id: t.keyId, key_name: 'ERP sync', label: 'prices.csv' });
      assert.deepEqual(fieldsOf(changes[0]), { price: ['3.0000', '3.5000'] });
      assert.equal(changes[1].action, 'created');
      const adopted = csv([
        ['sku', 'name', 'price'],
        [s, 'Mug', '4.00'],
      ]);
      await importEnded(call, okData(await upload(call, adopted, '', { fileName: 'shop-adoption.csv' }), 202));
      ({ changes } = await history(id));
      assert.equal(changes[0].who.kind, 'import', 'a file name alone is no adoption');
      const { body, contentType } = multipartFile(
        csv([
          ['sku', 'name', 'price'],
          [s, 'Mug', '4.50'],
        ]),
        { fileName: 'shop-adoption.csv' },
      );
      await importEnded(call, okData(await call('POST', '/api/imports', body, { 'content-type': contentType, 'x-pimbridge-source': 'shop-adoption' }), 202));
      ({ changes } = await history(id));
      assert.deepEqual(changes[0].who, { kind: 'adoption', key_id: t.keyId, key_name: 'ERP sync', label: 'shop-adoption.csv' });
    });

    it('restores a version: the fields as they were right after that change, recorded as a restore by the caller', async () => {
      const category = okData(await call('POST', '/api/categories', { name: `Cat ${sku()}` }), 201);
      const p = await createProduct(call, { name: 'Table', price: '100.00', attributes: {} });
      okData(await call('PATCH', `/api/products/${p.id}`, { price: '120.00', category_ids: [category.id] }));
      okData(await call('PATCH', `/api/products/${p.id}`, { price: '150.00', name: 'Big table', category_ids: [] }));
      const [, firstUpdate] = (await history(p.id)).changes;
      const restored = okData(await call('POST', `/api/products/${p.id}/history/${firstUpdate.id}/restore`));
      assert.equal(restored.price, '120.0000');
      assert.equal(restored.name, 'Table');
      assert.deepEqual(
        restored.categories.map((c: { id: number }) => c.id),
        [category.id],
      );
      const { changes } = await history(p.id);
      assert.equal(changes.length, 4);
      assert.equal(changes[0].action, 'restored');
      assert.equal((changes[0] as unknown as { restored_from: number }).restored_from, firstUpdate.id);
      assert.deepEqual(fieldsOf(changes[0]), { price: ['150.0000', '120.0000'], name: ['Big table', 'Table'], category_ids: [[], [category.id]] });
      // Restoring the version it is already: nothing written, nothing recorded.
      okData(await call('POST', `/api/products/${p.id}/history/${firstUpdate.id}/restore`));
      assert.equal((await history(p.id)).changes.length, 4);
    });

    it('restores attributes exactly (keys added since removed), and a patch of attributes is recorded as the whole object', async () => {
      for (const code of ['material', 'colour']) okData(await call('POST', '/api/product-attributes', { code, name: code, type: 'text' }), 201);
      const p = await createProduct(call, { name: 'Scarf', attributes: { material: 'wool' } });
      okData(await call('PATCH', `/api/products/${p.id}`, { attributes: { material: 'cotton', colour: 'red' } }));
      const [update, create] = (await history(p.id)).changes;
      assert.deepEqual(fieldsOf(update), { attributes: [{ material: 'wool' }, { material: 'cotton', colour: 'red' }] });
      const restored = okData(await call('POST', `/api/products/${p.id}/history/${create.id}/restore`));
      assert.deepEqual(restored.attributes, { material: 'wool' });
    });

    it('records translations as name@de and its like: set, changed, removed; an unchanged one records nothing', async () => {
      const p = await createProduct(call, { name: 'Cup' });
      okData(await call('PUT', `/api/products/${p.id}/translations/de`, { name: 'Tasse' }));
      okData(await call('PUT', `/api/products/${p.id}/translations/de`, { name: 'Tasse' }));
      okData(await call('PUT', `/api/products/${p.id}/translations/de`, { name: 'Becher', seo_title: 'Becher kaufen' }));
      okData(await call('DELETE', `/api/products/${p.id}/translations/de`));
      const [removed, changed, set] = (await history(p.id)).changes;
      assert.deepEqual(fieldsOf(set), { 'name@de': [null, 'Tasse'] });
      assert.deepEqual(fieldsOf(changed), { 'name@de': ['Tasse', 'Becher'], 'seo_title@de': [null, 'Becher kaufen'] });
      assert.deepEqual(fieldsOf(removed), { 'name@de': ['Becher', null], 'seo_title@de': ['Becher kaufen', null] });
      assert.equal((await history(p.id)).changes.length, 4);
    });

    it('records variants: added (by the API or the option matrix), a field changed by its SKU, removed; a refused write records nothing', async () => {
      const p = await createProduct(call, { name: 'Tee', sku: sku('TEE'), price: '20.00' });
      const small = okData(await call('POST', `/api/products/${p.id}/variants`, { sku: `${p.sku}-S`, name: 'Tee S', price: '20.00' }), 201);
      okData(await call('PATCH', `/api/products/${p.id}/variants/${small.id}`, { price: '22.00', barcode: '0123' }));
      assertError(await call('POST', `/api/products/${p.id}/variants`, { sku: small.sku, name: 'Again' }), 400);
      const made = okData(await call('POST', `/api/products/${p.id}/variants/options`, { options: [{ name: 'Size', values: ['M', 'L'] }] }), 201);
      okData(await call('DELETE', `/api/products/${p.id}/variants/${small.id}`));
      const [removed, matrix, changed, added] = (await history(p.id)).changes;
      assert.deepEqual(linesOf(added), [`variant ${p.sku}-S: null → {${p.sku}-S}`]);
      assert.equal((added.changes[0].new as { price: string }).price, '20.0000');
      assert.deepEqual(linesOf(changed), [`price ${p.sku}-S: "20.0000" → "22.0000"`, `barcode ${p.sku}-S: null → "0123"`]);
      assert.deepEqual(
        linesOf(matrix),
        made.created.map((v: { sku: string }) => `variant ${v.sku}: null → {${v.sku}}`),
      );
      assert.deepEqual(linesOf(removed), [`variant ${p.sku}-S: {${p.sku}-S} → null`]);
      assert.equal(removed.changes[0].variant_id, small.id);
      assert.equal((await history(p.id)).pagination.total_items, 5, 'created, added, changed, matrix, removed: the refused SKU is not there');
    });

    it('records stock per warehouse: a product level, a variant level and the sums they change', async () => {
      const code = sku('WH').replace(/-/g, '');
      const warehouse = okData(await call('POST', '/api/warehouses', { code, name: 'Main' }), 201);
      const lamp = await createProduct(call, { name: 'Lamp' });
      okData(await call('PUT', `/api/products/${lamp.id}/stock`, { warehouse_id: warehouse.id, quantity: 4 }));
      assert.deepEqual(linesOf((await history(lamp.id)).changes[0]).sort(), ['stock: 0 → 4', `stock_level @${code}: null → 4`]);
      const tee = await createProduct(call, { name: 'Tee' });
      const v = okData(await call('POST', `/api/products/${tee.id}/variants`, { sku: sku('TV'), name: 'Tee S' }), 201);
      okData(await call('PUT', `/api/products/${tee.id}/variants/${v.id}/stock`, { warehouse_id: warehouse.id, quantity: 3 }));
      okData(await call('PUT', `/api/products/${tee.id}/variants/${v.id}/stock`, { warehouse_id: warehouse.id, quantity: 3 }));
      const [level] = (await history(tee.id)).changes;
      assert.deepEqual(linesOf(level).sort(), [
        'stock: 0 → 3',
        `stock_level ${v.sku} @${code}: null → 3`,
        `stock_quantity ${v.sku}: 0 → 3`,
        `stock_status ${v.sku}: "out_of_stock" → "in_stock"`,
      ]);
      assert.equal((await history(tee.id)).pagination.total_items, 3, 'the same level again records nothing');
    });

    it('records images as one list of ids and alt texts: uploaded, moved, alt text changed, deleted', async () => {
      const p = await createProduct(call, { name: 'Poster' });
      const uploadImage = async (rgb: [number, number, number]) => {
        const { payload, contentType } = await form([['file', await makeImage('png', 20, 20, rgb), 'poster.png']]);
        return okData(await call('POST', `/api/products/${p.id}/media/upload`, payload, { 'content-type': contentType }), 201);
      };
      const first = await uploadImage([200, 10, 10]);
      const second = await uploadImage([10, 200, 10]);
      okData(await call('PATCH', `/api/products/${p.id}/media/${second.id}`, { position: 0, alt_text: 'Green' }));
      okData(await call('DELETE', `/api/products/${p.id}/media/${first.id}`));
      const [deleted, moved, added] = (await history(p.id)).changes;
      assert.deepEqual(fieldsOf(added), {
        images: [
          [{ id: first.id, alt_text: null }],
          [
            { id: first.id, alt_text: null },
            { id: second.id, alt_text: null },
          ],
        ],
      });
      assert.deepEqual(fieldsOf(moved).images[1], [
        { id: second.id, alt_text: 'Green' },
        { id: first.id, alt_text: null },
      ]);
      assert.deepEqual(fieldsOf(deleted).images[1], [{ id: second.id, alt_text: 'Green' }]);
    });

    it("records an import's variants, and restoring a version leaves variants, stock levels and images as they are", async () => {
      const s = sku('IV');
      const rows = (price: string) =>
        csv([
          ['sku', 'name', 'price', 'variant_sku', 'variant_name', 'variant_price'],
          [s, 'Sock', '5.00', `${s}-S`, 'Sock S', '5.00'],
          [s, 'Sock', '5.00', `${s}-M`, 'Sock M', price],
        ]);
      await importFile(call, rows('5.00'));
      const id = okData(await call('GET', `/api/products?search=${s}`)).products[0].id as number;
      await importFile(call, rows('6.00'));
      const [changed, created] = (await history(id)).changes;
      assert.deepEqual(
        linesOf(created).filter((l) => l.startsWith('variant ')),
        [`variant ${s}-S: null → {${s}-S}`, `variant ${s}-M: null → {${s}-M}`],
      );
      assert.deepEqual(linesOf(changed), [`price ${s}-M: "5.0000" → "6.0000"`]);
      okData(await call('PATCH', `/api/products/${id}`, { name: 'Wool sock' }));
      const restored = okData(await call('POST', `/api/products/${id}/history/${changed.id}/restore`));
      assert.equal(restored.name, 'Sock');
      const variants = okData(await call('GET', `/api/products/${id}/variants`)).variants;
      assert.deepEqual(
        variants.map((v: { price: string }) => v.price),
        ['5.0000', '6.0000'],
      );
      assert.deepEqual(linesOf((await history(id)).changes[0]), ['name: "Wool sock" → "Sock"']);
    });

    it('pages the history like the other lists', async () => {
      const p = await createProduct(call, { name: 'Shelf', price: '1.00' });
      for (const price of ['2.00', '3.00', '4.00']) okData(await call('PATCH', `/api/products/${p.id}`, { price }));
      const page = await history(p.id, '?limit=3&page=2');
      assert.deepEqual(page.pagination, { current_page: 2, total_pages: 2, total_items: 4, items_per_page: 3 });
      assert.equal(page.changes[0].action, 'created');
    });

    it("keeps organizations apart: another organization's product or change is a 404, bad ids a 400, in the envelope", async () => {
      const p = await createProduct(call, { name: 'Stool' });
      const [change] = (await history(p.id)).changes;
      const other = h.as(await h.tenant());
      assertError(await other('GET', `/api/products/${p.id}/history`), 404);
      assertError(await other('POST', `/api/products/${p.id}/history/${change.id}/restore`), 404);
      const mine = await createProduct(other, { name: 'Other stool' });
      assertError(await other('POST', `/api/products/${mine.id}/history/${change.id}/restore`), 404, /Change/);
      assertError(await call('POST', `/api/products/${p.id}/history/999999999/restore`), 404, /Change/);
      assertError(await call('GET', `/api/products/abc/history`), 400);
      assertError(await call('GET', `/api/products/${p.id}/history?limit=0`), 400);
      assertError(await call('POST', `/api/products/${p.id}/history/0/restore`), 400);
      assertError(await call('POST', `/api/products/${p.id}/history/x/restore`), 400);
      // No body, or `{}`: a body with fields is refused, as the OpenAPI document says (NO_BODY).
      assertError(await call('POST', `/api/products/${p.id}/history/${change.id}/restore`, { price: '1.00' }), 400, /field 'price' is not allowed/);
      assertError(await call('POST', `/api/products/${p.id}/history/${change.id}/restore`, [1]), 400, /must be \{\} or left out/);
      okData(await call('POST', `/api/products/${p.id}/history/${change.id}/restore`, {}));
    });
  });
}
