// One shop's cost budget shared by several processes (storefront/shopify/shared-budget.ts): two throttles, as two
// worker processes, on one Redis or one PostgreSQL (PGlite too: the same SQL), on a shared fake clock. What one charges
// the other waits for; points an answer did not spend come back; a lower figure from the shop wins; a wait past the
// deadline charges nothing; and while the shared store is away each process paces the shop on its own.
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { after, before, describe, it } from 'node:test';
import { postgresSharedBudget, redisSharedBudget, type SharedBudget } from '../src/storefront/shopify/shared-budget.js';
import { ShopThrottle, type ThrottleClock } from '../src/storefront/shopify/throttle.js';
import { databaseTargets, testRedisUrl } from './helpers/harness.js';
import type { Database } from '../src/db/client.js';

function fakeClock(): ThrottleClock & { t: number } {
  const c = {
    t: 1_000_000,
    now: () => c.t,
    sleep: async (ms: number) => {
      c.t += ms;
    },
    random: () => 0.5,
  };
  return c;
}

const status = (currentlyAvailable: number, maximumAvailable = 100, restoreRate = 10) => ({ maximumAvailable, currentlyAvailable, restoreRate });

interface Backend {
  name: string;
  open(): Promise<{ budget: SharedBudget; close(): Promise<void> }>;
}

const backends: Backend[] = databaseTargets().map((target) => ({
  name: target.name,
  open: async () => {
    const database: Database = await target.open();
    await database.migrate();
    return { budget: postgresSharedBudget(database.executor), close: () => database.close() };
  },
}));
const redisUrl = testRedisUrl();
if (redisUrl)
  backends.push({
    name: 'redis',
    open: async () => {
      const redis = new Redis(redisUrl, { lazyConnect: true });
      await redis.connect();
      return { budget: redisSharedBudget(redis, `pimbridge-test:${process.pid}:${Date.now()}:`), close: async () => void redis.disconnect() };
    },
  });

for (const backend of backends) {
  describe(`a shop's budget shared by two processes (${backend.name})`, () => {
    let budget: SharedBudget;
    let close: () => Promise<void>;
    let shop = 0;
    before(async () => ({ budget, close } = await backend.open()));
    after(() => close());

    /** Two processes' throttles on one clock and one shared budget, and a shop of their own. */
    const twoProcesses = () => {
      const clock = fakeClock();
      const waits: number[][] = [[], []];
      const [a, b] = [0, 1].map((i) => new ShopThrottle(clock, undefined, (_d, ms) => waits[i]!.push(ms), budget));
      return { clock, a: a!, b: b!, waits, domain: `shop-${++shop}-${process.pid}.myshopify.com` };
    };

    it('the first call of an unknown shop goes; its answer teaches both processes', async () => {
      const { a, b, waits, domain } = twoProcesses();
      await (await a.acquire(domain, 80))(status(20), 80);
      // Process b never saw an answer of this shop, yet it waits for the 60 points the bucket lacks: 6 s at 10 a second.
      await (await b.acquire(domain, 80))(status(0), 80);
      assert.deepEqual(waits, [[], [6_000]]);
    });

    it('what one process charges, the other waits for (the throttle of either alone would not)', async () => {
      const { a, b, waits, domain } = twoProcesses();
      await (await a.acquire(domain, 10))(status(100), 0); // the bucket is full
      const ra = await a.acquire(domain, 60);
      const rb = await b.acquire(domain, 60); // 40 left: 20 points short, 2 s
      assert.deepEqual(waits, [[], [2_000]]);
      await ra(status(40), 60);
      await rb(status(0), 60);
    });

    it('points an answer did not spend come back', async () => {
      const { a, b, waits, domain } = twoProcesses();
      await (await a.acquire(domain, 1))(status(100), 0);
      await (await a.acquire(domain, 90))(status(90), 10); // expected 90, cost 10
      await (await b.acquire(domain, 80))(status(10), 80); // 90 there: no wait
      assert.deepEqual(waits, [[], []]);
    });

    it('a lower figure from the shop wins over the estimate (another app spent points)', async () => {
      const { a, b, waits, domain } = twoProcesses();
      await (await a.acquire(domain, 1))(status(100), 0);
      await (await a.acquire(domain, 10))(status(5), 10); // the estimate says 90; the shop says 5
      await (await b.acquire(domain, 25))(status(0), 25); // 20 short: 2 s
      assert.deepEqual(waits, [[], [2_000]]);
    });

    it('a wait that would end after the deadline is refused and charges nothing', async () => {
      const { clock, a, b, waits, domain } = twoProcesses();
      await (await a.acquire(domain, 1))(status(0), 0);
      await assert.rejects(b.acquire(domain, 50, clock.now() + 1_000), (err: Error & { kind?: string }) => err.kind === 'throttled');
      // Nothing was charged: 5 s for 50 points, as from an empty bucket.
      await (await b.acquire(domain, 50))(status(0), 50);
      assert.deepEqual(waits, [[], [5_000]]);
    });
  });
}

describe('a shared budget that cannot be reached', () => {
  it('each process paces the shop on its own estimate, and says so once', async () => {
    const failures: unknown[] = [];
    const down: SharedBudget = {
      charge: async () => Promise.reject(new Error('connection refused')),
      settle: async () => Promise.reject(new Error('connection refused')),
      drain: async () => Promise.reject(new Error('connection refused')),
    };
    const clock = fakeClock();
    const waits: number[] = [];
    const t = new ShopThrottle(
      clock,
      undefined,
      (_d, ms) => waits.push(ms),
      down,
      (err) => failures.push(err),
    );
    await (await t.acquire('shop.myshopify.com', 10))(status(30), 10);
    await (await t.acquire('shop.myshopify.com', 50))(status(0), 50); // 20 short on its own estimate: 2 s
    assert.deepEqual(waits, [2_000]);
    assert.equal(failures.length, 1);
  });
});
