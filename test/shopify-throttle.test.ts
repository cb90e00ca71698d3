// The Shopify adapter's throttle and retries: waits computed from `extensions.cost.throttleStatus` on a fake clock,
// reservations safe under concurrent callers, THROTTLED (in a 200 and as a 429) waited out and retried, 5xx and timeouts
// retried with bounded exponential back-off, 401/403/validation never retried — unit and over HTTP against a small fake
// Shopify.
import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { StorefrontError, StorefrontValidationError } from '../src/storefront/port/errors.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import type { SyncPlacement } from '../src/storefront/port/placement.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';

const PLACEMENT: SyncPlacement = {
  channelPublications: {},
  warehouseLocations: {},
  unsyncedWarehouses: [],
  variantStockLocation: null,
  pricesConvertedElsewhere: true,
};
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import { ShopThrottle, type ThrottleClock } from '../src/storefront/shopify/throttle.js';
import { serveHttp, type TestServer } from './helpers/servers.js';

function fakeClock(random = 0.5): ThrottleClock & { t: number; slept: number[] } {
  const c = {
    t: 1_000_000,
    slept: [] as number[],
    now: () => c.t,
    sleep: async (ms: number) => {
      c.slept.push(ms);
      c.t += ms;
      await Promise.resolve();
    },
    random: () => random,
  };
  return c;
}

const status = (currentlyAvailable: number, maximumAvailable = 2000, restoreRate = 100) => ({ maximumAvailable, currentlyAvailable, restoreRate });

describe('ShopThrottle (fake clock)', () => {
  it('lets the first call of an unknown shop go without waiting', async () => {
    const clock = fakeClock();
    const t = new ShopThrottle(clock);
    const release = await t.acquire('a.myshopify.com', 50);
    release(status(1950));
    assert.deepEqual(clock.slept, []);
    assert.equal(t.available('a.myshopify.com'), 1950);
  });

  it('waits (cost − currentlyAvailable) / restoreRate seconds', async () => {
    const clock = fakeClock();
    const t = new ShopThrottle(clock);
    t.observe('a', status(5, 2000, 100));
    const release = await t.acquire('a', 105);
    assert.deepEqual(clock.slept, [1000]);
    release();
  });

  it('counts what restored since the last reading', async () => {
    const clock = fakeClock();
    const t = new ShopThrottle(clock);
    t.observe('a', status(0, 2000, 200));
    clock.t += 250; // 50 points restored
    await t.acquire('a', 100);
    assert.deepEqual(clock.slept, [250]);
  });

  it('never expects more than the bucket holds, and never waits when enough is available', async () => {
    const clock = fakeClock();
    const t = new ShopThrottle(clock);
    t.observe('a', status(1000, 1000, 50));
    await t.acquire('a', 5000); // capped at 1000: exactly available
    assert.deepEqual(clock.slept, []);
  });

  it('concurrent callers of one shop reserve atomically: each waits for its own share', async () => {
    const clock = fakeClock();
    // A sleep that does not advance the shared clock: all three reserve at the same instant.
    const waits: number[] = [];
    const t = new ShopThrottle({ ...clock, sleep: async (ms) => void waits.push(ms) });
    t.observe('a', status(100, 2000, 100));
    await Promise.all([t.acquire('a', 100), t.acquire('a', 100), t.acquire('a', 100)]);
    assert.deepEqual(
      waits.sort((x, y) => x - y),
      [1000, 2000],
    );
  });

  it('an answer observed while others are reserved keeps their reservations', async () => {
    const clock = fakeClock();
    const t = new ShopThrottle({ ...clock, sleep: async () => {} });
    t.observe('a', status(300, 2000, 100));
    const r1 = await t.acquire('a', 100);
    await t.acquire('a', 100); // still in flight
    r1(status(200)); // Shopify charged only the first so far
    assert.equal(t.available('a'), 100);
  });

  it('shops have separate buckets', async () => {
    const clock = fakeClock();
    const t = new ShopThrottle(clock);
    t.observe('a', status(0));
    t.observe('b', status(2000));
    await t.acquire('b', 100);
    assert.deepEqual(clock.slept, []);
  });

  it('a wait that would end after the deadline throws throttled instead of waiting', async () => {
    const clock = fakeClock();
    const t = new ShopThrottle(clock);
    t.observe('a', status(0, 2000, 1));
    await assert.rejects(t.acquire('a', 500, clock.t + 10_000), (e: unknown) => e instanceof StorefrontError && e.kind === 'throttled');
    assert.deepEqual(clock.slept, []);
  });

  describe('run()', () => {
    it('a THROTTLED answer with a status is retried after exactly the computed wait', async () => {
      const clock = fakeClock();
      const t = new ShopThrottle(clock);
      let calls = 0;
      const out = await t.run('a', 110, async (observe) => {
        calls++;
        if (calls === 1) {
          observe(status(10, 2000, 100));
          throw new StorefrontError('throttled', 'Throttled');
        }
        observe(status(1900));
        return 'ok';
      });
      assert.equal(out, 'ok');
      assert.equal(calls, 2);
      assert.deepEqual(clock.slept, [1000]);
    });

    it('a bare throttle (no status) backs off and is bounded by the deadline', async () => {
      const clock = fakeClock();
      const t = new ShopThrottle(clock, { throttleDeadlineMs: 30_000, maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5_000 });
      let calls = 0;
      await assert.rejects(
        t.run('a', 10, async () => {
          calls++;
          throw new StorefrontError('throttled', 'HTTP 429');
        }),
        (e: unknown) => e instanceof StorefrontError && e.kind === 'throttled',
      );
      assert.ok(calls > 2 && calls < 30, `calls: ${calls}`);
      assert.ok(clock.slept.reduce((a, b) => a + b, 0) <= 30_000);
      assert.deepEqual(clock.slept.slice(0, 3), [1000, 2000, 4000]);
    });

    it('unavailable is retried with exponential back-off and full jitter, then surfaces after 4 attempts', async () => {
      const clock = fakeClock(0.5);
      const t = new ShopThrottle(clock);
      let calls = 0;
      await assert.rejects(
        t.run('a', 10, async () => {
          calls++;
          throw new StorefrontError('unavailable', 'HTTP 503');
        }),
        (e: unknown) => e instanceof StorefrontError && e.kind === 'unavailable',
      );
      assert.equal(calls, 4);
      assert.deepEqual(clock.slept, [125, 250, 500]); // random 0.5 × min(5000, 250·2^n)
    });

    it('the back-off is capped', async () => {
      const clock = fakeClock(0.999);
      const t = new ShopThrottle(clock, { throttleDeadlineMs: 120_000, maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 1_000 });
      await assert.rejects(
        t.run('a', 10, async () => {
          throw new StorefrontError('unavailable', 'x');
        }),
      );
      assert.ok(clock.slept.every((ms) => ms < 1_000));
      assert.equal(clock.slept.length, 7);
    });

    it('unavailable then success returns the result', async () => {
      const clock = fakeClock();
      const t = new ShopThrottle(clock);
      let calls = 0;
      assert.equal(await t.run('a', 10, async () => (++calls < 3 ? Promise.reject(new StorefrontError('unavailable', 'x')) : 'ok')), 'ok');
      assert.equal(calls, 3);
    });

    for (const kind of ['unauthorized', 'forbidden', 'invalid_response'] as const) {
      it(`${kind} is not retried`, async () => {
        const t = new ShopThrottle(fakeClock());
        let calls = 0;
        await assert.rejects(
          t.run('a', 10, async () => {
            calls++;
            throw new StorefrontError(kind, 'x');
          }),
          (e: unknown) => e instanceof StorefrontError && e.kind === kind,
        );
        assert.equal(calls, 1);
      });
    }

    it('a validation error is not retried', async () => {
      const t = new ShopThrottle(fakeClock());
      let calls = 0;
      await assert.rejects(
        t.run('a', 10, async () => {
          calls++;
          throw new StorefrontValidationError(['title: is required']);
        }),
        StorefrontValidationError,
      );
      assert.equal(calls, 1);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Over HTTP: the adapter's upsert against a fake Shopify whose productSet answers are scripted.

type Reply = { status: number; body?: unknown } | 'hang';
const COST = (currentlyAvailable: number) => ({ requestedQueryCost: 20, actualQueryCost: 15, throttleStatus: status(currentlyAvailable) });

const PRODUCT: PimProductSnapshot = { id: 7, sku: 'TS-1', slug: 'tee', name: 'Tee', price: '10.0000', status: 'active', stock: 3, variants: [] };

describe('ShopifyAdapter retries over HTTP', () => {
  let server: TestServer;
  const hanging: http.ServerResponse[] = [];
  let script: Reply[] = [];
  let productSetCalls = 0;

  before(async () => {
    server = await serveHttp((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const { query } = JSON.parse(body) as { query: string };
        let reply: Reply;
        if (/query Locations/.test(query)) {
          reply = {
            status: 200,
            body: {
              data: {
                locations: { nodes: [{ id: 'gid://shopify/Location/1', name: 'Main', isActive: true }], pageInfo: { hasNextPage: false, endCursor: null } },
              },
              extensions: { cost: COST(1990) },
            },
          };
        } else if (/mutation MetafieldDefinitionCreate/.test(query)) {
          reply = {
            status: 200,
            body: {
              data: { metafieldDefinitionCreate: { createdDefinition: { id: 'gid://shopify/MetafieldDefinition/1' }, userErrors: [] } },
              extensions: { cost: COST(1980) },
            },
          };
        } else if (/query Product(Recovery)?Lookup/.test(query)) {
          reply = { status: 200, body: { data: { productByIdentifier: null }, extensions: { cost: COST(1980) } } };
        } else {
          productSetCalls++;
          reply = script.shift() ?? { status: 500, body: { errors: 'script exhausted' } };
        }
        if (reply === 'hang') {
          hanging.push(res);
          return;
        }
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      });
    });
  });
  after(async () => {
    for (const r of hanging) r.destroy();
    await server.close();
  });
  beforeEach(() => {
    productSetCalls = 0;
  });

  const shop = (): StorefrontShop => ({ domain: 'retry.myshopify.com', apiBaseUrl: `${server.url}/s/retry.myshopify.com`, accessToken: 'shpat_x' });
  const ok = {
    status: 200,
    body: {
      data: {
        productSet: {
          product: {
            id: 'gid://shopify/Product/1',
            handle: 'tee',
            title: 'Tee',
            variants: { nodes: [{ id: 'gid://shopify/ProductVariant/11', sku: 'TS-1' }] },
            media: { nodes: [] },
          },
          userErrors: [],
        },
      },
      extensions: { cost: COST(1970) },
    },
  };
  const throttled = (available: number) => ({
    status: 200,
    body: {
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
      extensions: { cost: { requestedQueryCost: 20, actualQueryCost: null, throttleStatus: status(available) } },
    },
  });
  const known = { productId: null, variantIds: {}, mediaIds: {} };

  it('THROTTLED inside a 200 is waited out (computed from its throttleStatus) and retried, never surfaced', async () => {
    const clock = fakeClock();
    const adapter = new ShopifyAdapter({ clock });
    script = [throttled(3), throttled(3), ok];
    const result = await adapter.upsertProduct(shop(), PRODUCT, known, PLACEMENT);
    assert.equal(result.productId, 'gid://shopify/Product/1');
    assert.equal(productSetCalls, 3);
    assert.equal(clock.slept.length, 2);
    // expected cost of this productSet minus the 3 available, at 100 points per second
    for (const ms of clock.slept) assert.ok(ms > 0 && ms <= 500, `wait ${ms}`);
  });

  it('a 429 is retried', async () => {
    const clock = fakeClock();
    const adapter = new ShopifyAdapter({ clock });
    script = [{ status: 429, body: { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] } }, ok];
    assert.equal((await adapter.upsertProduct(shop(), PRODUCT, known, PLACEMENT)).method, 'create');
    assert.equal(productSetCalls, 2);
    assert.ok(clock.slept.length >= 1);
  });

  it('5xx is retried with back-off, then surfaces as unavailable after 4 attempts', async () => {
    const clock = fakeClock();
    const adapter = new ShopifyAdapter({ clock });
    script = [
      { status: 502, body: { errors: 'x' } },
      { status: 503, body: { errors: 'x' } },
      { status: 500, body: { errors: 'x' } },
      { status: 500, body: { errors: 'x' } },
    ];
    await assert.rejects(adapter.upsertProduct(shop(), PRODUCT, known, PLACEMENT), (e: unknown) => e instanceof StorefrontError && e.kind === 'unavailable');
    assert.equal(productSetCalls, 4);
    assert.deepEqual(clock.slept, [125, 250, 500]);
  });

  it('5xx then success', async () => {
    const adapter = new ShopifyAdapter({ clock: fakeClock() });
    script = [{ status: 503, body: { errors: 'x' } }, ok];
    assert.equal((await adapter.upsertProduct(shop(), PRODUCT, known, PLACEMENT)).productNumericId, 1);
    assert.equal(productSetCalls, 2);
  });

  it('a timeout is retried, and bounded', async () => {
    const adapter = new ShopifyAdapter({ clock: fakeClock(), timeoutMs: 150, retry: { maxAttempts: 2 } });
    script = ['hang', 'hang'];
    await assert.rejects(
      adapter.upsertProduct(shop(), PRODUCT, known, PLACEMENT),
      (e: unknown) => e instanceof StorefrontError && e.kind === 'unavailable' && /within 150 ms/.test(e.message),
    );
    assert.equal(productSetCalls, 2);
  });

  it('401 is not retried', async () => {
    const adapter = new ShopifyAdapter({ clock: fakeClock() });
    script = [{ status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } }, ok];
    await assert.rejects(adapter.upsertProduct(shop(), PRODUCT, known, PLACEMENT), (e: unknown) => e instanceof StorefrontError && e.kind === 'unauthorized');
    assert.equal(productSetCalls, 1);
  });

  it("productSet userErrors are a StorefrontValidationError ('field: message (CODE)'), not retried", async () => {
    const adapter = new ShopifyAdapter({ clock: fakeClock() });
    script = [
      {
        status: 200,
        body: {
          data: {
            productSet: {
              product: null,
              userErrors: [{ field: ['input', 'variants', '0', 'price'], message: 'Price must be greater than or equal to 0', code: 'INVALID_VARIANT' }],
            },
          },
          extensions: { cost: COST(1990) },
        },
      },
      ok,
    ];
    await assert.rejects(
      adapter.upsertProduct(shop(), PRODUCT, known, PLACEMENT),
      (e: unknown) =>
        e instanceof StorefrontValidationError && e.errors[0] === 'input.variants.0.price: Price must be greater than or equal to 0 (INVALID_VARIANT)',
    );
    assert.equal(productSetCalls, 1);
  });
});
