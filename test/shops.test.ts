// The admin API's shops: install (shopify with its token, or a sandbox store), list, uninstall with cascade;
// access tokens stored encrypted and never listed.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { DEMO_SHOP_DOMAIN, seedDemo } from '../src/server/demo-seed.js';
import { loadConfig } from '../src/config.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness } from './helpers/harness.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

for (const target of databaseTargets()) {
  describe(`admin shops (${target.name})`, () => {
    let h: ConnectorHarness;
    before(async () => {
      h = await connectorHarness(target);
    });
    after(() => h.close());

    const rows = async (query: ReturnType<typeof sql>) => ((await h.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

    it('adds a shopify shop (domain lower-cased, token stored encrypted, never returned), lists and removes it', async () => {
      const res = await h.admin('POST', '/admin/shops', {
        domain: ' Acme-Store.MyShopify.com ',
        platform: 'shopify',
        access_token: 'shpat_secret_value',
        api_base_url: 'https://acme.example.com/',
      });
      assert.equal(res.statusCode, 201, res.body);
      const shop = res.json();
      assert.deepEqual(Object.keys(shop).sort(), ['api_base_url', 'created_at', 'domain', 'id', 'platform']);
      assert.equal(shop.domain, 'acme-store.myshopify.com');
      assert.equal(shop.platform, 'shopify');
      assert.equal(shop.api_base_url, 'https://acme.example.com');
      assert.ok(!res.body.includes('shpat_secret_value'));
      const [row] = await rows(sql`select * from shops where id = ${shop.id}`);
      assert.ok(!JSON.stringify(row).includes('shpat_secret_value'));
      assert.match(String(row.access_token_encrypted), /^v1\./);

      const list = await h.admin('GET', '/admin/shops');
      assert.equal(list.statusCode, 200);
      assert.ok(list.json().shops.some((s: { id: number }) => s.id === shop.id));
      assert.ok(!list.body.includes('shpat_secret_value'));

      const plain = await h.admin('POST', '/admin/shops', { domain: 'plain.myshopify.com', platform: 'shopify', access_token: 'shpat_x' });
      assert.equal(plain.json().api_base_url, null);

      assert.equal((await h.admin('DELETE', `/admin/shops/${shop.id}`)).statusCode, 204);
      assert.equal((await h.admin('DELETE', `/admin/shops/${shop.id}`)).statusCode, 404);
      assert.ok(!(await h.admin('GET', '/admin/shops')).json().shops.some((s: { id: number }) => s.id === shop.id));
    });

    it('refuses bad input with 400, a duplicate domain with 409, and callers without the admin token with 401', async () => {
      const bad = [
        { domain: 'no-dot', platform: 'shopify', access_token: 't' },
        { domain: 'bad_domain!.com', platform: 'shopify', access_token: 't' },
        { domain: '-x.myshopify.com', platform: 'shopify', access_token: 't' },
        { domain: '127.0.0.1', platform: 'shopify', access_token: 't' },
        { domain: 'ok.myshopify.com', platform: 'shopify' },
        { domain: 'ok.myshopify.com', platform: 'woocommerce', access_token: 't' },
        { domain: 'ok.myshopify.com', platform: 'shopify', access_token: 't', api_base_url: 'ftp://x.example.com' },
        { domain: 'ok.myshopify.com', platform: 'shopify', access_token: 't', api_base_url: 'https://x.example.com/?q=1' },
        { domain: 'ok.myshopify.com', platform: 'sandbox', access_token: 't' },
        { domain: 'ok.myshopify.com', platform: 'shopify', access_token: 't', extra: true },
        { platform: 'shopify', access_token: 't' },
      ];
      for (const body of bad) {
        const res = await h.admin('POST', '/admin/shops', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
        assert.equal(typeof res.json().error, 'string');
      }
      assert.equal((await h.admin('POST', '/admin/shops', { domain: 'dup.myshopify.com', platform: 'shopify', access_token: 't' })).statusCode, 201);
      const dup = await h.admin('POST', '/admin/shops', { domain: 'DUP.myshopify.com', platform: 'shopify', access_token: 't2' });
      assert.equal(dup.statusCode, 409);
      assert.match(dup.json().error, /already exists/);
      assert.equal((await h.admin('DELETE', '/admin/shops/abc')).statusCode, 400);
      for (const [method, url] of [
        ['GET', '/admin/shops'],
        ['POST', '/admin/shops'],
        ['DELETE', '/admin/shops/1'],
      ]) {
        const res = await h.app.inject({
          method: method as 'GET',
          url,
          payload: method === 'POST' ? { domain: 'x.myshopify.com', platform: 'shopify', access_token: 't' } : undefined,
        });
        assert.equal(res.statusCode, 401);
      }
    });

    it('a sandbox shop gets a sandbox store, its token once, and api_base_url under /sandbox/shopify', async () => {
      const res = await h.admin('POST', '/admin/shops', { domain: 'Try-Me.myshopify.com', platform: 'sandbox' });
      assert.equal(res.statusCode, 201, res.body);
      const shop = res.json();
      assert.equal(shop.domain, 'try-me.myshopify.com');
      assert.equal(shop.platform, 'sandbox');
      assert.equal(shop.api_base_url, 'http://127.0.0.1:8080/sandbox/shopify/try-me.myshopify.com');
      assert.match(shop.access_token, /^shpat_/);
      const store = await h.app.services.sandbox!.stores.find('try-me.myshopify.com');
      assert.ok(store);
      assert.ok(h.app.services.sandbox!.stores.tokenMatches(store, shop.access_token));
      const [row] = await rows(sql`select * from shops where id = ${shop.id}`);
      assert.ok(!JSON.stringify(row).includes(shop.access_token));
      assert.ok(!(await h.admin('GET', '/admin/shops')).body.includes(shop.access_token));
      assert.equal((await h.admin('POST', '/admin/shops', { domain: 'try-me.myshopify.com', platform: 'sandbox' })).statusCode, 409);

      // The connector gets the decrypted token for the storefront side of an integration.
      const tenant = await h.tenant();
      const connect = await h.call('POST', '/api/connect', null, {
        shop_domain: shop.domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(connect.statusCode, 200, connect.body);
      const storefront = await h.app.services.connector.integrations.storefrontShopOf(connect.json().data.integration_id);
      assert.deepEqual(storefront, { domain: shop.domain, apiBaseUrl: shop.api_base_url, accessToken: shop.access_token });
      assert.equal(await h.app.services.connector.integrations.storefrontShopOf(999_999), null);

      assert.equal((await h.admin('DELETE', `/admin/shops/${shop.id}`)).statusCode, 204);
      assert.equal(await h.app.services.sandbox!.stores.find('try-me.myshopify.com'), null, 'the sandbox store goes with the shop');
    });

    it('uninstalling a shop deletes its integration, tokens and mappings', async () => {
      const { domain, token, integrationId } = await h.connected();
      await h.call('POST', '/api/tokens', token, { scope: 'read' });
      await h.database.db.execute(sql`insert into product_mappings (integration_id, pim_product_id) values (${integrationId}, 1)`);
      const shopId = (await h.admin('GET', '/admin/shops')).json().shops.find((s: { domain: string }) => s.domain === domain).id;
      assert.equal((await h.admin('DELETE', `/admin/shops/${shopId}`)).statusCode, 204);
      const res = await h.call('GET', '/api/tokens', token);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'AUTHENTICATION_FAILED');
      for (const table of ['integrations', 'connector_tokens', 'product_mappings']) {
        const column = table === 'integrations' ? 'id' : 'integration_id';
        const left = await rows(sql`select 1 from ${sql.identifier(table)} where ${sql.identifier(column)} = ${integrationId}`);
        assert.equal(left.length, 0, table);
      }
    });
  });

  describe(`admin shops without the sandbox (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target, { SHOPIFY_SANDBOX: 'false' });
    });
    after(() => h.close());

    it('refuses platform sandbox with a 400 when SHOPIFY_SANDBOX is off', async () => {
      const res = await h.admin('POST', '/admin/shops', { domain: 'x.myshopify.com', platform: 'sandbox' });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().error, /SHOPIFY_SANDBOX/);
      assert.equal((await h.admin('GET', '/admin/shops')).json().shops.length, 0);
    });
  });
}

describe('CONNECTOR_ALLOW_PRIVATE_NETWORKS', () => {
  const KEY = Buffer.alloc(32, 1).toString('base64');
  const base = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, ENCRYPTION_KEY: KEY };
  it('defaults to true in embedded mode and false with DATABASE_URL; can be set either way', () => {
    assert.equal(loadConfig(base).connectorAllowPrivateNetworks, true);
    assert.equal(loadConfig({ ...base, DATABASE_URL: 'postgres://u@db/pim' }).connectorAllowPrivateNetworks, false);
    assert.equal(loadConfig({ ...base, DATABASE_URL: 'postgres://u@db/pim', CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' }).connectorAllowPrivateNetworks, true);
    assert.equal(loadConfig({ ...base, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'no' }).connectorAllowPrivateNetworks, false);
    assert.throws(() => loadConfig({ ...base, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'maybe' }), /CONNECTOR_ALLOW_PRIVATE_NETWORKS/);
  });
});

for (const target of databaseTargets()) {
  describe(`demo seed sandbox shop (${target.name})`, () => {
    it('creates demo-store.myshopify.com as a sandbox shop when the sandbox is on, none when it is off', async () => {
      for (const [sandbox, expected] of [
        ['true', DEMO_SHOP_DOMAIN],
        ['false', null],
      ] as const) {
        const h = await harness(target, { SHOPIFY_SANDBOX: sandbox });
        try {
          const seed = await seedDemo(h.app.services);
          assert.equal(seed.shopDomain, expected);
          const shops = (await h.admin('GET', '/admin/shops')).json().shops;
          assert.deepEqual(
            shops.map((s: { domain: string; platform: string }) => [s.domain, s.platform]),
            expected ? [[expected, 'sandbox']] : [],
          );
        } finally {
          await h.close();
        }
      }
    });
  });
}

describe('shop CLI', () => {
  let h: Harness;
  let url: string;
  before(async () => {
    h = await harness(databaseTargets()[0]);
    url = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => h.close());

  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.join('src', 'cli', 'main.ts'), '--url', url, '--admin-token', TEST_ADMIN_TOKEN, ...args], {
      cwd: ROOT,
      timeout: 60_000,
    });

  it('shop add, list and remove wrap the admin API', async () => {
    const added = JSON.parse(
      (
        await cli(
          'shop',
          'add',
          'Cli-Shop.myshopify.com',
          '--platform',
          'shopify',
          '--access-token',
          'shpat_cli',
          '--api-base-url',
          'https://cli.example.com',
          '--json',
        )
      ).stdout,
    );
    assert.equal(added.domain, 'cli-shop.myshopify.com');
    assert.equal(added.api_base_url, 'https://cli.example.com');
    const listed = (await cli('shop', 'list')).stdout;
    assert.match(listed, /domain: cli-shop\.myshopify\.com/);
    assert.ok(!listed.includes('shpat_cli'));
    await assert.rejects(
      cli('shop', 'add', 'cli-shop.myshopify.com', '--platform', 'shopify', '--access-token', 'x'),
      /409: Shop cli-shop\.myshopify\.com already exists/,
    );
    assert.match((await cli('shop', 'remove', String(added.id))).stdout, /removed/);
    assert.equal((await h.admin('GET', '/admin/shops')).json().shops.length, 0);
  });
});
