// The console's session: sign-in with key and secret → HttpOnly cookie; the cookie opens the PIM API of its organization
// and the connector routes of that organization's integrations; CSRF on every state-changing call; revoking the key or
// deactivating the organization ends the session at once; another organization's data stays out of reach.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, test } from 'node:test';
import type { Response as InjectResponse } from 'light-my-request';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';

interface Browser {
  cookie: string;
  csrf: string;
  call(method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<InjectResponse>;
}

for (const target of databaseTargets()) {
  describe(`console session [${target.name}]`, () => {
    let h: ConnectorHarness;
    before(async () => {
      h = await connectorHarness(target, { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
    });
    after(() => h.close());

    async function signIn(tenant: Tenant): Promise<Browser> {
      const res = await h.app.inject({ method: 'POST', url: '/api/session', payload: { api_key: tenant.apiKey, api_secret: tenant.apiSecret } });
      assert.equal(res.statusCode, 200, res.body);
      const setCookie = String(res.headers['set-cookie']);
      const cookie = setCookie.split(';')[0];
      const csrf = res.json().data.csrf_token as string;
      return {
        cookie,
        csrf,
        call: (method, url, payload, headers = {}) =>
          h.app.inject({ method: method as never, url, payload: payload as never, headers: { cookie, ...headers } }) as Promise<InjectResponse>,
      };
    }

    test('a wrong key or secret gets one clear 401 and no cookie', async () => {
      const tenant = await h.tenant();
      for (const body of [
        { api_key: tenant.apiKey, api_secret: 'wrong' },
        { api_key: 'pk_wrong', api_secret: tenant.apiSecret },
      ]) {
        const res = await h.app.inject({ method: 'POST', url: '/api/session', payload: body });
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { status: 0, data: null, error: 'The API key or the secret is wrong' });
        assert.equal(res.headers['set-cookie'], undefined);
      }
      const missing = await h.app.inject({ method: 'POST', url: '/api/session', payload: { api_key: tenant.apiKey } });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().error, /api_secret/);
    });

    test('the cookie is HttpOnly and SameSite=Strict, and opens the PIM API of its organization', async () => {
      const tenant = await h.tenant('Cookie Org');
      const res = await h.app.inject({ method: 'POST', url: '/api/session', payload: { api_key: tenant.apiKey, api_secret: tenant.apiSecret } });
      const setCookie = String(res.headers['set-cookie']);
      assert.match(setCookie, /^pimbridge_session=[\w-]{43};/);
      assert.match(setCookie, /HttpOnly/);
      assert.match(setCookie, /SameSite=Strict/);
      assert.doesNotMatch(setCookie, /Secure/, 'plain http: not Secure');
      assert.equal(res.json().data.organization.name, 'Cookie Org');
      const browser = await signIn(tenant);
      const who = await browser.call('GET', '/api/session');
      assert.equal(who.statusCode, 200);
      assert.deepEqual([who.json().data.signed_in, who.json().data.ended], [true, false]);
      assert.equal(who.json().data.session.csrf_token, browser.csrf);
      const list = await browser.call('GET', '/api/products');
      assert.equal(list.statusCode, 200, list.body);
      assert.equal(list.json().status, 1);
    });

    test('behind https (TRUST_PROXY) the cookie is Secure', async () => {
      const proxied = await connectorHarness(target, { TRUST_PROXY: '1' });
      try {
        const tenant = await proxied.tenant();
        const res = await proxied.app.inject({
          method: 'POST',
          url: '/api/session',
          payload: { api_key: tenant.apiKey, api_secret: tenant.apiSecret },
          headers: { 'x-forwarded-proto': 'https' },
        });
        assert.match(String(res.headers['set-cookie']), /; Secure/);
      } finally {
        await proxied.close();
      }
    });

    test('a state-changing call needs the CSRF token; with it, the write lands', async () => {
      const tenant = await h.tenant();
      const browser = await signIn(tenant);
      const product = { name: 'Console chair', sku: 'CONSOLE-CHAIR-1', price: '10.00' };
      for (const headers of [{}, { 'x-csrf-token': 'forged' }] as Record<string, string>[]) {
        const refused = await browser.call('POST', '/api/products', product, headers);
        assert.equal(refused.statusCode, 403);
        assert.match(refused.json().error, /CSRF/);
      }
      const none = await h.as(tenant)('GET', '/api/products?search=CONSOLE-CHAIR');
      assert.equal(none.json().data.pagination.total_items, 0, 'nothing written without the token');
      const created = await browser.call('POST', '/api/products', product, { 'x-csrf-token': browser.csrf });
      assert.equal(created.statusCode, 201, created.body);
    });

    test('revoking the key or deactivating the organization ends the session at once', async () => {
      const tenant = await h.tenant();
      const browser = await signIn(tenant);
      assert.equal((await browser.call('GET', '/api/products')).statusCode, 200);
      await h.admin('DELETE', `/admin/api-keys/${tenant.keyId}`);
      const revoked = await browser.call('GET', '/api/products');
      assert.equal(revoked.statusCode, 401);
      assert.match(revoked.json().error, /session has ended/);
      // Not being signed in is an answer (200), not an error the browser would log.
      const who = await browser.call('GET', '/api/session');
      assert.equal(who.statusCode, 200);
      assert.deepEqual(who.json().data, { signed_in: false, ended: true, session: null }, 'told apart from never signed in');
      assert.match(String(who.headers['set-cookie']), /pimbridge_session=;.*Max-Age=0/, 'the dead cookie goes');
      const never = await h.app.inject({ method: 'GET', url: '/api/session' });
      assert.equal(never.statusCode, 200);
      assert.deepEqual(never.json().data, { signed_in: false, ended: false, session: null });
      assert.equal(never.headers['set-cookie'], undefined);

      const other = await h.tenant();
      const second = await signIn(other);
      await h.admin('PATCH', `/admin/organizations/${other.organizationId}`, { active: false });
      assert.equal((await second.call('GET', '/api/products')).statusCode, 401);
      const again = await h.app.inject({ method: 'POST', url: '/api/session', payload: { api_key: other.apiKey, api_secret: other.apiSecret } });
      assert.equal(again.statusCode, 403, 'an inactive organization cannot sign in');
    });

    test('an expired session opens nothing, and says so', async () => {
      const tenant = await h.tenant();
      const browser = await signIn(tenant);
      await h.database.db.execute(sql`UPDATE console_sessions SET expires_at = now() - interval '1 second' WHERE organization_id = ${tenant.organizationId}`);
      const res = await browser.call('GET', '/api/products');
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error, 'The console session has ended: sign in again');
      assert.deepEqual((await browser.call('GET', '/api/session')).json().data, { signed_in: false, ended: true, session: null });
    });

    test('signing out needs the CSRF token, ends the session and clears the cookie', async () => {
      const browser = await signIn(await h.tenant());
      assert.equal((await browser.call('DELETE', '/api/session')).statusCode, 403);
      const out = await browser.call('DELETE', '/api/session', undefined, { 'x-csrf-token': browser.csrf });
      assert.equal(out.statusCode, 200);
      assert.match(String(out.headers['set-cookie']), /pimbridge_session=;.*Max-Age=0/);
      assert.equal((await browser.call('GET', '/api/products')).statusCode, 401);
    });

    test("a session never reaches another organization's data", async () => {
      const mine = await h.tenant();
      const theirs = await h.tenant();
      const theirProduct = await h.as(theirs)('POST', '/api/products', { name: 'Theirs', sku: `THEIRS-${Date.now()}`, price: '1.00' });
      const id = theirProduct.json().data.id;
      const browser = await signIn(mine);
      assert.equal((await browser.call('GET', `/api/products/${id}`)).statusCode, 404);
      const put = await browser.call('PUT', `/api/products/${id}`, { name: 'Mine now' }, { 'x-csrf-token': browser.csrf });
      assert.equal(put.statusCode, 404);
      assert.equal((await h.as(theirs)('GET', `/api/products/${id}`)).json().data.name, 'Theirs');
      // An explicit key wins over the cookie: the request is that key's, never a mix of both.
      const explicit = await browser.call('GET', `/api/products/${id}`, undefined, { 'x-api-key': theirs.apiKey });
      assert.equal(explicit.statusCode, 200);
    });

    test("the connector: the session lists its account's integrations and acts on one named in X-Integration-Id", async () => {
      const { tenant, integrationId, domain } = await h.connected();
      const stranger = await h.connected();
      const browser = await signIn(tenant);
      const list = await browser.call('GET', '/api/integrations');
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(
        list.json().data.map((i: { id: number; shop_domain: string }) => [i.id, i.shop_domain]),
        [[integrationId, domain]],
      );
      const status = await browser.call('GET', '/api/products/mappings', undefined, { 'x-integration-id': String(integrationId) });
      assert.equal(status.statusCode, 200, status.body);
      const foreign = await browser.call('GET', '/api/products/mappings', undefined, { 'x-integration-id': String(stranger.integrationId) });
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().code, 'NOT_FOUND');
      const unnamed = await browser.call('GET', '/api/products/mappings');
      assert.equal(unnamed.statusCode, 401);
      assert.match(unnamed.json().message, /X-Integration-Id/);
      assert.equal((await h.call('GET', '/api/integrations')).statusCode, 401, 'no session, no list');
    });

    test('integrations made before the PIM key was fingerprinted are found once the start-up backfill ran', async () => {
      const { tenant, integrationId } = await h.connected();
      await h.database.db.execute(sql`UPDATE integrations SET pim_key_hash = NULL WHERE id = ${integrationId}`);
      const browser = await signIn(tenant);
      assert.deepEqual((await browser.call('GET', '/api/integrations')).json().data, []);
      assert.ok((await h.app.services.connector.integrations.fillPimKeyHashes()) >= 1);
      assert.deepEqual(
        (await browser.call('GET', '/api/integrations')).json().data.map((i: { id: number }) => i.id),
        [integrationId],
      );
      assert.equal(await h.app.services.connector.integrations.fillPimKeyHashes(), 0, 'nothing left to fill');
    });
  });
}
