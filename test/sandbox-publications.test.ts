// The sandbox's sales channels and a merchant's edits, over real HTTP on both databases: the default publications
// (Online Store, Point of Sale, Shop) and one added through the admin API; ACTIVE publishes nothing; publishablePublish
// and publishableUnpublish (all or nothing, scheduling on the online store only); the product's Publishable fields;
// productUpdate and productVariantsBulkUpdate with Shopify's userErrors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SandboxPublicationRepository } from '../src/sandbox/sandbox-publication.repository.js';
import { SandboxStoreRepository } from '../src/sandbox/sandbox-store.repository.js';
import { PublishablePublish, Publications } from '../src/storefront/shopify/operations.js';
import { freePort } from './helpers/connector.js';
import { sandboxCall, sandboxData, type Json } from './helpers/sandbox-graphql.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';

const CREATE = /* GraphQL */ `
  mutation Create($input: ProductSetInput!) {
    productSet(input: $input, synchronous: true) {
      product { id handle status variants(first: 10) { nodes { id } } }
      userErrors { field message code }
    }
  }
`;
const PUBLICATIONS = /* GraphQL */ `
  query Pubs($first: Int!, $after: String, $catalogType: CatalogType) {
    publications(first: $first, after: $after, catalogType: $catalogType) {
      nodes { id name autoPublish supportsFuturePublishing catalog { __typename id title status } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;
const PUBLICATION = /* GraphQL */ `
  query Pub($id: ID!) { publication(id: $id) { id catalog { title ... on AppCatalog { publication { id } } } products(first: 10) { nodes { id } } } }
`;
const PUBLISHED = /* GraphQL */ `
  query Published($id: ID!, $online: ID!, $pos: ID!, $shop: ID!, $extra: ID!) {
    product(id: $id) {
      publishedAt
      onlineStoreUrl
      online: publishedOnPublication(publicationId: $online)
      pos: publishedOnPublication(publicationId: $pos)
      shop: publishedOnPublication(publicationId: $shop)
      extra: publishedOnPublication(publicationId: $extra)
      publicationCount
      resourcePublicationsCount(onlyPublished: false) { count }
      published: resourcePublicationsV2(first: 10) { nodes { isPublished publishDate publication { id catalog { title } } publishable { ... on Product { id } } } }
      all: resourcePublicationsV2(first: 10, onlyPublished: false) { nodes { isPublished publishDate publication { id } } }
      unpublishedPublications(first: 10) { nodes { id } }
    }
  }
`;
const PUBLISH = /* GraphQL */ `
  mutation Publish($id: ID!, $input: [PublicationInput!]!) {
    publishablePublish(id: $id, input: $input) {
      publishable { ... on Product { id } }
      shop { id }
      userErrors { field message }
    }
  }
`;
const UNPUBLISH = /* GraphQL */ `
  mutation Unpublish($id: ID!, $input: [PublicationInput!]!) {
    publishableUnpublish(id: $id, input: $input) { publishable { ... on Product { id } } userErrors { field message } }
  }
`;
const PRODUCT_UPDATE = /* GraphQL */ `
  mutation Update($product: ProductUpdateInput, $identifier: ProductUpdateIdentifiers) {
    productUpdate(product: $product, identifier: $identifier) {
      product { id title handle status vendor descriptionHtml tags seo { title description } metafields(first: 10) { nodes { namespace key type value } } }
      userErrors { field message }
    }
  }
`;
const PRODUCT_UPDATE_DEPRECATED = /* GraphQL */ `
  mutation UpdateOld($input: ProductInput!) { productUpdate(input: $input) { product { id vendor } userErrors { field message } } }
`;
const VARIANTS_UPDATE = /* GraphQL */ `
  mutation Variants($productId: ID!, $variants: [ProductVariantsBulkInput!]!, $partial: Boolean) {
    productVariantsBulkUpdate(productId: $productId, variants: $variants, allowPartialUpdates: $partial) {
      product { id }
      productVariants { id price compareAtPrice }
      userErrors { field message code }
    }
  }
`;
const VARIANTS = /* GraphQL */ `
  query Variants($id: ID!) {
    shop { currencyCode }
    product(id: $id) {
      variants(first: 10) {
        nodes {
          id price compareAtPrice barcode sku inventoryPolicy
          inventoryItem { sku tracked unitCost { amount currencyCode } measurement { weight { unit value } } }
        }
      }
    }
  }
`;

for (const target of databaseTargets()) {
  describe(`Shopify sandbox publications and merchant edits (${target.name})`, () => {
    let h: Harness;
    let shopId: number;
    let organizationId: number;
    let token: string;
    let url: string;
    const domain = 'channels.myshopify.com';
    /** Publication ids by catalog title. */
    const pub: Record<string, string> = {};

    const gql = (query: string, variables: Json = {}) => sandboxCall(url, token, query, variables);
    const data = (query: string, variables: Json = {}) => sandboxData(url, token, query, variables);
    async function create(title: string, over: Json = {}): Promise<Json> {
      const res = (await data(CREATE, { input: { title, status: 'ACTIVE', ...over } })).productSet;
      assert.deepEqual(res.userErrors, []);
      return res.product;
    }
    const published = async (id: string) =>
      (await data(PUBLISHED, { id, online: pub['Online Store'], pos: pub['Point of Sale'], shop: pub.Shop, extra: pub.Wholesale })).product;
    const publish = async (id: string, input: Json[]) => (await data(PUBLISH, { id, input })).publishablePublish;

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      organizationId = (await h.tenant()).organizationId;
      const res = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: organizationId });
      assert.equal(res.statusCode, 201, res.body);
      shopId = res.json().id;
      token = res.json().access_token;
      url = `http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`;
    });
    after(async () => h.close());

    it('lists Online Store, Point of Sale and Shop (app catalogs), then a publication added through the admin API', async () => {
      const added = await h.admin('POST', `/admin/shops/${shopId}/sandbox/publications`, { name: 'Wholesale' });
      assert.equal(added.statusCode, 201, added.body);
      assert.match(added.json().id, /^gid:\/\/shopify\/Publication\/\d+$/);
      assert.equal(added.json().name, 'Wholesale');
      assert.equal((await h.admin('POST', `/admin/shops/${shopId}/sandbox/publications`, { name: 'Wholesale' })).statusCode, 409);
      assert.equal((await h.admin('POST', `/admin/shops/${shopId}/sandbox/publications`, { name: '' })).statusCode, 400);
      assert.equal((await h.admin('POST', `/admin/shops/${shopId}/sandbox/publications`, { title: 'x' })).statusCode, 400);
      assert.equal((await h.admin('POST', '/admin/shops/999999/sandbox/publications', { name: 'B2B' })).statusCode, 404);
      const real = await h.admin('POST', '/admin/shops', {
        domain: 'real-shop.myshopify.com',
        platform: 'shopify',
        organization_id: organizationId,
        access_token: 'shpat_x',
      });
      assert.equal(real.statusCode, 201, real.body);
      assert.equal((await h.admin('POST', `/admin/shops/${real.json().id}/sandbox/publications`, { name: 'B2B' })).statusCode, 400);

      const list = (await data(PUBLICATIONS, { first: 10 })).publications;
      assert.deepEqual(
        list.nodes.map((n: Json) => n.catalog.title),
        ['Online Store', 'Point of Sale', 'Shop', 'Wholesale'],
      );
      assert.deepEqual(
        list.nodes.map((n: Json) => n.name),
        ['Online Store', 'Point of Sale', 'Shop', 'Wholesale'],
        'the deprecated name still answers',
      );
      assert.ok(list.nodes.every((n: Json) => n.catalog.__typename === 'AppCatalog' && n.catalog.status === 'ACTIVE' && n.autoPublish === false));
      assert.deepEqual(
        list.nodes.map((n: Json) => n.supportsFuturePublishing),
        [true, false, false, false],
        'only the online store schedules',
      );
      assert.equal(list.nodes[3].id, added.json().id);
      for (const n of list.nodes) pub[n.catalog.title] = n.id;

      // The bridge's own document, paged.
      const first = (await data(Publications, { first: 2 })).publications;
      assert.equal(first.nodes.length, 2);
      assert.equal(first.pageInfo.hasNextPage, true);
      const second = (await data(Publications, { first: 2, after: first.pageInfo.endCursor })).publications;
      assert.deepEqual(
        second.nodes.map((n: Json) => n.catalog.title),
        ['Shop', 'Wholesale'],
      );
      assert.equal(second.pageInfo.hasNextPage, false);

      assert.equal((await data(PUBLICATIONS, { first: 10, catalogType: 'MARKET' })).publications.nodes.length, 0);
      assert.equal((await data(PUBLICATIONS, { first: 10, catalogType: 'APP' })).publications.nodes.length, 4);
      const one = (await data(PUBLICATION, { id: pub.Shop })).publication;
      assert.deepEqual([one.id, one.catalog.title, one.catalog.publication.id], [pub.Shop, 'Shop', pub.Shop]);
      assert.equal((await data(PUBLICATION, { id: 'gid://shopify/Publication/999999' })).publication, null);
    });

    it('an ACTIVE product made by productSet is published nowhere', async () => {
      const p = await create('Quiet Tent');
      assert.equal(p.status, 'ACTIVE');
      const state = await published(p.id);
      assert.deepEqual([state.online, state.pos, state.shop, state.extra], [false, false, false, false]);
      assert.equal(state.publishedAt, null);
      assert.equal(state.onlineStoreUrl, null);
      assert.deepEqual(state.published.nodes, []);
      assert.equal(state.publicationCount, 0);
      assert.equal(state.unpublishedPublications.nodes.length, 4);
    });

    it('publishes on Online Store and Shop only; resourcePublicationsV2 lists them; unpublishes from Shop', async () => {
      const p = await create('Storm Jacket');
      const res = (await data(PublishablePublish, { id: p.id, input: [{ publicationId: pub['Online Store'] }, { publicationId: pub.Shop }] }))
        .publishablePublish;
      assert.deepEqual(res.userErrors, []);
      let state = await published(p.id);
      assert.deepEqual([state.online, state.pos, state.shop, state.extra], [true, false, true, false]);
      assert.deepEqual(
        state.published.nodes.map((n: Json) => n.publication.catalog.title),
        ['Online Store', 'Shop'],
      );
      assert.ok(state.published.nodes.every((n: Json) => n.isPublished && n.publishable.id === p.id && Date.parse(n.publishDate) <= Date.now()));
      assert.match(state.publishedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(state.onlineStoreUrl, `https://${domain}/products/${p.handle}`);
      assert.equal(state.publicationCount, 2);
      assert.deepEqual(
        state.unpublishedPublications.nodes.map((n: Json) => n.id),
        [pub['Point of Sale'], pub.Wholesale],
      );
      assert.deepEqual(
        (await data(PUBLICATION, { id: pub.Shop })).publication.products.nodes.map((n: Json) => n.id),
        [p.id],
      );

      // Publishing again keeps the first date.
      assert.deepEqual((await publish(p.id, [{ publicationId: pub['Online Store'] }])).userErrors, []);
      assert.equal((await published(p.id)).publishedAt, state.publishedAt);

      const off = (await data(UNPUBLISH, { id: p.id, input: [{ publicationId: pub.Shop }] })).publishableUnpublish;
      assert.deepEqual(off, { publishable: { id: p.id }, userErrors: [] });
      state = await published(p.id);
      assert.deepEqual([state.online, state.pos, state.shop, state.extra], [true, false, false, false]);
      assert.deepEqual(
        state.published.nodes.map((n: Json) => n.publication.id),
        [pub['Online Store']],
      );
      assert.deepEqual((await data(PUBLICATION, { id: pub.Shop })).publication.products.nodes, []);
      const again = (await data(UNPUBLISH, { id: p.id, input: [{ publicationId: pub.Shop }] })).publishableUnpublish;
      assert.deepEqual(again.userErrors, [], 'unpublishing what is not published is no error');
    });

    it('an unknown publication or product is a userError and publishes nothing; the payload carries the shop', async () => {
      const p = await create('Camp Chair');
      const bad = await publish(p.id, [{ publicationId: pub['Online Store'] }, { publicationId: 'gid://shopify/Publication/999999' }]);
      assert.equal(bad.publishable, null);
      assert.deepEqual(bad.userErrors, [{ field: ['input', '1', 'publicationId'], message: 'Publication does not exist' }]);
      assert.match(bad.shop.id, /^gid:\/\/shopify\/Shop\/\d+$/);
      assert.equal((await published(p.id)).online, false, 'all or nothing');
      const unknown = await publish('gid://shopify/Product/999999', [{ publicationId: pub['Online Store'] }]);
      assert.deepEqual(unknown.userErrors, [{ field: ['id'], message: 'Product does not exist' }]);
      const unpub = (await data(UNPUBLISH, { id: p.id, input: [{ publicationId: 'gid://shopify/Publication/0' }] })).publishableUnpublish;
      assert.deepEqual(unpub.userErrors, [{ field: ['input', '0', 'publicationId'], message: 'Publication does not exist' }]);
      const variant = await gql(PUBLISH, { id: 'gid://shopify/ProductVariant/1', input: [{ publicationId: pub.Shop }] });
      assert.equal(variant.errors[0].extensions.code, 'NOT_IMPLEMENTED');
    });

    it('a future publishDate schedules on the online store only; a scheduled product is not published yet', async () => {
      const p = await create('Night Lamp');
      const future = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const refused = await publish(p.id, [{ publicationId: pub['Point of Sale'], publishDate: future }]);
      assert.equal(refused.userErrors[0].field.join('.'), 'input.0.publishDate');
      assert.deepEqual((await publish(p.id, [{ publicationId: pub['Online Store'], publishDate: future }])).userErrors, []);
      let state = await published(p.id);
      assert.equal(state.online, false);
      assert.equal(state.publishedAt, null);
      assert.deepEqual(state.published.nodes, []);
      assert.deepEqual(state.all.nodes, [{ isPublished: false, publishDate: future, publication: { id: pub['Online Store'] } }]);
      assert.equal(state.resourcePublicationsCount.count, 1);
      // Publishing without a date publishes now.
      assert.deepEqual((await publish(p.id, [{ publicationId: pub['Online Store'] }])).userErrors, []);
      state = await published(p.id);
      assert.equal(state.online, true);
      assert.ok(Date.parse(state.publishedAt) <= Date.now());
    });

    it('one call with a scheduled and an immediate entry writes both; a publication another process made is found', async () => {
      const p = await create('Two Ways');
      const future = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      assert.deepEqual((await publish(p.id, [{ publicationId: pub['Online Store'], publishDate: future }, { publicationId: pub.Shop }])).userErrors, []);
      const state = await published(p.id);
      assert.equal(state.online, false);
      assert.equal(state.shop, true);
      // The service has seen this store's publications; one written to the database by another repository (as another
      // process sharing it would) is still known at once.
      const store = (await new SandboxStoreRepository(h.database.db).findByDomain(domain))!;
      const made = (await new SandboxPublicationRepository(h.database.db).insert(store.id, 'Elsewhere'))!;
      const elsewhere = `gid://shopify/Publication/${made.id}`;
      assert.deepEqual((await publish(p.id, [{ publicationId: elsewhere }])).userErrors, []);
      assert.equal(
        (await data(`query($id: ID!, $p: ID!) { product(id: $id) { publishedOnPublication(publicationId: $p) } }`, { id: p.id, p: elsewhere })).product
          .publishedOnPublication,
        true,
      );
    });

    it('a DRAFT product on the online store has no storefront URL until it is ACTIVE; deleting it deletes its publications', async () => {
      const p = await create('Draft Stove', { status: 'DRAFT' });
      assert.deepEqual((await publish(p.id, [{ publicationId: pub['Online Store'] }])).userErrors, []);
      assert.equal((await published(p.id)).onlineStoreUrl, null);
      const active = (await data(PRODUCT_UPDATE, { product: { id: p.id, status: 'ACTIVE' } })).productUpdate;
      assert.deepEqual(active.userErrors, []);
      assert.equal((await published(p.id)).onlineStoreUrl, `https://${domain}/products/draft-stove`);
      const del = await data(`mutation D($id: ID!) { productDelete(input: { id: $id }) { deletedProductId } }`, { id: p.id });
      assert.equal(del.productDelete.deletedProductId, p.id);
      const listed = (await data(PUBLICATION, { id: pub['Online Store'] })).publication.products.nodes.map((n: Json) => n.id);
      assert.ok(!listed.includes(p.id));
      // No query reaches a deleted product: its publication rows, through the repository.
      assert.deepEqual(
        await new SandboxPublicationRepository(h.database.db).ofProduct(Number(p.id.split('/').pop())),
        [],
        'the publication rows went with the product',
      );
    });

    it('productUpdate changes title, SEO, tags and metafields (others kept); the deprecated input still works', async () => {
      const p = await create('Hiking Pole', {
        vendor: 'Acme',
        seo: { title: 'Pole', description: 'A pole' },
        tags: ['a', 'b'],
        metafields: [{ namespace: 'custom', key: 'care', type: 'single_line_text_field', value: 'dry' }],
      });
      const res = (
        await data(PRODUCT_UPDATE, {
          product: {
            id: p.id,
            title: 'Hiking Pole Pro',
            seo: { title: 'Pole Pro' },
            tags: ['c, d', 'c'],
            metafields: [{ namespace: 'custom', key: 'origin', type: 'single_line_text_field', value: 'AT' }],
          },
        })
      ).productUpdate;
      assert.deepEqual(res.userErrors, []);
      assert.equal(res.product.title, 'Hiking Pole Pro');
      assert.equal(res.product.handle, 'hiking-pole', 'the handle stays');
      assert.deepEqual(res.product.seo, { title: 'Pole Pro', description: 'A pole' });
      assert.deepEqual(res.product.tags, ['c', 'd'], 'tags are overwritten');
      assert.equal(res.product.vendor, 'Acme', 'fields not sent are kept');
      assert.deepEqual(
        res.product.metafields.nodes.map((m: Json) => `${m.key}=${m.value}`),
        ['care=dry', 'origin=AT'],
      );

      const byHandle = (await data(PRODUCT_UPDATE, { identifier: { handle: 'hiking-pole' }, product: { descriptionHtml: '<p>New</p>' } })).productUpdate;
      assert.equal(byHandle.product.descriptionHtml, '<p>New</p>');
      const old = (await data(PRODUCT_UPDATE_DEPRECATED, { input: { id: p.id, vendor: 'Other' } })).productUpdate;
      assert.deepEqual(old, { product: { id: p.id, vendor: 'Other' }, userErrors: [] });

      const missing = (await data(PRODUCT_UPDATE, { product: { id: 'gid://shopify/Product/999999', title: 'x' } })).productUpdate;
      assert.deepEqual(missing, { product: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] });
      await create('Taken Handle');
      const taken = (await data(PRODUCT_UPDATE, { product: { id: p.id, handle: 'taken-handle' } })).productUpdate;
      assert.deepEqual(
        taken.userErrors.map((e: Json) => e.field),
        [['handle']],
      );
      const blank = (await data(PRODUCT_UPDATE, { product: { id: p.id, title: '  ' } })).productUpdate;
      assert.deepEqual(blank.userErrors, [{ field: ['title'], message: "Title can't be blank" }]);
      const notKept = await gql(PRODUCT_UPDATE, { product: { id: p.id, templateSuffix: 'special' } });
      assert.equal(notKept.errors[0].extensions.code, 'NOT_IMPLEMENTED');
    });

    it('productVariantsBulkUpdate sets prices, barcode, policy and the inventory item; they read back', async () => {
      const p = await create('Trail Bottle', {
        productOptions: [{ name: 'Size', values: [{ name: 'S' }, { name: 'L' }] }],
        variants: [
          { price: '10', optionValues: [{ optionName: 'Size', name: 'S' }] },
          { price: '12', optionValues: [{ optionName: 'Size', name: 'L' }] },
        ],
      });
      const [s, l] = p.variants.nodes.map((v: Json) => v.id);
      const res = (
        await data(VARIANTS_UPDATE, {
          productId: p.id,
          variants: [
            {
              id: s,
              price: '9.5',
              compareAtPrice: '14.99',
              barcode: '4006381333931',
              inventoryPolicy: 'CONTINUE',
              inventoryItem: { sku: 'TB-S', tracked: false, cost: '3.2', measurement: { weight: { unit: 'GRAMS', value: 250 } } },
            },
          ],
        })
      ).productVariantsBulkUpdate;
      assert.deepEqual(res.userErrors, []);
      assert.deepEqual(res.productVariants, [{ id: s, price: '9.50', compareAtPrice: '14.99' }]);
      const { product, shop } = await data(VARIANTS, { id: p.id });
      const [vs, vl] = product.variants.nodes;
      assert.deepEqual(vs, {
        id: s,
        price: '9.50',
        compareAtPrice: '14.99',
        barcode: '4006381333931',
        sku: 'TB-S',
        inventoryPolicy: 'CONTINUE',
        inventoryItem: {
          sku: 'TB-S',
          tracked: false,
          unitCost: { amount: '3.20', currencyCode: shop.currencyCode },
          measurement: { weight: { unit: 'GRAMS', value: 250 } },
        },
      });
      assert.deepEqual([vl.id, vl.price, vl.compareAtPrice, vl.inventoryPolicy], [l, '12.00', null, 'DENY'], 'the other variant is untouched');

      const cleared = (await data(VARIANTS_UPDATE, { productId: p.id, variants: [{ id: s, compareAtPrice: null }] })).productVariantsBulkUpdate;
      assert.deepEqual(cleared.productVariants, [{ id: s, price: '9.50', compareAtPrice: null }]);
    });

    it("productVariantsBulkUpdate's userErrors carry ProductVariantsBulkUpdateUserErrorCode; all or nothing unless allowPartialUpdates", async () => {
      const p = await create('Gas Can');
      const other = await create('Other Can');
      const [v] = p.variants.nodes.map((x: Json) => x.id);
      const update = async (variants: Json[], productId = p.id, partial?: boolean) =>
        (await data(VARIANTS_UPDATE, { productId, variants, ...(partial !== undefined ? { partial } : {}) })).productVariantsBulkUpdate;

      const unknown = await update([
        { id: v, compareAtPrice: '20' },
        { id: 'gid://shopify/ProductVariant/999999', price: '1' },
      ]);
      assert.deepEqual(unknown, {
        product: null,
        productVariants: null,
        userErrors: [{ field: ['variants', '1', 'id'], message: 'Product variant does not exist.', code: 'PRODUCT_VARIANT_DOES_NOT_EXIST' }],
      });
      assert.equal((await data(VARIANTS, { id: p.id })).product.variants.nodes[0].compareAtPrice, null, 'nothing written');

      const partial = await update(
        [
          { id: v, compareAtPrice: '20' },
          { id: 'gid://shopify/ProductVariant/999999', price: '1' },
        ],
        p.id,
        true,
      );
      assert.deepEqual(partial.productVariants, [{ id: v, price: '0.00', compareAtPrice: '20.00' }]);
      assert.equal(partial.userErrors[0].code, 'PRODUCT_VARIANT_DOES_NOT_EXIST');

      assert.equal((await update([{ id: other.variants.nodes[0].id, price: '1' }])).userErrors[0].code, 'MUST_BE_FOR_THIS_PRODUCT');
      assert.equal((await update([{ price: '1' }])).userErrors[0].code, 'PRODUCT_VARIANT_ID_MISSING');
      assert.deepEqual((await update([{ id: v, price: '-1' }])).userErrors[0], {
        field: ['variants', '0', 'price'],
        message: 'Price must be greater than or equal to 0',
        code: 'GREATER_THAN_OR_EQUAL_TO',
      });
      assert.equal((await update([{ id: v, price: 'abc' }])).userErrors[0].code, 'INVALID_INPUT');
      const quantities = await update([{ id: v, inventoryQuantities: [{ locationId: 'gid://shopify/Location/1', availableQuantity: 3 }] }]);
      assert.equal(quantities.userErrors[0].code, 'NO_INVENTORY_QUANTITIES_ON_VARIANTS_UPDATE');
      const noProduct = await update([{ id: v, price: '1' }], 'gid://shopify/Product/999999');
      assert.deepEqual(noProduct.userErrors, [{ field: ['productId'], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' }]);
      const notKept = await gql(VARIANTS_UPDATE, { productId: p.id, variants: [{ id: v, taxCode: 'X1' }] });
      assert.equal(notKept.errors[0].extensions.code, 'NOT_IMPLEMENTED');
    });
  });
}
