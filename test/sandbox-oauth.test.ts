// The sandbox as each store's OAuth server, over real HTTP (docs/sandbox/oauth.md): per-store app credentials, the
// authorization code grant (consent page, Install and Cancel, the callback's hmac checked here with node:crypto, codes
// used once and short-lived), expiring and non-expiring offline tokens, client credentials, refresh with rotation and
// the previous refresh token's grace, expiry on an injected clock (no sleeps), uninstall revoking the app's tokens,
// the app's settings through PATCH /admin/shops/{id}/sandbox, and webhooks signed with the store's own secret, https
// only unless allowed, with the mandatory compliance topics.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { until } from './helpers/until.js';

const UNAUTHORIZED = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
type Json = Record<string, any>;

for (const target of databaseTargets()) {
  describe(`Sandbox OAuth (${target.name})`, () => {
    let h: Harness;
    let base: string;
    let clock = Date.UTC(2026, 10, 1, 12, 0, 0);
    const domain = `oauth-${target.name}.myshopify.com`;
    let legacy: string;
    let clientId: string;
    let clientSecret: string;
    const callback = () => `${base}/shopify/callback`;

    // Webhooks land here (a plain http server: the store must allow http for it).
    const received: { headers: http.IncomingHttpHeaders; body: string; url: string }[] = [];
    let hooks: http.Server;
    let hookBase: string;

    before(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      h = await harness(
        target,
        // The webhooks' receiver below is on 127.0.0.1, not PUBLIC_URL: the sandbox delivers there only with the setting.
        { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: base, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' },
        // The clock tokens and codes expire by; https-only deliveries (the sandbox-wide allowHttp off, explicitly).
        { sandbox: { now: () => clock, webhooks: { allowHttp: false, retryDelaysMs: [] } } },
      );
      await h.app.listen({ port, host: '127.0.0.1' });
      hooks = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          received.push({ headers: req.headers, body, url: req.url ?? '' });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
      hookBase = `http://127.0.0.1:${(hooks.address() as net.AddressInfo).port}`;
      ({ accessToken: legacy, clientId, clientSecret } = await sandbox().stores.create(domain));
    });
    after(async () => {
      await h.close();
      await new Promise((resolve) => hooks.close(resolve));
    });

    const sandbox = () => h.app.services.sandbox!;
    const oauthBase = () => `${base}/sandbox/shopify/${domain}/admin/oauth`;
    const gql = async (token: string, query: string, variables: Json = {}) => {
      const res = await fetch(`${base}/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query, variables }),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const tokenCall = async (body: Record<string, string>, form = false) => {
      const res = await fetch(`${oauthBase()}/access_token`, {
        method: 'POST',
        headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
        body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const authorizePage = (params: Record<string, string>) => fetch(`${oauthBase()}/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
    /** Opens the consent page and answers it; the 302's Location. */
    const consent = async (scope: string, state: string, decision: 'install' | 'cancel' = 'install') => {
      const page = await authorizePage({ client_id: clientId, scope, redirect_uri: callback(), state });
      assert.equal(page.status, 200);
      const html = await page.text();
      const nonce = /name="nonce" value="([0-9a-f]+)"/.exec(html)?.[1];
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
      assert.ok(nonce && cookie);
      const res = await fetch(`${oauthBase()}/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ nonce, decision }).toString(),
      });
      assert.equal(res.status, 302);
      return new URL(res.headers.get('location')!);
    };
    const code = async (scope: string) => (await consent(scope, 'state123')).searchParams.get('code')!;

    it("each store has an app of its own: create returns the legacy token and the app's credentials; appOf reads them", async () => {
      assert.match(legacy, /^shpat_[0-9a-f]{32}$/);
      assert.match(clientId, /^[0-9a-f]{32}$/);
      assert.match(clientSecret, /^shpss_[0-9a-f]{32}$/);
      assert.deepEqual(await sandbox().stores.appOf(domain.toUpperCase()), { clientId, clientSecret, appName: 'Pimbridge' });
      assert.equal(await sandbox().stores.appOf('nobody.myshopify.com'), null);
      const other = await sandbox().stores.create(`other-${domain}`);
      assert.notEqual(other.clientId, clientId);
      assert.notEqual(other.clientSecret, clientSecret);
      // A store made again keeps its app (a new legacy token only).
      const again = await sandbox().stores.create(`other-${domain}`);
      assert.equal(again.clientSecret, other.clientSecret);
      assert.notEqual(again.accessToken, other.accessToken);
    });

    it('the consent page: an accessible page with the app, the shop and the scopes, Install and Cancel, bound by a cookie', async () => {
      const res = await authorizePage({ client_id: clientId, scope: 'read_products,write_inventory', redirect_uri: callback(), state: 's1' });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(
        res.headers.get('set-cookie') ?? '',
        /^sandbox_oauth_consent=[\w-]+; Path=\/sandbox\/shopify\/[^;]+\/admin\/oauth\/authorize; Max-Age=600; HttpOnly; SameSite=Strict$/,
      );
      const html = await res.text();
      assert.match(html, /<html lang="en">/);
      assert.match(html, /<title>Install Pimbridge – Oauth \w+<\/title>/);
      assert.match(html, /<li><code>read_products<\/code><\/li><li><code>write_inventory<\/code><\/li>/);
      assert.match(html, /<button type="submit" name="decision" value="install"[^>]*>Install<\/button>/);
      assert.match(html, /<button type="submit" name="decision" value="cancel"[^>]*>Cancel<\/button>/);
      assert.match(html, /<form method="post" action="\/sandbox\/shopify\/[^"]+\/admin\/oauth\/authorize">/);
      assert.doesNotMatch(html, /<script/);
    });

    it('an unknown client_id, a redirect_uri not allowed or an unknown scope: a 400 error page, no consent', async () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ client_id: 'f'.repeat(32), scope: 'read_products', redirect_uri: callback() }, /Could not find Shopify API application/],
        [{ client_id: clientId, scope: 'read_products', redirect_uri: 'https://evil.example/shopify/callback' }, /The redirect_uri is not whitelisted/],
        [{ client_id: clientId, scope: 'read_products', redirect_uri: `${base}/elsewhere` }, /The redirect_uri is not whitelisted/],
        [{ client_id: clientId, scope: 'read_products,read_everything', redirect_uri: callback() }, /Invalid scope: read_everything/],
      ];
      for (const [params, message] of cases) {
        const res = await authorizePage(params);
        assert.equal(res.status, 400);
        assert.equal(res.headers.get('set-cookie'), null);
        const html = await res.text();
        assert.match(html, /<title>Oauth error<\/title>/);
        assert.match(html, message);
      }
    });

    it("Install redirects to redirect_uri with code, hmac, host, shop, state, timestamp; the hmac is the client secret's", async () => {
      const location = await consent('read_products,write_products', 'abc123');
      assert.equal(`${location.origin}${location.pathname}`, callback());
      assert.deepEqual([...location.searchParams.keys()], ['code', 'hmac', 'host', 'shop', 'state', 'timestamp']);
      const q = Object.fromEntries(location.searchParams);
      assert.match(q.code, /^[0-9a-f]{32}$/);
      assert.equal(q.shop, domain);
      assert.equal(q.state, 'abc123');
      assert.equal(q.timestamp, String(Math.floor(clock / 1000)));
      assert.equal(Buffer.from(q.host, 'base64url').toString('utf8'), `admin.shopify.com/store/oauth-${target.name}`);
      // The hmac, computed independently: the other parameters sorted by name, joined as k=v&k=v, HMAC-SHA256 hex.
      const message = Object.keys(q)
        .filter((k) => k !== 'hmac')
        .sort()
        .map((k) => `${k}=${q[k]}`)
        .join('&');
      assert.equal(q.hmac, createHmac('sha256', clientSecret).update(message).digest('hex'));
      assert.notEqual(q.hmac, createHmac('sha256', 'shpss_another').update(message).digest('hex'));
    });

    it("the consent's nonce is used once and only with the page's cookie; Cancel redirects with access_denied", async () => {
      const page = await authorizePage({ client_id: clientId, scope: 'read_products', redirect_uri: callback(), state: 'x' });
      const nonce = /name="nonce" value="([0-9a-f]+)"/.exec(await page.text())![1];
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
      const post = (headers: Record<string, string>) =>
        fetch(`${oauthBase()}/authorize`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams({ nonce, decision: 'install' }).toString(),
        });
      // Another site's auto-submitted form carries no cookie (SameSite=Strict): refused; a wrong cookie spends the nonce.
      const noCookie = await post({});
      assert.equal(noCookie.status, 400);
      assert.match(await noCookie.text(), /consent is missing or has expired/);
      const wrongCookie = await post({ cookie: 'sandbox_oauth_consent=forged' });
      assert.equal(wrongCookie.status, 400);
      assert.equal((await post({ cookie })).status, 400, 'spent by the forged try');
      const page2 = await authorizePage({ client_id: clientId, scope: 'read_products', redirect_uri: callback(), state: 'y' });
      const nonce2 = /name="nonce" value="([0-9a-f]+)"/.exec(await page2.text())![1];
      const cookie2 = (page2.headers.get('set-cookie') ?? '').split(';')[0];
      const send = () =>
        fetch(`${oauthBase()}/authorize`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie2 },
          body: new URLSearchParams({ nonce: nonce2, decision: 'install' }).toString(),
        });
      assert.equal((await send()).status, 302);
      assert.equal((await send()).status, 400, 'a nonce is good once');

      const cancelled = await consent('read_products', 'keep-me', 'cancel');
      assert.equal(`${cancelled.origin}${cancelled.pathname}`, callback());
      assert.equal(cancelled.searchParams.get('error'), 'access_denied');
      assert.equal(cancelled.searchParams.get('state'), 'keep-me');
      assert.equal(cancelled.searchParams.get('code'), null);
    });

    it('a code without expiring: a non-expiring offline token {access_token, scope}; the code is single use', async () => {
      const c = await code('read_products');
      const res = await tokenCall({ client_id: clientId, client_secret: clientSecret, code: c });
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'scope']);
      assert.match(res.body.access_token, /^shpat_[0-9a-f]{32}$/);
      assert.equal(res.body.scope, 'read_products');
      const shop = await gql(res.body.access_token, '{ shop { myshopifyDomain } }');
      assert.equal(shop.status, 200);
      assert.equal(shop.body.data.shop.myshopifyDomain, domain);
      const again = await tokenCall({ client_id: clientId, client_secret: clientSecret, code: c });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { error: 'invalid_request', error_description: 'The authorization code was not found or was already used' });
    });

    it('a code with expiring=1 (form body): an expiring offline token with its refresh token', async () => {
      const res = await tokenCall({ client_id: clientId, client_secret: clientSecret, code: await code('read_products,write_products'), expiring: '1' }, true);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'refresh_token_expires_in', 'scope']);
      assert.match(res.body.access_token, /^shpat_[0-9a-f]{32}$/);
      assert.match(res.body.refresh_token, /^shprt_[0-9a-f]{32}$/);
      assert.equal(res.body.expires_in, 3600);
      assert.equal(res.body.refresh_token_expires_in, 7776000);
      assert.equal(res.body.scope, 'read_products,write_products');
      assert.equal((await gql(res.body.access_token, '{ shop { id } }')).status, 200);
    });

    it('a code expires (60 s); a wrong client secret or id is invalid_client; other grant types are refused', async () => {
      const c = await code('read_products');
      clock += 61_000;
      const late = await tokenCall({ client_id: clientId, client_secret: clientSecret, code: c });
      assert.equal(late.status, 400);
      assert.equal(late.body.error, 'invalid_request');
      const c2 = await code('read_products');
      for (const body of [
        { client_id: clientId, client_secret: 'shpss_00000000000000000000000000000000', code: c2 },
        { client_id: '0'.repeat(32), client_secret: clientSecret, code: c2 },
      ]) {
        const res = await tokenCall(body);
        assert.equal(res.status, 401);
        assert.equal(res.body.error, 'invalid_client');
      }
      // The code was not spent by the refused calls.
      assert.equal((await tokenCall({ client_id: clientId, client_secret: clientSecret, code: c2 })).status, 200);
      const other = await tokenCall({ client_id: clientId, client_secret: clientSecret, grant_type: 'password' });
      assert.equal(other.status, 400);
      assert.equal(other.body.error, 'unsupported_grant_type');
      const missing = await tokenCall({ client_id: clientId });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, 'invalid_request');
    });

    it("client credentials: the app's configured scopes, expires_in 86399 (or the store's lifetime)", async () => {
      await sandbox().stores.configure(domain, { app_scopes: ['read_products', 'write_inventory'] });
      const res = await tokenCall({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }, true);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'scope']);
      assert.equal(res.body.expires_in, 86399);
      assert.equal(res.body.scope, 'read_products,write_inventory');
      assert.equal((await gql(res.body.access_token, '{ shop { id } }')).status, 200);
      await sandbox().stores.configure(domain, { token_lifetime_seconds: 120 });
      const short = await tokenCall({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
      assert.equal(short.body.expires_in, 120);
      clock += 121_000;
      assert.deepEqual(await gql(short.body.access_token, '{ shop { id } }'), { status: 401, body: UNAUTHORIZED });
      await sandbox().stores.configure(domain, { app_scopes: null, token_lifetime_seconds: null });
    });

    it('refresh: a new pair each time; the previous refresh token stays good until the new access token is first used', async () => {
      const first = (await tokenCall({ client_id: clientId, client_secret: clientSecret, code: await code('read_products'), expiring: '1' })).body;
      const refresh = (token: string) => tokenCall({ grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: token });
      const second = await refresh(first.refresh_token);
      assert.equal(second.status, 200);
      assert.deepEqual(Object.keys(second.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'refresh_token_expires_in', 'scope']);
      assert.notEqual(second.body.access_token, first.access_token);
      assert.notEqual(second.body.refresh_token, first.refresh_token);
      assert.equal(second.body.scope, 'read_products', 'a refreshed token keeps its grant');
      // The answer was lost: the previous refresh token still works, since the new access token was never used.
      const third = await refresh(first.refresh_token);
      assert.equal(third.status, 200);
      // Once the newest access token is used, the refresh token it replaced is invalid_grant.
      assert.equal((await gql(third.body.access_token, '{ shop { id } }')).status, 200);
      const replaced = await refresh(first.refresh_token);
      assert.equal(replaced.status, 400);
      assert.equal(replaced.body.error, 'invalid_grant');
      // The pair handed out and never used was dropped when its predecessor was used again.
      assert.equal((await refresh(second.body.refresh_token)).body.error, 'invalid_grant');
      assert.deepEqual(await gql(second.body.access_token, '{ shop { id } }'), { status: 401, body: UNAUTHORIZED });
      const fourth = await refresh(third.body.refresh_token);
      assert.equal(fourth.status, 200);
      // The access token a refresh replaced lives on until it expires.
      assert.equal((await gql(third.body.access_token, '{ shop { id } }')).status, 200);
      assert.equal((await refresh('shprt_00000000000000000000000000000000')).body.error, 'invalid_grant');
    });

    it("an expired access token gets Shopify's 401; an expired refresh token is invalid_grant (store lifetimes, clock moved)", async () => {
      await sandbox().stores.configure(domain, { token_lifetime_seconds: 2, refresh_token_lifetime_seconds: 5 });
      try {
        const t = (await tokenCall({ client_id: clientId, client_secret: clientSecret, code: await code('read_products'), expiring: '1' })).body;
        assert.equal(t.expires_in, 2);
        assert.equal(t.refresh_token_expires_in, 5);
        assert.equal((await gql(t.access_token, '{ shop { id } }')).status, 200);
        clock += 2_000;
        assert.deepEqual(await gql(t.access_token, '{ shop { id } }'), { status: 401, body: UNAUTHORIZED });
        const renewed = await tokenCall({ grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: t.refresh_token });
        assert.equal(renewed.status, 200);
        clock += 5_000;
        const late = await tokenCall({
          grant_type: 'refresh_token',
          client_id: clientId,
          client_secret: clientSecret,
          refresh_token: renewed.body.refresh_token,
        });
        assert.equal(late.status, 400);
        assert.equal(late.body.error, 'invalid_grant');
      } finally {
        await sandbox().stores.configure(domain, { token_lifetime_seconds: null, refresh_token_lifetime_seconds: null });
      }
    });

    it("PATCH /admin/shops/{id}/sandbox sets and shows the app's settings", async () => {
      const tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain: `patch-${domain}`, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      const id = made.json().id;
      const settings = {
        token_lifetime_seconds: 30,
        refresh_token_lifetime_seconds: 60,
        app_scopes: ['read_products'],
        revoked_scopes: ['write_inventory'],
        redirect_urls: ['https://app.example/auth/callback'],
        allow_http_webhooks: true,
        compliance_url: 'https://app.example/compliance',
      };
      const res = await h.admin('PATCH', `/admin/shops/${id}/sandbox`, settings);
      assert.equal(res.statusCode, 200, res.body);
      const view = res.json();
      for (const [k, v] of Object.entries(settings)) assert.deepEqual(view[k], v, k);
      assert.equal(view.client_id, (await sandbox().stores.appOf(`patch-${domain}`))!.clientId);
      const cleared = (await h.admin('PATCH', `/admin/shops/${id}/sandbox`, { token_lifetime_seconds: null, app_scopes: null, redirect_urls: null })).json();
      assert.equal(cleared.token_lifetime_seconds, null);
      assert.equal(cleared.app_scopes, null);
      assert.equal(cleared.redirect_urls, null);
      const bad = await h.admin('PATCH', `/admin/shops/${id}/sandbox`, { revoked_scopes: ['Not A Scope'] });
      assert.equal(bad.statusCode, 400);
    });

    it("webhooks: https only unless allowed; signed with the store's own client secret, with X-Shopify-Triggered-At", async () => {
      const subscribe = (uri: string) =>
        gql(
          legacy,
          'mutation($uri: String!) { webhookSubscriptionCreate(topic: APP_UNINSTALLED, webhookSubscription: { uri: $uri }) { webhookSubscription { id } userErrors { field message } } }',
          {
            uri,
          },
        );
      const refused = await subscribe(`${hookBase}/hooks`);
      assert.deepEqual(refused.body.data.webhookSubscriptionCreate.userErrors, [
        { field: ['webhookSubscription', 'uri'], message: 'Address protocol http:// is not supported (use https://)' },
      ]);
      await sandbox().stores.configure(domain, { allow_http_webhooks: true });
      const made = await subscribe(`${hookBase}/hooks`);
      assert.deepEqual(made.body.data.webhookSubscriptionCreate.userErrors, []);

      // Uninstall: app/uninstalled is delivered, and the app's OAuth and client credentials tokens stop working.
      const oauthToken = (await tokenCall({ client_id: clientId, client_secret: clientSecret, code: await code('read_products') })).body.access_token;
      const ccToken = (await tokenCall({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })).body.access_token;
      received.length = 0;
      const before = Date.now();
      const res = await fetch(`${base}/sandbox/shopify/${domain}/admin/app/uninstall`, { method: 'POST', headers: { 'x-shopify-access-token': ccToken } });
      assert.equal(res.status, 200);
      const answer = (await res.json()) as Json;
      assert.ok(answer.revoked_tokens >= 2);
      assert.equal(answer.webhook_ids.length, 1);
      await until('app/uninstalled delivered', () => received.length === 1);
      const d = received[0];
      assert.equal(d.headers['x-shopify-topic'], 'app/uninstalled');
      assert.equal(d.headers['x-shopify-shop-domain'], domain);
      assert.equal(d.headers['x-shopify-webhook-id'], answer.webhook_ids[0]);
      assert.equal(d.headers['x-shopify-hmac-sha256'], createHmac('sha256', clientSecret).update(d.body).digest('base64'));
      const triggered = Date.parse(String(d.headers['x-shopify-triggered-at']));
      assert.match(String(d.headers['x-shopify-triggered-at']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(triggered >= before - 5_000 && triggered <= Date.now() + 5_000);
      for (const token of [oauthToken, ccToken]) assert.deepEqual(await gql(token, '{ shop { id } }'), { status: 401, body: UNAUTHORIZED });
      // The legacy token stays (documented): the store can be connected again.
      assert.equal((await gql(legacy, '{ shop { id } }')).status, 200);

      // Taken back: the next delivery to http is refused (checked again when sent) and recorded as failed.
      await sandbox().stores.configure(domain, { allow_http_webhooks: false });
      received.length = 0;
      const again = (await (
        await fetch(`${base}/sandbox/shopify/${domain}/admin/app/uninstall`, { method: 'POST', headers: { 'x-shopify-access-token': legacy } })
      ).json()) as Json;
      assert.equal(again.webhook_ids.length, 1);
      await sandbox().graphql.webhooks.settled();
      assert.equal(received.length, 0);
    });

    it('compliance webhooks: customers/data_request, customers/redact, shop/redact to the compliance URL, signed', async () => {
      const trigger = (topic: string, token: string | null = legacy, body?: Json) =>
        fetch(`${base}/sandbox/shopify/${domain}/admin/app/compliance/${topic}`, {
          method: 'POST',
          headers: { ...(token ? { 'x-shopify-access-token': token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      assert.equal((await trigger('customers/data_request', null)).status, 401);
      assert.equal((await trigger('orders/create')).status, 404);
      // The default address is this server's /webhooks/shopify; an http compliance URL needs the store's setting.
      await sandbox().stores.configure(domain, { compliance_url: `${hookBase}/compliance` });
      const refused = await trigger('shop/redact');
      assert.equal(refused.status, 422);
      assert.match(((await refused.json()) as Json).errors, /http:\/\/ is not supported/);
      await sandbox().stores.configure(domain, { allow_http_webhooks: true });
      received.length = 0;
      const store = (await sandbox().stores.find(domain))!;
      const expected: Record<string, Json> = {
        'customers/data_request': {
          shop_id: store.id,
          shop_domain: domain,
          orders_requested: [299938, 280263, 220458],
          customer: { id: 191167, email: 'john@example.com', phone: '555-625-1199' },
          data_request: { id: 9999 },
        },
        'customers/redact': {
          shop_id: store.id,
          shop_domain: domain,
          customer: { id: 42, email: 'jane@example.com', phone: null },
          orders_to_redact: [7],
        },
        'shop/redact': { shop_id: store.id, shop_domain: domain },
      };
      const ids: Record<string, string> = {};
      for (const topic of Object.keys(expected)) {
        const res = await trigger(
          topic,
          legacy,
          topic === 'customers/redact' ? { customer: { id: 42, email: 'jane@example.com', phone: null }, orders_to_redact: [7] } : undefined,
        );
        assert.equal(res.status, 200);
        const answer = (await res.json()) as Json;
        assert.equal(answer.topic, topic);
        assert.equal(answer.uri, `${hookBase}/compliance`);
        ids[topic] = answer.webhook_ids[0];
      }
      await until('three compliance webhooks', () => received.length === 3);
      for (const d of received) {
        const topic = String(d.headers['x-shopify-topic']);
        assert.equal(d.url, '/compliance');
        assert.deepEqual(JSON.parse(d.body), expected[topic], topic);
        assert.equal(d.headers['x-shopify-webhook-id'], ids[topic]);
        assert.equal(d.headers['x-shopify-shop-domain'], domain);
        assert.equal(d.headers['x-shopify-api-version'], ADMIN_API_VERSION);
        assert.equal(d.headers['content-type'], 'application/json');
        assert.ok(d.headers['x-shopify-triggered-at']);
        assert.equal(d.headers['x-shopify-hmac-sha256'], createHmac('sha256', clientSecret).update(d.body).digest('base64'));
      }
      await sandbox().stores.configure(domain, { compliance_url: null, allow_http_webhooks: false });
    });
  });
}
