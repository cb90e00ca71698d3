// Connector authentication: bearer tokens, the per-IP authentication limit (every attempt counts; 401 with
// X-RateLimit-Remaining/Reset on every failure, neither on success), TRUST_PROXY, scopes, and fail-closed routes.
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { connectorPlugin, type ConnectorDeps } from '../src/connector/connector.plugin.js';
import type { App } from '../src/http/app-type.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, TEST_ADMIN_TOKEN, testRedisUrl } from './helpers/harness.js';
import { twoNodes } from './helpers/redis-nodes.js';

const REDIS_URL = testRedisUrl();

type Res = { statusCode: number; headers: Record<string, unknown>; json(): any };

function assertAuthFailure(res: Res, message?: RegExp) {
  assert.equal(res.statusCode, 401);
  const body = res.json();
  assert.equal(body.status, 'error');
  assert.equal(body.code, 'AUTHENTICATION_FAILED');
  if (message) assert.match(body.message, message);
  const remaining = String(res.headers['x-ratelimit-remaining']);
  const reset = String(res.headers['x-ratelimit-reset']);
  assert.match(remaining, /^\d+$/);
  assert.match(reset, /^\d+$/);
  const now = Math.floor(Date.now() / 1000);
  assert.ok(Number(reset) >= now && Number(reset) <= now + 61, `reset ${reset} is epoch seconds within the window`);
  return Number(remaining);
}

function assertNoRateHeaders(res: Res) {
  assert.equal(res.headers['x-ratelimit-remaining'], undefined);
  assert.equal(res.headers['x-ratelimit-reset'], undefined);
  assert.equal(res.headers['x-ratelimit-limit'], undefined);
}

describe('connector routes fail closed', () => {
  it('refuses to register a connector route without config.access', async () => {
    const app = Fastify();
    const deps = { auth: {}, integrations: {} } as unknown as ConnectorDeps;
    const loading = app.register(async (scope) => {
      await connectorPlugin(scope as unknown as App, deps);
      scope.get('/api/unguarded', async () => ({ ok: true }));
    });
    await assert.rejects(
      Promise.resolve(loading).then(() => app.ready()),
      /must declare config\.access/,
    );
    await app.close().catch(() => {});
  });
});

for (const target of databaseTargets()) {
  describe(`connector authentication (${target.name})`, () => {
    let h: ConnectorHarness;
    before(async () => {
      h = await connectorHarness(target, { AUTH_RATE_LIMIT: '1000' });
    });
    after(() => h.close());

    it('401 AUTHENTICATION_FAILED with rate-limit headers for a missing, malformed, unknown or revoked token', async () => {
      const { token, integrationId } = await h.connected();
      assertAuthFailure(await h.call('GET', '/api/tokens'), /Bearer/);
      assertAuthFailure(await h.call('GET', '/api/tokens', null, undefined, { authorization: `Basic ${token}` }));
      assertAuthFailure(await h.call('GET', '/api/tokens', null, undefined, { authorization: 'Bearer ' }));
      assertAuthFailure(await h.call('GET', '/api/tokens', 'pbt_unknown'), /Invalid/);
      assertAuthFailure(await h.call('GET', '/api/tokens', token.slice(0, -1)));
      const read = (await h.call('POST', '/api/tokens', token, { scope: 'read' })).json().data;
      await h.call('DELETE', `/api/tokens/${read.id}`, token);
      assertAuthFailure(await h.call('GET', '/api/tokens', read.api_token));
      // An authentication failure is decided before the body is read: a broken body does not change the answer.
      assertAuthFailure(await h.call('PUT', '/api/integration/update', null, '{broken'));
      assert.ok(integrationId > 0);
    });

    it('a successful request carries no rate-limit header; a scope refusal (403) is not an authentication failure', async () => {
      const { token } = await h.connected();
      const ok = await h.call('GET', '/api/tokens', token);
      assert.equal(ok.statusCode, 200);
      assertNoRateHeaders(ok);
      const read = (await h.call('POST', '/api/tokens', token, { scope: 'read' })).json().data.api_token;
      const refused = await h.call('POST', '/api/disconnect', read);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'INSUFFICIENT_SCOPE');
      assertNoRateHeaders(refused);
      // Public routes neither authenticate nor carry the headers.
      const connect = await h.call('POST', '/api/connect', null, {
        shop_domain: 'none.example.com',
        pim_base_url: h.pimUrl,
        pim_api_key: 'k',
        pim_api_secret: 's',
      });
      assert.equal(connect.statusCode, 404);
      assertNoRateHeaders(connect);
    });

    it('records last_used_at', async () => {
      const { token } = await h.connected();
      const [listed] = (await h.call('GET', '/api/tokens', token)).json().data.tokens;
      assert.match(listed.last_used_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });
  });

  describe(`connector authentication limit (${target.name})`, () => {
    let h: ConnectorHarness;
    let proxied: ConnectorHarness;
    before(async () => {
      h = await connectorHarness(target, { AUTH_RATE_LIMIT: '3' });
      proxied = await connectorHarness(target, { AUTH_RATE_LIMIT: '2', TRUST_PROXY: '1' });
    });
    after(async () => {
      await h.close();
      await proxied.close();
    });

    const from = (app: ConnectorHarness, ip: string, token: string | null, headers: Record<string, string> = {}) =>
      app.app.inject({ method: 'GET', url: '/api/tokens', remoteAddress: ip, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

    it('counts every attempt per client IP; over the limit even a valid token gets 401 with the rate-limit message', async () => {
      const { token } = await h.connected();
      assert.equal((await from(h, '10.1.1.1', token)).statusCode, 200);
      assert.equal((await from(h, '10.1.1.1', token)).statusCode, 200);
      // The third attempt (a failure) is the last point of the window: it reports 0 left.
      assert.equal(assertAuthFailure(await from(h, '10.1.1.1', 'pbt_wrong'), /Invalid/), 0);
      const limited = await from(h, '10.1.1.1', token);
      assert.equal(assertAuthFailure(limited, /rate limit/i), 0);
      assertAuthFailure(await from(h, '10.1.1.1', null), /rate limit/i);
      // Another address has its own budget; public routes do not spend it.
      for (let i = 0; i < 5; i++) {
        const res = await h.app.inject({
          method: 'POST',
          url: '/api/connect',
          remoteAddress: '10.2.2.2',
          payload: { shop_domain: 'none.example.com', pim_base_url: h.pimUrl, pim_api_key: 'k', pim_api_secret: 's' },
        });
        assert.equal(res.statusCode, 404);
      }
      const other = await from(h, '10.2.2.2', 'pbt_wrong');
      assert.equal(assertAuthFailure(other, /Invalid/), 2);
      // Without TRUST_PROXY, X-Forwarded-For is ignored: the socket address is still limited.
      assertAuthFailure(await from(h, '10.1.1.1', token, { 'x-forwarded-for': '198.51.100.7' }), /rate limit/i);
    });

    it('with TRUST_PROXY the client IP comes from X-Forwarded-For', async () => {
      const { token } = await proxied.connected();
      const xff = (ip: string) => ({ 'x-forwarded-for': ip });
      assert.equal((await from(proxied, '127.0.0.1', token, xff('203.0.113.5'))).statusCode, 200);
      assert.equal((await from(proxied, '127.0.0.1', token, xff('203.0.113.5'))).statusCode, 200);
      assertAuthFailure(await from(proxied, '127.0.0.1', token, xff('203.0.113.5')), /rate limit/i);
      const ok = await from(proxied, '127.0.0.1', token, xff('203.0.113.6'));
      assert.equal(ok.statusCode, 200);
      assertNoRateHeaders(ok);
    });
  });
}

// Only with TEST_REDIS_URL (test/helpers/harness.ts).
for (const target of REDIS_URL ? databaseTargets() : []) {
  describe(`connector authentication limit shared through Redis (${target.name})`, () => {
    it('two nodes on one Redis share the per-IP budget', async () => {
      // A random address of a documentation block, so that other runs sharing this Redis never collide with it.
      const ip = `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
      // The PIM is node a on 127.0.0.1, not PUBLIC_URL: private addresses allowed, as for every test PIM here.
      const nodes = await twoNodes(target, { AUTH_RATE_LIMIT: '3', CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
      const { a, b } = nodes;
      try {
        await a.listen({ port: 0, host: '127.0.0.1' });
        const pimUrl = `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;
        const tenant = await nodes.tenant('Redis');
        await a.inject({
          method: 'POST',
          url: '/admin/shops',
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
          payload: { domain: 'redis.myshopify.com', platform: 'shopify', organization_id: tenant.organizationId, access_token: 't' },
        });
        const token = (
          await a.inject({
            method: 'POST',
            url: '/api/connect',
            payload: { shop_domain: 'redis.myshopify.com', pim_base_url: pimUrl, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret },
          })
        ).json().data.api_token;
        const call = (app: typeof a) => app.inject({ method: 'GET', url: '/api/tokens', remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });
        assert.equal((await call(a)).statusCode, 200);
        assert.equal((await call(b)).statusCode, 200);
        assert.equal((await call(a)).statusCode, 200);
        const limited = await call(b);
        assertAuthFailure(limited, /rate limit/i);
        assert.equal(limited.headers['x-ratelimit-remaining'], '0');
      } finally {
        await nodes.redis.del(`pimbridge:rl:connector-auth:${ip}`).catch(() => {});
        await nodes.close();
      }
    });
  });
}
