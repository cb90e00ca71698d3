// The public connector routes' own per-IP limit (CONNECTOR_PUBLIC_RATE_LIMIT): POST /api/connect, GET /api/status/{id}
// and GET /api/system/status share one budget per client IP; over it 429 RATE_LIMITED in the connector envelope with
// Retry-After. It is apart from the authentication limit and the PIM's limits, and shared through Redis.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Response as InjectResponse } from 'light-my-request';
import { loadConfig } from '../src/config.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, TEST_ADMIN_TOKEN, type TestApp, testRedisUrl } from './helpers/harness.js';
import { twoNodes } from './helpers/redis-nodes.js';

const REDIS_URL = testRedisUrl();
const LIMIT = 3;

/** An address of a reserved block no other run uses. */
const randomIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

const PUBLIC = [
  { method: 'GET', url: '/api/system/status' },
  { method: 'GET', url: '/api/status/999999' },
  {
    method: 'POST',
    url: '/api/connect',
    payload: { shop_domain: 'none.example.com', pim_base_url: 'http://127.0.0.1:9', pim_api_key: 'k', pim_api_secret: 's' },
  },
] as const;

function send(app: TestApp, ip: string, route: { method: string; url: string; payload?: unknown }, headers: Record<string, string> = {}) {
  return app.inject({ method: route.method as never, url: route.url, remoteAddress: ip, payload: route.payload as never, headers }) as Promise<InjectResponse>;
}

function assertLimited(res: InjectResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status']);
  assert.equal(body.status, 'error');
  assert.equal(body.code, 'RATE_LIMITED');
  assert.match(body.message, /rate limit exceeded/i);
  const retryAfter = String(res.headers['retry-after']);
  assert.match(retryAfter, /^\d+$/, 'Retry-After is whole seconds');
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter} is within the one-minute window`);
  assert.equal(res.headers['x-ratelimit-remaining'], undefined, 'the authentication headers belong to 401s only');
}

describe('CONNECTOR_PUBLIC_RATE_LIMIT', () => {
  it('defaults to 120 per minute and must be a positive integer', () => {
    const base = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: '/nonexistent-test-data-dir', ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };
    assert.equal(loadConfig(base).connectorPublicRateLimit, 120);
    assert.equal(loadConfig({ ...base, CONNECTOR_PUBLIC_RATE_LIMIT: '7' }).connectorPublicRateLimit, 7);
    assert.throws(() => loadConfig({ ...base, CONNECTOR_PUBLIC_RATE_LIMIT: '0' }), /CONNECTOR_PUBLIC_RATE_LIMIT must be an integer/);
  });
});

for (const target of databaseTargets()) {
  describe(`connector public routes limit (${target.name})`, () => {
    let h: ConnectorHarness;
    before(async () => {
      h = await connectorHarness(target, { CONNECTOR_PUBLIC_RATE_LIMIT: String(LIMIT), AUTH_RATE_LIMIT: '1000' });
    });
    after(() => h.close());

    it('the three public routes share one budget per IP; over it each answers 429 RATE_LIMITED with Retry-After', async () => {
      const ip = randomIp();
      const answers = [];
      for (const route of PUBLIC) answers.push((await send(h.app, ip, route)).statusCode);
      assert.deepEqual(answers, [200, 404, 404], 'within the limit: the routes answer as usual');
      for (const route of PUBLIC) assertLimited(await send(h.app, ip, route));
    });

    it('a refused connect is not attempted: the integration is made once the window allows it, not before', async () => {
      const ip = randomIp();
      const tenant = await h.tenant();
      const domain = await h.shop(undefined, tenant.organizationId);
      const connect = {
        method: 'POST',
        url: '/api/connect',
        payload: { shop_domain: domain, pim_base_url: h.pimUrl, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret },
      };
      for (let i = 0; i < LIMIT; i++) assert.equal((await send(h.app, ip, PUBLIC[0])).statusCode, 200);
      assertLimited(await send(h.app, ip, connect));
      const elsewhere = await send(h.app, randomIp(), connect);
      assert.equal(elsewhere.statusCode, 200, 'another address has its own budget, and the refused attempt made nothing');
      assert.equal(elsewhere.json().status, 'success');
    });

    it('is apart from the authentication limit: authenticated and PIM routes keep answering from an exhausted IP', async () => {
      const ip = randomIp();
      const { token, tenant } = await h.connected();
      for (let i = 0; i < LIMIT; i++) await send(h.app, ip, PUBLIC[0]);
      assertLimited(await send(h.app, ip, PUBLIC[0]));
      const own = await send(h.app, ip, { method: 'GET', url: '/api/status' }, { authorization: `Bearer ${token}` });
      assert.equal(own.statusCode, 200, own.body);
      const failed = await send(h.app, ip, { method: 'GET', url: '/api/tokens' }, { authorization: 'Bearer pbt_wrong' });
      assert.equal(failed.statusCode, 401);
      assert.equal(failed.headers['x-ratelimit-remaining'], '998', 'the public requests took no authentication points');
      const pim = await send(h.app, ip, { method: 'GET', url: '/api/products' }, { 'x-api-key': tenant.apiKey });
      assert.equal(pim.statusCode, 200, pim.body);
    });

    it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
      const ip = randomIp();
      for (let i = 0; i < LIMIT; i++) await send(h.app, ip, PUBLIC[0], { 'x-forwarded-for': `192.0.2.${i}` });
      assertLimited(await send(h.app, ip, PUBLIC[0], { 'x-forwarded-for': '192.0.2.99' }));
    });
  });

  // Only with TEST_REDIS_URL (test/helpers/harness.ts).
  if (REDIS_URL)
    describe(`connector public routes limit shared through Redis (${target.name})`, () => {
      it('two nodes on one Redis share the per-IP budget', async () => {
        const ip = randomIp();
        const nodes = await twoNodes(target, { CONNECTOR_PUBLIC_RATE_LIMIT: String(LIMIT) });
        try {
          assert.equal((await send(nodes.a, ip, PUBLIC[0])).statusCode, 200);
          assert.equal((await send(nodes.b, ip, PUBLIC[0])).statusCode, 200);
          assert.equal((await send(nodes.a, ip, PUBLIC[0])).statusCode, 200);
          assertLimited(await send(nodes.b, ip, PUBLIC[0]));
          assertLimited(await send(nodes.a, ip, PUBLIC[1]));
          assert.ok(Number(await nodes.redis.get(`pimbridge:rl:connector-public:${ip}`)) >= LIMIT, 'the counter lives in Redis');
        } finally {
          await nodes.redis.del(`pimbridge:rl:connector-public:${ip}`).catch(() => {});
          await nodes.close();
        }
      });
    });
}
