// No stale writes to the store: an inline push and a sync.product job of the same product, raced many times with the
// older snapshot held at the storefront, leave the storefront on the newest PIM version (the product's write lease and
// the version check under it, connector/push/product-lease.ts); an older snapshot than the storefront's is not sent; a
// job whose signal fired sends nothing more, down to the Shopify adapter's calls.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import { FakeStorefront, pimProduct } from './helpers/push.js';
import { sqlRows } from './helpers/sql.js';
import { until } from './helpers/until.js';

const ROUNDS = 12;

for (const target of databaseTargets()) {
  describe(`no stale writes to the store (${target.name})`, () => {
    let h: ConnectorHarness;
    let fake: FakeStorefront;
    let c: Awaited<ReturnType<ConnectorHarness['connected']>>;

    before(async () => {
      fake = new FakeStorefront();
      h = await connectorHarness(target, {}, 0, { syncStorefront: fake });
      c = await h.connected();
    });
    after(() => h.close());

    const rename = async (id: number, name: string) => {
      const res = await h.as(c.tenant)('PATCH', `/api/products/${id}`, { name });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.updated_at as string;
    };
    const push = async (id: number) => {
      const res = await h.call('POST', '/api/products/push', c.token, { id });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.results[0];
    };
    const job = (id: number) => h.app.services.connector.push.syncProduct(c.integrationId, id);
    /** The version the mapping says the storefront holds, and its write lease: the lease row itself (no route shows either). */
    const stored = async (id: number) =>
      (
        await sqlRows<{ storefront_version: string | Date; lease_owner: string | null }>(
          h.database.db,
          sql`select storefront_version, lease_owner from product_mappings where integration_id = ${c.integrationId} and pim_product_id = ${id}`,
        )
      )[0];

    it(`an inline push and a sync.product job raced ${ROUNDS} times: the storefront always ends on the newest version`, async () => {
      const id = await pimProduct(h, c.tenant, 'Race Lamp');
      for (let round = 0; round < ROUNDS; round++) {
        const older = `Race Lamp old ${round}`;
        const newer = `Race Lamp new ${round}`;
        await rename(id, older);
        // The writer with the older snapshot is held at the storefront until the newer one is written, or 150 ms.
        let entered!: () => void;
        const atStore = new Promise<void>((resolve) => (entered = resolve));
        let newerWritten!: () => void;
        const written = new Promise<void>((resolve) => (newerWritten = resolve));
        fake.hold = async (snapshot) => {
          if (snapshot.name === older) {
            entered();
            await Promise.race([written, new Promise((r) => setTimeout(r, 150 + Math.random() * 50))]);
          } else if (snapshot.name === newer) {
            setImmediate(newerWritten);
          }
        };
        // Alternate which side holds the older snapshot.
        const first = round % 2 === 0 ? push(id) : job(id);
        await atStore;
        const version = await rename(id, newer);
        const second = round % 2 === 0 ? job(id) : push(id);
        await Promise.all([first, second]);
        assert.equal(fake.products.get(`pim-${id}`)?.title, newer, `round ${round}: the storefront holds the newest name`);
        const row = await stored(id);
        assert.equal(new Date(row.storefront_version).toISOString(), new Date(version).toISOString());
        assert.equal(row.lease_owner, null, 'the lease ended with the write');
      }
      fake.hold = null;
    });

    it('a snapshot older than the version on the storefront is not sent; the answer says why', async () => {
      const id = await pimProduct(h, c.tenant, 'Old News');
      const first = await push(id);
      assert.equal(first.method, 'create');
      // Another writer put a newer version there meanwhile.
      await h.database.db.execute(
        sql`update product_mappings set storefront_version = now() + interval '1 hour' where integration_id = ${c.integrationId} and pim_product_id = ${id}`,
      );
      const calls = fake.calls.length;
      const again = await push(id);
      assert.deepEqual(
        [again.status, again.method, again.storefront_product_id, again.storefront_handle],
        ['success', 'update', first.storefront_product_id, first.storefront_handle],
      );
      assert.match(again.message, /already has a newer version/);
      assert.equal(fake.calls.length, calls, 'nothing was sent');
    });

    it('a product whose lease another writer holds waits for it, then writes', async () => {
      const id = await pimProduct(h, c.tenant, 'Waiting Room');
      const repo = new MappingRepository(h.database.db);
      assert.ok(await repo.acquireLease(c.integrationId, id, 'someone-else', 60_000));
      // The push reads the product from the PIM, then waits for the lease: it is on its way once that read is answered.
      let read = false;
      const reads = (req: { method?: string; url?: string }, res: { once(event: 'finish', listener: () => void): void }) => {
        if (req.method === 'GET' && req.url?.startsWith('/api/products') && req.url.includes(String(id))) res.once('finish', () => (read = true));
      };
      h.app.server.on('request', reads);
      let released = false;
      fake.hold = async (snapshot) => assert.equal(snapshot.id === id ? released : true, true, 'nothing is sent while the lease is held');
      try {
        const pending = push(id);
        await until('the push past its PIM read', () => read);
        assert.equal(fake.products.has(`pim-${id}`), false, 'nothing written while the lease is held');
        released = true;
        await repo.releaseLease(c.integrationId, id, 'someone-else');
        assert.equal((await pending).status, 'success');
      } finally {
        h.app.server.off('request', reads);
        fake.hold = null;
      }
      assert.equal(fake.products.get(`pim-${id}`)?.title, 'Waiting Room');
    });

    it('a job whose signal fired sends nothing to the storefront', async () => {
      const id = await pimProduct(h, c.tenant, 'Too Late');
      const calls = fake.calls.length;
      const abort = new AbortController();
      abort.abort(new Error('the job ran longer than 60 s'));
      await assert.rejects(h.app.services.connector.push.syncProduct(c.integrationId, id, { signal: abort.signal }), /ran longer than 60 s/);
      assert.equal(fake.calls.length, calls);
      assert.equal((await stored(id))?.lease_owner ?? null, null, 'no lease left behind');
    });
  });
}

describe("the Shopify adapter honours its caller's signal", () => {
  it('the call in flight is abandoned and no other is sent', async () => {
    const sent: string[] = [];
    const abort = new AbortController();
    const adapter = new ShopifyAdapter({
      fetch: ((_url: string, init: RequestInit) => {
        sent.push(String(JSON.parse(String(init.body)).query).match(/(?:query|mutation) (\w+)/)?.[1] ?? '?');
        const answer = new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true }));
        // The worker stops while this call is in flight (it never answers).
        setImmediate(() => abort.abort(new Error('worker stopping')));
        return answer;
      }) as typeof fetch,
    });
    const shop: StorefrontShop = { domain: 'signal.myshopify.com', accessToken: 'shpat_x', apiBaseUrl: 'http://127.0.0.1:9' };
    const started = Date.now();
    const product = { id: 1, sku: 'S', name: 'Signal', status: 'active', price: '10.00', currency: 'USD', variants: [] };
    await assert.rejects(
      adapter.upsertProduct(
        shop,
        product as never,
        { productId: null, variantIds: {}, mediaIds: {} },
        { channelPublications: {}, warehouseLocations: {}, unsyncedWarehouses: [], variantStockLocation: null, pricesConvertedElsewhere: true },
        { signal: abort.signal },
      ),
      /worker stopping/,
    );
    assert.ok(Date.now() - started < 2_000, 'gave up at the signal, not at the call timeout');
    assert.equal(sent.length, 1, `one call was in flight, none followed: ${sent.join(', ')}`);
  });
});
