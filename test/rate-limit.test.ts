// PIM rate limits: per client IP, reads and writes counted apart, 429 in the envelope with Retry-After;
// in process by default, shared through Redis by several app instances.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import type { Response as InjectResponse } from 'light-my-request';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness, type Tenant, type TestApp, testRedisUrl } from './helpers/harness.js';
import { twoNodes, type TwoNodes } from './helpers/redis-nodes.js';
import { until } from './helpers/until.js';

const REDIS_URL = testRedisUrl();
const READ = 5;
const WRITE = 2;
const LIMITS = { PIM_RATE_LIMIT_READ: String(READ), PIM_RATE_LIMIT_WRITE: String(WRITE) };

/** A 10.x.y.0/24 block of client addresses that no other run uses. */
function ipBlock(): (n: number) => string {
  const prefix = `10.${randomInt(0, 256)}.${randomInt(0, 256)}`;
  return (n) => `${prefix}.${n}`;
}

function send(app: TestApp, opts: { method?: string; url?: string; ip: string; key?: string; payload?: unknown; headers?: Record<string, string> }) {
  return app.inject({
    method: (opts.method ?? 'GET') as never,
    url: opts.url ?? '/api/products',
    remoteAddress: opts.ip,
    payload: opts.payload as never,
    headers: { ...(opts.key ? { 'x-api-key': opts.key } : {}), ...opts.headers },
  }) as Promise<InjectResponse>;
}

let skus = 0;
const newProduct = () => ({ name: 'Rate Limited', sku: `RL-${process.pid}-${++skus}` });

function assertLimited(res: InjectResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['data', 'error', 'status']);
  assert.equal(body.status, 0);
  assert.equal(body.data, null);
  assert.match(body.error, /rate limit/i);
  const retryAfter = String(res.headers['retry-after']);
  assert.match(retryAfter, /^\d+$/, 'Retry-After is whole seconds');
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter} is within the 60 s window`);
  assert.equal(res.headers['x-ratelimit-remaining'], '0');
}

for (const target of databaseTargets()) {
  describe(`PIM rate limits, in process (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    const ip = ipBlock();
    before(async () => {
      h = await harness(target, LIMITS);
      t = await h.tenant();
    });
    after(() => h.close());

    it('allows PIM_RATE_LIMIT_READ reads per IP, then answers 429 with Retry-After', async () => {
      const client = ip(1);
      for (let i = 1; i <= READ; i++) {
        const res = await send(h.app, { ip: client, key: t.apiKey });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['x-ratelimit-limit'], String(READ));
        assert.equal(res.headers['x-ratelimit-remaining'], String(READ - i));
        assert.equal(res.headers['retry-after'], undefined);
      }
      assertLimited(await send(h.app, { ip: client, key: t.apiKey }));
      assertLimited(await send(h.app, { ip: client, key: t.apiKey, url: '/api/channels' }));
      assertLimited(await send(h.app, { ip: client, key: t.apiKey, url: '/api/auth/verify', headers: { 'x-api-secret': t.apiSecret } }));
    });

    it('allows PIM_RATE_LIMIT_WRITE writes per IP, then answers 429; the rejected write changes nothing', async () => {
      const client = ip(2);
      for (let i = 1; i <= WRITE; i++) {
        const res = await send(h.app, { method: 'POST', ip: client, key: t.apiKey, payload: newProduct() });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.headers['x-ratelimit-limit'], String(WRITE));
        assert.equal(res.headers['x-ratelimit-remaining'], String(WRITE - i));
      }
      const blocked = newProduct();
      assertLimited(await send(h.app, { method: 'POST', ip: client, key: t.apiKey, payload: blocked }));
      assertLimited(await send(h.app, { method: 'PATCH', url: '/api/products/1', ip: client, key: t.apiKey, payload: { name: 'x' } }));
      assertLimited(await send(h.app, { method: 'DELETE', url: '/api/products/1', ip: client, key: t.apiKey }));

      const search = await send(h.app, { ip: ip(3), key: t.apiKey, url: `/api/products?search=${blocked.sku}` });
      assert.equal(search.statusCode, 200);
      assert.equal(search.json().data.pagination.total_items, 0);
    });

    it('counts reads and writes apart: exhausting writes does not block reads, nor reads writes', async () => {
      const writer = ip(4);
      for (let i = 0; i < WRITE; i++) await send(h.app, { method: 'POST', ip: writer, key: t.apiKey, payload: newProduct() });
      assertLimited(await send(h.app, { method: 'POST', ip: writer, key: t.apiKey, payload: newProduct() }));
      const read = await send(h.app, { ip: writer, key: t.apiKey });
      assert.equal(read.statusCode, 200, read.body);
      assert.equal(read.headers['x-ratelimit-remaining'], String(READ - 1));

      const reader = ip(5);
      for (let i = 0; i < READ; i++) assert.equal((await send(h.app, { ip: reader, key: t.apiKey })).statusCode, 200);
      assertLimited(await send(h.app, { ip: reader, key: t.apiKey }));
      const write = await send(h.app, { method: 'POST', ip: reader, key: t.apiKey, payload: newProduct() });
      assert.equal(write.statusCode, 201, write.body);
    });

    it('counts per client IP: one exhausted IP does not limit another, whatever the key', async () => {
      const noisy = ip(6);
      for (let i = 0; i < READ; i++) await send(h.app, { ip: noisy, key: t.apiKey });
      assertLimited(await send(h.app, { ip: noisy, key: t.apiKey }));
      const other = await h.tenant();
      // Another key from the same IP shares the IP's budget…
      assertLimited(await send(h.app, { ip: noisy, key: other.apiKey }));
      // …and the same key from another IP has its own.
      const quiet = await send(h.app, { ip: ip(7), key: t.apiKey });
      assert.equal(quiet.statusCode, 200, quiet.body);
      assert.equal(quiet.headers['x-ratelimit-remaining'], String(READ - 1));
    });

    it('counts unauthenticated requests too, before authentication', async () => {
      const guesser = ip(8);
      for (let i = 0; i < READ; i++) {
        const res = await send(h.app, { ip: guesser, key: `pk_guess_${i}` });
        assert.equal(res.statusCode, 401, res.body);
        assert.equal(res.headers['x-ratelimit-remaining'], String(READ - 1 - i));
      }
      // Over the limit even a valid key is turned away from this IP.
      assertLimited(await send(h.app, { ip: guesser, key: `pk_guess_more` }));
      assertLimited(await send(h.app, { ip: guesser, key: t.apiKey }));
    });

    it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
      const client = ip(9);
      for (let i = 0; i < READ; i++) await send(h.app, { ip: client, key: t.apiKey, headers: { 'x-forwarded-for': `192.0.2.${i}` } });
      assertLimited(await send(h.app, { ip: client, key: t.apiKey, headers: { 'x-forwarded-for': '192.0.2.200' } }));
    });

    it('does not apply PIM limits to the admin API or the health endpoints', async () => {
      const client = ip(10);
      for (let i = 0; i < READ; i++) await send(h.app, { ip: client, key: t.apiKey });
      assertLimited(await send(h.app, { ip: client, key: t.apiKey }));
      for (let i = 0; i < READ + 2; i++) {
        const admin = await send(h.app, { url: '/admin/organizations', ip: client, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
        assert.equal(admin.statusCode, 200, admin.body);
        assert.equal((await send(h.app, { url: '/healthz', ip: client })).statusCode, 200);
      }
    });
  });

  describe(`PIM rate limits behind a trusted proxy (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    const ip = ipBlock();
    before(async () => {
      h = await harness(target, { ...LIMITS, TRUST_PROXY: '1' });
      t = await h.tenant();
    });
    after(() => h.close());

    it('counts per X-Forwarded-For client when TRUST_PROXY is set', async () => {
      const proxy = '127.0.0.1';
      const first = ip(1);
      for (let i = 0; i < READ; i++) {
        assert.equal((await send(h.app, { ip: proxy, key: t.apiKey, headers: { 'x-forwarded-for': first } })).statusCode, 200);
      }
      assertLimited(await send(h.app, { ip: proxy, key: t.apiKey, headers: { 'x-forwarded-for': first } }));
      const second = await send(h.app, { ip: proxy, key: t.apiKey, headers: { 'x-forwarded-for': ip(2) } });
      assert.equal(second.statusCode, 200, second.body);
      assert.equal(second.headers['x-ratelimit-remaining'], String(READ - 1));
    });
  });
}

/** Deletes the rate-limit counters of one address block (never anything else in Redis). */
async function deleteCounters(redis: Redis, prefixOfBlock: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `pimbridge:rl:*:${prefixOfBlock}.*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

/** Retries `check` (the one `until`) until it returns true; false when the deadline passes first. */
const eventually = (check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> =>
  until('the other instance to agree', check, timeoutMs).then(
    () => true,
    () => false,
  );

// Only with TEST_REDIS_URL (test/helpers/harness.ts).
for (const target of REDIS_URL ? databaseTargets() : []) {
  describe(`PIM rate limits shared through Redis by two instances (${target.name})`, () => {
    let nodes: TwoNodes;
    let t: Tenant;
    const ip = ipBlock();
    const block = ip(0).replace(/\.0$/, '');
    before(async () => {
      nodes = await twoNodes(target, LIMITS);
      await deleteCounters(nodes.redis, block);
      t = await nodes.tenant('Shared Budget');
    });
    after(async () => {
      if (!nodes) return;
      await deleteCounters(nodes.redis, block);
      await nodes.close();
    });

    it('both instances draw reads from one budget per IP', async () => {
      const client = ip(1);
      const remaining: string[] = [];
      for (const app of [nodes.a, nodes.b, nodes.a, nodes.b, nodes.a]) {
        const res = await send(app, { ip: client, key: t.apiKey });
        assert.equal(res.statusCode, 200, res.body);
        remaining.push(String(res.headers['x-ratelimit-remaining']));
      }
      assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
      assertLimited(await send(nodes.b, { ip: client, key: t.apiKey }));
      assertLimited(await send(nodes.a, { ip: client, key: t.apiKey }));

      // The counter lives in Redis under pimbridge:rl:*, with the window's expiry.
      const key = `pimbridge:rl:pim-read:${client}`;
      assert.ok(Number(await nodes.redis.get(key)) >= READ);
      const ttl = await nodes.redis.pttl(key);
      assert.ok(ttl > 0 && ttl <= 60_000, `ttl ${ttl}`);
    });

    it('both instances draw writes from one budget per IP, apart from reads', async () => {
      const client = ip(2);
      assert.equal((await send(nodes.a, { method: 'POST', ip: client, key: t.apiKey, payload: newProduct() })).statusCode, 201);
      assert.equal((await send(nodes.b, { method: 'POST', ip: client, key: t.apiKey, payload: newProduct() })).statusCode, 201);
      assertLimited(await send(nodes.a, { method: 'POST', ip: client, key: t.apiKey, payload: newProduct() }));
      assertLimited(await send(nodes.b, { method: 'POST', ip: client, key: t.apiKey, payload: newProduct() }));
      assert.equal((await send(nodes.b, { ip: client, key: t.apiKey })).statusCode, 200);
    });

    it('keeps other IPs apart', async () => {
      const noisy = ip(3);
      for (let i = 0; i < READ; i++) await send(i % 2 ? nodes.a : nodes.b, { ip: noisy, key: t.apiKey });
      assertLimited(await send(nodes.a, { ip: noisy, key: t.apiKey }));
      for (const app of [nodes.a, nodes.b]) assert.equal((await send(app, { ip: ip(4), key: t.apiKey })).statusCode, 200);
    });
  });

  describe(`credential invalidation across instances through Redis (${target.name})`, () => {
    let nodes: TwoNodes;
    const ip = ipBlock();
    const block = ip(0).replace(/\.0$/, '');
    before(async () => {
      nodes = await twoNodes(target, {});
    });
    after(async () => {
      if (!nodes) return;
      await deleteCounters(nodes.redis, block);
      await nodes.close();
    });
    const status = async (app: TestApp, key: string) => (await send(app, { ip: ip(1), key })).statusCode;
    const admin = (app: TestApp, method: string, url: string, payload?: unknown) =>
      app.inject({ method: method as never, url, payload: payload as never, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });

    it('a key revoked on one instance stops working on the other, though the other had it cached', async () => {
      const t = await nodes.tenant('Revoked Across');
      assert.equal(await status(nodes.a, t.apiKey), 200);
      assert.equal(await status(nodes.b, t.apiKey), 200);
      assert.equal((await admin(nodes.a, 'DELETE', `/admin/api-keys/${t.keyId}`)).statusCode, 204);
      assert.equal(await status(nodes.a, t.apiKey), 401);
      assert.ok(await eventually(async () => (await status(nodes.b, t.apiKey)) === 401), 'instance b rejects the revoked key');
    });

    it('an organization deactivated on one instance is refused on the other, and reactivation restores access on both', async () => {
      const t = await nodes.tenant('Deactivated Across');
      assert.equal(await status(nodes.a, t.apiKey), 200);
      assert.equal(await status(nodes.b, t.apiKey), 200);
      assert.equal((await admin(nodes.b, 'PATCH', `/admin/organizations/${t.organizationId}`, { active: false })).statusCode, 200);
      assert.equal(await status(nodes.b, t.apiKey), 403);
      assert.ok(await eventually(async () => (await status(nodes.a, t.apiKey)) === 403), 'instance a refuses the inactive organization');
      assert.equal((await admin(nodes.a, 'PATCH', `/admin/organizations/${t.organizationId}`, { active: true })).statusCode, 200);
      assert.equal(await status(nodes.a, t.apiKey), 200);
      assert.ok(await eventually(async () => (await status(nodes.b, t.apiKey)) === 200), 'instance b accepts the key again');
    });
  });
}
