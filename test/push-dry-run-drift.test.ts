// A push's dry run (POST /api/products/push?dry_run=true, `pimbridge push --dry-run`) and drift reports (POST/GET
// /api/drift) end to end, on both databases: the PIM of the same app over a real port, the storefront the built-in
// sandbox reached through the real Shopify adapter, the drift job run by the app's own workers. The shop is read back
// over the sandbox's Admin GraphQL (a dry run writes nothing) and edited there as a merchant would (productUpdate,
// productDelete, a productSet carrying our metafield).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { compareDrift } from '../src/connector/drift/drift.service.js';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { catalogueView, driftChanges, previewChanges } from '../src/storefront/shopify/product-diff.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { mappingsOf, syncLogsOf } from './helpers/connector-reads.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { assertError, pimProduct } from './helpers/push.js';
import { until } from './helpers/until.js';
import { CLI } from './helpers/cli-command.js';

type Json = any;
const WAIT_MS = 60_000;

const PRODUCT = /* GraphQL */ `
  query P($id: ID!) { product(id: $id) { id title vendor status variants(first: 10) { nodes { sku price } } } }
`;
const COUNT = /* GraphQL */ `query C { productsCount { count } }`;

for (const target of databaseTargets()) {
  describe(`push dry run and drift reports (${target.name})`, () => {
    let h: ConnectorHarness;
    let port: number;
    let shops = 0;

    before(async () => {
      port = await freePort();
      h = await connectorHarness(
        target,
        { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, SYNC_POLL_SECONDS: '0', SYNC_RETRY_DELAY_SECONDS: '0', AUTH_RATE_LIMIT: '1000000' },
        port,
        { drift: { pollMs: { first: 20, max: 100 } } },
      );
      await h.app.services.jobs.workers.start();
    });
    after(async () => {
      await h?.app.services.jobs.workers.stop(5_000);
      await h?.close();
    });

    async function connectedSandbox(): Promise<{ tenant: Tenant; integrationId: number; token: string; gql: (q: string, v?: Json) => Promise<Json> }> {
      const domain = `drift-${process.pid}-${++shops}.myshopify.com`;
      const tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      const storeToken = made.json().access_token as string;
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      const gql = async (query: string, variables: Json = {}) => {
        const r = await fetch(`http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': storeToken },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await r.json()) as Json;
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        return body.data;
      };
      return { tenant, integrationId: res.json().data.integration_id, token: res.json().data.api_token, gql };
    }

    const push = async (token: string, body: Json, dryRun = false) => h.call('POST', `/api/products/push${dryRun ? '?dry_run=true' : ''}`, token, body);
    /** The integration's mappings whole, as stored (updated_at to the millisecond, storefront_state): nothing a dry run may change. */
    const mappingRows = async (integrationId: number) => (await new MappingRepository(h.database.db).page(integrationId, undefined, 100, 0)).rows;
    /** The integration's sync logs, oldest first (GET /api/sync/logs). */
    const logsOf = async (token: string) => (await syncLogsOf(h, token)).sort((a, b) => a.id - b.id);

    it('a dry run of a new product lists every field from null as a create, and writes nothing: no product, no mapping; one sync log', async () => {
      const c = await connectedSandbox();
      const id = await pimProduct(h, c.tenant, 'Dry Hat', 2);
      const res = await push(c.token, { id }, true);
      assert.equal(res.statusCode, 200, res.body);
      const { data } = res.json();
      assert.equal(data.dry_run, true);
      assert.equal(data.total_products, 1);
      const [r] = data.results;
      assert.equal(r.status, 'success');
      assert.equal(r.method, 'create');
      assert.equal(r.storefront_product_id, null);
      const fields = new Map(r.changes.map((ch: Json) => [ch.field, ch]));
      assert.deepEqual(fields.get('title'), { field: 'title', storefront: null, pim: 'Dry Hat' });
      assert.equal((fields.get('status') as Json).pim, 'ACTIVE');
      assert.equal((fields.get('handle') as Json).pim, 'dry-hat', 'the handle a create gets: the PIM slug, exactly');
      assert.equal(r.storefront_handle, 'dry-hat');
      const variantPrices = r.changes.filter((ch: Json) => /^variants\[.*\]\.price$/.test(ch.field));
      assert.equal(variantPrices.length, 2);
      assert.ok(variantPrices.every((ch: Json) => ch.storefront === null && ch.pim === '21.00'));
      assert.ok(r.changes.every((ch: Json) => ch.storefront === null));

      assert.equal((await c.gql(COUNT)).productsCount.count, 0);
      assert.deepEqual(await mappingsOf(h, c.token), []);
      const logs = await logsOf(c.token);
      assert.deepEqual(
        logs.map((l) => [l.operation, l.status, l.records_processed, l.records_failed]),
        [['products.push.dry_run', 'success', 1, 0]],
      );
    });

    it('a dry run of a changed mapped product lists only what changed, as an update, and leaves the shop and the mapping as they were', async () => {
      const c = await connectedSandbox();
      const id = await pimProduct(h, c.tenant, 'Plain Cap');
      const pushed = await push(c.token, { id });
      assert.equal(pushed.statusCode, 200, pushed.body);
      const productId = `gid://shopify/Product/${pushed.json().data.results[0].storefront_product_id}`;

      // Unchanged: nothing would change.
      const same = (await push(c.token, { id }, true)).json().data.results[0];
      assert.equal(same.method, 'update');
      assert.deepEqual(same.changes, []);

      const edit = await h.as(c.tenant)('PATCH', `/api/products/${id}`, { name: 'Plain Cap II', price: '24.50' });
      assert.equal(edit.statusCode, 200, edit.body);
      const before = await mappingRows(c.integrationId);
      const res = await push(c.token, { id }, true);
      assert.equal(res.statusCode, 200, res.body);
      const [r] = res.json().data.results;
      assert.equal(r.method, 'update');
      assert.equal(r.storefront_product_id, Number(productId.split('/').pop()));
      const sku = Object.keys((before[0].storefrontState as { variantIds: Record<string, string> }).variantIds)[0];
      assert.deepEqual(
        r.changes.map((ch: Json) => [ch.field, ch.storefront, ch.pim]),
        [
          ['title', 'Plain Cap', 'Plain Cap II'],
          [`variants[${sku}].price`, '19.99', '24.50'],
        ],
      );
      const shop = (await c.gql(PRODUCT, { id: productId })).product;
      assert.equal(shop.title, 'Plain Cap');
      assert.equal(shop.variants.nodes[0].price, '19.99');
      assert.deepEqual(await mappingRows(c.integrationId), before);
      const ops = await logsOf(c.token);
      assert.deepEqual(
        ops.map((o) => o.operation),
        ['products.push', 'products.push.dry_run', 'products.push.dry_run'],
      );
    });

    it('reports pre-flight errors per product as a push does (207 partial), the others still previewed; bad dry_run is VALIDATION_FAILED', async () => {
      const c = await connectedSandbox();
      const id = await pimProduct(h, c.tenant, 'Good One');
      const res = await push(c.token, { products: [{ id: 999_999, name: '   ', sku: 'X-1' }, { id }, { id: 'nope' }] }, true);
      assert.equal(res.statusCode, 207, res.body);
      const body = res.json();
      assert.equal(body.status, 'partial');
      const [bad, good, invalid] = body.data.results;
      assert.equal(bad.status, 'error');
      assert.ok(bad.validation_errors.length > 0, JSON.stringify(bad));
      assert.equal(good.status, 'success');
      assert.equal(good.method, 'create');
      assert.equal(invalid.status, 'error');
      assert.equal(body.data.failed_count, 2);
      assert.equal((await c.gql(COUNT)).productsCount.count, 0);
      const [log, ...more] = await logsOf(c.token);
      assert.equal(more.length, 0);
      assert.deepEqual([log.operation, log.status, log.records_failed], ['products.push.dry_run', 'partial', 2]);
      assertError(await h.call('POST', '/api/products/push?dry_run=maybe', c.token, { id }), 400, 'VALIDATION_FAILED');
      assertError(await h.call('POST', '/api/products/push?dry_run=true', c.token, {}), 400, 'NO_PRODUCTS');
    });

    it('`pimbridge push --dry-run` prints the changes and writes nothing', async () => {
      const c = await connectedSandbox();
      const id = await pimProduct(h, c.tenant, 'Cli Scarf');
      const { code, stdout, stderr } = await cli(['push', String(id), '--dry-run', '--token', c.token], { PIMBRIDGE_URL: `http://127.0.0.1:${port}` });
      assert.equal(code, 0, stderr);
      assert.match(stdout, new RegExp(`^${id}: create \\(\\d+ change\\(s\\)\\)`, 'm'));
      assert.match(stdout, /title: ∅ → "Cli Scarf"/);
      assert.equal((await c.gql(COUNT)).productsCount.count, 0);
      const usage = await cli(['push', 'abc', '--dry-run', '--token', c.token], { PIMBRIDGE_URL: `http://127.0.0.1:${port}` });
      assert.equal(usage.code, 2);
    });

    const drift = async (token: string) => {
      const res = await h.call('POST', '/api/drift', token);
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().data.id as string;
      return until(
        `drift report ${id}`,
        async () => {
          const r = await h.call('GET', `/api/drift/${id}?limit=100`, token);
          assert.equal(r.statusCode, 200, r.body);
          const d = r.json().data;
          return d.state === 'completed' || d.state === 'failed' ? d : null;
        },
        WAIT_MS,
        50,
      );
    };

    it('drift: a title edited in the shop, a product deleted there and an orphan carrying our metafield are each reported; paged; errors', async () => {
      const c = await connectedSandbox();
      const ids = [await pimProduct(h, c.tenant, 'Drift A'), await pimProduct(h, c.tenant, 'Drift B'), await pimProduct(h, c.tenant, 'Drift C')];
      const pushed = await push(c.token, { products: ids.map((id) => ({ id })) });
      assert.equal(pushed.statusCode, 200, pushed.body);
      const gids = pushed.json().data.results.map((r: Json) => `gid://shopify/Product/${r.storefront_product_id}`);

      // No report yet is an answer, not an error.
      const none = await h.call('GET', '/api/drift', c.token);
      assert.equal(none.statusCode, 200, none.body);
      assert.deepEqual(none.json(), { status: 'success', message: 'No drift report yet: POST /api/drift starts one', data: null });
      const clean = await drift(c.token);
      assert.equal(clean.state, 'completed', JSON.stringify(clean));
      assert.equal(clean.counts.changed, 0, JSON.stringify(clean.items));
      assert.equal(clean.counts.compared, 3);

      // A merchant's edits: a title, a deletion, and a product carrying our metafield that no mapping names.
      const upd = await c.gql(`mutation U($id: ID!) { productUpdate(product: { id: $id, title: "Renamed in shop" }) { userErrors { message } } }`, {
        id: gids[0],
      });
      assert.deepEqual(upd.productUpdate.userErrors, []);
      const del = await c.gql(`mutation D($id: ID!) { productDelete(input: { id: $id }) { deletedProductId } }`, { id: gids[1] });
      assert.equal(del.productDelete.deletedProductId, gids[1]);
      const orphan = await c.gql(
        `mutation O($input: ProductSetInput!) { productSet(input: $input, synchronous: true) { product { id } userErrors { message } } }`,
        {
          input: {
            title: 'Lost copy',
            productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
            variants: [{ sku: 'LOST-1', price: '5.00', optionValues: [{ optionName: 'Title', name: 'Default Title' }] }],
            metafields: [{ namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '424242' }],
          },
        },
      );
      assert.deepEqual(orphan.productSet.userErrors, []);

      const report = await drift(c.token);
      assert.equal(report.state, 'completed', JSON.stringify(report));
      assert.deepEqual(
        { changed: report.counts.changed, missing: report.counts.missing_in_shop, orphans: report.counts.orphan_in_shop, mapped: report.counts.mapped },
        { changed: 1, missing: 1, orphans: 1, mapped: 3 },
      );
      const byKind = Object.fromEntries(report.items.map((i: Json) => [i.kind, i]));
      assert.equal(byKind.changed.pim_product_id, ids[0]);
      assert.deepEqual(byKind.changed.fields, [{ field: 'title', storefront: 'Renamed in shop', written: 'Drift A' }]);
      assert.equal(byKind.missing_in_shop.pim_product_id, ids[1]);
      assert.equal(byKind.missing_in_shop.storefront_product_id, Number(gids[1].split('/').pop()));
      assert.equal(byKind.orphan_in_shop.pim_product_id, 424242);
      assert.equal(byKind.orphan_in_shop.title, 'Lost copy');

      // The newest report, paged and filtered.
      const page1 = (await h.call('GET', '/api/drift?limit=2', c.token)).json().data;
      assert.equal(page1.id, report.id);
      assert.deepEqual(page1.pagination, { total: 3, limit: 2, offset: 0, has_more: true });
      assert.deepEqual(
        page1.items.map((i: Json) => i.kind),
        ['changed', 'missing_in_shop'],
      );
      const page2 = (await h.call('GET', '/api/drift?limit=2&offset=2', c.token)).json().data;
      assert.deepEqual(page2.pagination, { total: 3, limit: 2, offset: 2, has_more: false });
      assert.deepEqual(
        page2.items.map((i: Json) => i.kind),
        ['orphan_in_shop'],
      );
      const orphansOnly = (await h.call('GET', '/api/drift?kind=orphan_in_shop', c.token)).json().data;
      assert.equal(orphansOnly.pagination.total, 1);

      assertError(await h.call('GET', '/api/drift?limit=0', c.token), 400, 'VALIDATION_FAILED');
      assertError(await h.call('GET', '/api/drift?limit=abc', c.token), 400, 'VALIDATION_FAILED');
      assertError(await h.call('GET', '/api/drift?kind=weird', c.token), 400, 'VALIDATION_FAILED');
      assertError(await h.call('GET', '/api/drift/00000000-0000-4000-8000-000000000000', c.token), 404, 'NOT_FOUND');
      assertError(await h.call('GET', '/api/drift/not-a-uuid', c.token), 404, 'NOT_FOUND');
      assertError(await h.call('POST', '/api/drift', c.token, { x: 1 }), 400, 'VALIDATION_FAILED');
      assertError(await h.call('GET', '/api/drift', null), 401, 'AUTHENTICATION_FAILED');
      // Another integration's report is not visible.
      const other = await connectedSandbox();
      assertError(await h.call('GET', `/api/drift/${report.id}`, other.token), 404, 'NOT_FOUND');
    });
  });
}

describe('dry run and drift rules (pure)', () => {
  it('previewChanges leaves out what the push leaves out, and compares option values without case', () => {
    const input = {
      title: 'T',
      status: 'ACTIVE' as const,
      productOptions: [],
      variants: [
        {
          sku: 'A',
          price: '10.00',
          optionValues: [{ optionName: 'Size', name: 'm' }],
          inventoryPolicy: 'DENY' as const,
          inventoryItem: { sku: 'A', tracked: true },
        },
      ],
    };
    const current = {
      id: 'gid://shopify/Product/1',
      handle: 'h',
      title: 'T',
      descriptionHtml: '<p>merchant</p>',
      vendor: 'V',
      productType: '',
      status: 'ACTIVE',
      tags: ['x'],
      seo: null,
      variants: [{ id: 'v', sku: 'A', price: '10.0', compareAtPrice: '12.00', barcode: null, options: [{ name: 'Size', value: 'M' }] }],
      images: [],
    };
    assert.deepEqual(previewChanges(input, [], current), []);
  });

  it('compareDrift: a mapping without a record of what was written is not compared; an orphan whose PIM id is mapped elsewhere says so', () => {
    const shop = (id: number, pim: number | null) => ({
      id: `gid://shopify/Product/${id}`,
      numericId: id,
      handle: `h${id}`,
      title: `t${id}`,
      descriptionHtml: '',
      vendor: '',
      productType: '',
      status: 'ACTIVE',
      tags: [],
      pimProductId: pim,
      variants: [],
      images: [],
    });
    const { counts, items } = compareDrift([{ pimProductId: 7, storefrontProductId: 1, state: { productId: 'x' } }], [shop(1, 7), shop(2, 7)], (p, w, m) =>
      driftChanges(w, catalogueView(p), m),
    );
    assert.equal(counts.not_compared, 1);
    assert.equal(counts.orphan_in_shop, 1);
    assert.deepEqual(items[0].fields, [{ field: 'pimbridge.pim_product_id', storefront: '7', written: null }]);
  });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
