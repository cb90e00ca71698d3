// The built-in Shopify sandbox over real HTTP, driven by the real adapter (adapter → sandbox is an HTTP contract):
// health, Shopify's 401/404 shapes, validation against the real schema, cost extensions, the leaky bucket (a frozen
// clock, no sleeps), MAX_COST_EXCEEDED, stores surviving a restart, and `pimbridge sandbox` as a process of its own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { testDatabaseUrl } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { startApp } from '../src/server/start-app.js';
import { buildSandboxApp } from '../src/server/sandbox-server.js';
import { SandboxStoreRepository } from '../src/sandbox/sandbox-store.repository.js';
import { SandboxStoreService } from '../src/sandbox/sandbox-store.service.js';
import { sandboxMigrations } from '../src/sandbox/sandbox.module.js';
import { adminSchemaLoaded } from '../src/storefront/shopify/admin-schema.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import { StorefrontError } from '../src/storefront/port/errors.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, testConfig, type Harness } from './helpers/harness.js';
import { CLI } from './helpers/cli-command.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const UNAUTHORIZED = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };

/** `count` aliases of `shop { plan resourceLimits }`: 3 points each, nothing else. */
function shopsQuery(count: number): string {
  return `query Many { ${Array.from({ length: count }, (_, i) => `s${i}: shop { plan { publicDisplayName } resourceLimits { maxProductOptions } }`).join(' ')} }`;
}

async function listen(app: { listen: (o: { port: number; host: string }) => Promise<string>; server: net.Server }): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
}

function graphqlUrl(base: string, domain: string, version = '2026-10'): string {
  return `${base}/sandbox/shopify/${domain}/admin/api/${version}/graphql.json`;
}

async function post(url: string, token: string | null, body: unknown, contentType = 'application/json') {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(token === null ? {} : { 'x-shopify-access-token': token }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as Record<string, any> };
}

let firstApp = true;

for (const target of databaseTargets()) {
  describe(`Shopify sandbox (${target.name})`, () => {
    let h: Harness;
    let base: string;
    const adapter = new ShopifyAdapter();
    let shop: StorefrontShop;

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      base = `http://127.0.0.1:${port}`;
    });
    after(async () => h.close());

    it('a server start does not load the 2026-10 schema (idle memory); the first sandbox call does', async () => {
      if (firstApp) assert.equal(adminSchemaLoaded(), false);
      firstApp = false;
      const { accessToken } = await h.app.services.sandbox!.stores.create('Acme-Outdoor.myshopify.com');
      assert.match(accessToken, /^shpat_[0-9a-f]{32}$/);
      shop = { domain: 'acme-outdoor.myshopify.com', apiBaseUrl: `${base}/sandbox/shopify/acme-outdoor.myshopify.com`, accessToken };
      await adapter.shopHealth(shop);
      assert.equal(adminSchemaLoaded(), true);
    });

    it("answers the adapter's health check: id, name from the domain, plan; cost extensions recorded", async () => {
      const health = await adapter.shopHealth(shop);
      assert.match(health.id, /^gid:\/\/shopify\/Shop\/\d+$/);
      assert.deepEqual(
        { ...health, id: undefined, scopes: undefined },
        { id: undefined, name: 'Acme Outdoor', myshopifyDomain: 'acme-outdoor.myshopify.com', plan: 'Basic', currencyCode: 'EUR', scopes: undefined },
      );
      // The app's access scopes come in the same call (the legacy token holds every scope of the schema).
      assert.ok(health.scopes?.includes('write_products') && health.scopes.includes('read_locales'));
      const budget = adapter.budgets.get(shop.domain);
      assert.equal(budget?.maximumAvailable, 2000);
      assert.equal(budget?.restoreRate, 100);
    });

    it('raw answer: data plus extensions.cost with requested and actual cost and the throttle status', async () => {
      const res = await post(graphqlUrl(base, shop.domain), shop.accessToken, {
        query: 'query ShopHealth { shop { id currencyCode plan { shopifyPlus partnerDevelopment } resourceLimits { maxProductVariants maxProductOptions } } }',
      });
      assert.equal(res.status, 200);
      assert.match(res.type, /application\/json/);
      assert.deepEqual(res.body.data.shop.resourceLimits, { maxProductVariants: 2048, maxProductOptions: 3 });
      assert.deepEqual(res.body.data.shop.plan, { shopifyPlus: false, partnerDevelopment: false });
      assert.equal(res.body.data.shop.currencyCode, 'EUR');
      const cost = res.body.extensions.cost;
      assert.equal(cost.requestedQueryCost, 3);
      assert.equal(cost.actualQueryCost, 3);
      assert.deepEqual(Object.keys(cost.throttleStatus).sort(), ['currentlyAvailable', 'maximumAvailable', 'restoreRate']);
    });

    it("a wrong or missing token: 401 with Shopify's string body; the adapter says unauthorized", async () => {
      for (const token of ['shpat_00000000000000000000000000000000', null, '']) {
        const res = await post(graphqlUrl(base, shop.domain), token, { query: '{ shop { id } }' });
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, UNAUTHORIZED);
      }
      const err = await adapter.shopHealth({ ...shop, accessToken: 'shpat_wrong' }).catch((e: unknown) => e);
      assert.ok(err instanceof StorefrontError);
      assert.equal(err.kind, 'unauthorized');
    });

    it('an unknown store, another API version or another path: 404 {"errors":"Not Found"}', async () => {
      for (const url of [
        graphqlUrl(base, 'nobody.myshopify.com'),
        graphqlUrl(base, shop.domain, '2024-01'),
        `${base}/sandbox/shopify/${shop.domain}/admin/oauth`,
      ]) {
        const res = await post(url, shop.accessToken, { query: '{ shop { id } }' });
        assert.equal(res.status, 404, url);
        assert.deepEqual(res.body, { errors: 'Not Found' });
      }
    });

    it("an invalid document: HTTP 200, graphql-js's message with locations and a code, no data, nothing charged", async () => {
      const res = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query: '{ shop { nme } }' });
      assert.equal(res.status, 200);
      assert.equal('data' in res.body, false);
      assert.deepEqual(res.body.errors, [
        {
          message: 'Cannot query field "nme" on type "Shop". Did you mean "name"?',
          locations: [{ line: 1, column: 10 }],
          extensions: { code: 'undefinedField' },
        },
      ]);
      const missingArg = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query: '{ product { id } }' });
      assert.equal(missingArg.body.errors[0].extensions.code, 'missingRequiredArguments');
      const syntax = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query: '{ shop { id }' });
      assert.equal(syntax.status, 200);
      assert.equal(syntax.body.errors[0].extensions.code, 'parseError');
      assert.match(syntax.body.errors[0].message, /^Syntax Error/);
      const huge = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query: `{ shop { ${'id '.repeat(25_000)}} }` });
      assert.equal(huge.status, 200);
      assert.match(huge.body.errors[0].message, /more tha[nt] 20000 tokens/);
      const two = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query: 'query A { shop { id } } query B { shop { name } }' });
      assert.equal(two.body.errors[0].extensions.code, 'OPERATION_NAME_REQUIRED');
      const named = await post(graphqlUrl(base, shop.domain), shop.accessToken, {
        query: 'query A { shop { id } } query B { shop { name } }',
        operationName: 'B',
      });
      assert.deepEqual(named.body.data, { shop: { name: 'Acme Outdoor' } });
      // The adapter reports it as an invalid response.
      const err = await adapter.request(shop, 'query { shop { nme } }').catch((e: unknown) => e);
      assert.ok(err instanceof StorefrontError);
      assert.equal(err.kind, 'invalid_response');
    });

    it('deprecated fields are accepted, as Shopify does; bad variables answer INVALID_VARIABLE', async () => {
      const dep = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query: '{ shop { plan { displayName } } }' });
      assert.deepEqual(dep.body.data, { shop: { plan: { displayName: 'Basic' } } });
      const vars = await post(graphqlUrl(base, shop.domain), shop.accessToken, {
        query: 'query P($n: Int!) { products(first: $n) { nodes { id } } }',
        variables: { n: 'ten' },
      });
      assert.equal(vars.status, 200);
      assert.equal(vars.body.errors[0].extensions.code, 'INVALID_VARIABLE');
      assert.match(vars.body.errors[0].message, /\$n/);
    });

    it('a body without a query: 400 as Shopify answers it; application/graphql bodies work', async () => {
      for (const body of [{}, { query: 1 }, 'not json', '[1]']) {
        const res = await post(graphqlUrl(base, shop.domain), shop.accessToken, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body, { errors: { query: 'Required parameter missing or invalid' } });
      }
      const raw = await post(graphqlUrl(base, shop.domain), shop.accessToken, '{ shop { name } }', 'application/graphql');
      assert.deepEqual(raw.body.data, { shop: { name: 'Acme Outdoor' } });
    });

    it('a field the sandbox does not emulate yet answers NOT_IMPLEMENTED, and its cost is refunded', async () => {
      const res = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query: '{ orders(first: 10) { nodes { id } } }' });
      assert.equal(res.status, 200);
      assert.equal(res.body.errors[0].extensions.code, 'NOT_IMPLEMENTED');
      assert.equal(res.body.data, null);
      assert.equal(res.body.extensions.cost.requestedQueryCost, 2 + 4);
      assert.equal(res.body.extensions.cost.actualQueryCost, 0);
    });

    it('MAX_COST_EXCEEDED over 1000, before running and without charging the bucket', async () => {
      const query = '{ products(first: 250) { nodes { variants(first: 250) { nodes { inventoryItem { inventoryLevels(first: 250) { nodes { id } } } } } } } }';
      const res = await post(graphqlUrl(base, shop.domain), shop.accessToken, { query });
      assert.equal(res.status, 200);
      assert.equal('data' in res.body, false);
      const [error] = res.body.errors;
      assert.match(error.message, /^Query cost is 1850, which exceeds the single query max cost limit \(1000\)/);
      assert.deepEqual(
        { code: error.extensions.code, cost: error.extensions.cost, maxCost: error.extensions.maxCost },
        { code: 'MAX_COST_EXCEEDED', cost: 1850, maxCost: 1000 },
      );
      assert.equal(res.body.extensions.cost.requestedQueryCost, 1850);
      assert.equal(res.body.extensions.cost.actualQueryCost, null);
      assert.ok(res.body.extensions.cost.throttleStatus.currentlyAvailable > 1000);
    });

    it('the bucket drains and throttles (HTTP 200, no data, actualQueryCost null), then restores at the plan rate', async () => {
      // A standalone sandbox app on the same database with a frozen clock: the bucket only refills when the test says so.
      let now = 1_000_000;
      const sandbox = await buildSandboxApp({ database: h.database, logger: false, graphql: { now: () => now } });
      try {
        const url = graphqlUrl(await listen(sandbox), shop.domain);
        const query = shopsQuery(300); // 900 points
        const first = await post(url, shop.accessToken, { query });
        assert.equal(first.body.extensions.cost.requestedQueryCost, 900);
        assert.equal(first.body.extensions.cost.actualQueryCost, 900);
        assert.deepEqual(first.body.extensions.cost.throttleStatus, { maximumAvailable: 2000, currentlyAvailable: 1100, restoreRate: 100 });
        const second = await post(url, shop.accessToken, { query });
        assert.equal(second.body.extensions.cost.throttleStatus.currentlyAvailable, 200);
        const third = await post(url, shop.accessToken, { query });
        assert.equal(third.status, 200);
        assert.equal('data' in third.body, false);
        assert.deepEqual(
          third.body.errors.map((e: any) => [e.message, e.extensions.code]),
          [['Throttled', 'THROTTLED']],
        );
        assert.deepEqual(third.body.extensions.cost, {
          requestedQueryCost: 900,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 200, restoreRate: 100 },
        });
        // The adapter maps it to `throttled` and records the status.
        const err = await adapter.request({ ...shop, apiBaseUrl: url.replace(/\/admin\/api\/.*$/, '') }, query).catch((e: unknown) => e);
        assert.ok(err instanceof StorefrontError);
        assert.equal(err.kind, 'throttled');
        assert.equal(adapter.budgets.get(shop.domain)?.currentlyAvailable, 200);
        now += 7_000; // 7 s × 100/s = 700 restored → 900
        const fourth = await post(url, shop.accessToken, { query });
        assert.equal(fourth.body.extensions.cost.actualQueryCost, 900);
        assert.equal(fourth.body.extensions.cost.throttleStatus.currentlyAvailable, 0);
        now += 60_000; // refills, capped at the maximum
        const fifth = await post(url, shop.accessToken, { query: '{ shop { id } }' });
        assert.equal(fifth.body.extensions.cost.throttleStatus.currentlyAvailable, 1999);
      } finally {
        await sandbox.close();
      }
    });

    it('an Advanced store has a 4000-point bucket restoring 200/s', async () => {
      const stores = h.app.services.sandbox!.stores;
      const { accessToken } = await stores.create('big-shop.myshopify.com');
      assert.equal(await stores.setPlan('big-shop.myshopify.com', 'Advanced'), true);
      const res = await post(graphqlUrl(base, 'big-shop.myshopify.com'), accessToken, { query: '{ shop { plan { publicDisplayName } } }' });
      assert.equal(res.body.data.shop.plan.publicDisplayName, 'Advanced');
      assert.deepEqual(
        { ...res.body.extensions.cost.throttleStatus, currentlyAvailable: 0 },
        { maximumAvailable: 4000, currentlyAvailable: 0, restoreRate: 200 },
      );
    });

    it('a sandbox shop made through POST /admin/shops answers the adapter at its api_base_url; DELETE removes the store', async () => {
      const { organizationId } = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain: 'via-admin.myshopify.com', platform: 'sandbox', organization_id: organizationId });
      assert.equal(made.statusCode, 201, made.body);
      const { id, access_token, api_base_url } = made.json();
      assert.equal(api_base_url, `${base}/sandbox/shopify/via-admin.myshopify.com`);
      const health = await adapter.shopHealth({ domain: 'via-admin.myshopify.com', apiBaseUrl: api_base_url, accessToken: access_token });
      assert.equal(health.name, 'Via Admin');
      assert.equal((await h.admin('DELETE', `/admin/shops/${id}`)).statusCode, 204);
      const gone = await post(graphqlUrl(base, 'via-admin.myshopify.com'), access_token, { query: '{ shop { id } }' });
      assert.equal(gone.status, 404);
    });

    it('stores live in the database: a new app on the same database answers the same token; create again re-issues it', async () => {
      const before = await adapter.shopHealth(shop);
      await h.app.close();
      const again = await startApp({ config: testConfig({ SHOPIFY_SANDBOX: 'true' }), database: h.database, logger: false });
      try {
        const url = await listen(again);
        const after = await adapter.shopHealth({ ...shop, apiBaseUrl: `${url}/sandbox/shopify/${shop.domain}` });
        assert.deepEqual(after, before);
        const { accessToken } = await again.services.sandbox!.stores.create(shop.domain);
        const renewed = await adapter.shopHealth({ ...shop, accessToken, apiBaseUrl: `${url}/sandbox/shopify/${shop.domain}` });
        assert.equal(renewed.id, before.id, 'same store, same id');
        const old = await post(graphqlUrl(url, shop.domain), shop.accessToken, { query: '{ shop { id } }' });
        assert.equal(old.status, 401, 'the old token stops working');
      } finally {
        await again.close();
      }
    });

    it('with SHOPIFY_SANDBOX off there is no sandbox route (PIM envelope 404)', async () => {
      const off = await startApp({ config: testConfig({ SHOPIFY_SANDBOX: 'false' }), database: h.database, logger: false });
      try {
        const res = await off.inject({
          method: 'POST',
          url: `/sandbox/shopify/${shop.domain}/admin/api/2026-10/graphql.json`,
          payload: { query: '{ shop { id } }' },
        });
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().status, 0);
      } finally {
        await off.close();
      }
    });
  });
}

/** A process of its own on PostgreSQL (with the embedded database the data-dir lock forbids sharing it with serve). */
for (const target of databaseTargets().filter((t) => t.name === 'postgres')) {
  describe(`pimbridge sandbox --port (${target.name})`, () => {
    const baseUrl = testDatabaseUrl()!;
    const name = `pimbridge_sandbox_${process.pid}_${randomBytes(3).toString('hex')}`;
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    let database: Database;

    before(async () => {
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
      await database.migrate();
      await database.migrate(sandboxMigrations);
    });
    after(async () => {
      await database.close();
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    it('starts with only DATABASE_URL, answers the adapter for a store in the database, and stops on SIGTERM', { timeout: 60_000 }, async () => {
      const { accessToken } = await new SandboxStoreService(new SandboxStoreRepository(database.db)).create('standalone.myshopify.com');
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' };
      const child = spawn(process.execPath, [...CLI, 'sandbox', '--port', '0'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      try {
        const listening = await new Promise<string>((resolve, reject) => {
          child.stdout.setEncoding('utf8').on('data', (d: string) => {
            out += d;
            const m = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (m) resolve(m[1]);
          });
          void exited.then((code) => reject(new Error(`exited ${code}: ${err}`)));
        });
        const health = await new ShopifyAdapter().shopHealth({
          domain: 'standalone.myshopify.com',
          apiBaseUrl: `${listening}/sandbox/shopify/standalone.myshopify.com`,
          accessToken,
        });
        assert.equal(health.name, 'Standalone');
        const pim = await fetch(`${listening}/api/products`);
        assert.equal(pim.status, 404, 'only the sandbox routes');
        assert.deepEqual(await pim.json(), { errors: 'Not Found' });
        child.kill('SIGTERM');
        assert.equal(await exited, 0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });
  });
}

describe('pimbridge sandbox on a busy embedded data directory', () => {
  it('refuses with a message that says why and what to do', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-sandbox-lock-'));
    const held = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      const child = spawn(process.execPath, [...CLI, 'sandbox', '--port', '0'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      assert.equal(code, 1);
      assert.match(err, /in use by another Pimbridge process/);
      assert.match(err, /cannot share the embedded database with a running `pimbridge serve`.*DATABASE_URL/s);
    } finally {
      await held.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
