// The admin API's shops: install (shopify with its token, or a sandbox store) for an owner organization, list, change
// the owner, uninstall with cascade; access tokens stored encrypted and never listed.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { IntegrationRepository } from '../src/connector/integrations/integration.repository.js';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { addDemoPictures, DEMO_SHOP_DOMAIN, seedDemo } from '../src/server/demo-seed.js';
import { loadConfig } from '../src/config.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness } from './helpers/harness.js';
import { CLI } from './helpers/cli-command.js';
import { okData } from './helpers/pim.js';
import { sqlRows } from './helpers/sql.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

for (const target of databaseTargets()) {
  describe(`admin shops (${target.name})`, () => {
    let h: ConnectorHarness;
    before(async () => {
      h = await connectorHarness(target);
    });
    after(() => h.close());

    /** The shop's row as stored: how its secrets are kept, which no route shows. */
    const storedShop = async (id: number) => (await sqlRows<Record<string, unknown>>(h.database.db, sql`select * from shops where id = ${id}`))[0];

    it('adds a shopify shop (domain lower-cased, token stored encrypted, never returned), lists and removes it', async () => {
      const { organizationId } = await h.tenant();
      const res = await h.admin('POST', '/admin/shops', {
        domain: ' Acme-Store.MyShopify.com ',
        platform: 'shopify',
        organization_id: organizationId,
        access_token: 'shpat_secret_value',
        api_base_url: 'https://acme.example.com/',
      });
      assert.equal(res.statusCode, 201, res.body);
      const shop = res.json();
      assert.deepEqual(Object.keys(shop).sort(), [
        'api_base_url',
        'auth_method',
        'auth_status',
        'created_at',
        'domain',
        'id',
        'organization_id',
        'platform',
        'token_expires_at',
        'token_renewals',
      ]);
      assert.equal(shop.domain, 'acme-store.myshopify.com');
      assert.equal(shop.platform, 'shopify');
      assert.equal(shop.organization_id, organizationId);
      assert.equal(shop.auth_method, 'access_token');
      assert.equal(shop.auth_status, 'ok');
      assert.equal(shop.token_expires_at, null, 'a legacy token does not expire');
      assert.equal(shop.token_renewals, 0);
      assert.equal(shop.api_base_url, 'https://acme.example.com');
      assert.ok(!res.body.includes('shpat_secret_value'));
      const row = await storedShop(shop.id);
      assert.ok(!JSON.stringify(row).includes('shpat_secret_value'));
      assert.match(String(row.access_token_encrypted), /^v1\./);

      const list = await h.admin('GET', '/admin/shops');
      assert.equal(list.statusCode, 200);
      const listed = list.json().shops.find((s: { id: number }) => s.id === shop.id);
      assert.deepEqual(listed, shop);
      assert.ok(!list.body.includes('shpat_secret_value'));

      const plain = await h.admin('POST', '/admin/shops', {
        domain: 'plain.myshopify.com',
        platform: 'shopify',
        organization_id: organizationId,
        access_token: 'shpat_x',
      });
      assert.equal(plain.statusCode, 201, plain.body);
      assert.equal(plain.json().api_base_url, null);

      assert.equal((await h.admin('DELETE', `/admin/shops/${shop.id}`)).statusCode, 204);
      assert.equal((await h.admin('DELETE', `/admin/shops/${shop.id}`)).statusCode, 404);
      assert.ok(!(await h.admin('GET', '/admin/shops')).json().shops.some((s: { id: number }) => s.id === shop.id));
    });

    it('refuses bad input with 400, a duplicate domain with 409, and callers without the admin token with 401', async () => {
      const { organizationId: org } = await h.tenant();
      const bad = [
        { domain: 'no-dot', platform: 'shopify', organization_id: org, access_token: 't' },
        { domain: 'bad_domain!.com', platform: 'shopify', organization_id: org, access_token: 't' },
        { domain: '-x.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't' },
        { domain: '127.0.0.1', platform: 'shopify', organization_id: org, access_token: 't' },
        { domain: 'ok.myshopify.com', platform: 'shopify', organization_id: org },
        { domain: 'ok.myshopify.com', platform: 'woocommerce', organization_id: org, access_token: 't' },
        { domain: 'ok.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't', api_base_url: 'ftp://x.example.com' },
        { domain: 'ok.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't', api_base_url: 'https://x.example.com/?q=1' },
        { domain: 'ok.myshopify.com', platform: 'sandbox', organization_id: org, access_token: 't' },
        { domain: 'ok.myshopify.com', platform: 'sandbox', organization_id: org, client_id: 'c', client_secret: 's' },
        { domain: 'ok.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't', extra: true },
        { domain: 'ok.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't', client_id: 'c', client_secret: 's' },
        { domain: 'ok.myshopify.com', platform: 'shopify', organization_id: org, client_id: 'c' },
        { platform: 'shopify', organization_id: org, access_token: 't' },
      ];
      for (const body of bad) {
        const res = await h.admin('POST', '/admin/shops', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
        assert.equal(typeof res.json().error, 'string');
      }
      assert.equal(
        (await h.admin('POST', '/admin/shops', { domain: 'dup.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't' })).statusCode,
        201,
      );
      const dup = await h.admin('POST', '/admin/shops', { domain: 'DUP.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't2' });
      assert.equal(dup.statusCode, 409);
      assert.match(dup.json().error, /already exists/);
      assert.equal((await h.admin('DELETE', '/admin/shops/abc')).statusCode, 400);
      for (const [method, url] of [
        ['GET', '/admin/shops'],
        ['POST', '/admin/shops'],
        ['PATCH', '/admin/shops/1'],
        ['DELETE', '/admin/shops/1'],
      ]) {
        const res = await h.app.inject({
          method: method as 'GET',
          url,
          payload: method === 'POST' ? { domain: 'x.myshopify.com', platform: 'shopify', organization_id: org, access_token: 't' } : undefined,
        });
        assert.equal(res.statusCode, 401);
      }
    });

    it('a shop is registered for an existing organization: without organization_id, or with an unknown one, 400 and nothing made', async () => {
      const { organizationId } = await h.tenant();
      const unknown = organizationId + 10_000;
      for (const platform of ['shopify', 'sandbox'] as const) {
        const access = platform === 'shopify' ? { access_token: 'shpat_owner' } : {};
        const domain = `owner-${platform}.myshopify.com`;
        const missing = await h.admin('POST', '/admin/shops', { domain, platform, ...access });
        assert.equal(missing.statusCode, 400, missing.body);
        assert.match(missing.json().error, /organization_id/);
        const stranger = await h.admin('POST', '/admin/shops', { domain, platform, organization_id: unknown, ...access });
        assert.equal(stranger.statusCode, 400, stranger.body);
        assert.match(stranger.json().error, new RegExp(`Organization ${unknown} not found`));
        for (const id of [0, -1, 'abc', null, 1.5]) {
          const res = await h.admin('POST', '/admin/shops', { domain, platform, organization_id: id, ...access });
          assert.equal(res.statusCode, 400, `${JSON.stringify(id)} → ${res.body}`);
        }
        assert.ok(!(await h.admin('GET', '/admin/shops')).json().shops.some((s: { domain: string }) => s.domain === domain));
        if (platform === 'sandbox') assert.equal(await h.app.services.sandbox!.stores.find(domain), null, 'no sandbox store left behind');
        const made = await h.admin('POST', '/admin/shops', { domain, platform, organization_id: organizationId, ...access });
        assert.equal(made.statusCode, 201, made.body);
        assert.equal(made.json().organization_id, organizationId);
        assert.equal(made.json().auth_method, 'access_token');
        assert.equal((await h.admin('DELETE', `/admin/shops/${made.json().id}`)).statusCode, 204);
      }
    });

    it('PATCH /admin/shops/{id} changes the owner (only the new owner connects then) and the token; 404 unknown, 400 empty or bad', async () => {
      const a = await h.tenant();
      const b = await h.tenant();
      const domain = await h.shop(undefined, a.organizationId);
      const shopId = (await h.admin('GET', '/admin/shops')).json().shops.find((s: { domain: string }) => s.domain === domain).id;
      const connect = (t: typeof a) =>
        h.call('POST', '/api/connect', null, { shop_domain: domain, pim_base_url: h.pimUrl, pim_api_key: t.apiKey, pim_api_secret: t.apiSecret });

      const moved = await h.admin('PATCH', `/admin/shops/${shopId}`, { organization_id: b.organizationId });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().id, shopId);
      assert.equal(moved.json().domain, domain);
      assert.equal(moved.json().organization_id, b.organizationId);
      assert.equal(moved.json().auth_method, 'access_token');
      assert.ok(!('access_token' in moved.json()));
      const listed = (await h.admin('GET', '/admin/shops')).json().shops.find((s: { id: number }) => s.id === shopId);
      assert.equal(listed.organization_id, b.organizationId);

      const old = await connect(a);
      assert.equal(old.statusCode, 404, old.body);
      assert.equal(old.json().code, 'SHOP_NOT_FOUND');
      const now = await connect(b);
      assert.equal(now.statusCode, 200, now.body);

      const retoken = await h.admin('PATCH', `/admin/shops/${shopId}`, { access_token: 'shpat_renewed' });
      assert.equal(retoken.statusCode, 200, retoken.body);
      assert.equal(retoken.json().organization_id, b.organizationId, 'a new token keeps the owner');
      assert.ok(!retoken.body.includes('shpat_renewed'));
      const storefront = await h.app.services.connector.integrations.storefrontShopOf(now.json().data.integration_id);
      assert.equal(storefront?.accessToken, 'shpat_renewed');

      const unknown = await h.admin('PATCH', '/admin/shops/999999', { organization_id: a.organizationId });
      assert.equal(unknown.statusCode, 404, unknown.body);
      for (const body of [
        {},
        { organization_id: b.organizationId + 10_000 },
        { organization_id: 0 },
        { organization_id: 'x' },
        { domain: 'other.myshopify.com' },
        { access_token: '' },
        { access_token: 't', client_id: 'c', client_secret: 's' },
        { client_id: 'c' },
      ]) {
        const res = await h.admin('PATCH', `/admin/shops/${shopId}`, body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
        assert.equal(typeof res.json().error, 'string');
      }
      assert.equal((await h.admin('PATCH', '/admin/shops/abc', { organization_id: a.organizationId })).statusCode, 400);
      const after = (await h.admin('GET', '/admin/shops')).json().shops.find((s: { id: number }) => s.id === shopId);
      assert.equal(after.organization_id, b.organizationId, 'refused changes leave the owner as it was');
    });

    it('a sandbox shop gets a sandbox store, its token once, and api_base_url under /sandbox/shopify', async () => {
      const tenant = await h.tenant();
      const res = await h.admin('POST', '/admin/shops', { domain: 'Try-Me.myshopify.com', platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(res.statusCode, 201, res.body);
      const shop = res.json();
      assert.equal(shop.domain, 'try-me.myshopify.com');
      assert.equal(shop.platform, 'sandbox');
      assert.equal(shop.api_base_url, 'http://127.0.0.1:8080/sandbox/shopify/try-me.myshopify.com');
      assert.equal(shop.organization_id, tenant.organizationId);
      assert.equal(shop.auth_method, 'access_token');
      assert.match(shop.access_token, /^shpat_/);
      assert.equal(typeof shop.client_id, 'string');
      assert.ok(shop.client_id.length > 0);
      assert.equal(typeof shop.client_secret, 'string');
      assert.ok(shop.client_secret.length > 0);
      const store = await h.app.services.sandbox!.stores.find('try-me.myshopify.com');
      assert.ok(store);
      assert.ok(h.app.services.sandbox!.stores.tokenMatches(store, shop.access_token));
      const row = await storedShop(shop.id);
      assert.ok(!JSON.stringify(row).includes(shop.access_token));
      assert.ok(!JSON.stringify(row).includes(shop.client_secret), 'the client secret is stored sealed');
      const listed = (await h.admin('GET', '/admin/shops')).body;
      assert.ok(!listed.includes(shop.access_token));
      assert.ok(!listed.includes(shop.client_secret));
      assert.equal(
        (await h.admin('POST', '/admin/shops', { domain: 'try-me.myshopify.com', platform: 'sandbox', organization_id: tenant.organizationId })).statusCode,
        409,
      );

      // The connector gets the decrypted token for the storefront side of an integration.
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
      await new MappingRepository(h.database.db).insertPending(integrationId, 1);
      const shopId = (await h.admin('GET', '/admin/shops')).json().shops.find((s: { domain: string }) => s.domain === domain).id;
      assert.equal((await h.admin('DELETE', `/admin/shops/${shopId}`)).statusCode, 204);
      const res = await h.call('GET', '/api/tokens', token);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'AUTHENTICATION_FAILED');
      assert.equal(await new IntegrationRepository(h.database.db).find(integrationId), null, 'the integration is deleted');
      assert.equal(await new MappingRepository(h.database.db).find(integrationId, 1), null, 'its mappings are deleted');
      // Deleted, not only revoked (no repository reads revoked tokens): the table itself.
      const tokens = await sqlRows(h.database.db, sql`select 1 from connector_tokens where integration_id = ${integrationId}`);
      assert.equal(tokens.length, 0, 'its tokens are deleted');
    });
  });

  describe(`admin shops without the sandbox (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target, { SHOPIFY_SANDBOX: 'false' });
    });
    after(() => h.close());

    it('refuses platform sandbox with a 400 when SHOPIFY_SANDBOX is off', async () => {
      const { organizationId } = await h.tenant();
      const res = await h.admin('POST', '/admin/shops', { domain: 'x.myshopify.com', platform: 'sandbox', organization_id: organizationId });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().error, /SHOPIFY_SANDBOX/);
      assert.equal((await h.admin('GET', '/admin/shops')).json().shops.length, 0);
    });
  });
}

describe('CONNECTOR_ALLOW_PRIVATE_NETWORKS', () => {
  const KEY = Buffer.alloc(32, 1).toString('base64');
  // METRICS_TOKEN: with DATABASE_URL, /metrics has a token of its own (config.ts).
  const base = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, ENCRYPTION_KEY: KEY, METRICS_TOKEN: 'metrics-token-0123456789' };
  it('defaults to false, in embedded mode too (only PUBLIC_URL of the private addresses); can be set either way', () => {
    assert.equal(loadConfig(base).connectorAllowPrivateNetworks, false);
    assert.equal(loadConfig({ ...base, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' }).connectorAllowPrivateNetworks, true);
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
          if (sandbox === 'true') {
            // Each product has a picture per colour, drawn once the server listens, the first its main image.
            await addDemoPictures(h.app.services, seed);
            const call = h.as({ organizationId: seed.organizationId, apiKey: seed.apiKey, apiSecret: seed.apiSecret, keyId: 0 });
            const media = okData(await call('GET', `/api/products/${seed.firstProductId}/media`)).media;
            assert.deepEqual(
              media.map((m: { mime_type: string; alt_text: string; width: number; position: number }) => [m.mime_type, m.alt_text, m.width, m.position]),
              [
                ['image/webp', 'Merino Crew Sweater in Navy', 600, 0],
                ['image/webp', 'Merino Crew Sweater in Oat', 600, 1],
              ],
            );
            const product = okData(await call('GET', `/api/products/${seed.firstProductId}`));
            assert.deepEqual(
              product.images,
              media.map((m: { url: string }) => m.url),
            );
          }
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
    run(process.execPath, [...CLI, '--url', url, '--admin-token', TEST_ADMIN_TOKEN, ...args], {
      cwd: ROOT,
      timeout: 60_000,
    });

  it('shop add (for the --org owner), update, list and remove wrap the admin API', async () => {
    const owner = await h.tenant();
    const other = await h.tenant();
    await assert.rejects(
      cli('shop', 'add', 'cli-shop.myshopify.com', '--platform', 'shopify', '--access-token', 'shpat_cli'),
      /required option '--org <id>' not specified/,
    );
    assert.equal((await h.admin('GET', '/admin/shops')).json().shops.length, 0, 'without --org nothing is registered');
    await assert.rejects(
      cli('shop', 'add', 'cli-shop.myshopify.com', '--platform', 'shopify', '--org', String(owner.organizationId + 10_000), '--access-token', 'shpat_cli'),
      new RegExp(`400: Organization ${owner.organizationId + 10_000} not found`),
    );
    const added = JSON.parse(
      (
        await cli(
          'shop',
          'add',
          'Cli-Shop.myshopify.com',
          '--platform',
          'shopify',
          '--org',
          String(owner.organizationId),
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
    assert.equal(added.organization_id, owner.organizationId);
    assert.equal(added.auth_method, 'access_token');
    const listed = (await cli('shop', 'list')).stdout;
    assert.match(listed, /domain: cli-shop\.myshopify\.com/);
    assert.match(listed, new RegExp(`organization_id: ${owner.organizationId}\\b`));
    assert.ok(!listed.includes('shpat_cli'));
    const updated = JSON.parse((await cli('shop', 'update', String(added.id), '--org', String(other.organizationId), '--json')).stdout);
    assert.equal(updated.organization_id, other.organizationId);
    assert.equal((await h.admin('GET', '/admin/shops')).json().shops[0].organization_id, other.organizationId);
    await assert.rejects(cli('shop', 'update', String(added.id)), /400: /, 'an update without a change is refused');
    await assert.rejects(
      cli('shop', 'add', 'cli-shop.myshopify.com', '--platform', 'shopify', '--org', String(owner.organizationId), '--access-token', 'x'),
      /409: Shop cli-shop\.myshopify\.com already exists/,
    );
    assert.match((await cli('shop', 'remove', String(added.id))).stdout, /removed/);
    assert.equal((await h.admin('GET', '/admin/shops')).json().shops.length, 0);
  });
});
