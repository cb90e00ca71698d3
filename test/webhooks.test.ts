// Shopify webhooks end to end: a sandbox shop connected over real HTTP is subscribed at connect (read back through the
// sandbox's GraphQL), the sandbox delivers signed webhooks when the merchant changes its data (products/delete marks the
// mapping and the next push creates the product again; products/update of an owned field is drift; app/uninstalled
// disconnects), refused deliveries change nothing, a repeated webhook id acts once, and the sandbox retries a failing
// endpoint.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TokenRepository } from '../src/connector/auth/token.repository.js';
import { WebhookRepository } from '../src/connector/webhooks/webhook.repository.js';
import { SandboxStoreRepository } from '../src/sandbox/sandbox-store.repository.js';
import { SandboxWebhookRepository } from '../src/sandbox/sandbox-webhooks.repository.js';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { mappingOf, mappingRowOf, publicStatusOf, syncLogsOf } from './helpers/connector-reads.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { pimProduct } from './helpers/push.js';
import { sandboxData } from './helpers/sandbox-graphql.js';
import { until } from './helpers/until.js';

const SECRET = 'test-webhook-secret-0123456789';
/** The sandbox store's own app's client secret: what it signs its webhooks with (docs/sandbox/oauth.md). */
let storeSecret = '';
const sign = (body: string) => createHmac('sha256', storeSecret).update(body).digest('base64');

for (const target of databaseTargets()) {
  describe(`Shopify webhooks (${target.name})`, () => {
    let h: ConnectorHarness;
    let tenant: Tenant;
    let token: string;
    let integrationId: number;
    let shopToken: string;
    let gql: string;
    let port: number;
    const domain = `webhooks-${target.name}.myshopify.com`;

    before(async () => {
      port = await freePort();
      h = await connectorHarness(
        target,
        {
          SHOPIFY_SANDBOX: 'true',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          SHOPIFY_API_SECRET: SECRET,
          SYNC_BULK_THRESHOLD: '1',
          // The cases poll the connector API (mappings, drift events, status) until a webhook has acted: no per-address limit.
          AUTH_RATE_LIMIT: '1000000',
          CONNECTOR_PUBLIC_RATE_LIMIT: '1000000',
        },
        port,
        {
          // allowHttp: the test's server is http://127.0.0.1 (the sandbox delivers to https only, as Shopify, by default).
          sandbox: { webhooks: { retryDelaysMs: [30, 30, 30], allowHttp: true } },
        },
      );
      tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      shopToken = made.json().access_token;
      storeSecret = (await h.app.services.sandbox!.stores.appOf(domain))!.clientSecret;
      gql = `${h.pimUrl}/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`;
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      token = res.json().data.api_token;
      integrationId = res.json().data.integration_id;
    });
    after(async () => h.close());

    const mapping = async (pimId: number) => (await mappingOf(h, token, pimId))!;
    /** The drift events of one product, newest first (GET /api/drift/events). */
    const driftEvents = async (pimId: number) => {
      const res = await h.call('GET', `/api/drift/events?pim_product_id=${pimId}&limit=100`, token);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.events as { field: string; written: string; storefront: string; source: string; storefront_product_id: number }[];
    };
    const pushed = async (name: string) => {
      const id = await pimProduct(h, tenant, name, 1);
      const res = await h.call('POST', '/api/products/push', token, { id });
      assert.equal(res.statusCode, 200, res.body);
      return { id, storefrontId: res.json().data.results[0].storefront_product_id as number };
    };
    const deliver = (headers: Record<string, string>, payload: string) =>
      h.app.inject({ method: 'POST', url: '/webhooks/shopify', payload, headers: { 'content-type': 'application/json', ...headers } });

    it('connect subscribes the shop to the four topics at PUBLIC_URL/webhooks/shopify; subscribing again changes nothing', async () => {
      const data = await sandboxData(gql, shopToken, 'query { webhookSubscriptions(first: 20) { nodes { id topic uri } } }');
      const subs = data.webhookSubscriptions.nodes as { topic: string; uri: string }[];
      assert.deepEqual(subs.map((s) => s.topic).sort(), ['APP_UNINSTALLED', 'INVENTORY_LEVELS_UPDATE', 'PRODUCTS_DELETE', 'PRODUCTS_UPDATE']);
      for (const s of subs) assert.equal(s.uri, `http://127.0.0.1:${port}/webhooks/shopify`);
      const again = await h.call('POST', '/api/integration/webhooks', token);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().data.status, 'subscribed');
      assert.equal(again.json().data.created, 0);
      assert.equal(again.json().data.subscriptions.length, 4);
      const view = await h.call('GET', '/api/integration/webhooks', token);
      assert.equal(view.statusCode, 200, view.body);
      assert.ok(view.json().data.topics.every((t: { subscribed: boolean }) => t.subscribed));
      assert.equal(view.json().data.recreate_deleted_products, true);
    });

    it('a product the merchant deletes in the shop marks its mapping; the next push creates it again', async () => {
      const p = await pushed('Webhook Deleted Boot');
      const del = await sandboxData(gql, shopToken, 'mutation($id: ID!) { productDelete(input: { id: $id }) { deletedProductId userErrors { message } } }', {
        id: `gid://shopify/Product/${p.storefrontId}`,
      });
      assert.equal(del.productDelete.userErrors.length, 0);
      await until('the mapping marked deleted in the shop', async () => (await mapping(p.id)).sync_status === 'error');
      const m = await mapping(p.id);
      assert.equal(m.storefront_product_id, null);
      assert.match(m.sync_error!, /Deleted in the shop/);
      // The webhook's record, in the mapping's metadata beyond what GET /api/products/mapping shows.
      const metadata = (await mappingRowOf(h.database.db, integrationId, p.id))!.metadata as { deleted_in_shop: { storefront_product_id: number } };
      assert.equal(metadata.deleted_in_shop.storefront_product_id, p.storefrontId);
      const again = await h.call('POST', '/api/products/push', token, { id: p.id });
      assert.equal(again.statusCode, 200, again.body);
      const r = again.json().data.results[0];
      assert.equal(r.method, 'create');
      assert.notEqual(r.storefront_product_id, p.storefrontId);
      assert.equal((await mapping(p.id)).sync_status, 'synced');
    });

    it('with recreate_deleted_products off, a product deleted in the shop is not created again', async () => {
      const set = await h.call('PUT', '/api/integration/webhooks', token, { recreate_deleted_products: false });
      assert.equal(set.statusCode, 200, set.body);
      try {
        const p = await pushed('Webhook Gone For Good');
        await sandboxData(gql, shopToken, 'mutation($id: ID!) { productDelete(input: { id: $id }) { deletedProductId } }', {
          id: `gid://shopify/Product/${p.storefrontId}`,
        });
        await until('the mapping marked', async () => (await mapping(p.id)).sync_status === 'error');
        const again = await h.call('POST', '/api/products/push', token, { id: p.id });
        assert.equal(again.json().data.results[0].status, 'error');
        assert.match(again.json().data.results[0].message, /deleted in the shop/);
        assert.equal((await mapping(p.id)).storefront_product_id, null);

        // Nor by a full sync through bulk operations (SYNC_BULK_THRESHOLD 1 here): the product fails with the reason.
        await h.app.services.jobs.workers.start();
        try {
          const started = await h.call('POST', '/api/sync/full', token);
          assert.equal(started.statusCode, 200, started.body);
          const done = await until('the full sync', async () => {
            const data = (await h.call('GET', `/api/sync/full/${started.json().data.id}`, token)).json().data;
            return data.status === 'completed' || data.status === 'failed' ? data : null;
          });
          assert.equal(done.mode, 'bulk');
          // The product's item failed, with the reason: the full sync's log names its first failure.
          assert.ok(done.failed >= 1, JSON.stringify(done));
          const log = (await syncLogsOf(h, token)).find((l) => l.operation === 'products.full_sync');
          assert.match(log?.error ?? '', new RegExp(`first: PIM product ${p.id} was deleted in the shop`));
          assert.equal((await mapping(p.id)).storefront_product_id, null, 'not created again');
        } finally {
          await h.app.services.jobs.workers.stop(5_000);
        }
      } finally {
        await h.call('PUT', '/api/integration/webhooks', token, { recreate_deleted_products: true });
      }
    });

    it("the merchant's edit of an owned field (the title) is recorded as drift; the bridge's own values are not", async () => {
      const p = await pushed('Webhook Drift Jacket');
      await sandboxData(gql, shopToken, 'mutation($p: ProductUpdateInput!) { productUpdate(product: $p) { product { id } userErrors { message } } }', {
        p: { id: `gid://shopify/Product/${p.storefrontId}`, vendor: 'Not owned here' },
      });
      await sandboxData(gql, shopToken, 'mutation($p: ProductUpdateInput!) { productUpdate(product: $p) { product { id } userErrors { message } } }', {
        p: { id: `gid://shopify/Product/${p.storefrontId}`, title: 'Renamed By Merchant' },
      });
      await until('a drift event', async () => (await driftEvents(p.id)).length > 0);
      await h.app.services.sandbox!.graphql.webhooks.settled();
      const drift = await driftEvents(p.id);
      assert.equal(drift.length, 1);
      assert.equal(drift[0].field, 'title');
      assert.equal(drift[0].written, 'Webhook Drift Jacket');
      assert.equal(drift[0].storefront, 'Renamed By Merchant');
      assert.equal(drift[0].source, 'webhook:products/update');
      assert.equal(drift[0].storefront_product_id, p.storefrontId);

      // GET /api/drift/events reads them, newest first, paged, per product.
      const listed = await h.call('GET', `/api/drift/events?pim_product_id=${p.id}`, token);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(
        listed.json().data.events.map((e: { field: string; written: string; storefront: string }) => [e.field, e.written, e.storefront]),
        [['title', 'Webhook Drift Jacket', 'Renamed By Merchant']],
      );
      assert.equal(listed.json().data.pagination.total, 1);
      assert.equal((await h.call('GET', '/api/drift/events?limit=0', token)).statusCode, 400);
      assert.equal((await h.call('GET', '/api/drift/events', null)).statusCode, 401);
    });

    it('bad, missing HMAC, unknown topic, unknown shop, no webhook id, non-JSON body: 401/400 and nothing changes', async () => {
      const p = await pushed('Webhook Refused Hat');
      const body = JSON.stringify({ id: p.storefrontId });
      const good = {
        'x-shopify-topic': 'products/delete',
        'x-shopify-shop-domain': domain,
        'x-shopify-webhook-id': randomUUID(),
        'x-shopify-hmac-sha256': sign(body),
        'x-shopify-triggered-at': new Date().toISOString(),
      };
      // A delivery acted on is recorded by its webhook id (so that a repeat does nothing); a refused one is not.
      const webhooks = new WebhookRepository(h.database.db);
      const cases: [Record<string, string>, string, number][] = [
        [{ ...good, 'x-shopify-hmac-sha256': sign(`${body} `) }, body, 401],
        [{ ...good, 'x-shopify-hmac-sha256': '' }, body, 401],
        [Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'x-shopify-hmac-sha256')), body, 401],
        [{ ...good, 'x-shopify-topic': 'orders/create' }, body, 400],
        [{ ...good, 'x-shopify-shop-domain': 'nobody.myshopify.com' }, body, 401],
        [{ ...good, 'x-shopify-webhook-id': '' }, body, 400],
        [{ ...good, 'x-shopify-hmac-sha256': sign('not json') }, 'not json', 400],
      ];
      for (const [headers, payload, status] of cases) {
        const res = await deliver(headers, payload);
        assert.equal(res.statusCode, status, `${JSON.stringify(headers)} → ${res.body}`);
        assert.equal(res.json().status, 'error');
      }
      assert.equal(await webhooks.seen(good['x-shopify-webhook-id']), false, 'no refused delivery was recorded');
      assert.equal(await webhooks.seen(''), false);
      assert.equal((await mapping(p.id)).sync_status, 'synced');
      // The same delivery, signed: acted on once, then answered 200 without acting.
      const first = await deliver(good, body);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().data.outcome, 'mapping_deleted');
      assert.equal(first.json().data.duplicate, false);
      assert.equal(await webhooks.seen(good['x-shopify-webhook-id']), true);
      await h.call('POST', '/api/products/push', token, { id: p.id });
      assert.equal((await mapping(p.id)).sync_status, 'synced');
      const repeat = await deliver(good, body);
      assert.equal(repeat.statusCode, 200, repeat.body);
      assert.equal(repeat.json().data.duplicate, true);
      assert.equal((await mapping(p.id)).sync_status, 'synced', 'a repeated webhook id does nothing');
    });

    it('the same products/update webhook id twice records its drift once', async () => {
      const p = await pushed('Webhook Twice Scarf');
      const body = JSON.stringify({ id: p.storefrontId, title: 'Changed Twice', variants: [] });
      const headers = {
        'x-shopify-topic': 'products/update',
        'x-shopify-shop-domain': domain,
        'x-shopify-webhook-id': randomUUID(),
        'x-shopify-hmac-sha256': sign(body),
        'x-shopify-triggered-at': new Date().toISOString(),
      };
      const [a, b] = await Promise.all([deliver(headers, body), deliver(headers, body)]);
      assert.deepEqual([a.statusCode, b.statusCode], [200, 200]);
      assert.equal((await driftEvents(p.id)).length, 1);
    });

    it('the sandbox retries a failing endpoint with the same webhook id and signature', async () => {
      const seen: { id: string; hmac: string; body: string }[] = [];
      const server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          seen.push({ id: String(req.headers['x-shopify-webhook-id']), hmac: String(req.headers['x-shopify-hmac-sha256']), body });
          res.statusCode = seen.length < 3 ? 500 : 200;
          res.end();
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const uri = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`;
        const created = await sandboxData(
          gql,
          shopToken,
          'mutation($uri: String!) { webhookSubscriptionCreate(topic: PRODUCTS_DELETE, webhookSubscription: { uri: $uri }) { webhookSubscription { id uri } userErrors { message } } }',
          { uri },
        );
        assert.equal(created.webhookSubscriptionCreate.userErrors.length, 0);
        const p = await pushed('Webhook Retry Sock');
        await sandboxData(gql, shopToken, 'mutation($id: ID!) { productDelete(input: { id: $id }) { deletedProductId } }', {
          id: `gid://shopify/Product/${p.storefrontId}`,
        });
        await until('three attempts', async () => seen.length >= 3);
        assert.equal(new Set(seen.map((s) => s.id)).size, 1);
        assert.equal(seen[0].hmac, sign(seen[0].body));
        // The sandbox's record of the delivery (Shopify shows an app no delivery log): its repository.
        const store = (await new SandboxStoreRepository(h.database.db).findByDomain(domain))!;
        const delivery = async () => (await new SandboxWebhookRepository(h.database.db).deliveries(store.id)).find((d) => d.uri === uri);
        assert.ok(await delivery());
        await until('delivered', async () => (await delivery())?.status === 'delivered');
        assert.equal((await delivery())?.attempts, 3);
        await sandboxData(gql, shopToken, 'mutation($id: ID!) { webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId } }', {
          id: created.webhookSubscriptionCreate.webhookSubscription.id,
        });
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    });

    it('uninstall in the sandbox deactivates the integration and revokes its tokens', async () => {
      const res = await fetch(`${h.pimUrl}/sandbox/shopify/${domain}/admin/app/uninstall`, {
        method: 'POST',
        headers: { 'x-shopify-access-token': shopToken },
      });
      assert.equal(res.status, 200);
      await until('the integration inactive', async () => (await publicStatusOf(h, integrationId)).is_active === false);
      assert.deepEqual(await new TokenRepository(h.database.db).listLive(integrationId), []);
      const call = await h.call('GET', '/api/status', token);
      assert.equal(call.statusCode, 401, call.body);
    });
  });
}
