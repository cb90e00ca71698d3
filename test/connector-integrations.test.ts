// Connector integrations over the real PIM of the same app on a real port: connect, update, disconnect, reconnect,
// tokens (mint, list, revoke, scopes, isolation between integrations), every error code with its HTTP status,
// pim_base_url's SSRF rule, bad bodies, and secrets never returned nor stored in clear.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { TokenRepository } from '../src/connector/auth/token.repository.js';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { sha256Hex } from '../src/lib/crypto.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { integrationOfShop, mappingOf, publicStatusOf } from './helpers/connector-reads.js';
import { REDACTED_PATHS } from '../src/server/app.js';
import { startApp } from '../src/server/start-app.js';
import { databaseTargets, TEST_ADMIN_TOKEN, testConfig } from './helpers/harness.js';
import { serveHttp, type TestServer } from './helpers/servers.js';
import { sqlRows } from './helpers/sql.js';

const YMD_HIS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function assertError(res: { statusCode: number; json(): any }, status: number, code: string) {
  assert.equal(res.statusCode, status, JSON.stringify(res.json()));
  const body = res.json();
  assert.equal(body.status, 'error');
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
}

for (const target of databaseTargets()) {
  describe(`connector integrations (${target.name})`, () => {
    let h: ConnectorHarness;
    let closedPortUrl: string;
    const servers: TestServer[] = [];

    before(async () => {
      h = await connectorHarness(target);
      closedPortUrl = `http://127.0.0.1:${await freePort()}`;
    });
    after(async () => {
      for (const s of servers) await s.close();
      await h.close();
    });

    describe('POST /api/connect', () => {
      it('creates an active integration with an admin token; secrets are neither returned nor stored in clear', async () => {
        const tenant = await h.tenant();
        const domain = await h.shop('Secret-Shop.myshopify.com'.toLowerCase(), tenant.organizationId);
        const res = await h.call('POST', '/api/connect', null, {
          shop_domain: 'SECRET-SHOP.myshopify.com',
          pim_base_url: `${h.pimUrl}/`,
          pim_api_key: tenant.apiKey,
          pim_api_secret: tenant.apiSecret,
        });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.status, 'success');
        assert.equal(typeof body.message, 'string');
        assert.ok(body.code === undefined || body.code === null);
        assert.deepEqual(Object.keys(body.data).sort(), ['api_token', 'created_at', 'integration_id', 'shop_domain']);
        assert.equal(body.data.shop_domain, domain);
        assert.match(body.data.api_token, /^pbt_[A-Za-z0-9_-]{43}$/);
        assert.match(body.data.created_at, YMD_HIS);
        assert.ok(!res.body.includes(tenant.apiSecret) && !res.body.includes(tenant.apiKey));

        const listed = await h.call('GET', '/api/tokens', body.data.api_token);
        assert.deepEqual(
          listed.json().data.tokens.map((t: { scope: string }) => t.scope),
          ['admin'],
        );
        // The stored secret opens back to the original (used for later PIM calls); the URL is stored without the slash.
        const conn = await h.app.services.connector.integrations.pimConnectionOf(body.data.integration_id);
        assert.deepEqual(conn, { baseUrl: h.pimUrl, apiKey: tenant.apiKey, apiSecret: tenant.apiSecret, isActive: true });

        // How the secrets are stored, which no route shows: the rows themselves.
        const [row] = await sqlRows<Record<string, unknown>>(h.database.db, sql`select * from integrations where id = ${body.data.integration_id}`);
        const stored = JSON.stringify(row);
        assert.ok(!stored.includes(tenant.apiSecret) && !stored.includes(tenant.apiKey), 'PIM credentials are stored encrypted');
        assert.match(String(row.pim_api_secret_encrypted), /^v1\./);
        const tokens = await sqlRows<{ token_hash: string }>(
          h.database.db,
          sql`select * from connector_tokens where integration_id = ${body.data.integration_id}`,
        );
        assert.deepEqual(
          tokens.map((t) => t.token_hash),
          [sha256Hex(body.data.api_token)],
        );
        assert.ok(!JSON.stringify(tokens).includes(body.data.api_token));
      });

      it('INVALID_JSON, MISSING_FIELD and VALIDATION_FAILED (400) for bad bodies', async () => {
        const tenant = await h.tenant();
        const domain = await h.shop(undefined, tenant.organizationId);
        const good = { shop_domain: domain, pim_base_url: h.pimUrl, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret };
        assertError(await h.call('POST', '/api/connect', null, '{"shop_domain": '), 400, 'INVALID_JSON');
        assertError(await h.call('POST', '/api/connect', null, 'not json'), 400, 'INVALID_JSON');
        assertError(await h.call('POST', '/api/connect', null), 400, 'MISSING_FIELD');
        for (const field of Object.keys(good)) {
          const { [field]: _, ...rest } = good as Record<string, string>;
          const res = await h.call('POST', '/api/connect', null, rest);
          assertError(res, 400, 'MISSING_FIELD');
          assert.match(res.json().message, new RegExp(field));
        }
        for (const body of ['[1, 2]', '"text"', '42', 'null']) assertError(await h.call('POST', '/api/connect', null, body), 400, 'VALIDATION_FAILED');
        assertError(await h.call('POST', '/api/connect', null, { ...good, pim_api_key: 12345 }), 400, 'VALIDATION_FAILED');
        assertError(await h.call('POST', '/api/connect', null, { ...good, pim_api_secret: '' }), 400, 'VALIDATION_FAILED');
        assertError(await h.call('POST', '/api/connect', null, { ...good, extra: 1 }), 400, 'VALIDATION_FAILED');
        for (const url of ['ftp://pim.example.com', 'not a url', `${h.pimUrl}?x=1`, `${h.pimUrl}#frag`, 'http://user:pw@pim.example.com']) {
          const res = await h.call('POST', '/api/connect', null, { ...good, pim_base_url: url });
          assertError(res, 400, 'VALIDATION_FAILED');
          assert.match(res.json().message, /pim_base_url/);
        }
        const big = JSON.stringify({ ...good, pim_api_key: 'x'.repeat(2 * 1024 * 1024) });
        assertError(await h.call('POST', '/api/connect', null, big), 400, 'VALIDATION_FAILED');
        // None of these created anything.
        assert.equal(await integrationOfShop(h.database.db, domain), null);
      });

      it('SHOP_NOT_FOUND (404) for a shop that is not installed', async () => {
        const tenant = await h.tenant();
        const res = await h.call('POST', '/api/connect', null, {
          shop_domain: 'nowhere.myshopify.com',
          pim_base_url: h.pimUrl,
          pim_api_key: tenant.apiKey,
          pim_api_secret: tenant.apiSecret,
        });
        assertError(res, 404, 'SHOP_NOT_FOUND');
      });

      it('INTEGRATION_EXISTS (409) for a shop with an active integration', async () => {
        const { tenant, domain } = await h.connected();
        const res = await h.call('POST', '/api/connect', null, {
          shop_domain: domain,
          pim_base_url: h.pimUrl,
          pim_api_key: tenant.apiKey,
          pim_api_secret: tenant.apiSecret,
        });
        assertError(res, 409, 'INTEGRATION_EXISTS');
      });

      it("INVALID_CREDENTIALS (401) when the PIM at pim_base_url refuses the owner's key and secret", async () => {
        const tenant = await h.tenant();
        const domain = await h.shop(undefined, tenant.organizationId);
        const refusing = await serveHttp((_req, res) =>
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"status":0,"data":null,"error":"Invalid API key or secret"}'),
        );
        servers.push(refusing);
        const res = await h.call('POST', '/api/connect', null, {
          shop_domain: domain,
          pim_base_url: refusing.url,
          pim_api_key: tenant.apiKey,
          pim_api_secret: tenant.apiSecret,
        });
        assertError(res, 401, 'INVALID_CREDENTIALS');
        assert.ok(!res.body.includes(tenant.apiSecret));
        assert.deepEqual(refusing.hits, ['/api/auth/verify']);
        assert.equal(await integrationOfShop(h.database.db, domain), null);
      });

      it('SHOP_NOT_FOUND (404), as for an unknown shop, for a wrong key, a wrong secret, a revoked key and an inactive owner: none proves the owner', async () => {
        const tenant = await h.tenant();
        const domain = await h.shop(undefined, tenant.organizationId);
        const base = { shop_domain: domain, pim_base_url: h.pimUrl, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret };
        assertError(await h.call('POST', '/api/connect', null, { ...base, pim_api_secret: 'sk_wrong' }), 404, 'SHOP_NOT_FOUND');
        assertError(await h.call('POST', '/api/connect', null, { ...base, pim_api_key: 'pk_wrong' }), 404, 'SHOP_NOT_FOUND');
        // Another key of the owner, revoked.
        const revoked = (await h.admin('POST', `/admin/organizations/${tenant.organizationId}/api-keys`, {})).json();
        assert.equal((await h.admin('DELETE', `/admin/api-keys/${revoked.id}`)).statusCode, 204);
        assertError(
          await h.call('POST', '/api/connect', null, { ...base, pim_api_key: revoked.api_key, pim_api_secret: revoked.api_secret }),
          404,
          'SHOP_NOT_FOUND',
        );
        // The owner deactivated: its own live key no longer proves anything.
        assert.equal((await h.admin('PATCH', `/admin/organizations/${tenant.organizationId}`, { active: false })).statusCode, 200);
        assertError(await h.call('POST', '/api/connect', null, base), 404, 'SHOP_NOT_FOUND');
        assert.equal(await integrationOfShop(h.database.db, domain), null);
      });

      it('CONNECTION_FAILED (503) for a closed port, a 5xx, a non-JSON answer and a PIM that hangs past the timeout', async () => {
        const tenant = await h.tenant();
        const domain = await h.shop(undefined, tenant.organizationId);
        const base = { shop_domain: domain, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret };
        const failing = await serveHttp((_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}'));
        const html = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
        const hanging = await serveHttp(() => {});
        servers.push(failing, html, hanging);
        for (const url of [closedPortUrl, failing.url, html.url]) {
          const res = await h.call('POST', '/api/connect', null, { ...base, pim_base_url: url });
          assertError(res, 503, 'CONNECTION_FAILED');
          assert.ok(!res.body.includes(tenant.apiSecret));
        }
        assert.deepEqual(failing.hits, ['/api/auth/verify']);
        // The hanging PIM against an app (same database) whose PIM client gives up after 300 ms instead of 5 s.
        const quick = await startApp({
          config: testConfig({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' }), // the hanging PIM is on 127.0.0.1, as the harness's
          database: h.database,
          logger: false,
          services: { pimTimeoutMs: 300 },
        });
        try {
          const res = await quick.inject({ method: 'POST', url: '/api/connect', payload: { ...base, pim_base_url: hanging.url } });
          assertError(res, 503, 'CONNECTION_FAILED');
          assert.match(res.json().message, /timed out/);
        } finally {
          await quick.close();
        }
        assert.equal(await integrationOfShop(h.database.db, domain), null);
      });
    });

    describe('PUT /api/integration/update', () => {
      it('NO_UPDATES (400) without any of the three fields; INVALID_JSON for a broken body', async () => {
        const { token } = await h.connected();
        assertError(await h.call('PUT', '/api/integration/update', token, {}), 400, 'NO_UPDATES');
        assertError(await h.call('PUT', '/api/integration/update', token), 400, 'NO_UPDATES');
        assertError(await h.call('PUT', '/api/integration/update', token, '{oops'), 400, 'INVALID_JSON');
        // The spec: VALIDATION_FAILED is 503 on this route, for field validation as for credentials that cannot be checked.
        assertError(await h.call('PUT', '/api/integration/update', token, { pim_api_key: 7 }), 503, 'VALIDATION_FAILED');
        assertError(await h.call('PUT', '/api/integration/update', token, { pim_base_url: 'gopher://x' }), 503, 'VALIDATION_FAILED');
      });

      it('revalidates the merged credentials: a new key pair is accepted, a wrong secret is INVALID_CREDENTIALS', async () => {
        const { tenant, token, integrationId } = await h.connected();
        const key = (await h.admin('POST', `/admin/organizations/${tenant.organizationId}/api-keys`, {})).json();
        // Only the key changes: the stored secret no longer matches it.
        assertError(await h.call('PUT', '/api/integration/update', token, { pim_api_key: key.api_key }), 401, 'INVALID_CREDENTIALS');
        const res = await h.call('PUT', '/api/integration/update', token, { pim_api_key: key.api_key, pim_api_secret: key.api_secret });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(Object.keys(res.json().data).sort(), ['integration_id', 'updated_at']);
        assert.equal(res.json().data.integration_id, integrationId);
        assert.match(res.json().data.updated_at, YMD_HIS);
        assert.ok(!res.body.includes(key.api_secret));
        const conn = await h.app.services.connector.integrations.pimConnectionOf(integrationId);
        assert.equal(conn?.apiKey, key.api_key);
        assert.equal(conn?.apiSecret, key.api_secret);
        // The base URL alone changes (with a trailing slash): checked with the stored pair, stored without the slash.
        assert.equal((await h.call('PUT', '/api/integration/update', token, { pim_base_url: `${h.pimUrl}/` })).statusCode, 200);
        assertError(await h.call('PUT', '/api/integration/update', token, { pim_api_secret: 'sk_wrong' }), 401, 'INVALID_CREDENTIALS');
        assert.equal(
          (await h.app.services.connector.integrations.pimConnectionOf(integrationId))?.apiSecret,
          key.api_secret,
          'a refused update changes nothing',
        );
      });

      it('VALIDATION_FAILED (503) when the PIM cannot be reached to validate', async () => {
        const { token, integrationId } = await h.connected();
        const res = await h.call('PUT', '/api/integration/update', token, { pim_base_url: closedPortUrl });
        assertError(res, 503, 'VALIDATION_FAILED');
        assert.equal((await h.app.services.connector.integrations.pimConnectionOf(integrationId))?.baseUrl, h.pimUrl);
      });
    });

    describe('POST /api/disconnect and reconnect', () => {
      it('deactivates, revokes every token (the used one included), and a reconnect reactivates the same id with a new token', async () => {
        const { tenant, domain, token, integrationId } = await h.connected();
        const read = (await h.call('POST', '/api/tokens', token, { scope: 'read' })).json().data.api_token;
        await new MappingRepository(h.database.db).insertPending(integrationId, 4242);

        const res = await h.call('POST', '/api/disconnect', token);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().status, 'success');
        assert.deepEqual(Object.keys(res.json().data).sort(), ['disconnected_at', 'integration_id', 'status']);
        assert.equal(res.json().data.integration_id, integrationId);
        assert.equal(res.json().data.status, 'inactive');
        assert.match(res.json().data.disconnected_at, YMD_HIS);
        assertError(await h.call('POST', '/api/disconnect', token), 401, 'AUTHENTICATION_FAILED');
        assertError(await h.call('GET', '/api/tokens', read), 401, 'AUTHENTICATION_FAILED');
        assert.deepEqual(await new TokenRepository(h.database.db).listLive(integrationId), []);
        assert.equal((await publicStatusOf(h, integrationId)).is_active, false);

        const again = await h.call('POST', '/api/connect', null, {
          shop_domain: domain,
          pim_base_url: h.pimUrl,
          pim_api_key: tenant.apiKey,
          pim_api_secret: tenant.apiSecret,
        });
        assert.equal(again.statusCode, 200, again.body);
        assert.equal(again.json().data.integration_id, integrationId, 'same integration id');
        const fresh = again.json().data.api_token;
        assert.notEqual(fresh, token);
        assertError(await h.call('GET', '/api/tokens', token), 401, 'AUTHENTICATION_FAILED');
        const list = await h.call('GET', '/api/tokens', fresh);
        assert.equal(list.statusCode, 200);
        assert.equal(list.json().data.tokens.length, 1);
        assert.notEqual(await mappingOf(h, fresh, 4242), null, 'mappings kept');
      });
    });

    describe('tokens', () => {
      it('mints, lists (never the token) and revokes tokens; scopes nest admin ⊃ write ⊃ read', async () => {
        const { token } = await h.connected();
        const minted = await h.call('POST', '/api/tokens', token, { scope: 'read', name: 'dashboard' });
        assert.equal(minted.statusCode, 200, minted.body);
        const data = minted.json().data;
        assert.deepEqual(Object.keys(data).sort(), ['api_token', 'created_at', 'id', 'name', 'scope']);
        assert.equal(data.scope, 'read');
        assert.equal(data.name, 'dashboard');
        assert.match(data.api_token, /^pbt_/);
        const write = (await h.call('POST', '/api/tokens', token, { scope: 'write' })).json().data;
        assert.equal(write.name, null);

        const list = await h.call('GET', '/api/tokens', token);
        assert.equal(list.statusCode, 200);
        const tokens = list.json().data.tokens;
        assert.deepEqual(
          tokens.map((t: { scope: string }) => t.scope),
          ['admin', 'read', 'write'],
        );
        for (const t of tokens) assert.deepEqual(Object.keys(t).sort(), ['created_at', 'id', 'last_used_at', 'name', 'scope']);
        assert.ok(!list.body.includes(data.api_token) && !list.body.includes(token));

        // A read token can neither disconnect, update, mint, list nor revoke; a write token cannot either (all admin).
        for (const weak of [data.api_token, write.api_token]) {
          assertError(await h.call('POST', '/api/disconnect', weak), 403, 'INSUFFICIENT_SCOPE');
          assertError(await h.call('POST', '/api/tokens', weak, { scope: 'read' }), 403, 'INSUFFICIENT_SCOPE');
          assertError(await h.call('GET', '/api/tokens', weak), 403, 'INSUFFICIENT_SCOPE');
          assertError(await h.call('DELETE', `/api/tokens/${data.id}`, weak), 403, 'INSUFFICIENT_SCOPE');
          assertError(await h.call('PUT', '/api/integration/update', weak, { pim_base_url: h.pimUrl }), 403, 'INSUFFICIENT_SCOPE');
        }

        const revoked = await h.call('DELETE', `/api/tokens/${data.id}`, token);
        assert.equal(revoked.statusCode, 200, revoked.body);
        assert.equal(revoked.json().data.id, data.id);
        assertError(await h.call('DELETE', `/api/tokens/${data.id}`, token), 404, 'NOT_FOUND');
        assertError(await h.call('GET', '/api/tokens', data.api_token), 401, 'AUTHENTICATION_FAILED');
        assertError(await h.call('DELETE', '/api/tokens/abc', token), 400, 'VALIDATION_FAILED');
        assertError(await h.call('POST', '/api/tokens', token, { scope: 'root' }), 400, 'VALIDATION_FAILED');
        assertError(await h.call('POST', '/api/tokens', token, {}), 400, 'MISSING_FIELD');
      });

      it("a token of one integration never reads or changes another's", async () => {
        const a = await h.connected();
        const b = await h.connected();
        const bRead = (await h.call('POST', '/api/tokens', b.token, { scope: 'read' })).json().data;
        assertError(await h.call('DELETE', `/api/tokens/${bRead.id}`, a.token), 404, 'NOT_FOUND');
        const aList = (await h.call('GET', '/api/tokens', a.token)).json().data.tokens;
        assert.ok(!aList.some((t: { id: number }) => t.id === bRead.id));
        assert.equal((await h.call('POST', '/api/disconnect', a.token)).json().data.integration_id, a.integrationId);
        // B is untouched: its tokens still work, its integration is active.
        assert.equal((await h.call('GET', '/api/tokens', b.token)).statusCode, 200);
        assert.equal((await publicStatusOf(h, b.integrationId)).is_active, true);
        assert.equal((await h.call('GET', '/api/tokens', b.token)).json().data.tokens.length, 2);
      });
    });
  });

  describe(`connector unexpected errors and logs (${target.name})`, () => {
    it('answers 500 INTERNAL_ERROR without details, and never logs a secret', async () => {
      const lines: string[] = [];
      const stream = { write: (line: string) => void lines.push(line) };
      const database = await target.open();
      await database.migrate();
      const app = await startApp({
        config: testConfig({ LOG_LEVEL: 'trace', CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' }), // its PIM: itself on 127.0.0.1
        database,
        logger: { level: 'trace', redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, stream },
      });
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const pimUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
        const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
        const org = (await app.inject({ method: 'POST', url: '/admin/organizations', headers: admin, payload: { name: 'Logs' } })).json();
        const key = (await app.inject({ method: 'POST', url: `/admin/organizations/${org.id}/api-keys`, headers: admin, payload: {} })).json();
        await app.inject({
          method: 'POST',
          url: '/admin/shops',
          headers: admin,
          payload: { domain: 'logs.myshopify.com', platform: 'shopify', organization_id: org.id, access_token: 'shpat_log_secret' },
        });
        const body = { shop_domain: 'logs.myshopify.com', pim_base_url: pimUrl, pim_api_key: key.api_key, pim_api_secret: key.api_secret };
        await app.inject({ method: 'POST', url: '/api/connect', payload: { ...body, pim_api_secret: 'sk_wrong_one' } });
        const connected = await app.inject({ method: 'POST', url: '/api/connect', payload: body });
        const token = connected.json().data.api_token;
        assert.ok(token);
        // A real fault below the service: the column the token listing reads is gone (the bearer check reads others).
        await database.db.execute(sql`ALTER TABLE connector_tokens RENAME COLUMN name TO name_gone`);
        try {
          const res = await app.inject({ method: 'GET', url: '/api/tokens', headers: { authorization: `Bearer ${token}` } });
          assert.equal(res.statusCode, 500);
          assert.deepEqual(res.json(), { status: 'error', message: 'An unexpected error occurred', code: 'INTERNAL_ERROR' });
        } finally {
          await database.db.execute(sql`ALTER TABLE connector_tokens RENAME COLUMN name_gone TO name`);
        }
        const logs = lines.join('');
        assert.match(logs, /column \\?"name\\?" does not exist/, 'the details go to the log');
        for (const secret of [key.api_key, key.api_secret, 'sk_wrong_one', token, 'shpat_log_secret'])
          assert.ok(!logs.includes(secret), 'a secret reached the log');
      } finally {
        await app.close();
        await database.close();
      }
    });
  });

  describe(`connector pim_base_url address rule (${target.name})`, () => {
    let h: ConnectorHarness;
    let other: TestServer;

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'false', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      other = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":1,"data":{}}'));
    });
    after(async () => {
      await other.close();
      await h.close();
    });

    it('refuses loopback, private and link-local addresses as an unreachable PIM (503 CONNECTION_FAILED) naming the rule, before connecting', async () => {
      const tenant = await h.tenant();
      const domain = await h.shop(undefined, tenant.organizationId);
      const base = { shop_domain: domain, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret };
      for (const url of [other.url, `http://localhost:${other.port}`, 'http://10.0.0.1', 'http://169.254.169.254', 'http://[::1]:1']) {
        const res = await h.call('POST', '/api/connect', null, { ...base, pim_base_url: url });
        assertError(res, 503, 'CONNECTION_FAILED');
        assert.match(
          res.json().message,
          /^pim_base_url (is|resolves to) a private address \(.+\); set CONNECTOR_ALLOW_PRIVATE_NETWORKS=true to allow private networks$/,
        );
      }
      assert.equal(other.connections, 0, 'no connection was made to a refused address');
    });

    it("allows this server's own PUBLIC_URL", async () => {
      const tenant = await h.tenant();
      const domain = await h.shop(undefined, tenant.organizationId);
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      // On update a private address is answered as an unreachable PIM there: VALIDATION_FAILED with the route's 503.
      const update = await h.call('PUT', '/api/integration/update', res.json().data.api_token, { pim_base_url: other.url });
      assertError(update, 503, 'VALIDATION_FAILED');
      assert.match(update.json().message, /^pim_base_url is a private address \(loopback\); set CONNECTOR_ALLOW_PRIVATE_NETWORKS=true/);
    });
  });
}
