// PIM authentication: X-API-KEY on every request, 401 for a missing or unknown key, 403 for an inactive organization,
// revocation that takes effect at once despite the credential cache, hashed storage, and GET /api/auth/verify.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Response as InjectResponse } from 'light-my-request';
import { apiKeys } from '../src/admin/admin.tables.js';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** The PIM error envelope: exactly {status: 0, data: null, error: <text>}. */
function assertPimError(res: InjectResponse, statusCode: number, error?: RegExp): void {
  assert.equal(res.statusCode, statusCode, res.body);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['data', 'error', 'status']);
  assert.equal(body.status, 0);
  assert.equal(body.data, null);
  assert.equal(typeof body.error, 'string');
  assert.ok(body.error.length > 0);
  if (error) assert.match(body.error, error);
}

for (const target of databaseTargets()) {
  describe(`PIM authentication (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    before(async () => {
      h = await harness(target);
      t = await h.tenant('Auth Org');
    });
    after(() => h.close());

    it('accepts a valid X-API-KEY', async () => {
      const res = await h.as(t)('GET', '/api/products');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 1);
      assert.equal(res.json().error, null);
    });

    it('answers 401 in the envelope when X-API-KEY is missing, on every kind of PIM route', async () => {
      for (const [method, url, payload] of [
        ['GET', '/api/products', undefined],
        ['GET', '/api/products/1', undefined],
        ['POST', '/api/products', { name: 'X', sku: 'NOKEY-1' }],
        ['PATCH', '/api/products/1', { name: 'Y' }],
        ['DELETE', '/api/products/1', undefined],
        ['GET', '/api/channels', undefined],
        ['GET', '/api/auth/verify', undefined],
      ] as const) {
        assertPimError(await h.as(null)(method, url, payload), 401, /X-API-KEY/);
      }
    });

    it('answers 401 for an empty or unknown key, and for the secret sent as the key', async () => {
      assertPimError(await h.as(null)('GET', '/api/products', undefined, { 'x-api-key': '' }), 401);
      assertPimError(await h.as(null)('GET', '/api/products', undefined, { 'x-api-key': 'pk_not-a-real-key' }), 401, /invalid/i);
      assertPimError(await h.as(null)('GET', '/api/products', undefined, { 'x-api-key': t.apiKey.toUpperCase() }), 401);
      assertPimError(await h.as(null)('GET', '/api/products', undefined, { 'x-api-key': t.apiSecret }), 401);
    });

    it('does not create anything for an unauthenticated write', async () => {
      assertPimError(await h.as(null)('POST', '/api/products', { name: 'Ghost', sku: 'GHOST-1' }), 401);
      const list = await h.as(t)('GET', '/api/products?search=GHOST-1');
      assert.equal(list.json().data.pagination.total_items, 0);
    });

    it('answers 403 for a key of an inactive organization, and reactivation restores access', async () => {
      const other = await h.tenant('Bystander Org');
      const victim = await h.tenant('Soon Inactive');
      const call = h.as(victim);
      // Use the key first, so that its credential sits in the cache when the organization is deactivated.
      assert.equal((await call('GET', '/api/products')).statusCode, 200);

      const off = await h.admin('PATCH', `/admin/organizations/${victim.organizationId}`, { active: false });
      assert.equal(off.statusCode, 200, off.body);
      assert.deepEqual(off.json(), { id: victim.organizationId, name: 'Soon Inactive', active: false });

      assertPimError(await call('GET', '/api/products'), 403, /inactive/i);
      assertPimError(await call('POST', '/api/products', { name: 'Blocked', sku: 'BLOCKED-1' }), 403);
      assertPimError(await call('GET', '/api/channels'), 403);
      assertPimError(await call('GET', '/api/auth/verify', undefined, { 'x-api-secret': victim.apiSecret }), 403);
      // Other organizations are unaffected.
      assert.equal((await h.as(other)('GET', '/api/products')).statusCode, 200);

      const on = await h.admin('PATCH', `/admin/organizations/${victim.organizationId}`, { active: true });
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.json().active, true);
      const back = await call('GET', '/api/products');
      assert.equal(back.statusCode, 200, back.body);
      // Nothing was written while the organization was inactive.
      assert.equal(back.json().data.pagination.total_items, 0);
    });

    it('answers 403 for an organization created active and then deactivated before its key was ever used', async () => {
      const fresh = await h.tenant('Never Used');
      assert.equal((await h.admin('PATCH', `/admin/organizations/${fresh.organizationId}`, { active: false })).statusCode, 200);
      assertPimError(await h.as(fresh)('GET', '/api/products'), 403);
    });

    it('stops a revoked key at once, even right after it was used (and cached)', async () => {
      const owner = await h.tenant('Revocation Org');
      const spareRes = await h.admin('POST', `/admin/organizations/${owner.organizationId}/api-keys`, { name: 'spare' });
      assert.equal(spareRes.statusCode, 201);
      const spare: Tenant = { ...owner, apiKey: spareRes.json().api_key, apiSecret: spareRes.json().api_secret, keyId: spareRes.json().id };

      const created = await h.as(owner)('POST', '/api/products', { name: 'Kept', sku: 'KEPT-1' });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal((await h.as(owner)('GET', '/api/products')).statusCode, 200);

      const del = await h.admin('DELETE', `/admin/api-keys/${owner.keyId}`);
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');

      assertPimError(await h.as(owner)('GET', '/api/products'), 401);
      assertPimError(await h.as(owner)('POST', '/api/products', { name: 'After', sku: 'AFTER-1' }), 401);
      assertPimError(await h.as(owner)('GET', '/api/auth/verify', undefined, { 'x-api-secret': owner.apiSecret }), 401);

      // The organization's other key still works and still sees the organization's data.
      const viaSpare = await h.as(spare)('GET', '/api/products');
      assert.equal(viaSpare.statusCode, 200, viaSpare.body);
      assert.deepEqual(
        viaSpare.json().data.products.map((p: { sku: string }) => p.sku),
        ['KEPT-1'],
      );
      // Revoking twice is a 404: there is no live key with that id any more.
      assert.equal((await h.admin('DELETE', `/admin/api-keys/${owner.keyId}`)).statusCode, 404);
    });

    it('stores keys and secrets only as SHA-256 hashes', async () => {
      const k = await h.tenant('Hash Org');
      const rows = await h.database.db.select().from(apiKeys);
      const row = rows.find((r) => r.id === k.keyId);
      assert.ok(row, 'the issued key has a row');
      assert.equal(row.organizationId, k.organizationId);
      assert.equal(row.keyHash, sha256(k.apiKey));
      assert.equal(row.secretHash, sha256(k.apiSecret));
      assert.match(row.keyHash, /^[0-9a-f]{64}$/);
      assert.equal(row.revokedAt, null);
      const dump = JSON.stringify(rows);
      for (const tenant of [t, k]) {
        assert.ok(!dump.includes(tenant.apiKey), 'the plain API key is not stored');
        assert.ok(!dump.includes(tenant.apiSecret), 'the plain API secret is not stored');
      }
    });

    it('issues distinct, high-entropy keys and secrets', async () => {
      const a = await h.tenant('Entropy A');
      const b = await h.tenant('Entropy B');
      const values = [a.apiKey, a.apiSecret, b.apiKey, b.apiSecret];
      assert.equal(new Set(values).size, 4);
      for (const v of values) assert.ok(v.length >= 43, `${v} carries at least 256 bits`);
    });

    describe('GET /api/auth/verify', () => {
      it('answers 200 with the organization and key id for the right key and secret', async () => {
        const res = await h.as(t)('GET', '/api/auth/verify', undefined, { 'x-api-secret': t.apiSecret });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), {
          status: 1,
          data: { organization: { id: t.organizationId, name: 'Auth Org', active: true }, key_id: t.keyId },
          error: null,
        });
      });

      it('answers 401 for a wrong secret', async () => {
        assertPimError(await h.as(t)('GET', '/api/auth/verify', undefined, { 'x-api-secret': 'sk_wrong' }), 401, /secret/i);
        assertPimError(await h.as(t)('GET', '/api/auth/verify', undefined, { 'x-api-secret': `${t.apiSecret}x` }), 401);
      });

      it("answers 401 for another key's secret", async () => {
        const other = await h.tenant('Verify Other');
        assertPimError(await h.as(t)('GET', '/api/auth/verify', undefined, { 'x-api-secret': other.apiSecret }), 401);
        assertPimError(await h.as(other)('GET', '/api/auth/verify', undefined, { 'x-api-secret': t.apiSecret }), 401);
      });

      it('answers 401 for a missing or empty secret', async () => {
        assertPimError(await h.as(t)('GET', '/api/auth/verify'), 401);
        assertPimError(await h.as(t)('GET', '/api/auth/verify', undefined, { 'x-api-secret': '' }), 401);
      });

      it('answers 401 for a missing or unknown key even with a valid secret', async () => {
        assertPimError(await h.as(null)('GET', '/api/auth/verify', undefined, { 'x-api-secret': t.apiSecret }), 401);
        assertPimError(await h.as(null)('GET', '/api/auth/verify', undefined, { 'x-api-key': 'pk_unknown', 'x-api-secret': t.apiSecret }), 401);
      });
    });
  });
}
