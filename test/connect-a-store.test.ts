// The three ways a merchant connects a store (docs/connect-a-store.md), end to end over real HTTP against the sandbox
// acting as Shopify: installing the app (authorization code grant: /shopify/install → the store's consent page →
// /shopify/callback → an expiring offline token), the merchant's own store with a Dev Dashboard app's client
// credentials (POST /api/shops from the console), and a legacy token. Expiring tokens are renewed before they expire
// and once on a 401; a renewal refused for good makes the shop "reauthorization required" with a clear error on push;
// a scope the store took back is named; and webhooks are bound to the shop whose app signed them.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { callbackHmacValid } from '../src/storefront/shopify/shopify-oauth.js';
import { SHOPIFY_SCOPES } from '../src/storefront/shopify/scopes.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { pimProduct } from './helpers/push.js';
import { until } from './helpers/until.js';

/** A browser's cookie jar, just enough for these flows. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
      if (value === '' || attributes.some((a) => /max-age=0\b/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

interface Console {
  jar: Jar;
  csrf: string;
  /** A connector call as the console makes it (session cookie, CSRF token, X-Integration-Id). */
  call(method: string, path: string, integrationId?: number, body?: unknown): Promise<{ status: number; json: any }>;
}

async function signIn(h: ConnectorHarness, tenant: Tenant): Promise<Console> {
  const jar = new Jar();
  const res = await fetch(`${h.pimUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: tenant.apiKey, api_secret: tenant.apiSecret }),
  });
  assert.equal(res.status, 200);
  jar.take(res);
  const csrf = ((await res.json()) as { data: { csrf_token: string } }).data.csrf_token;
  return {
    jar,
    csrf,
    async call(method, path, integrationId, body) {
      const r = await fetch(`${h.pimUrl}${path}`, {
        method,
        headers: {
          cookie: jar.header(),
          'x-csrf-token': csrf,
          ...(integrationId ? { 'x-integration-id': String(integrationId) } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, json: await r.json() };
    },
  };
}

/** The install as a browser goes through it: /shopify/install → consent page → Install → the callback's URL (not followed). */
async function consentTo(h: ConnectorHarness, browser: Console, domain: string): Promise<{ callback: URL; authorize: URL }> {
  const start = await fetch(`${h.pimUrl}/shopify/install?shop=${domain}`, { redirect: 'manual', headers: { cookie: browser.jar.header() } });
  assert.equal(start.status, 302, await start.text());
  browser.jar.take(start);
  assert.ok(browser.jar.has('pimbridge_install'), 'the install is bound to this browser by a cookie');
  const authorize = new URL(start.headers.get('location')!);
  const page = await fetch(authorize, { headers: { cookie: browser.jar.header() } });
  assert.equal(page.status, 200);
  browser.jar.take(page);
  const html = await page.text();
  const nonce = /name="nonce" value="([^"]+)"/.exec(html)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  assert.ok(nonce && action, 'the consent page has its form');
  const decided = await fetch(new URL(action.replace(/&amp;/g, '&'), authorize), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.jar.header() },
    body: new URLSearchParams({ nonce, decision: 'install' }).toString(),
  });
  assert.equal(decided.status, 302, await decided.text());
  return { callback: new URL(decided.headers.get('location')!), authorize };
}

for (const target of databaseTargets()) {
  describe(`Connecting a store (${target.name})`, () => {
    let h: ConnectorHarness;
    let port: number;

    before(async () => {
      port = await freePort();
      // Private networks: one case connects to a PIM elsewhere, served on loopback by the test.
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' }, port, {
        sandbox: { webhooks: { allowHttp: true } },
      });
    });
    after(async () => h.close());

    const store = async (domain: string, settings: Record<string, unknown> = {}) => {
      const made = await h.admin('POST', '/admin/sandbox/stores', { domain });
      assert.equal(made.statusCode, 201, made.body);
      if (Object.keys(settings).length > 0) {
        const patched = await h.admin('PATCH', `/admin/sandbox/stores/${domain}`, settings);
        assert.equal(patched.statusCode, 200, patched.body);
      }
      return made.json() as { domain: string; client_id: string; client_secret: string; access_token: string; api_base_url: string };
    };
    const shopRow = async (domain: string) => ((await h.admin('GET', '/admin/shops')).json().shops as any[]).find((s) => s.domain === domain);
    const push = (browser: Console, integrationId: number, id: number) => browser.call('POST', '/api/products/push', integrationId, { products: [{ id }] });

    it('installs the app through the store consent page: an expiring offline token, the shop owned and connected, a push that works', async () => {
      const domain = `install-${target.name}.myshopify.com`;
      const made = await store(domain);
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const { callback, authorize } = await consentTo(h, browser, domain);

      // The authorize request as the authorization code grant page describes it.
      assert.equal(authorize.pathname, `/sandbox/shopify/${domain}/admin/oauth/authorize`);
      assert.equal(authorize.searchParams.get('client_id'), made.client_id);
      assert.equal(authorize.searchParams.get('scope'), SHOPIFY_SCOPES.join(','));
      assert.equal(authorize.searchParams.get('redirect_uri'), `${h.pimUrl}/shopify/callback`);
      assert.ok((authorize.searchParams.get('state') ?? '').length >= 32);
      // The callback Shopify sends, with its HMAC verified here independently of the server.
      assert.equal(`${callback.origin}${callback.pathname}`, `${h.pimUrl}/shopify/callback`);
      for (const p of ['code', 'hmac', 'host', 'shop', 'state', 'timestamp']) assert.ok(callback.searchParams.get(p), `callback carries ${p}`);
      assert.ok(callbackHmacValid(Object.fromEntries(callback.searchParams), made.client_secret));

      // Without the browser's install cookie the callback is refused, and nothing is registered.
      const stranger = await fetch(callback, { redirect: 'manual' });
      assert.equal(stranger.status, 400);
      assert.match(await stranger.text(), /not started in this browser/);
      assert.equal(await shopRow(domain), undefined);
    });

    it('the callback from the browser that started it registers the shop for the organization and lands on its integration', async () => {
      const domain = `install-ok-${target.name}.myshopify.com`;
      await store(domain);
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const { callback } = await consentTo(h, browser, domain);

      // A forged hmac is refused before anything else.
      const forged = new URL(callback);
      forged.searchParams.set('hmac', 'a'.repeat(64));
      const refused = await fetch(forged, { redirect: 'manual', headers: { cookie: browser.jar.header() } });
      assert.equal(refused.status, 400);
      assert.match(await refused.text(), /signature/);

      const landed = await fetch(callback, { redirect: 'manual', headers: { cookie: browser.jar.header() } });
      assert.equal(landed.status, 302, await landed.text());
      const integrationId = Number(/^\/bridge\/(\d+)\?installed=1$/.exec(landed.headers.get('location') ?? '')?.[1]);
      assert.ok(integrationId > 0);
      // The state is single use.
      const again = await fetch(callback, { redirect: 'manual', headers: { cookie: browser.jar.header() } });
      assert.equal(again.status, 400);

      const shop = await shopRow(domain);
      assert.equal(shop.organization_id, tenant.organizationId);
      assert.equal(shop.auth_method, 'authorization_code');
      const expiresIn = Date.parse(shop.token_expires_at) - Date.now();
      assert.ok(expiresIn > 3_000_000 && expiresIn <= 3_600_000, `an expiring offline token of about an hour (${expiresIn} ms)`);

      const status = await browser.call('GET', '/api/status', integrationId);
      assert.equal(status.status, 200, JSON.stringify(status.json));
      assert.equal(status.json.data.storefront_status.status, 'connected');
      assert.deepEqual(status.json.data.storefront_access.missing_scopes, []);
      assert.equal(status.json.data.storefront_access.method, 'authorization_code');
      const id = await pimProduct(h, tenant, 'Installed tee');
      const pushed = await push(browser, integrationId, id);
      assert.equal(pushed.status, 200, JSON.stringify(pushed.json));
      assert.equal(pushed.json.data.successful_count, 1);

      // Another organization cannot install the app on this shop, nor connect it.
      const other = await signIn(h, await h.tenant());
      const taken = await fetch(`${h.pimUrl}/shopify/install?shop=${domain}`, { redirect: 'manual', headers: { cookie: other.jar.header() } });
      assert.equal(taken.status, 400);
      assert.match(await taken.text(), /another Pimbridge account/);
    });

    it('without a console session, /shopify/install sends the merchant to sign in first and back', async () => {
      const res = await fetch(`${h.pimUrl}/shopify/install?shop=x.myshopify.com`, { redirect: 'manual' });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get('location'), `/sign-in?next=${encodeURIComponent('/shopify/install?shop=x.myshopify.com')}`);
    });

    it('an expiring token is renewed before it expires and the refresh token rotates; a refresh refused for good asks for reauthorization', async () => {
      const domain = `renew-${target.name}.myshopify.com`;
      await store(domain, { token_lifetime_seconds: 2 });
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const { callback } = await consentTo(h, browser, domain);
      const landed = await fetch(callback, { redirect: 'manual', headers: { cookie: browser.jar.header() } });
      const integrationId = Number(/\/bridge\/(\d+)/.exec(landed.headers.get('location') ?? '')?.[1]);
      const first = await shopRow(domain);
      const id = await pimProduct(h, tenant, 'Renewed tee');
      for (let round = 0; round < 2; round++) {
        const expiry = Date.parse((await shopRow(domain)).token_expires_at);
        await until('the access token expired', () => Date.now() > expiry + 50, 10_000);
        const pushed = await push(browser, integrationId, id);
        assert.equal(pushed.status, 200, JSON.stringify(pushed.json));
        assert.equal(pushed.json.data.successful_count, 1);
      }
      const renewed = await shopRow(domain);
      assert.ok(renewed.token_renewals >= 2, `renewed at least twice (${renewed.token_renewals})`);
      assert.ok(Date.parse(renewed.token_expires_at) > Date.parse(first.token_expires_at));
    });

    it('client credentials from the console: the token is had now and renewed on expiry', async () => {
      const domain = `own-${target.name}.myshopify.com`;
      const made = await store(domain, { token_lifetime_seconds: 2 });
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const wrong = await browser.call('POST', '/api/shops', undefined, { domain, client_id: made.client_id, client_secret: 'shpss_wrong' });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.json.code, 'VALIDATION_FAILED');
      assert.match(wrong.json.message, /did not give an access token/);
      assert.equal(await shopRow(domain), undefined, 'nothing registered for credentials that do not work');

      const connected = await browser.call('POST', '/api/shops', undefined, { domain, client_id: made.client_id, client_secret: made.client_secret });
      assert.equal(connected.status, 200, JSON.stringify(connected.json));
      const integrationId = connected.json.data.integration_id as number;
      const shop = await shopRow(domain);
      assert.equal(shop.auth_method, 'client_credentials');
      assert.equal(shop.organization_id, tenant.organizationId);

      const id = await pimProduct(h, tenant, 'Own store tee');
      const expiry = Date.parse(shop.token_expires_at);
      await until('the access token expired', () => Date.now() > expiry + 50, 10_000);
      const pushed = await push(browser, integrationId, id);
      assert.equal(pushed.json.data.successful_count, 1, JSON.stringify(pushed.json));
      assert.ok((await shopRow(domain)).token_renewals >= 1);

      // The integration lists how it is connected.
      const listed = await browser.call('GET', '/api/integrations');
      assert.equal(listed.json.data.find((i: { id: number }) => i.id === integrationId).access.method, 'client_credentials');
      // Another organization's session learns nothing of it.
      const other = await signIn(h, await h.tenant());
      assert.equal((await other.call('GET', '/api/integrations')).json.data.length, 0);
      const steal = await other.call('POST', '/api/shops', undefined, { domain, client_id: made.client_id, client_secret: made.client_secret });
      assert.equal(steal.status, 400);
      assert.match(steal.json.message, /another Pimbridge account/);
    });

    it("a legacy custom app's token from the console: checked with the store before anything is stored", async () => {
      const domain = `legacy-${target.name}.myshopify.com`;
      const made = await store(domain);
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const wrong = await browser.call('POST', '/api/shops', undefined, { domain, access_token: 'shpat_00000000000000000000000000000000' });
      assert.equal(wrong.status, 400);
      assert.match(wrong.json.message, /refused this access token/);
      assert.equal(await shopRow(domain), undefined);
      const both = await browser.call('POST', '/api/shops', undefined, { domain, access_token: made.access_token, client_id: made.client_id });
      assert.equal(both.status, 400);
      const connected = await browser.call('POST', '/api/shops', undefined, { domain, access_token: made.access_token });
      assert.equal(connected.status, 200, JSON.stringify(connected.json));
      const shop = await shopRow(domain);
      assert.equal(shop.auth_method, 'access_token');
      assert.equal(shop.token_expires_at, null);
      assert.equal(shop.organization_id, tenant.organizationId);
    });

    it('a renewal refused for good marks the shop reauthorization required, named in the status and on push; installing again mends it', async () => {
      const domain = `refused-${target.name}.myshopify.com`;
      // Both tokens live a second: once they have expired, the refresh is refused for good (invalid_grant).
      await store(domain, { token_lifetime_seconds: 1, refresh_token_lifetime_seconds: 1 });
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const install = async () => {
        const { callback } = await consentTo(h, browser, domain);
        const landed = await fetch(callback, { redirect: 'manual', headers: { cookie: browser.jar.header() } });
        assert.equal(landed.status, 302, await landed.text());
        return Number(/\/bridge\/(\d+)/.exec(landed.headers.get('location') ?? '')?.[1]);
      };
      const integrationId = await install();
      const id = await pimProduct(h, tenant, 'Refused tee');
      const expiry = Date.parse((await shopRow(domain)).token_expires_at);
      await until('both tokens expired', () => Date.now() > expiry + 200, 10_000);

      const pushed = await push(browser, integrationId, id);
      assert.equal(pushed.json.data.failed_count, 1, JSON.stringify(pushed.json));
      assert.match(JSON.stringify(pushed.json.data.results), /needs reauthorization/);
      const shop = await shopRow(domain);
      assert.equal(shop.auth_status, 'reauthorization_required');
      // Every later call fails at once with the same reason: no renewal is tried again until the merchant acts.
      const again = await push(browser, integrationId, id);
      assert.match(JSON.stringify(again.json.data.results), /needs reauthorization/);
      assert.equal((await shopRow(domain)).token_renewals, shop.token_renewals);
      const access = (await browser.call('GET', '/api/integrations')).json.data.find((i: { id: number }) => i.id === integrationId).access;
      assert.equal(access.status, 'reauthorization_required');
      assert.match(access.error, /refused/);

      // Installing again (the console's "Reauthorize") gives new tokens; the integration and its mappings stay.
      await h.admin('PATCH', `/admin/sandbox/stores/${domain}`, { token_lifetime_seconds: null, refresh_token_lifetime_seconds: null });
      assert.equal(await install(), integrationId);
      assert.equal((await shopRow(domain)).auth_status, 'ok');
      const mended = await push(browser, integrationId, id);
      assert.equal(mended.json.data.successful_count, 1, JSON.stringify(mended.json));
    });

    it('a scope the store took back is named in the status, and a push that wrote the product reports it on the mapping', async () => {
      const domain = `scopes-${target.name}.myshopify.com`;
      const made = await store(domain);
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const connected = await browser.call('POST', '/api/shops', undefined, { domain, client_id: made.client_id, client_secret: made.client_secret });
      const integrationId = connected.json.data.integration_id as number;
      assert.equal((await h.admin('PATCH', `/admin/sandbox/stores/${domain}`, { revoked_scopes: ['write_publications'] })).statusCode, 200);

      const status = await browser.call('GET', '/api/status', integrationId);
      assert.deepEqual(status.json.data.storefront_access.missing_scopes, ['write_publications']);
      const made2 = await h.as(tenant)('POST', '/api/products', {
        name: 'Unpublished tee',
        sku: `UNPUB-${target.name}`,
        price: '19.99',
        status: 'active',
        publishing_channels: ['web'],
      });
      assert.equal(made2.statusCode, 201, made2.body);
      const id = made2.json().data.id as number;
      const pushed = await push(browser, integrationId, id);
      const result = JSON.stringify(pushed.json.data.results);
      assert.match(result, /write_publications/);
      assert.match(result, /is on the storefront, but/);
      const mapping = await browser.call('GET', `/api/products/mapping/${id}`, integrationId);
      assert.ok(mapping.json.data.storefront_product_id, 'the product was written; only publishing waits for the scope');
    });

    it("a Shopify session token of the shop's app proves control of the shop for a PIM elsewhere, never for another organization's keys", async () => {
      const owner = await h.tenant();
      const domain = `embedded-${target.name}.myshopify.com`;
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: owner.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      const app = { id: made.json().client_id as string, secret: made.json().client_secret as string };
      // A PIM elsewhere that knows these credentials.
      const elsewhere = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 1, data: { organization: { id: 1, name: 'Elsewhere', active: true }, key_id: 1 }, error: null }));
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
      try {
        const pimUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          iss: `https://${domain}/admin`,
          dest: `https://${domain}`,
          aud: app.id,
          sub: '42',
          exp: now + 60,
          nbf: now - 1,
          iat: now,
          jti: randomUUID(),
          sid: 's',
        };
        const connect = (token: string | null, key = 'pk_elsewhere', secret = 'sk_elsewhere') =>
          h.call(
            'POST',
            '/api/connect',
            null,
            { shop_domain: domain, pim_base_url: pimUrl, pim_api_key: key, pim_api_secret: secret },
            token ? { authorization: `Bearer ${token}` } : {},
          );
        const notFound = (res: { statusCode: number; json(): any }) => {
          assert.equal(res.statusCode, 404);
          assert.equal(res.json().code, 'SHOP_NOT_FOUND');
        };
        notFound(await connect(null));
        notFound(await connect(sessionToken(claims, 'shpss_not-the-apps-secret')));
        notFound(await connect(sessionToken({ ...claims, dest: 'https://other.myshopify.com' }, app.secret)));
        notFound(await connect(sessionToken({ ...claims, exp: now - 120 }, app.secret)));
        const stranger = await h.tenant();
        notFound(await connect(sessionToken(claims, app.secret), stranger.apiKey, stranger.apiSecret));
        const ok = await connect(sessionToken(claims, app.secret));
        assert.equal(ok.statusCode, 200, ok.body);
        assert.ok(ok.json().data.api_token);
      } finally {
        await new Promise((resolve) => elsewhere.close(resolve));
      }
    });

    it('webhooks are verified with the secret of the app installed on the shop they name, and must be recent', async () => {
      const tenant = await h.tenant();
      const browser = await signIn(h, tenant);
      const shops: { domain: string; secret: string }[] = [];
      for (const name of ['a', 'b']) {
        const domain = `hooks-${name}-${target.name}.myshopify.com`;
        const made = await store(domain);
        const connected = await browser.call('POST', '/api/shops', undefined, { domain, client_id: made.client_id, client_secret: made.client_secret });
        assert.equal(connected.status, 200, JSON.stringify(connected.json));
        shops.push({ domain, secret: made.client_secret });
      }
      const [a, b] = shops;
      const deliver = (domain: string, secret: string, topic: string, triggeredAt = new Date().toISOString()) => {
        const body = JSON.stringify({ id: 1, domain });
        return fetch(`${h.pimUrl}/webhooks/shopify`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-shopify-topic': topic,
            'x-shopify-shop-domain': domain,
            'x-shopify-webhook-id': randomUUID(),
            'x-shopify-triggered-at': triggeredAt,
            'x-shopify-hmac-sha256': signWebhook(secret, body),
          },
          body,
        });
      };
      // A body signed by B's app, replayed as A's: refused, A stays connected.
      assert.equal((await deliver(a.domain, b.secret, 'app/uninstalled')).status, 401);
      // Signed by A's app but triggered three days ago: a replay, refused.
      assert.equal((await deliver(a.domain, a.secret, 'app/uninstalled', new Date(Date.now() - 3 * 86_400_000).toISOString())).status, 401);
      assert.equal((await shopRow(a.domain)).auth_status, 'ok');
      // The compliance topics: nothing kept of customers; shop/redact erases the shop and what was kept of it.
      const data = await deliver(b.domain, b.secret, 'customers/data_request');
      assert.equal(data.status, 200);
      assert.equal(((await data.json()) as any).data.outcome, 'no_customer_data');
      const redact = await fetch(`${h.pimUrl}/sandbox/shopify/${b.domain}/admin/app/compliance/shop/redact`, {
        method: 'POST',
        headers: {
          'x-shopify-access-token': (await h.admin('POST', '/admin/sandbox/stores', { domain: `spare-${target.name}.myshopify.com` })).json().access_token,
        },
      });
      assert.equal(redact.status, 401, "another store's token triggers nothing here");
      const erased = await deliver(b.domain, b.secret, 'shop/redact');
      assert.equal(erased.status, 200);
      assert.equal(await shopRow(b.domain), undefined);
      assert.ok(await shopRow(a.domain));
    });
  });
}

/** A session token as Shopify signs one for an embedded app (HS256 with the app's secret). */
function sessionToken(claims: Record<string, unknown>, secret: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** Signs a webhook body as the app with `secret` does. */
export const signWebhook = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64');
