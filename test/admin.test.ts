// The operator API under /admin: Bearer ADMIN_TOKEN, plain JSON (no envelope), organizations and API keys.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response as InjectResponse } from 'light-my-request';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness } from './helpers/harness.js';

/** An admin error: exactly {error: <text>}, no PIM envelope. */
function assertAdminError(res: InjectResponse, statusCode: number, error?: RegExp): void {
  assert.equal(res.statusCode, statusCode, res.body);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(typeof body.error, 'string');
  assert.ok(body.error.length > 0);
  if (error) assert.match(body.error, error);
}

for (const target of databaseTargets()) {
  describe(`admin API (${target.name})`, () => {
    let h: Harness;
    const raw = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
      h.app.inject({ method: method as never, url, headers, payload: payload as never }) as Promise<InjectResponse>;
    const orgCount = async () => (await h.admin('GET', '/admin/organizations')).json().organizations.length as number;

    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());

    describe('admin token', () => {
      const routes = [
        ['GET', '/admin/organizations', undefined],
        ['POST', '/admin/organizations', { name: 'Sneaky' }],
        ['PATCH', '/admin/organizations/1', { active: false }],
        ['POST', '/admin/organizations/1/api-keys', {}],
        ['DELETE', '/admin/api-keys/1', undefined],
      ] as const;

      it('answers 401 {error} without an Authorization header, on every admin route', async () => {
        for (const [method, url, payload] of routes) assertAdminError(await raw(method, url, {}, payload), 401, /admin token/i);
      });

      it('answers 401 for a wrong token, a token of another length, a non-Bearer scheme or an empty Bearer', async () => {
        for (const authorization of [
          `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}x`,
          `Bearer ${TEST_ADMIN_TOKEN}extra`,
          `Bearer ${TEST_ADMIN_TOKEN.slice(0, 8)}`,
          `Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}`,
          TEST_ADMIN_TOKEN,
          'Bearer ',
          `Bearer ${TEST_ADMIN_TOKEN} trailing`,
        ]) {
          for (const [method, url, payload] of routes) assertAdminError(await raw(method, url, { authorization }, payload), 401);
        }
      });

      it('accepts the Bearer scheme in any letter case', async () => {
        const res = await raw('GET', '/admin/organizations', { authorization: `bearer ${TEST_ADMIN_TOKEN}` });
        assert.equal(res.statusCode, 200);
        assert.ok(Array.isArray(res.json().organizations));
      });

      it('does not act on a request it rejects', async () => {
        const before = await orgCount();
        assertAdminError(await raw('POST', '/admin/organizations', { authorization: 'Bearer nope-nope-nope-nope' }, { name: 'Sneaky' }), 401);
        assert.equal(await orgCount(), before);
      });

      it('does not accept a PIM API key in place of the admin token', async () => {
        const t = await h.tenant('Key Holder');
        assertAdminError(await raw('GET', '/admin/organizations', { 'x-api-key': t.apiKey }), 401);
        assertAdminError(await raw('GET', '/admin/organizations', { authorization: `Bearer ${t.apiKey}` }), 401);
      });
    });

    describe('organizations', () => {
      it('creates an organization: 201 {id, name, active: true}', async () => {
        const res = await h.admin('POST', '/admin/organizations', { name: 'Acme GmbH' });
        assert.equal(res.statusCode, 201, res.body);
        const org = res.json();
        assert.deepEqual(Object.keys(org).sort(), ['active', 'id', 'name']);
        assert.ok(Number.isInteger(org.id) && org.id > 0);
        assert.equal(org.name, 'Acme GmbH');
        assert.equal(org.active, true);

        const list = await h.admin('GET', '/admin/organizations');
        assert.equal(list.statusCode, 200);
        assert.deepEqual(
          list.json().organizations.find((o: { id: number }) => o.id === org.id),
          org,
        );
      });

      it('lists organizations in id order', async () => {
        const a = (await h.admin('POST', '/admin/organizations', { name: 'Order A' })).json();
        const b = (await h.admin('POST', '/admin/organizations', { name: 'Order B' })).json();
        const ids = (await h.admin('GET', '/admin/organizations')).json().organizations.map((o: { id: number }) => o.id);
        assert.deepEqual(
          ids,
          [...ids].sort((x: number, y: number) => x - y),
        );
        assert.ok(ids.indexOf(a.id) < ids.indexOf(b.id));
      });

      it('rejects an invalid organization body with 400 naming the field, and creates nothing', async () => {
        const before = await orgCount();
        assertAdminError(await h.admin('POST', '/admin/organizations', { name: '' }), 400, /name/);
        assertAdminError(await h.admin('POST', '/admin/organizations', {}), 400, /name/);
        assertAdminError(await h.admin('POST', '/admin/organizations', { name: 42 }), 400, /name/);
        assertAdminError(await h.admin('POST', '/admin/organizations', { name: 'x'.repeat(256) }), 400, /name/);
        assertAdminError(await h.admin('POST', '/admin/organizations', { name: 'Ok', plan: 'gold' }), 400, /plan/);
        assertAdminError(await h.admin('POST', '/admin/organizations'), 400);
        assert.equal(await orgCount(), before);
      });

      it('rejects malformed JSON with 400 {error}', async () => {
        const res = await raw('POST', '/admin/organizations', { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, '{"name":');
        assertAdminError(res, 400);
      });

      it('deactivates and reactivates an organization: 200 with the organization', async () => {
        const org = (await h.admin('POST', '/admin/organizations', { name: 'Toggle' })).json();
        const off = await h.admin('PATCH', `/admin/organizations/${org.id}`, { active: false });
        assert.equal(off.statusCode, 200, off.body);
        assert.deepEqual(off.json(), { id: org.id, name: 'Toggle', active: false });
        const listed = (await h.admin('GET', '/admin/organizations')).json().organizations.find((o: { id: number }) => o.id === org.id);
        assert.equal(listed.active, false);
        const on = await h.admin('PATCH', `/admin/organizations/${org.id}`, { active: true });
        assert.deepEqual(on.json(), { id: org.id, name: 'Toggle', active: true });
      });

      it('answers 404 {error} when patching an unknown organization', async () => {
        assertAdminError(await h.admin('PATCH', '/admin/organizations/999999', { active: false }), 404, /999999/);
      });

      it('rejects an invalid patch body with 400', async () => {
        const org = (await h.admin('POST', '/admin/organizations', { name: 'Patch Target' })).json();
        assertAdminError(await h.admin('PATCH', `/admin/organizations/${org.id}`, {}), 400, /active/);
        assertAdminError(await h.admin('PATCH', `/admin/organizations/${org.id}`, { active: 'false' }), 400, /active/);
        assertAdminError(await h.admin('PATCH', `/admin/organizations/${org.id}`, { active: false, name: 'Renamed' }), 400, /name/);
        // Nothing changed.
        const listed = (await h.admin('GET', '/admin/organizations')).json().organizations.find((o: { id: number }) => o.id === org.id);
        assert.deepEqual(listed, org);
      });

      it('answers 400 for a non-integer or out-of-range organization id', async () => {
        for (const id of ['abc', '1.5', '0', '-1', '99999999999']) {
          assertAdminError(await h.admin('PATCH', `/admin/organizations/${id}`, { active: false }), 400, /id/);
          assertAdminError(await h.admin('POST', `/admin/organizations/${id}/api-keys`, {}), 400, /id/);
        }
      });
    });

    describe('API keys', () => {
      it('issues a key pair once: 201 {id, api_key, api_secret}, with or without a name and body', async () => {
        const org = (await h.admin('POST', '/admin/organizations', { name: 'Key Org' })).json();
        const named = await h.admin('POST', `/admin/organizations/${org.id}/api-keys`, { name: 'ci' });
        assert.equal(named.statusCode, 201, named.body);
        const key = named.json();
        assert.deepEqual(Object.keys(key).sort(), ['api_key', 'api_secret', 'id']);
        assert.ok(Number.isInteger(key.id) && key.id > 0);
        assert.equal(typeof key.api_key, 'string');
        assert.equal(typeof key.api_secret, 'string');
        assert.notEqual(key.api_key, key.api_secret);

        const unnamed = await h.admin('POST', `/admin/organizations/${org.id}/api-keys`, {});
        assert.equal(unnamed.statusCode, 201, unnamed.body);
        const noBody = await h.admin('POST', `/admin/organizations/${org.id}/api-keys`);
        assert.equal(noBody.statusCode, 201, noBody.body);
        assert.equal(new Set([key.id, unnamed.json().id, noBody.json().id]).size, 3);

        // Every issued key authenticates.
        for (const apiKey of [key.api_key, unnamed.json().api_key, noBody.json().api_key]) {
          assert.equal((await h.as(null)('GET', '/api/products', undefined, { 'x-api-key': apiKey })).statusCode, 200);
        }

        // No admin read ever shows the plain values again.
        const listing = await h.admin('GET', '/admin/organizations');
        assert.ok(!listing.body.includes(key.api_key));
        assert.ok(!listing.body.includes(key.api_secret));
        for (const url of ['/admin/api-keys', `/admin/api-keys/${key.id}`, `/admin/organizations/${org.id}/api-keys`]) {
          const res = await h.admin('GET', url);
          assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
          assert.ok(!res.body.includes(key.api_key));
          assert.ok(!res.body.includes(key.api_secret));
        }
      });

      it('answers 404 {error} when issuing a key for an unknown organization', async () => {
        assertAdminError(await h.admin('POST', '/admin/organizations/999999/api-keys', { name: 'x' }), 404, /999999/);
      });

      it('issues a key for an inactive organization, which gets 403 until the organization is reactivated', async () => {
        const org = (await h.admin('POST', '/admin/organizations', { name: 'Dormant' })).json();
        await h.admin('PATCH', `/admin/organizations/${org.id}`, { active: false });
        const key = await h.admin('POST', `/admin/organizations/${org.id}/api-keys`, {});
        assert.equal(key.statusCode, 201, key.body);
        const call = () => h.as(null)('GET', '/api/products', undefined, { 'x-api-key': key.json().api_key });
        assert.equal((await call()).statusCode, 403);
        await h.admin('PATCH', `/admin/organizations/${org.id}`, { active: true });
        assert.equal((await call()).statusCode, 200);
      });

      it('rejects an invalid key body with 400', async () => {
        const org = (await h.admin('POST', '/admin/organizations', { name: 'Key Body' })).json();
        assertAdminError(await h.admin('POST', `/admin/organizations/${org.id}/api-keys`, { name: '' }), 400, /name/);
        assertAdminError(await h.admin('POST', `/admin/organizations/${org.id}/api-keys`, { name: 7 }), 400, /name/);
        assertAdminError(await h.admin('POST', `/admin/organizations/${org.id}/api-keys`, { scope: 'all' }), 400, /scope/);
      });

      it('revokes a key: 204 with an empty body; unknown, repeated and non-integer ids are 404/400', async () => {
        const t = await h.tenant('Revoker');
        const del = await h.admin('DELETE', `/admin/api-keys/${t.keyId}`);
        assert.equal(del.statusCode, 204);
        assert.equal(del.body, '');
        assert.equal((await h.as(t)('GET', '/api/products')).statusCode, 401);

        assertAdminError(await h.admin('DELETE', `/admin/api-keys/${t.keyId}`), 404, new RegExp(String(t.keyId)));
        assertAdminError(await h.admin('DELETE', '/admin/api-keys/999999'), 404, /999999/);
        for (const id of ['abc', '1.5', '0', '-3', '99999999999']) {
          assertAdminError(await h.admin('DELETE', `/admin/api-keys/${id}`), 400, /id/);
        }
      });
    });
  });
}
