// The Shopify adapter against small local servers standing in for Shopify: the per-shop base URL rewrite, the headers
// it sends, and how every kind of failure maps to a StorefrontError kind.
import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { StorefrontError } from '../src/storefront/port/errors.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { ShopifyAdapter, rewriteUrl } from '../src/storefront/shopify/shopify.adapter.js';
import { freePort } from './helpers/connector.js';
import { serveHttp, type TestServer } from './helpers/servers.js';

const SHOP_DATA = {
  shop: {
    id: 'gid://shopify/Shop/42',
    name: 'Acme',
    myshopifyDomain: 'acme.myshopify.com',
    currencyCode: 'EUR',
    plan: { publicDisplayName: 'Advanced', shopifyPlus: false, partnerDevelopment: false },
    resourceLimits: { maxProductVariants: 2048, maxProductOptions: 3 },
  },
};
const COST = { requestedQueryCost: 3, actualQueryCost: 3, throttleStatus: { maximumAvailable: 4000, currentlyAvailable: 3997, restoreRate: 200 } };

type Reply = { status: number; body?: unknown; raw?: string; type?: string } | 'hang';

describe('ShopifyAdapter', () => {
  let server: TestServer;
  let reply: Reply = { status: 200, body: { data: SHOP_DATA, extensions: { cost: COST } } };
  const seen: { url: string; token: string | undefined; body: string }[] = [];
  const hanging: http.ServerResponse[] = [];

  before(async () => {
    server = await serveHttp((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', token: req.headers['x-shopify-access-token'] as string | undefined, body });
        if (reply === 'hang') {
          hanging.push(res);
          return;
        }
        res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json; charset=utf-8' });
        res.end(reply.raw ?? JSON.stringify(reply.body));
      });
    });
  });
  after(async () => {
    for (const res of hanging) res.destroy();
    await server.close();
  });

  const shop = (): StorefrontShop => ({ domain: 'acme.myshopify.com', apiBaseUrl: `${server.url}/prefix/acme.myshopify.com/`, accessToken: 'shpat_test' });
  const adapter = new ShopifyAdapter();

  async function failure(r: Reply, timeoutMs?: number): Promise<StorefrontError> {
    reply = r;
    const err = await adapter.shopHealth(shop(), { timeoutMs }).then(
      () => assert.fail('expected a StorefrontError'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof StorefrontError, `not a StorefrontError: ${String(err)}`);
    return err;
  }

  it('sends ShopHealth to {apiBaseUrl}/admin/api/2026-10/graphql.json with the token, and maps the answer', async () => {
    reply = { status: 200, body: { data: SHOP_DATA, extensions: { cost: COST } } };
    seen.length = 0;
    const health = await adapter.shopHealth(shop());
    assert.deepEqual(health, { id: 'gid://shopify/Shop/42', name: 'Acme', myshopifyDomain: 'acme.myshopify.com', plan: 'Advanced', currencyCode: 'EUR' });
    assert.equal(seen[0].url, '/prefix/acme.myshopify.com/admin/api/2026-10/graphql.json');
    assert.equal(seen[0].token, 'shpat_test');
    assert.match(JSON.parse(seen[0].body).query, /query ShopHealth/);
  });

  it("records the answer's throttle status per shop (the metrics' view of the bucket)", async () => {
    reply = { status: 200, body: { data: SHOP_DATA, extensions: { cost: COST } } };
    await adapter.shopHealth(shop());
    const entry = adapter.budgets.get('acme.myshopify.com');
    assert.deepEqual({ ...entry, observedAt: undefined }, { ...COST.throttleStatus, observedAt: undefined });
  });

  it('without a base URL the client talks to https://{domain}', () => {
    assert.equal(
      rewriteUrl('https://acme.myshopify.com/admin/api/2026-10/graphql.json', { apiBaseUrl: null }),
      'https://acme.myshopify.com/admin/api/2026-10/graphql.json',
    );
    assert.equal(
      rewriteUrl('https://acme.myshopify.com/admin/api/2026-10/graphql.json', { apiBaseUrl: 'http://127.0.0.1:9/sandbox/shopify/acme.myshopify.com' }),
      'http://127.0.0.1:9/sandbox/shopify/acme.myshopify.com/admin/api/2026-10/graphql.json',
    );
  });

  it("401 with Shopify's body → unauthorized", async () => {
    const err = await failure({ status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } });
    assert.equal(err.kind, 'unauthorized');
  });

  it('403 → forbidden', async () => {
    assert.equal((await failure({ status: 403, body: { errors: 'Forbidden' } })).kind, 'forbidden');
  });

  it('423 (locked shop), 404, 500, 502 and 503 → unavailable', async () => {
    for (const status of [423, 404, 500, 502, 503]) {
      const err = await failure({ status, body: { errors: 'x' } });
      assert.equal(err.kind, 'unavailable', `HTTP ${status}`);
      assert.match(err.message, new RegExp(String(status)));
    }
  });

  it('THROTTLED inside a 200 → throttled, and its throttle status is recorded', async () => {
    const throttleStatus = { maximumAvailable: 2000, currentlyAvailable: 12, restoreRate: 100 };
    const err = await failure({
      status: 200,
      body: {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: { cost: { requestedQueryCost: 50, actualQueryCost: null, throttleStatus } },
      },
    });
    assert.equal(err.kind, 'throttled');
    assert.equal(adapter.budgets.get('acme.myshopify.com')?.currentlyAvailable, 12);
  });

  it('429 → throttled', async () => {
    assert.equal((await failure({ status: 429, body: { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] } })).kind, 'throttled');
  });

  it('GraphQL errors, a 200 without data, malformed JSON and a non-JSON answer → invalid_response', async () => {
    const cases: Reply[] = [
      { status: 200, body: { errors: [{ message: "Field 'nme' doesn't exist on type 'Shop'", extensions: { code: 'undefinedField' } }] } },
      { status: 200, body: { extensions: { cost: COST } } },
      { status: 200, raw: '{"data": ' },
      { status: 200, raw: '<html>maintenance</html>', type: 'text/html' },
      { status: 200, body: { data: { shop: null } } },
      { status: 400, body: { errors: { query: 'Required parameter missing or invalid' } } },
    ];
    for (const c of cases) assert.equal((await failure(c)).kind, 'invalid_response', JSON.stringify(c));
  });

  it('no answer within the timeout → unavailable', async () => {
    const err = await failure('hang', 150);
    assert.equal(err.kind, 'unavailable');
    assert.match(err.message, /did not answer within 150 ms/);
  });

  it('nothing listening → unavailable', async () => {
    const port = await freePort();
    const err = await new ShopifyAdapter()
      .shopHealth({ domain: 'gone.myshopify.com', apiBaseUrl: `http://127.0.0.1:${port}`, accessToken: 't' })
      .catch((e: unknown) => e);
    assert.ok(err instanceof StorefrontError);
    assert.equal(err.kind, 'unavailable');
  });
});
