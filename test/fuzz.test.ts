// Randomized bad requests against every route of the three APIs (test/helpers/fuzz.ts), seeded: FUZZ_SEED repeats a
// run, FUZZ_RUNS sets its length (`npm run fuzz` runs many more cases than `npm test`). Also the requests that once
// answered 500 on the connector, as plain regression cases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { fuzzRoutes, type FuzzFixture } from './helpers/fuzz.js';
import { databaseTargets, TEST_ADMIN_TOKEN } from './helpers/harness.js';
import { pimProduct } from './helpers/push.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1_500);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

for (const target of databaseTargets()) {
  describe(`fuzzing every route (${target.name})`, () => {
    let h: ConnectorHarness;
    let fx: FuzzFixture;

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(
        target,
        { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, AUTH_RATE_LIMIT: '1000000', CONNECTOR_PUBLIC_RATE_LIMIT: '1000000' },
        port,
      );
      const tenant = await h.tenant();
      const pim = h.as(tenant);
      const ids = [await pimProduct(h, tenant, 'Fuzz One', 2), await pimProduct(h, tenant, 'Fuzz Two')];
      for (const [url, body] of [
        ['/api/categories', { name: 'Fuzz Category' }],
        ['/api/warehouses', { code: 'FZ', name: 'Fuzz Warehouse' }],
        ['/api/product-attributes', { code: 'fuzz_size', name: 'Fuzz Size', type: 'text' }],
      ] as const) {
        const res = await pim('POST', url, body);
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.json().data.id);
      }
      const domain = `fuzz-${target.name}.myshopify.com`;
      assert.equal((await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId })).statusCode, 201);
      const connect = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(connect.statusCode, 200, connect.body);
      fx = { tenant, token: connect.json().data.api_token, adminToken: TEST_ADMIN_TOKEN, ids };
    });
    after(() => h.close());

    it("the requests that once answered 500 answer 400 in the route's own envelope", async () => {
      const connect = await h.call('POST', '/api/connect', null, {
        shop_domain: 'a\u0000.myshopify.com',
        pim_base_url: h.pimUrl,
        pim_api_key: 'k',
        pim_api_secret: 's',
      });
      assert.equal(connect.statusCode, 400, connect.body);
      assert.deepEqual(connect.json(), {
        status: 'error',
        message: "field 'shop_domain' must not contain NUL (\\u0000) characters",
        code: 'VALIDATION_FAILED',
      });
      const push = await h.call('POST', '/api/products/push', fx.token, '{"products":"\\u0000"}');
      assert.equal(push.statusCode, 400, push.body);
      assert.equal(push.json().code, 'VALIDATION_FAILED');
      const mappings = await h.call('GET', '/api/products/mappings?limit=%00', fx.token);
      assert.equal(mappings.statusCode, 400, mappings.body);
      assert.equal(mappings.json().code, 'VALIDATION_FAILED');
      const status = await h.call('GET', '/api/status/1?status=%00');
      assert.equal(status.statusCode, 400, status.body);
      assert.deepEqual(status.json(), {
        status: 'error',
        message: "query parameter 'status' must not contain NUL (\\u0000) characters",
        code: 'VALIDATION_FAILED',
      });
      const system = await h.call('GET', '/api/system/status?x=%00');
      assert.equal(system.statusCode, 400, system.body);
      assert.equal(system.json().code, 'VALIDATION_FAILED');
      const admin = await h.admin('POST', '/admin/organizations', { name: 'a\u0000' });
      assert.equal(admin.statusCode, 400, admin.body);
      assert.deepEqual(admin.json(), { error: "field 'name' must not contain NUL (\\u0000) characters" });
      const product = await h.as(fx.tenant)('POST', '/api/products', { name: 'x\u0000', sku: 'S' });
      assert.equal(product.statusCode, 400, product.body);
      assert.deepEqual(product.json(), { status: 0, data: null, error: "field 'name' must not contain NUL (\\u0000) characters" });
    });

    it(`${RUNS} random bad requests: never a 5xx, always the route's envelope, no internals, refused writes change nothing`, async (t) => {
      t.diagnostic(`FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
      process.stdout.write(`# fuzz seed ${SEED} (repeat with FUZZ_SEED=${SEED})\n`);
      const { cases, byStatus } = await fuzzRoutes(h, fx, { seed: SEED, numRuns: RUNS, log: (line) => t.diagnostic(line) });
      assert.equal(cases, RUNS);
      // The run reached past authentication and validation: some requests were answered 2xx and some 404.
      assert.ok(
        Object.keys(byStatus).some((s) => Number(s) < 300),
        JSON.stringify(byStatus),
      );
      assert.ok(byStatus[400] > 0 && byStatus[404] > 0, JSON.stringify(byStatus));
    });
  });
}
