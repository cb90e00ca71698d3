// The sandbox's custom collections over real HTTP on both databases: collectionCreate (handles, metafields, manual
// selections, the refusal of conditions and of the deprecated `input`), collectionUpdate (title, handle, selections),
// collectionDelete (products stay), productSet `collections` replacing a product's memberships (also through a bulk
// mutation), the reads (collection, collectionByIdentifier, collections(query:), Product.collections, Collection.products,
// productsCount, hasProduct) and publishing a collection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { sandboxCall, sandboxData, type Json } from './helpers/sandbox-graphql.js';
import { until } from './helpers/until.js';

const FIELDS = /* GraphQL */ `
  fragment C on Collection {
    id legacyResourceId title handle descriptionHtml description sortOrder templateSuffix seo { title description } updatedAt ruleSet { appliedDisjunctively }
    productsCount { count precision }
    products(first: 10) { nodes { id title } }
    metafield(namespace: "pim", key: "category_id") { namespace key type value }
  }
`;
const CREATE = /* GraphQL */ `
  mutation Create($collection: CollectionCreateInput) {
    collectionCreate(collection: $collection) { collection { ...C } userErrors { field message } }
  }
  ${FIELDS}
`;
const CREATE_DEPRECATED = /* GraphQL */ `
  mutation CreateOld($input: CollectionInput) { collectionCreate(input: $input) { collection { id } userErrors { field message } } }
`;
const UPDATE = /* GraphQL */ `
  mutation Update($collection: CollectionUpdateInput) {
    collectionUpdate(collection: $collection) { collection { ...C sources { id } } job { id } userErrors { field message } }
  }
  ${FIELDS}
`;
const DELETE = /* GraphQL */ `
  mutation Delete($id: ID!) { collectionDelete(input: { id: $id }) { deletedCollectionId shop { id } userErrors { field message } } }
`;
const PRODUCT_SET = /* GraphQL */ `
  mutation Set($input: ProductSetInput!, $identifier: ProductSetIdentifiers) {
    productSet(input: $input, identifier: $identifier, synchronous: true) {
      product { id title collections(first: 10) { nodes { id handle } } }
      userErrors { field message code }
    }
  }
`;
const COLLECTION = /* GraphQL */ `
  query One($id: ID!, $product: ID!) { collection(id: $id) { ...C has: hasProduct(id: $product) } }
  ${FIELDS}
`;
const BY_IDENTIFIER = /* GraphQL */ `
  query By($identifier: CollectionIdentifierInput!) { collectionByIdentifier(identifier: $identifier) { id handle } }
`;
const LIST = /* GraphQL */ `
  query List($query: String, $first: Int, $last: Int, $after: String, $before: String, $sortKey: CollectionSortKeys, $reverse: Boolean) {
    collections(query: $query, first: $first, last: $last, after: $after, before: $before, sortKey: $sortKey, reverse: $reverse) {
      nodes { id title handle }
      pageInfo { hasNextPage hasPreviousPage endCursor startCursor }
    }
  }
`;
const PRODUCT = /* GraphQL */ `
  query P($id: ID!) { product(id: $id) { id collections(first: 10) { nodes { id title } } } }
`;
const PUBLICATIONS = /* GraphQL */ `query Pubs { publications(first: 10) { nodes { id catalog { title } } } }`;
const PUBLISH = /* GraphQL */ `
  mutation Publish($id: ID!, $input: [PublicationInput!]!) {
    publishablePublish(id: $id, input: $input) { publishable { ... on Collection { id title } } userErrors { field message } }
  }
`;
const UNPUBLISH = /* GraphQL */ `
  mutation Unpublish($id: ID!, $input: [PublicationInput!]!) {
    publishableUnpublish(id: $id, input: $input) { publishable { ... on Collection { id } } userErrors { field message } }
  }
`;
const PUBLISHED = /* GraphQL */ `
  query Published($id: ID!, $online: ID!, $pos: ID!) {
    collection(id: $id) {
      online: publishedOnPublication(publicationId: $online)
      pos: publishedOnPublication(publicationId: $pos)
      resourcePublicationsCount { count }
      resourcePublications(first: 5) { nodes { isPublished publication { id } publishable { ... on Collection { id } } } }
      resourcePublicationsV2(first: 5) { nodes { isPublished publication { id } } }
    }
    publication(id: $online) { hasCollection(id: $id) }
  }
`;
const STAGE = /* GraphQL */ `
  mutation Stage($input: [StagedUploadInput!]!) { stagedUploadsCreate(input: $input) { stagedTargets { url parameters { name value } } userErrors { message } } }
`;
const RUN = /* GraphQL */ `
  mutation Run($mutation: String!, $path: String!) {
    bulkOperationRunMutation(mutation: $mutation, stagedUploadPath: $path) { bulkOperation { id } userErrors { field message code } }
  }
`;
const STATE = /* GraphQL */ `query State($id: ID!) { bulkOperation(id: $id) { status errorCode url } }`;
const BULK_LINE = /* GraphQL */ `
  mutation Line($input: ProductSetInput!) { productSet(input: $input, synchronous: true) { product { id } userErrors { field message code } } }
`;

for (const target of databaseTargets()) {
  describe(`Shopify sandbox collections (${target.name})`, () => {
    let h: Harness;
    let token: string;
    let url: string;
    let base: string;
    const domain = 'collections.myshopify.com';
    const gql = (query: string, variables: Json = {}) => sandboxCall(url, token, query, variables);
    const data = (query: string, variables: Json = {}) => sandboxData(url, token, query, variables);
    const create = async (collection: Json) => (await data(CREATE, { collection })).collectionCreate;
    const product = async (title: string, collections?: string[]) => {
      const res = (await data(PRODUCT_SET, { input: { title, ...(collections ? { collections } : {}) } })).productSet;
      assert.deepEqual(res.userErrors, []);
      return res.product;
    };
    const membersOf = async (id: string) =>
      (await data(COLLECTION, { id, product: 'gid://shopify/Product/0' })).collection.products.nodes.map((n: Json) => n.title);
    const collectionsOf = async (id: string) => (await data(PRODUCT, { id })).product.collections.nodes.map((n: Json) => n.title);
    /** How many products are in the store's collections, all of them added up (each collection's productsCount). */
    const memberships = async () => {
      const { collections } = await data('{ collections(first: 250) { nodes { productsCount { count } } pageInfo { hasNextPage } } }');
      assert.equal(collections.pageInfo.hasNextPage, false);
      return (collections.nodes as { productsCount: { count: number } }[]).reduce((sum, c) => sum + c.productsCount.count, 0);
    };

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      token = (await h.app.services.sandbox!.stores.create(domain)).accessToken;
      base = `http://127.0.0.1:${port}/sandbox/shopify/${domain}`;
      url = `${base}/admin/api/2026-10/graphql.json`;
    });
    after(async () => h.close());

    it('creates a custom collection: handle from the title, made unique, a taken handle refused, metafields kept', async () => {
      const first = await create({
        title: 'Hiking Boots',
        descriptionHtml: '<p>Boots <b>for</b> trails</p>',
        seo: { title: 'Boots', description: 'Trail boots' },
        sortOrder: 'MANUAL',
        templateSuffix: 'wide',
        metafields: [{ namespace: 'pim', key: 'category_id', type: 'single_line_text_field', value: '42' }],
      });
      assert.deepEqual(first.userErrors, []);
      const c = first.collection;
      assert.match(c.id, /^gid:\/\/shopify\/Collection\/\d+$/);
      assert.equal(c.legacyResourceId, c.id.split('/').at(-1));
      assert.equal(c.handle, 'hiking-boots');
      assert.equal(c.description, 'Boots for trails');
      assert.deepEqual([c.sortOrder, c.templateSuffix, c.seo.title, c.ruleSet], ['MANUAL', 'wide', 'Boots', null]);
      assert.deepEqual(c.productsCount, { count: 0, precision: 'EXACT' });
      assert.deepEqual(c.metafield, { namespace: 'pim', key: 'category_id', type: 'single_line_text_field', value: '42' });

      assert.equal((await create({ title: 'Hiking Boots' })).collection.handle, 'hiking-boots-1');
      assert.equal((await create({ title: 'Hiking  boots!' })).collection.handle, 'hiking-boots-2');
      const defaults = (await create({ title: 'Socks' })).collection;
      assert.equal(defaults.sortOrder, 'BEST_SELLING');
      const taken = await create({ title: 'Other', handle: 'hiking-boots' });
      assert.equal(taken.collection, null);
      assert.deepEqual(taken.userErrors[0].field, ['collection', 'handle']);
      assert.equal((await create({ title: 'Given', handle: 'my-handle' })).collection.handle, 'my-handle');

      for (const [input, field] of [
        [{ title: '  ' }, ['collection', 'title']],
        [{ title: 'x'.repeat(256) }, ['collection', 'title']],
        [
          { title: 'Bad field', metafields: [{ namespace: 'pim', key: 'n', type: 'single_line_text_field', value: 'v' }] },
          ['collection', 'metafields', '0', 'key'],
        ],
        [
          { title: 'Bad value', metafields: [{ namespace: 'pim', key: 'count', type: 'number_integer', value: 'abc' }] },
          ['collection', 'metafields', '0', 'value'],
        ],
        [{ title: 'No type', metafields: [{ namespace: 'pim', key: 'count', value: '1' }] }, ['collection', 'metafields', '0', 'type']],
      ] as const) {
        const res = await create(input);
        assert.equal(res.collection, null, JSON.stringify(input));
        assert.deepEqual(res.userErrors[0].field, field);
      }
      assert.equal((await data(LIST, { first: 50, query: 'title:"Bad value"' })).collections.nodes.length, 0, 'nothing written on a userError');
    });

    it('refuses conditions (smart collections) and answers the deprecated `input` with an error', async () => {
      const smart = await create({
        title: 'Red things',
        sources: [{ source: { title: 'Tag', inclusion: { conditions: [{ productTag: { matchType: 'ANY', relation: 'TAGGED_WITH', values: ['red'] } }] } } }],
      });
      assert.equal(smart.collection, null);
      assert.match(smart.userErrors[0].message, /custom collections only/);
      assert.deepEqual(smart.userErrors[0].field, ['collection', 'sources', '0', 'source']);
      const subs = await create({ title: 'Subs', sources: [{ subCollections: { title: 'S', collectionIds: [] } }] });
      assert.equal(subs.collection, null);
      assert.match(subs.userErrors[0].message, /custom collections only/);

      const old = await gql(CREATE_DEPRECATED, { input: { title: 'Legacy' } });
      assert.equal(old.data.collectionCreate, null);
      assert.equal(old.errors[0].extensions.code, 'NOT_IMPLEMENTED');
      assert.match(old.errors[0].message, /`collection` argument/);
      assert.equal((await data(LIST, { first: 50, query: 'title:Legacy' })).collections.nodes.length, 0);
    });

    it('takes manual selections on create, and adds and removes them on update; renames keep the handle', async () => {
      const a = await product('Alpha');
      const b = await product('Bravo');
      const made = await create({
        title: 'Picked',
        sortOrder: 'MANUAL',
        sources: [{ source: { title: 'Manual', inclusion: { selections: [{ productId: b.id }, { productId: a.id }] } } }],
      });
      assert.deepEqual(made.userErrors, []);
      assert.deepEqual(
        made.collection.products.nodes.map((n: Json) => n.title),
        ['Bravo', 'Alpha'],
      );
      const bad = await create({
        title: 'Ghost',
        sources: [{ source: { title: 'M', inclusion: { selections: [{ productId: 'gid://shopify/Product/999999' }] } } }],
      });
      assert.deepEqual(bad.userErrors[0].field, ['collection', 'sources', '0', 'source', 'inclusion', 'selections', '0', 'productId']);

      const id = made.collection.id;
      const c = await product('Charlie');
      const source = `gid://shopify/CollectionConditionsSource/${id.split('/').at(-1)}`;
      const upd = (
        await data(UPDATE, {
          collection: {
            id,
            title: 'Picked again',
            descriptionHtml: '<p>New</p>',
            metafields: [{ namespace: 'pim', key: 'category_id', type: 'single_line_text_field', value: '7' }],
            sourcesToUpdate: [{ condition: { id: source, inclusion: { selectionsToAdd: [{ productId: c.id }], selectionsToRemove: [{ productId: b.id }] } } }],
          },
        })
      ).collectionUpdate;
      assert.deepEqual(upd.userErrors, []);
      assert.equal(upd.job, null);
      assert.deepEqual([upd.collection.title, upd.collection.handle, upd.collection.description], ['Picked again', 'picked', 'New']);
      assert.equal(upd.collection.metafield.value, '7');
      assert.deepEqual(upd.collection.sources, [{ id: source }]);
      assert.deepEqual(
        upd.collection.products.nodes.map((n: Json) => n.title),
        ['Alpha', 'Charlie'],
        'Charlie joins at the end',
      );

      const renamed = (await data(UPDATE, { collection: { id, handle: 'picked-renamed', redirectNewHandle: true } })).collectionUpdate;
      assert.equal(renamed.collection.handle, 'picked-renamed');
      const clash = (await data(UPDATE, { collection: { id, handle: 'hiking-boots' } })).collectionUpdate;
      assert.deepEqual(clash.userErrors[0].field, ['collection', 'handle']);
      const smart = (await data(UPDATE, {
        collection: {
          id,
          sourcesToUpdate: [
            { condition: { id: source, inclusion: { conditionsToCreate: [{ productTag: { matchType: 'ANY', relation: 'TAGGED_WITH', values: ['x'] } }] } } },
          ],
        },
      })) as Json;
      assert.match(smart.collectionUpdate.userErrors[0].message, /custom collections only/);
      const unknown = (await data(UPDATE, { collection: { id: 'gid://shopify/Collection/999999', title: 'X' } })).collectionUpdate;
      assert.equal(unknown.collection, null);
      assert.deepEqual(unknown.userErrors, [{ field: ['collection', 'id'], message: 'Collection does not exist' }]);
    });

    it('productSet `collections` replaces the memberships: join, leave, unchanged when absent, unknown id refused', async () => {
      const x = (await create({ title: 'Xray', sortOrder: 'MANUAL' })).collection.id;
      const y = (await create({ title: 'Yankee', sortOrder: 'MANUAL' })).collection.id;
      const z = (await create({ title: 'Zulu', sortOrder: 'MANUAL' })).collection.id;
      const first = await product('First', [x]);
      assert.deepEqual(
        first.collections.nodes.map((n: Json) => n.id),
        [x],
      );
      const p = await product('Member', [x, y]);
      assert.deepEqual(await collectionsOf(p.id), ['Xray', 'Yankee']);
      assert.deepEqual(await membersOf(x), ['First', 'Member'], 'added at the end');

      const set = (input: Json) => data(PRODUCT_SET, { identifier: { id: p.id }, input });
      assert.deepEqual((await set({ title: 'Member', collections: [y, z] })).productSet.userErrors, []);
      assert.deepEqual(await collectionsOf(p.id), ['Yankee', 'Zulu']);
      assert.deepEqual(await membersOf(x), ['First'], 'left Xray');

      assert.deepEqual((await set({ title: 'Member renamed' })).productSet.userErrors, []);
      assert.deepEqual(await collectionsOf(p.id), ['Yankee', 'Zulu'], 'unchanged when collections is absent');

      const before = await memberships();
      const refused = (await set({ title: 'Must not stick', collections: [x, 'gid://shopify/Collection/999999'] })).productSet;
      assert.equal(refused.product, null);
      assert.deepEqual(refused.userErrors, [{ field: ['input', 'collections', '1'], message: 'Collection does not exist', code: 'NOT_FOUND' }]);
      assert.deepEqual(await collectionsOf(p.id), ['Yankee', 'Zulu']);
      assert.equal(await memberships(), before, 'no membership written');
      assert.equal((await data(PRODUCT, { id: p.id })).product.id, p.id);
      assert.equal((await data(COLLECTION, { id: y, product: p.id })).collection.has, true);
      assert.equal((await data(COLLECTION, { id: x, product: p.id })).collection.has, false);
      const created = (await data(PRODUCT_SET, { input: { title: 'Nope', collections: ['gid://shopify/Collection/999999'] } })).productSet;
      assert.equal(created.product, null);
      assert.equal((await data(LIST, { first: 5, query: 'title:Nope' })).collections.nodes.length, 0);

      assert.deepEqual((await set({ collections: [] })).productSet.userErrors, []);
      assert.deepEqual(await collectionsOf(p.id), []);
    });

    it('sets memberships through a bulk productSet mutation', async () => {
      const bulkCollection = (await create({ title: 'Bulk', sortOrder: 'MANUAL' })).collection.id;
      const staged = (await gql(STAGE, { input: [{ resource: 'BULK_MUTATION_VARIABLES', filename: 'p.jsonl', mimeType: 'text/jsonl', httpMethod: 'POST' }] }))
        .data.stagedUploadsCreate.stagedTargets[0];
      const form = new FormData();
      for (const p of staged.parameters) form.append(p.name, p.value);
      const lines = ['Bulk one', 'Bulk two'].map((title) => JSON.stringify({ input: { title, collections: [bulkCollection] } })).join('\n');
      form.append('file', new Blob([`${lines}\n`], { type: 'text/jsonl' }), 'p.jsonl');
      assert.equal((await fetch(staged.url, { method: 'POST', body: form })).status, 201);
      const path = staged.parameters.find((p: Json) => p.name === 'key').value;
      const run = (await gql(RUN, { mutation: BULK_LINE, path })).data.bulkOperationRunMutation;
      assert.deepEqual(run.userErrors, []);
      const op = await until(
        'the bulk operation to finish',
        async () => {
          const s = (await gql(STATE, { id: run.bulkOperation.id })).data.bulkOperation;
          if (s.status !== 'COMPLETED') throw new Error(s.status);
          return s;
        },
        30_000,
        20,
      );
      const results = (await (await fetch(op.url)).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.ok(
        results.every((r) => r.data.productSet.userErrors.length === 0),
        JSON.stringify(results),
      );
      assert.deepEqual((await membersOf(bulkCollection)).sort(), ['Bulk one', 'Bulk two']);
    });

    it('finds collections by id, handle and customId, and filters collections(query:)', async () => {
      const boots = (await data(LIST, { first: 1, query: 'handle:hiking-boots' })).collections.nodes[0];
      assert.equal(boots.title, 'Hiking Boots');
      assert.equal((await data(BY_IDENTIFIER, { identifier: { id: boots.id } })).collectionByIdentifier.handle, 'hiking-boots');
      assert.equal((await data(BY_IDENTIFIER, { identifier: { handle: 'hiking-boots-1' } })).collectionByIdentifier.handle, 'hiking-boots-1');
      assert.equal(
        (await data(BY_IDENTIFIER, { identifier: { customId: { namespace: 'pim', key: 'category_id', value: '42' } } })).collectionByIdentifier.id,
        boots.id,
      );
      assert.equal((await data(BY_IDENTIFIER, { identifier: { handle: 'nope' } })).collectionByIdentifier, null);

      const titles = async (query: string, more: Json = {}) => (await data(LIST, { first: 50, query, ...more })).collections.nodes.map((n: Json) => n.title);
      assert.deepEqual(await titles('title:"hiking boots"'), ['Hiking Boots', 'Hiking Boots']);
      assert.deepEqual(await titles('collection_type:smart'), []);
      assert.ok((await titles('collection_type:custom')).length >= 10);
      assert.deepEqual(await titles('Yank'), ['Yankee']);
      const member = (await data(PRODUCT_SET, { input: { title: 'Filter me', collections: [boots.id] } })).productSet.product;
      assert.deepEqual(await titles(`product_id:${member.id.split('/').at(-1)}`), ['Hiking Boots']);
      assert.deepEqual(await titles(`id:${boots.id.split('/').at(-1)}`), ['Hiking Boots']);

      // Paging both ways, sorted by title.
      const page1 = (await data(LIST, { first: 2, sortKey: 'TITLE' })).collections;
      assert.equal(page1.pageInfo.hasNextPage, true);
      const page2 = (await data(LIST, { first: 2, after: page1.pageInfo.endCursor, sortKey: 'TITLE' })).collections;
      const all = (await data(LIST, { first: 50, sortKey: 'TITLE' })).collections.nodes.map((n: Json) => n.title);
      assert.deepEqual(
        [...page1.nodes, ...page2.nodes].map((n: Json) => n.title),
        all.slice(0, 4),
      );
      assert.deepEqual(
        all,
        [...all].sort((a: string, b: string) => a.localeCompare(b)),
      );
      const back = (await data(LIST, { last: 1, before: page2.pageInfo.startCursor, sortKey: 'TITLE' })).collections;
      assert.deepEqual(
        back.nodes.map((n: Json) => n.title),
        [all[1]],
      );
      const reversed = (await data(LIST, { first: 50, sortKey: 'TITLE', reverse: true })).collections.nodes.map((n: Json) => n.title);
      assert.deepEqual(reversed, [...all].reverse());
    });

    it("charges Shopify's calculated cost: a mutation 10, objects 1, connections 2 + nodes × floor(2·ln n)", async () => {
      const made = await gql(`mutation { collectionCreate(collection: { title: "Costly" }) { collection { id } userErrors { field } } }`);
      assert.equal(made.extensions.cost.requestedQueryCost, 10 + 1 + 1);
      const id = made.data.collectionCreate.collection.id;
      const read = await gql(`query($id: ID!) { collection(id: $id) { id productsCount { count } products(first: 10) { nodes { id } } } }`, { id });
      // collection 1 + productsCount 1 + products 2 + 1 × floor(2·ln 10) = 4
      assert.equal(read.extensions.cost.requestedQueryCost, 1 + 1 + 2 + 4);
      assert.equal(read.extensions.cost.actualQueryCost, 1 + 1 + 2, 'no product returned: the connection costs its 2');
    });

    it('deletes a collection and keeps its products', async () => {
      const p = await product('Survivor');
      const c = (await create({ title: 'Doomed', sources: [{ source: { title: 'M', inclusion: { selections: [{ productId: p.id }] } } }] })).collection;
      assert.equal(c.productsCount.count, 1);
      const res = (await data(DELETE, { id: c.id })).collectionDelete;
      assert.deepEqual([res.deletedCollectionId, res.userErrors], [c.id, []]);
      assert.equal((await data(COLLECTION, { id: c.id, product: p.id })).collection, null);
      assert.deepEqual(await collectionsOf(p.id), []);
      assert.equal((await data(PRODUCT, { id: p.id })).product.id, p.id, 'the product remains');
      const again = (await data(DELETE, { id: c.id })).collectionDelete;
      assert.equal(again.deletedCollectionId, null);
    });

    it('publishes and unpublishes a collection (created unpublished)', async () => {
      const pubs = Object.fromEntries((await data(PUBLICATIONS)).publications.nodes.map((n: Json) => [n.catalog.title, n.id]));
      const c = (await create({ title: 'On show' })).collection;
      const state = async () => (await data(PUBLISHED, { id: c.id, online: pubs['Online Store'], pos: pubs['Point of Sale'] })) as Json;
      assert.equal((await state()).collection.online, false, 'unpublished by default');
      assert.equal((await state()).collection.resourcePublicationsCount.count, 0);

      const res = (await data(PUBLISH, { id: c.id, input: [{ publicationId: pubs['Online Store'] }] })).publishablePublish;
      assert.deepEqual(res.userErrors, []);
      assert.deepEqual(res.publishable, { id: c.id, title: 'On show' });
      const on = await state();
      assert.deepEqual([on.collection.online, on.collection.pos, on.publication.hasCollection], [true, false, true]);
      assert.equal(on.collection.resourcePublications.nodes[0].publishable.id, c.id);
      assert.equal(on.collection.resourcePublicationsV2.nodes[0].publication.id, pubs['Online Store']);

      const future = new Date(Date.now() + 86_400_000).toISOString();
      const refused = (await data(PUBLISH, { id: c.id, input: [{ publicationId: pubs['Point of Sale'], publishDate: future }] })).publishablePublish;
      assert.deepEqual(refused.userErrors[0].field, ['input', '0', 'publishDate'], 'only the online store schedules');
      const ghost = (await data(PUBLISH, { id: 'gid://shopify/Collection/999999', input: [{ publicationId: pubs['Online Store'] }] })).publishablePublish;
      assert.deepEqual(ghost.userErrors, [{ field: ['id'], message: 'Collection does not exist' }]);

      const off = (await data(UNPUBLISH, { id: c.id, input: [{ publicationId: pubs['Online Store'] }] })).publishableUnpublish;
      assert.deepEqual(off.userErrors, []);
      assert.equal((await state()).collection.online, false);
    });
  });
}
