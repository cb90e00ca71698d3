// The store follows the PIM by itself: with the app's own workers running (queue, sync.poll and sync.product handlers,
// the delta poller at SYNC_POLL_SECONDS=1), a product created, changed or archived in the PIM reaches the sandbox
// store through the real Shopify adapter without anyone calling push — a PATCH within two poll intervals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { SandboxProductRepository } from '../src/sandbox/sandbox-product.repository.js';
import { SandboxStoreRepository } from '../src/sandbox/sandbox-store.repository.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { createProduct, okData, type Call } from './helpers/pim.js';
import { until } from './helpers/until.js';

const DOMAIN = 'delta-e2e.myshopify.com';
const POLL_SECONDS = 1;

/**
 * Polls `read` (the one `until`) until `done` holds or the deadline passes; returns the last value and how long it
 * took either way: the assertions after it judge the value, and the time a change needed to reach the store.
 */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean, deadlineMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let value!: T;
  await until('the store to follow the PIM', async () => done((value = await read())), deadlineMs).catch(() => undefined);
  return { value, ms: Date.now() - started };
}

for (const target of databaseTargets()) {
  describe(`delta sync end to end with workers [${target.name}]`, () => {
    let h: ConnectorHarness;
    let tenant: Tenant;
    let c: Call;
    let token: string;
    let integrationId: number;

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, SYNC_POLL_SECONDS: String(POLL_SECONDS) }, port);
      tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain: DOMAIN, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      c = h.as(tenant);
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: DOMAIN,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      token = res.json().data.api_token;
      integrationId = res.json().data.integration_id;
      await h.app.services.jobs.workers.start();
    });
    after(async () => {
      await h.app.services.jobs.workers.stop(5_000);
      await h.close();
    });

    /**
     * The sandbox store's copy of a PIM product (through its mapping) and the PIM version synced, or null while there is
     * none. Polled every 25 ms to time the changes: through the repositories, since the connector's per-address limit
     * (AUTH_RATE_LIMIT a minute) and the store's GraphQL bucket would not take reads that often.
     */
    const storeCopy = async (pimProductId: number): Promise<{ title: string; status: string; version: string | null } | null> => {
      const mappings = new MappingRepository(h.database.db);
      const mapping = await mappings.find(integrationId, pimProductId);
      if (mapping?.syncStatus !== 'synced' || mapping.storefrontProductId === null) return null;
      const store = (await new SandboxStoreRepository(h.database.db).findByDomain(DOMAIN))!;
      const product = await new SandboxProductRepository(h.database.db).product(store.id, Number(mapping.storefrontProductId));
      if (!product) return null;
      const version = (await mappings.syncedVersions(integrationId, [pimProductId])).get(pimProductId) ?? null;
      return { title: product.title, status: product.status, version: version === null ? null : version.toISOString() };
    };

    it('a product created in the PIM appears in the store, then a PATCH reaches it within two poll intervals', async () => {
      const p = await createProduct(c, { name: 'Delta Jacket', status: 'active', price: '99.00' });
      const created = await settled(
        () => storeCopy(p.id),
        (v) => v?.title === 'Delta Jacket',
        15_000,
      );
      assert.deepEqual(created.value, { title: 'Delta Jacket', status: 'ACTIVE', version: p.updated_at });

      const changed = okData(await c('PATCH', `/api/products/${p.id}`, { name: 'Delta Jacket II' }));
      const patched = await settled(
        () => storeCopy(p.id),
        (v) => v?.title === 'Delta Jacket II',
        10_000,
      );
      assert.equal(patched.value?.title, 'Delta Jacket II');
      assert.ok(patched.ms <= 2 * POLL_SECONDS * 1_000, `reached the store in ${patched.ms} ms`);
      // The mapping remembers the version synced (written just after the store's answer), so the next polls skip it.
      const remembered = await settled(
        () => storeCopy(p.id),
        (v) => v?.version === changed.updated_at,
        5_000,
      );
      assert.equal(remembered.value?.version, changed.updated_at);
    });

    it('a DELETE (archive) in the PIM ends ARCHIVED in the store', async () => {
      const p = await createProduct(c, { name: 'Delta Boots', status: 'active', price: '120.00' });
      const made = await settled(
        () => storeCopy(p.id),
        (v) => v?.status === 'ACTIVE',
        15_000,
      );
      assert.equal(made.value?.status, 'ACTIVE');
      okData(await c('DELETE', `/api/products/${p.id}`));
      const archived = await settled(
        () => storeCopy(p.id),
        (v) => v?.status === 'ARCHIVED',
        10_000,
      );
      assert.equal(archived.value?.status, 'ARCHIVED');
    });

    it('queue_stats show the delta jobs settle: nothing pending or failed once the store has caught up', async () => {
      const res = await settled(
        async () => (await h.call('GET', '/api/status', token)).json().data.queue_stats,
        // A sync.poll may be queued or running at any instant (one a second): only sync.product work must be gone.
        (q) => q.pending_messages + q.processing_messages <= 1,
        10_000,
      );
      assert.ok(res.value.pending_messages + res.value.processing_messages <= 1, JSON.stringify(res.value));
      assert.equal(res.value.failed_messages, 0, JSON.stringify(res.value));
    });
  });
}
