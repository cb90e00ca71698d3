// The sandbox's catalogue over real HTTP with GraphQL documents (the adapter's from operations.ts where it has them):
// productSet's Shopify semantics (identifiers, handle suffixes, list replacement, files by id vs originalSource,
// limits), its cost figures, locations, products and productsCount; faults (error, timeout, fail-after-commit) with
// rates 0 and 1 and a seeded sequence; the bucket configured through the admin route; persistence across a restart.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { SandboxMetafieldRepository } from '../src/sandbox/sandbox-metafield.repository.js';
import { SandboxStoreRepository } from '../src/sandbox/sandbox-store.repository.js';
import { startApp } from '../src/server/start-app.js';
import { Locations, MetafieldDefinitionCreate, ProductSetSync } from '../src/storefront/shopify/operations.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, testConfig, type Harness } from './helpers/harness.js';
import { until } from './helpers/until.js';
import { CLI } from './helpers/cli-command.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

/** A fuller productSet selection than the adapter's, to check what was stored. */
const PRODUCT_SET_FULL = /* GraphQL */ `
  mutation ProductSetFull($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input, synchronous: true) {
      product {
        id
        handle
        title
        descriptionHtml
        vendor
        productType
        status
        tags
        seo { title description }
        options { name values }
        variants(first: 50) {
          nodes {
            id
            sku
            price
            compareAtPrice
            barcode
            position
            selectedOptions { name value }
            inventoryQuantity
            inventoryItem { inventoryLevels(first: 5) { nodes { location { id } quantities(names: ["available"]) { name quantity } } } }
          }
        }
        media(first: 50) { nodes { id alt status mediaContentType ... on MediaImage { image { url } } } }
        metafields(first: 20) { nodes { namespace key type value } }
      }
      productSetOperation { id }
      userErrors { field message code }
    }
  }
`;

/** The smallest selection: its cost is 10 + the input's share + 1 (userErrors) + 1 (product). */
const PRODUCT_SET_MIN = /* GraphQL */ `
  mutation ProductSetMin($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input) {
      product { id }
      userErrors { code }
    }
  }
`;

const PRODUCTS = /* GraphQL */ `
  query Products($first: Int!, $after: String, $query: String) {
    products(first: $first, after: $after, query: $query) {
      nodes { id handle }
      pageInfo { hasNextPage endCursor }
    }
  }
`;
const LOOKUP = /* GraphQL */ `
  query Lookup($identifier: ProductIdentifierInput!) {
    productByIdentifier(identifier: $identifier) { id handle tags variants(first: 250) { nodes { id sku } } media(first: 250) { nodes { id ... on MediaImage { originalSource { url } } } } }
  }
`;
const COUNT = /* GraphQL */ `query Count($query: String) { productsCount(query: $query) { count precision } }`;
const PRODUCT = /* GraphQL */ `
  query Product($id: ID!) { product(id: $id) { id handle title variantsCount { count } mediaCount { count } variants(first: 10) { nodes { id sku } } } }
`;
const DELETE = /* GraphQL */ `mutation Del($id: ID!) { productDelete(input: { id: $id }) { deletedProductId userErrors { field message } } }`;

type Json = Record<string, any>;

const fullInput = (over: Json = {}): Json => ({
  title: 'Trail Runner',
  descriptionHtml: '<p>Light and fast.</p>',
  vendor: 'Acme',
  productType: 'Shoes',
  status: 'ACTIVE',
  tags: ['running', 'trail'],
  seo: { title: 'Trail Runner', description: 'Light trail shoe' },
  productOptions: [
    { name: 'Size', values: [{ name: '42' }, { name: '43' }] },
    { name: 'Color', values: [{ name: 'Red' }] },
  ],
  variants: [
    {
      sku: 'TR-42',
      price: '99.9',
      compareAtPrice: '120',
      barcode: '4006381333931',
      optionValues: [
        { optionName: 'Size', name: '42' },
        { optionName: 'Color', name: 'Red' },
      ],
    },
    {
      sku: 'TR-43',
      price: '99.90',
      optionValues: [
        { optionName: 'Size', name: '43' },
        { optionName: 'Color', name: 'Red' },
      ],
    },
  ],
  files: [{ originalSource: 'https://cdn.example.com/tr-1.jpg', alt: 'side', contentType: 'IMAGE' }],
  metafields: [{ namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '1' }],
  ...over,
});

/**
 * PATCH /admin/shops/{id}/sandbox's app settings at their defaults (docs/sandbox/oauth.md) and the media sources'
 * (docs/sandbox/media.md: public addresses only); client_id is the store's.
 */
const APP_DEFAULTS = {
  token_lifetime_seconds: null,
  refresh_token_lifetime_seconds: 7776000,
  app_scopes: null,
  revoked_scopes: [],
  redirect_urls: null,
  allow_http_webhooks: false,
  compliance_url: null,
  allow_private_media_sources: false,
};

for (const target of databaseTargets()) {
  describe(`Shopify sandbox products (${target.name})`, () => {
    let h: Harness;
    let base: string;
    let shopId: number;
    let organizationId: number;
    let token: string;
    let url: string;
    const domain = 'catalogue.myshopify.com';

    async function gql(query: string, variables: Json = {}, signal?: AbortSignal): Promise<{ status: number; body: Json }> {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query, variables }),
        signal,
      });
      return { status: res.status, body: (await res.json()) as Json };
    }
    async function data(query: string, variables: Json = {}): Promise<Json> {
      const { status, body } = await gql(query, variables);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    }
    async function productSet(input: Json, identifier?: Json, doc = PRODUCT_SET_FULL): Promise<Json> {
      return (await data(doc, { input, ...(identifier ? { identifier } : {}) })).productSet;
    }
    const count = async (query?: string) => (await data(COUNT, query ? { query } : {})).productsCount.count as number;
    const configure = (body: Json) => h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, body);

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      base = `http://127.0.0.1:${port}`;
      organizationId = (await h.tenant()).organizationId;
      const res = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: organizationId });
      assert.equal(res.statusCode, 201, res.body);
      shopId = res.json().id;
      token = res.json().access_token;
      url = `${base}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`;
    });
    after(async () => h.close());

    it('a store has one active "Shop location" (made on first use), paged like Shopify', async () => {
      const first = await data(Locations, { first: 10 });
      assert.equal(first.locations.nodes.length, 1);
      assert.equal(first.locations.nodes[0].name, 'Shop location');
      assert.equal(first.locations.nodes[0].isActive, true);
      assert.match(first.locations.nodes[0].id, /^gid:\/\/shopify\/Location\/\d+$/);
      assert.equal(first.locations.pageInfo.hasNextPage, false);
      const again = await data(Locations, { first: 10 });
      assert.deepEqual(again.locations.nodes, first.locations.nodes, 'still one location');
    });

    it('creates a product with options, variants, inventory, files and metafields; the handle comes from the title', async () => {
      const location = (await data(Locations, { first: 1 })).locations.nodes[0].id;
      const input = fullInput();
      input.variants[0].inventoryQuantities = [{ locationId: location, name: 'available', quantity: 7 }];
      const res = await productSet(input);
      assert.deepEqual(res.userErrors, []);
      assert.equal(res.productSetOperation, null);
      const p = res.product;
      assert.match(p.id, /^gid:\/\/shopify\/Product\/\d+$/);
      assert.equal(p.handle, 'trail-runner');
      assert.equal(p.descriptionHtml, '<p>Light and fast.</p>');
      assert.deepEqual([p.vendor, p.productType, p.status], ['Acme', 'Shoes', 'ACTIVE']);
      assert.deepEqual(p.tags, ['running', 'trail']);
      assert.deepEqual(p.seo, { title: 'Trail Runner', description: 'Light trail shoe' });
      assert.deepEqual(p.options, [
        { name: 'Size', values: ['42', '43'] },
        { name: 'Color', values: ['Red'] },
      ]);
      assert.equal(p.variants.nodes.length, 2);
      const [v1, v2] = p.variants.nodes;
      assert.deepEqual([v1.sku, v1.price, v1.compareAtPrice, v1.barcode, v1.position], ['TR-42', '99.90', '120.00', '4006381333931', 1]);
      assert.deepEqual(v1.selectedOptions, [
        { name: 'Size', value: '42' },
        { name: 'Color', value: 'Red' },
      ]);
      assert.equal(v1.inventoryQuantity, 7);
      assert.deepEqual(v1.inventoryItem.inventoryLevels.nodes, [{ location: { id: location }, quantities: [{ name: 'available', quantity: 7 }] }]);
      assert.equal(v2.inventoryQuantity, 0);
      assert.equal(p.media.nodes.length, 1);
      // Media are processed after the answer (UPLOADED → PROCESSING → READY or FAILED; sandbox-media.test.ts): no image
      // before READY; then the sandbox's own URL, ending with the file name (the source's last segment), never the URL sent.
      const [m] = p.media.nodes;
      assert.deepEqual([m.alt, m.mediaContentType], ['side', 'IMAGE']);
      assert.ok(['UPLOADED', 'PROCESSING', 'READY', 'FAILED'].includes(m.status), m.status);
      assert.deepEqual(m.image, m.status === 'READY' ? { url: `${base}/sandbox/shopify/${domain}/cdn/files/${m.id.split('/').pop()}/tr-1.jpg` } : null);
      assert.ok(!JSON.stringify(p.media).includes('cdn.example.com'), 'never the URL it was sent');
      assert.deepEqual(p.metafields.nodes, [{ namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '1' }]);
    });

    it('a title-derived handle that is taken gets -1, -2; an explicit taken handle is HANDLE_NOT_UNIQUE and writes nothing', async () => {
      const a = await productSet({ title: 'Camp Stove' }, undefined, PRODUCT_SET_FULL);
      const b = await productSet({ title: 'Camp Stove' });
      const c = await productSet({ title: 'Camp Stove' });
      assert.deepEqual([a.product.handle, b.product.handle, c.product.handle], ['camp-stove', 'camp-stove-1', 'camp-stove-2']);
      assert.equal(a.product.variants.nodes.length, 1, 'a product without variants gets its default variant');
      assert.deepEqual(a.product.options, [{ name: 'Title', values: ['Default Title'] }]);
      const before = await count();
      const taken = await productSet({ title: 'Another stove', handle: 'camp-stove' });
      assert.equal(taken.product, null);
      assert.deepEqual(
        taken.userErrors.map((e: Json) => [e.code, e.field]),
        [['HANDLE_NOT_UNIQUE', ['input', 'handle']]],
      );
      assert.equal(await count(), before);
    });

    it('explicit handles of any script are kept exactly; products(query:) takes a list of handles and a metafield value (with a definition)', async () => {
      const handles = ['東京-tシャツ', 'рубашка-синяя', 'हिन्दी-किताब'];
      for (const handle of handles) assert.equal((await productSet({ title: `Unicode ${handle}`, handle })).product.handle, handle);
      const listed = (await data(PRODUCTS, { first: 10, query: `handle:${handles.join(',')},no-such-handle` })).products.nodes.map((n: Json) => n.handle);
      assert.deepEqual(listed.sort(), [...handles].sort());
      assert.equal((await productSet({ title: 'Taken again', handle: 'рубашка-синяя' })).userErrors[0].code, 'HANDLE_NOT_UNIQUE');

      // metafields.{namespace}.{key}:{value}: exact and case-sensitive, and only through a definition (Shopify filters
      // by a metafield whose definition has filtering enabled; without a definition the term matches nothing).
      const mf = (value: string) => [{ namespace: 'filters', key: 'ext_id', type: 'single_line_text_field', value }];
      const tagged = (await productSet({ title: 'Filtered A', metafields: mf('A-1') })).product.id;
      await productSet({ title: 'Filtered B', metafields: mf('a-1') });
      const query = 'metafields.filters.ext_id:"A-1"';
      assert.equal(await count(query), 0, 'no definition: nothing matches');
      const definition = { namespace: 'filters', key: 'ext_id', name: 'Ext id', type: 'single_line_text_field', ownerType: 'PRODUCT' };
      assert.deepEqual((await data(MetafieldDefinitionCreate, { definition })).metafieldDefinitionCreate.userErrors, []);
      assert.deepEqual(
        (await data(PRODUCTS, { first: 5, query })).products.nodes.map((n: Json) => n.id),
        [tagged],
      );
      assert.equal(await count('metafields.filters.ext_id:A-1'), 1, 'a bare value too');
    });

    it('updates by {id}: variants sent with ids keep them, variants/metafields left out are deleted, files by id are kept', async () => {
      const created = (
        await productSet(
          fullInput({
            title: 'Update Me',
            metafields: [
              { namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '2' },
              { namespace: 'custom', key: 'care', type: 'single_line_text_field', value: 'hand wash' },
            ],
          }),
        )
      ).product;
      const [v1] = created.variants.nodes;
      const [m1] = created.media.nodes;
      const res = await productSet(
        {
          title: 'Updated',
          productOptions: [{ name: 'Size', values: [{ name: '42' }] }],
          variants: [{ id: v1.id, sku: 'TR-42b', price: '89.00', optionValues: [{ optionName: 'Size', name: '42' }] }],
          files: [{ id: m1.id }],
          metafields: [{ namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '2' }],
        },
        { id: created.id },
      );
      assert.deepEqual(res.userErrors, []);
      const p = res.product;
      assert.equal(p.id, created.id);
      assert.equal(p.handle, 'update-me', 'the handle is kept on update');
      assert.equal(p.title, 'Updated');
      assert.deepEqual(
        p.variants.nodes.map((v: Json) => [v.id, v.sku, v.price]),
        [[v1.id, 'TR-42b', '89.00']],
      );
      assert.deepEqual(
        p.media.nodes.map((m: Json) => m.id),
        [m1.id],
      );
      assert.deepEqual(
        p.metafields.nodes.map((m: Json) => m.key),
        ['pim_product_id'],
      );
      assert.equal(p.vendor, 'Acme', 'fields not sent are kept');
    });

    it('files: originalSource sent again makes a new media each time (APPEND_UUID); {id} keeps; left out deletes', async () => {
      const created = (await productSet({ title: 'Images', files: [{ originalSource: 'https://cdn.example.com/a.jpg' }] })).product;
      const again = (await productSet({ files: [{ originalSource: 'https://cdn.example.com/a.jpg' }] }, { id: created.id })).product;
      assert.equal(again.media.nodes.length, 1);
      assert.notEqual(again.media.nodes[0].id, created.media.nodes[0].id, 'a new media, the old one deleted (left out)');
      const both = (await productSet({ files: [{ id: again.media.nodes[0].id }, { originalSource: 'https://cdn.example.com/a.jpg' }] }, { id: created.id }))
        .product;
      assert.equal(both.media.nodes.length, 2, 'the same image twice: duplicated, as Shopify does');
      assert.equal(both.media.nodes[0].id, again.media.nodes[0].id);
      const kept = (await productSet({ files: [{ id: both.media.nodes[0].id }] }, { id: created.id })).product;
      assert.deepEqual(
        kept.media.nodes.map((m: Json) => m.id),
        [both.media.nodes[0].id],
      );
      const foreign = await productSet({ files: [{ id: 'gid://shopify/MediaImage/999999' }] }, { id: created.id });
      assert.equal(foreign.userErrors[0].code, 'INVALID_INPUT');
    });

    it("updates by {handle} (creating it first when missing), with the adapter's ProductSetSync document", async () => {
      const before = await count();
      const first = (await data(ProductSetSync, { identifier: { handle: 'pim-product-77' }, input: { title: 'Handle Me' }, variants: 5, media: 5 })).productSet;
      assert.deepEqual(first.userErrors, []);
      assert.equal(first.product.handle, 'pim-product-77', "the identifier's handle is the new product's");
      const second = (await data(ProductSetSync, { identifier: { handle: 'pim-product-77' }, input: { title: 'Handle Me 2' }, variants: 5, media: 5 }))
        .productSet;
      assert.equal(second.product.id, first.product.id);
      assert.equal(second.product.title, 'Handle Me 2');
      assert.equal(await count(), before + 1);
      const lookup = await data(LOOKUP, { identifier: { handle: 'pim-product-77' } });
      assert.equal(lookup.productByIdentifier.id, first.product.id);
      assert.equal(lookup.productByIdentifier.variants.nodes.length, 1);
      const missing = await data(LOOKUP, { identifier: { handle: 'no-such-product' } });
      assert.equal(missing.productByIdentifier, null);
    });

    it('customId needs a unique-values definition; then it creates once and updates after', async () => {
      const customId = { namespace: 'pimbridge', key: 'pim_id', value: '501' };
      const refused = await productSet({ title: 'Custom' }, { customId });
      assert.equal(refused.product, null);
      assert.equal(refused.userErrors[0].code, 'INVALID_INPUT');
      assert.deepEqual(refused.userErrors[0].field, ['identifier', 'customId']);

      const definition = {
        namespace: 'pimbridge',
        key: 'pim_id',
        name: 'PIM id',
        type: 'single_line_text_field',
        ownerType: 'PRODUCT',
        capabilities: { uniqueValues: { enabled: true } },
      };
      const made = (await data(MetafieldDefinitionCreate, { definition })).metafieldDefinitionCreate;
      assert.deepEqual(made.userErrors, []);
      assert.match(made.createdDefinition.id, /^gid:\/\/shopify\/MetafieldDefinition\/\d+$/);
      const taken = (await data(MetafieldDefinitionCreate, { definition })).metafieldDefinitionCreate;
      assert.equal(taken.userErrors[0].code, 'TAKEN');

      const before = await count();
      const a = await productSet({ title: 'Custom', metafields: [] }, { customId });
      assert.deepEqual(a.userErrors, []);
      assert.deepEqual(a.product.metafields.nodes, [{ namespace: 'pimbridge', key: 'pim_id', type: 'single_line_text_field', value: '501' }]);
      const b = await productSet({ title: 'Custom again' }, { customId });
      assert.equal(b.product.id, a.product.id);
      assert.equal(await count(), before + 1);
      const found = await data(LOOKUP, { identifier: { customId } });
      assert.equal(found.productByIdentifier.id, a.product.id);
      // A unique value cannot be given to a second product.
      const dup = await productSet({ title: 'Other', metafields: [{ namespace: 'pimbridge', key: 'pim_id', type: 'single_line_text_field', value: '501' }] });
      assert.equal(dup.userErrors[0].code, 'DUPLICATED_METAFIELD_VALUE');

      // A definition another process made (written to the database by a repository of its own) is found at once, though
      // this process read the store's definitions a moment ago.
      const store = (await new SandboxStoreRepository(h.database.db).findByDomain(domain))!;
      assert.ok(
        await new SandboxMetafieldRepository(h.database.db).insertDefinition({
          storeId: store.id,
          ownerType: 'PRODUCT',
          namespace: 'erp',
          key: 'erp_id',
          name: 'ERP id',
          type: 'single_line_text_field',
          uniqueValues: true,
          validations: [],
        }),
      );
      const erp = await productSet({ title: 'From ERP' }, { customId: { namespace: 'erp', key: 'erp_id', value: 'E-1' } });
      assert.deepEqual(erp.userErrors, []);
    });

    it('concurrent upserts: one product per customId or handle, distinct suffixed handles for the same title', async () => {
      const customId = { namespace: 'pimbridge', key: 'pim_id', value: '900' };
      const before = await count();
      const same = await Promise.all(Array.from({ length: 8 }, () => productSet({ title: 'Race' }, { customId }, PRODUCT_SET_MIN)));
      assert.equal(new Set(same.map((r) => r.product.id)).size, 1);
      const byHandle = await Promise.all(Array.from({ length: 8 }, () => productSet({ title: 'Race' }, { handle: 'race-by-handle' }, PRODUCT_SET_MIN)));
      assert.equal(new Set(byHandle.map((r) => r.product.id)).size, 1);
      const titles = await Promise.all(Array.from({ length: 8 }, () => productSet({ title: 'Race Title' })));
      assert.deepEqual(titles.map((r) => r.product.handle).sort(), ['race-title', ...Array.from({ length: 7 }, (_, i) => `race-title-${i + 1}`)].sort());
      assert.equal(await count(), before + 10);
    });

    it('userErrors: ID_NOT_ALLOWED, PRODUCT_DOES_NOT_EXIST, limits, duplicate option values, unknown variant, missing title', async () => {
      const before = await count();
      const codes = async (input: Json, identifier?: Json) => {
        const res = await productSet(input, identifier);
        assert.equal(res.product, null);
        return res.userErrors.map((e: Json) => e.code);
      };
      const some = (await data(PRODUCTS, { first: 1 })).products.nodes[0].id;
      assert.deepEqual(await codes({ id: some, title: 'x' }, { handle: 'x' }), ['ID_NOT_ALLOWED']);
      assert.deepEqual(await codes({ title: 'x' }, { id: 'gid://shopify/Product/987654321' }), ['PRODUCT_DOES_NOT_EXIST']);
      const options = ['A', 'B', 'C', 'D'].map((name) => ({ name, values: [{ name: '1' }] }));
      const oneVariant = [{ optionValues: options.map((o) => ({ optionName: o.name, name: '1' })) }];
      assert.deepEqual(await codes({ title: 'x', productOptions: options, variants: oneVariant }), ['OPTIONS_OVER_LIMIT']);
      // Past 2048 variants the input array itself is refused, before anything runs (input-limits.ts).
      const many = Array.from({ length: 2049 }, (_, i) => ({ sku: `S${i}`, optionValues: [] }));
      const tooMany = (await gql(PRODUCT_SET_FULL, { input: { title: 'x', variants: many } })).body;
      assert.equal(tooMany.data, undefined);
      assert.equal(tooMany.errors[0].extensions.code, 'MAX_INPUT_SIZE_EXCEEDED');
      assert.deepEqual(tooMany.errors[0].path, ['productSet', 'input', 'variants']);
      assert.deepEqual(
        await codes({
          title: 'x',
          productOptions: [{ name: 'Size', values: [{ name: 'M' }, { name: 'M' }] }],
          variants: [{ optionValues: [{ optionName: 'Size', name: 'M' }] }],
        }),
        ['DUPLICATED_OPTION_VALUE'],
      );
      assert.deepEqual(await codes({ title: 'x', variants: [{ id: 'gid://shopify/ProductVariant/987654321', optionValues: [] }] }), ['INVALID_VARIANT']);
      assert.deepEqual(await codes({ descriptionHtml: 'no title' }), ['MISSING_FIELD_REQUIRED']);
      assert.deepEqual(await codes({ title: '  ' }), ['INVALID_INPUT']);
      assert.deepEqual(await codes({ title: 'x', variants: [{ price: 'ten', optionValues: [] }] }), ['INVALID_INPUT']);
      assert.equal(await count(), before, 'nothing was written');
    });

    it("productSet's cost: 10 + 0.2·variants + 0.6·variant files + 0.4·metafields + 1.9·product files (rounded up) + selection", async () => {
      const input = {
        title: 'Costly',
        productOptions: [{ name: 'Size', values: [{ name: 'S' }, { name: 'M' }, { name: 'L' }] }],
        variants: ['S', 'M', 'L'].map((s) => ({ sku: `C-${s}`, optionValues: [{ optionName: 'Size', name: s }] })),
        files: [{ originalSource: 'https://cdn.example.com/c1.jpg' }, { originalSource: 'https://cdn.example.com/c2.jpg' }],
        metafields: [{ namespace: 'custom', key: 'k', type: 'single_line_text_field', value: 'v' }],
      };
      // 0.2·3 + 1.9·2 + 0.4·1 = 4.8 → 5; requested 10 + 5 + product 1 + userErrors 1; actual without the empty userErrors.
      const { body } = await gql(PRODUCT_SET_MIN, { input });
      assert.deepEqual(body.data.productSet.userErrors, []);
      assert.equal(body.extensions.cost.requestedQueryCost, 17);
      assert.equal(body.extensions.cost.actualQueryCost, 16);
      const plain = await gql(PRODUCT_SET_MIN, { input: { title: 'Cheap' } });
      assert.equal(plain.body.extensions.cost.requestedQueryCost, 12);
    });

    it('products pages with cursors and filters; productsCount; product(id); productDelete', async () => {
      const total = await count();
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: Json = (await data(PRODUCTS, { first: 3, after })).products;
        seen.push(...page.nodes.map((n: Json) => n.id));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      assert.equal(seen.length, total);
      assert.equal(new Set(seen).size, total);
      assert.equal(await count('handle:camp-stove-1'), 1);
      const [stove] = (await data(PRODUCTS, { first: 5, query: 'handle:camp-stove-1' })).products.nodes;
      const one = (await data(PRODUCT, { id: stove.id })).product;
      assert.deepEqual([one.handle, one.variantsCount.count, one.mediaCount.count], ['camp-stove-1', 1, 0]);
      const del = (await data(DELETE, { id: stove.id })).productDelete;
      assert.deepEqual(del, { deletedProductId: stove.id, userErrors: [] });
      assert.equal((await data(PRODUCT, { id: stove.id })).product, null);
      assert.equal(await count(), total - 1);
      const again = (await data(DELETE, { id: stove.id })).productDelete;
      assert.equal(again.deletedProductId, null);
      assert.equal(again.userErrors.length, 1);
    });

    it("taxonomy categories (a subset of Shopify's): search, children, descendants, siblings, top level; Product.category", async () => {
      const categories = (args: string) =>
        data(`{ taxonomy { categories(first: 50${args}) { nodes { id name fullName level isLeaf isRoot parentId ancestorIds childrenIds } } } }`).then(
          (d) => d.taxonomy.categories.nodes as Json[],
        );
      const top = await categories('');
      assert.deepEqual(top.map((n) => n.name).sort(), ['Animals & Pet Supplies', 'Apparel & Accessories']);
      assert.ok(top.every((n) => n.isRoot && n.level === 1 && n.parentId === null));
      const tees = await categories(', search: "T-Shirts"');
      assert.deepEqual(tees.map((n) => n.id).sort(), ['gid://shopify/TaxonomyCategory/aa-1-1-2-2', 'gid://shopify/TaxonomyCategory/aa-1-13-8']);
      const tee = tees.find((n) => n.id.endsWith('/aa-1-13-8'))!;
      assert.deepEqual(
        [tee.name, tee.fullName, tee.level, tee.isLeaf, tee.parentId],
        ['T-Shirts', 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts', 4, true, 'gid://shopify/TaxonomyCategory/aa-1-13'],
      );
      assert.deepEqual(
        tee.ancestorIds,
        ['aa-1-13', 'aa-1', 'aa'].map((id) => `gid://shopify/TaxonomyCategory/${id}`),
      );
      assert.ok((await categories(', childrenOf: "gid://shopify/TaxonomyCategory/aa-1-13"')).every((n) => n.parentId.endsWith('/aa-1-13')));
      assert.ok(
        (await categories(', descendantsOf: "gid://shopify/TaxonomyCategory/ap"')).every((n) => n.ancestorIds.includes('gid://shopify/TaxonomyCategory/ap')),
      );
      assert.ok(
        (await categories(', siblingsOf: "gid://shopify/TaxonomyCategory/aa-1-13-8"')).every(
          (n) => n.parentId.endsWith('/aa-1-13') && !n.id.endsWith('/aa-1-13-8'),
        ),
      );
    });

    it('productSet takes category, giftCard (create only), taxable, requiresShipping, tracked, inventoryPolicy and weight units', async () => {
      const READ = `{ id isGiftCard category { id fullName } variants(first: 5) { nodes { id taxable inventoryPolicy inventoryItem { tracked requiresShipping measurement { weight { value unit } } } } } }`;
      const set = (input: Json, identifier?: Json) =>
        data(
          `mutation ($identifier: ProductSetIdentifiers, $input: ProductSetInput!) { productSet(identifier: $identifier, input: $input) { product ${READ} userErrors { field message code } } }`,
          {
            input,
            ...(identifier ? { identifier } : {}),
          },
        ).then((d) => d.productSet);
      const variant = (over: Json = {}) => ({ sku: 'GC-1', price: '25', optionValues: [{ optionName: 'Title', name: 'Default Title' }], ...over });
      const made = await set({
        title: 'Gift card',
        giftCard: true,
        category: 'gid://shopify/TaxonomyCategory/aa-2-17-2',
        productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
        variants: [
          variant({
            taxable: false,
            inventoryPolicy: 'CONTINUE',
            inventoryItem: { tracked: false, requiresShipping: false, measurement: { weight: { value: 3.5, unit: 'OUNCES' } } },
          }),
        ],
      });
      assert.deepEqual(made.userErrors, []);
      const p = made.product;
      assert.equal(p.isGiftCard, true);
      assert.deepEqual(p.category, {
        id: 'gid://shopify/TaxonomyCategory/aa-2-17-2',
        fullName: 'Apparel & Accessories > Clothing Accessories > Hats > Beanies',
      });
      const [v] = p.variants.nodes;
      assert.deepEqual(
        [v.taxable, v.inventoryPolicy, v.inventoryItem.tracked, v.inventoryItem.requiresShipping, v.inventoryItem.measurement.weight],
        [false, 'CONTINUE', false, false, { value: 3.5, unit: 'OUNCES' }],
      );
      // Left out on update: kept ("Any omitted fields will remain unchanged"); a new variant gets Shopify's defaults.
      const kept = await set(
        { productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }], variants: [{ ...variant(), id: v.id }] },
        { id: p.id },
      );
      assert.deepEqual(kept.userErrors, []);
      const [k] = kept.product.variants.nodes;
      assert.deepEqual([k.taxable, k.inventoryPolicy, k.inventoryItem.tracked, k.inventoryItem.requiresShipping], [false, 'CONTINUE', false, false]);
      assert.equal(kept.product.category.id, 'gid://shopify/TaxonomyCategory/aa-2-17-2');
      const fresh = await set({
        title: 'Plain',
        productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
        variants: [variant({ sku: 'PL-1' })],
      });
      const [f] = fresh.product.variants.nodes;
      assert.deepEqual(
        [fresh.product.isGiftCard, fresh.product.category, f.taxable, f.inventoryPolicy, f.inventoryItem.tracked, f.inventoryItem.requiresShipping],
        [false, null, true, 'DENY', true, true],
      );
      // A gift card stays one: "The product gift_card attribute cannot be changed after creation"; the same value is fine.
      const changed = await set({ giftCard: false }, { id: p.id });
      assert.deepEqual(changed.userErrors, [
        {
          field: ['input', 'giftCard'],
          message: 'The product gift_card attribute cannot be changed after creation.',
          code: 'GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED',
        },
      ]);
      assert.deepEqual((await set({ giftCard: true }, { id: p.id })).userErrors, []);
      // A category the taxonomy lacks is refused; null removes it.
      const unknown = await set({ category: 'gid://shopify/TaxonomyCategory/zz-9' }, { id: p.id });
      assert.deepEqual(
        unknown.userErrors.map((e: Json) => [e.field, e.code]),
        [[['input', 'category'], 'INVALID_INPUT']],
      );
      assert.equal((await set({ category: null }, { id: p.id })).product.category, null);
    });

    it('bucket size and restore rate through PATCH /admin/shops/{id}/sandbox; bad settings are 400, unknown shops 404', async () => {
      const res = await configure({ bucket_size: 30, restore_rate: 1 });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        id: shopId,
        domain,
        plan: 'Basic',
        bucket_size: 30,
        restore_rate: 1,
        error_rate: 0,
        timeout_rate: 0,
        fail_after_commit_rate: 0,
        latency_ms: 0,
        fault_seed: 1,
        variant_throttle_limit: null,
        locations: res.json().locations,
        // The store's app (docs/sandbox/oauth.md), at its defaults.
        ...APP_DEFAULTS,
        client_id: res.json().client_id,
      });
      assert.deepEqual(
        res.json().locations.map((l: { name: string }) => l.name),
        ['Shop location'],
      );
      const first = await gql(PRODUCT_SET_MIN, { input: { title: 'Bucket 1' } });
      assert.equal(first.body.extensions.cost.throttleStatus.maximumAvailable, 30);
      assert.equal(first.body.extensions.cost.throttleStatus.restoreRate, 1);
      await gql(PRODUCT_SET_MIN, { input: { title: 'Bucket 2' } });
      const before = await h.app.services.sandbox!.stores.find(domain);
      const third = await gql(PRODUCT_SET_MIN, { input: { title: 'Bucket 3' } });
      assert.equal(third.status, 200);
      assert.equal(third.body.errors[0].extensions.code, 'THROTTLED');
      assert.equal(third.body.data, undefined);
      assert.ok(before);
      assert.equal(await count('title:"Bucket 3"'), 0, 'a throttled call wrote nothing');
      const back = await configure({ bucket_size: null, restore_rate: null });
      assert.deepEqual([back.json().bucket_size, back.json().restore_rate], [2000, 100]);
      const refilled = await gql(COUNT, {});
      assert.equal(refilled.body.extensions.cost.throttleStatus.currentlyAvailable >= 1990, true, 'a new configuration starts with a full bucket');

      assert.equal((await configure({ error_rate: 2 })).statusCode, 400);
      assert.equal((await configure({})).statusCode, 400);
      assert.equal((await configure({ latency_ms: 5, extra: 1 })).statusCode, 400);
      assert.equal((await h.admin('PATCH', '/admin/shops/999999/sandbox', { error_rate: 0 })).statusCode, 404);
      const real = await h.admin('POST', '/admin/shops', {
        domain: 'real.myshopify.com',
        platform: 'shopify',
        organization_id: organizationId,
        access_token: 'shpat_x',
      });
      assert.equal(real.statusCode, 201, real.body);
      const notSandbox = await h.admin('PATCH', `/admin/shops/${real.json().id}/sandbox`, { error_rate: 0 });
      assert.equal(notSandbox.statusCode, 400);
      assert.match(notSandbox.json().error, /not a sandbox shop/);
    });

    it('error_rate 1: every call is a 5xx with a Shopify-like body and changes nothing; error_rate 0: none', async () => {
      const before = await count();
      await configure({ error_rate: 1 });
      const statuses = new Set<number>();
      for (let i = 0; i < 12; i++) {
        const res = await gql(PRODUCT_SET_MIN, { input: { title: `Fault ${i}` } });
        statuses.add(res.status);
        assert.ok(res.body.errors, 'a body with errors');
        if (res.status === 500) assert.equal(res.body.errors[0].extensions.code, 'INTERNAL_SERVER_ERROR');
      }
      assert.deepEqual([...statuses].sort(), [500, 502, 503]);
      await configure({ error_rate: 0 });
      assert.equal(await count(), before, 'failed calls wrote nothing');
    });

    it('a seeded fault sequence repeats: the same seed and rate give the same outcomes', async () => {
      const run = async () => {
        await configure({ error_rate: 0.5, fault_seed: 42 });
        const out: number[] = [];
        for (let i = 0; i < 10; i++) out.push((await gql(COUNT, {})).status);
        return out;
      };
      const a = await run();
      const b = await run();
      assert.deepEqual(a, b);
      assert.ok(a.some((s) => s === 200) && a.some((s) => s >= 500), `a mix: ${a.join(',')}`);
      await configure({ error_rate: 0, fault_seed: 1 });
    });

    it('timeout_rate 1: the answer is held until the client gives up, then released (no timer left); nothing written', async () => {
      const before = await count();
      await configure({ timeout_rate: 1 });
      await assert.rejects(gql(PRODUCT_SET_MIN, { input: { title: 'Held' } }, AbortSignal.timeout(200)), { name: 'TimeoutError' });
      // Up to 5 s for the release; the assertion below judges.
      await until('the held answer released', () => h.app.services.sandbox!.graphql.heldCount === 0, 5_000, 10).catch(() => undefined);
      await configure({ timeout_rate: 0 });
      assert.equal(h.app.services.sandbox!.graphql.heldCount, 0);
      assert.equal(await count(), before);
    });

    it('a held request does not keep the server from closing: shutdown drops it', { timeout: 30_000 }, async () => {
      const other = await startApp({ config: testConfig({ SHOPIFY_SANDBOX: 'true' }), database: h.database, logger: false });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const port = (other.server.address() as net.AddressInfo).port;
      await configure({ timeout_rate: 1 });
      try {
        const pending = fetch(`http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
          body: JSON.stringify({ query: COUNT }),
        });
        const failed = assert.rejects(pending);
        await until('the request held', () => other.services.sandbox!.graphql.heldCount > 0, 30_000, 10);
        await other.close(); // would wait for the 60 s hold without the release
        await failed;
        assert.equal(other.services.sandbox!.graphql.heldCount, 0);
      } finally {
        await configure({ timeout_rate: 0 });
      }
    });

    it('fail_after_commit_rate 1: the productSet commits but the client sees a 503; a retry by handle updates it', async () => {
      await configure({ fail_after_commit_rate: 1 });
      const lost = await gql(PRODUCT_SET_MIN, { identifier: { handle: 'lost-answer' }, input: { title: 'Lost answer' } });
      assert.equal(lost.status, 503);
      await configure({ fail_after_commit_rate: 0 });
      assert.equal(await count('handle:lost-answer'), 1, 'the write happened');
      const retry = await productSet({ title: 'Lost answer' }, { handle: 'lost-answer' });
      assert.equal(retry.product.handle, 'lost-answer');
      assert.equal(await count('handle:lost-answer'), 1, 'no duplicate');
    });

    it('products and settings live in the database: a new app on the same database answers them', async () => {
      await configure({ bucket_size: 500, restore_rate: 50 });
      const total = await count();
      const again = await startApp({ config: testConfig({ SHOPIFY_SANDBOX: 'true' }), database: h.database, logger: false });
      try {
        await again.listen({ port: 0, host: '127.0.0.1' });
        const port = (again.server.address() as net.AddressInfo).port;
        const res = await fetch(`http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
          body: JSON.stringify({ query: COUNT }),
        });
        const body = (await res.json()) as Json;
        assert.equal(body.data.productsCount.count, total);
        assert.equal(body.extensions.cost.throttleStatus.maximumAvailable, 500);
        assert.equal(body.extensions.cost.throttleStatus.restoreRate, 50);
      } finally {
        await again.close();
      }
      await configure({ bucket_size: null, restore_rate: null });
    });
  });
}

describe('pimbridge shop sandbox-config', () => {
  let h: Harness;
  let url: string;
  before(async () => {
    h = await harness(databaseTargets()[0], { SHOPIFY_SANDBOX: 'true' });
    url = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => h.close());

  it('wraps PATCH /admin/shops/{id}/sandbox', async () => {
    const { organizationId } = await h.tenant();
    const shop = (await h.admin('POST', '/admin/shops', { domain: 'cli-sandbox.myshopify.com', platform: 'sandbox', organization_id: organizationId })).json();
    const cli = (...args: string[]) =>
      run(process.execPath, [...CLI, '--url', url, '--admin-token', TEST_ADMIN_TOKEN, ...args], {
        cwd: ROOT,
        timeout: 60_000,
      });
    const out = JSON.parse(
      (
        await cli(
          'shop',
          'sandbox-config',
          String(shop.id),
          '--bucket-size',
          '2000',
          '--restore-rate',
          '100',
          '--error-rate',
          '0.3',
          '--timeout-rate',
          '0.1',
          '--latency-ms',
          '5',
          '--fault-seed',
          '7',
          '--variant-throttle-limit',
          '9',
          '--location',
          'Berlin',
          '--json',
        )
      ).stdout,
    );
    assert.deepEqual(
      { ...out, locations: out.locations.map((l: { name: string }) => l.name) },
      {
        id: shop.id,
        domain: 'cli-sandbox.myshopify.com',
        plan: 'Basic',
        bucket_size: 2000,
        restore_rate: 100,
        error_rate: 0.3,
        timeout_rate: 0.1,
        fail_after_commit_rate: 0,
        latency_ms: 5,
        fault_seed: 7,
        variant_throttle_limit: 9,
        locations: ['Shop location', 'Berlin'],
        ...APP_DEFAULTS,
        client_id: out.client_id,
      },
    );
    await assert.rejects(cli('shop', 'sandbox-config', String(shop.id), '--error-rate', '3'), /400/);
  });
});
