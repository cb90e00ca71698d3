// The sandbox's languages and translations over real HTTP, on both databases (docs/sandbox/translations.md): shopLocales
// with the lazy primary `en`, shopLocaleEnable/Update/Disable and their userErrors, a product's translatable content with
// Shopify's digests (SHA-256 of the value), translationsRegister's checks (all or nothing), outdated translations after
// the content changes, translationsRemove, translatableResources / translatableResourcesByIds.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { freePort } from './helpers/connector.js';
import { sandboxCall, sandboxData, type Json } from './helpers/sandbox-graphql.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const CREATE = /* GraphQL */ `
  mutation Create($input: ProductSetInput!) {
    productSet(input: $input, synchronous: true) { product { id } userErrors { field message code } }
  }
`;
const LOCALES = /* GraphQL */ `
  query Locales($published: Boolean) { shopLocales(published: $published) { locale name primary published } }
`;
const ENABLE = /* GraphQL */ `
  mutation Enable($locale: String!) { shopLocaleEnable(locale: $locale) { shopLocale { locale name primary published } userErrors { field message } } }
`;
const UPDATE = /* GraphQL */ `
  mutation Update($locale: String!, $published: Boolean!) {
    shopLocaleUpdate(locale: $locale, shopLocale: { published: $published }) { shopLocale { locale published } userErrors { field message } }
  }
`;
const DISABLE = /* GraphQL */ `
  mutation Disable($locale: String!) { shopLocaleDisable(locale: $locale) { locale userErrors { field message } } }
`;
const RESOURCE = /* GraphQL */ `
  query Resource($id: ID!, $locale: String!, $outdated: Boolean) {
    translatableResource(resourceId: $id) {
      resourceId
      translatableContent { key value digest locale type }
      translations(locale: $locale, outdated: $outdated) { key value locale outdated updatedAt }
    }
  }
`;
const REGISTER = /* GraphQL */ `
  mutation Register($id: ID!, $translations: [TranslationInput!]!) {
    translationsRegister(resourceId: $id, translations: $translations) { translations { key locale value outdated } userErrors { field message code } }
  }
`;
const REMOVE = /* GraphQL */ `
  mutation Remove($id: ID!, $keys: [String!]!, $locales: [String!]!) {
    translationsRemove(resourceId: $id, translationKeys: $keys, locales: $locales) { translations { key locale } userErrors { field message code } }
  }
`;

for (const target of databaseTargets()) {
  describe(`Shopify sandbox languages and translations (${target.name})`, () => {
    let h: Harness;
    let token: string;
    let url: string;
    const domain = 'translations.myshopify.com';
    const gql = (query: string, variables: Json = {}) => sandboxCall(url, token, query, variables);
    const data = (query: string, variables: Json = {}) => sandboxData(url, token, query, variables);
    const create = async (input: Json) => {
      const res = (await data(CREATE, { input })).productSet;
      assert.deepEqual(res.userErrors, []);
      return res.product.id as string;
    };
    const content = async (id: string) =>
      Object.fromEntries(((await data(RESOURCE, { id, locale: 'de' })).translatableResource.translatableContent as Json[]).map((c) => [c.key, c]));

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      const { organizationId } = await h.tenant();
      const res = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: organizationId });
      assert.equal(res.statusCode, 201, res.body);
      token = res.json().access_token;
      url = `http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`;
    });
    after(async () => h.close());

    it('shopLocales: the primary en, published; enable adds an unpublished locale; update publishes; the filter', async () => {
      assert.deepEqual((await data(LOCALES)).shopLocales, [{ locale: 'en', name: 'English', primary: true, published: true }]);
      const de = (await data(ENABLE, { locale: 'de' })).shopLocaleEnable;
      assert.deepEqual(de, { shopLocale: { locale: 'de', name: 'German', primary: false, published: false }, userErrors: [] });
      // A code in another case is Shopify's spelling of it.
      const frCa = (await data(ENABLE, { locale: 'fr-ca' })).shopLocaleEnable;
      assert.equal(frCa.shopLocale.locale, 'fr-CA');
      assert.deepEqual((await data(ENABLE, { locale: 'de' })).shopLocaleEnable.userErrors, [], 'enabling twice is no error');
      assert.deepEqual((await data(UPDATE, { locale: 'de', published: true })).shopLocaleUpdate, {
        shopLocale: { locale: 'de', published: true },
        userErrors: [],
      });
      assert.deepEqual(
        ((await data(LOCALES, { published: true })).shopLocales as Json[]).map((l) => l.locale),
        ['en', 'de'],
      );
      // published: false (the argument's default) filters nothing.
      assert.deepEqual(
        ((await data(LOCALES, { published: false })).shopLocales as Json[]).map((l) => l.locale),
        ['en', 'de', 'fr-CA'],
      );
    });

    it('shopLocale userErrors: an unknown code, a locale not enabled, the primary locale', async () => {
      for (const locale of ['xx', 'not a locale', 'zz-ZZ']) {
        const r = (await data(ENABLE, { locale })).shopLocaleEnable;
        assert.equal(r.shopLocale, null);
        assert.deepEqual(r.userErrors, [{ field: ['locale'], message: 'Locale is invalid' }]);
      }
      assert.deepEqual((await data(UPDATE, { locale: 'ja', published: true })).shopLocaleUpdate.userErrors, [
        { field: ['locale'], message: 'Locale is invalid' },
      ]);
      assert.deepEqual((await data(DISABLE, { locale: 'ja' })).shopLocaleDisable, {
        locale: null,
        userErrors: [{ field: ['locale'], message: 'Locale is invalid' }],
      });
      const primary = (await data(DISABLE, { locale: 'en' })).shopLocaleDisable;
      assert.equal(primary.locale, null);
      assert.deepEqual(primary.userErrors[0].field, ['locale']);
      assert.equal((await data(UPDATE, { locale: 'en', published: false })).shopLocaleUpdate.userErrors.length, 1);
      assert.equal(((await data(LOCALES)).shopLocales as Json[])[0].locale, 'en', 'the primary stays');
    });

    it("translatableContent: the product's keys with SHA-256 digests, meta_* only when the product has SEO values", async () => {
      const plain = await create({ title: 'Element', descriptionHtml: '<p>bad board</p>', productType: 'Snowboards' });
      const c = await content(plain);
      assert.deepEqual(Object.keys(c), ['title', 'body_html', 'handle', 'product_type']);
      // The documentation's own example: "Element" → 4e5b548d…01bf6.
      assert.equal(c.title.digest, '4e5b548d6d61f0006840aca106f7464a4b59e5a854317d5b57861b8423901bf6');
      assert.deepEqual(c.body_html, { key: 'body_html', value: '<p>bad board</p>', digest: sha('<p>bad board</p>'), locale: 'en', type: 'HTML' });
      assert.equal(c.handle.type, 'URI');
      const seo = await create({ title: 'With SEO', seo: { title: 'Buy it', description: 'The best' } });
      const s = await content(seo);
      assert.deepEqual(Object.keys(s), ['title', 'body_html', 'handle', 'product_type', 'meta_title', 'meta_description']);
      assert.equal(s.meta_title.digest, sha('Buy it'));
      assert.equal(s.meta_description.value, 'The best');
      assert.equal((await data(RESOURCE, { id: 'gid://shopify/Product/999999999', locale: 'de' })).translatableResource, null);
    });

    it('translationsRegister: written with the digests, read back per locale; any refusal writes nothing', async () => {
      const id = await create({ title: 'Jacket', descriptionHtml: '<p>Warm</p>', seo: { title: 'Jacket SEO' } });
      const c = await content(id);
      const ok = (
        await data(REGISTER, {
          id,
          translations: [
            { key: 'title', locale: 'de', value: 'Jacke', translatableContentDigest: c.title.digest },
            { key: 'body_html', locale: 'de', value: '<p>Warm</p>', translatableContentDigest: c.body_html.digest },
            { key: 'meta_title', locale: 'fr-CA', value: 'Veste SEO', translatableContentDigest: c.meta_title.digest },
          ],
        })
      ).translationsRegister;
      assert.deepEqual(ok.userErrors, []);
      assert.equal(ok.translations.length, 3);
      const de = (await data(RESOURCE, { id, locale: 'de' })).translatableResource.translations as Json[];
      assert.deepEqual(
        de.map((t) => [t.key, t.value, t.locale, t.outdated]),
        [
          ['body_html', '<p>Warm</p>', 'de', false],
          ['title', 'Jacke', 'de', false],
        ],
      );
      assert.ok(!Number.isNaN(Date.parse(de[0].updatedAt)));

      const refused = (
        await data(REGISTER, {
          id,
          translations: [
            { key: 'title', locale: 'de', value: 'Neue Jacke', translatableContentDigest: c.title.digest },
            { key: 'title', locale: 'ja', value: 'ジャケット', translatableContentDigest: c.title.digest },
            { key: 'title', locale: 'en', value: 'Jacket!', translatableContentDigest: c.title.digest },
            { key: 'colour', locale: 'de', value: 'Rot', translatableContentDigest: c.title.digest },
            { key: 'meta_description', locale: 'de', value: 'x', translatableContentDigest: sha('') },
            { key: 'title', locale: 'de', value: '  ', translatableContentDigest: c.title.digest },
            { key: 'title', locale: 'de', value: 'Jacke 2', translatableContentDigest: sha('something else') },
          ],
        })
      ).translationsRegister;
      assert.equal(refused.translations, null);
      assert.deepEqual(
        (refused.userErrors as Json[]).map((e) => [e.field.join('.'), e.code]),
        [
          ['translations.1.locale', 'INVALID_LOCALE_FOR_SHOP'],
          ['translations.2.locale', 'INVALID_LOCALE_FOR_SHOP'],
          ['translations.3.key', 'INVALID_KEY_FOR_MODEL'],
          ['translations.4.key', 'INVALID_KEY_FOR_MODEL'],
          ['translations.5.value', 'BLANK'],
          ['translations.6.translatableContentDigest', 'INVALID_TRANSLATABLE_CONTENT'],
        ],
      );
      assert.equal(refused.userErrors[5].message, 'Translatable content hash is invalid');
      const after = (await data(RESOURCE, { id, locale: 'de' })).translatableResource.translations as Json[];
      assert.equal(after.find((t) => t.key === 'title')?.value, 'Jacke', 'nothing of the refused call was written');

      const missing = (await data(REGISTER, { id: 'gid://shopify/Product/999999999', translations: [] })).translationsRegister;
      assert.deepEqual(missing.userErrors, [{ field: ['resourceId'], message: 'Resource does not exist', code: 'RESOURCE_NOT_FOUND' }]);
      const other = await gql(REGISTER, { id: 'gid://shopify/Collection/1', translations: [] });
      assert.equal(other.errors[0].extensions.code, 'NOT_IMPLEMENTED');
    });

    it('a translation is outdated once its content changes; registering with the new digest brings it up to date', async () => {
      const id = await create({ title: 'Boot' });
      const first = await content(id);
      const reg = (value: string, digest: string) =>
        data(REGISTER, { id, translations: [{ key: 'title', locale: 'de', value, translatableContentDigest: digest }] });
      assert.deepEqual((await reg('Stiefel', first.title.digest)).translationsRegister.userErrors, []);
      const changed = (
        await data(
          CREATE.replace('productSet(input: $input', 'productSet(identifier: { id: $id }, input: $input').replace(
            '($input: ProductSetInput!)',
            '($id: ID!, $input: ProductSetInput!)',
          ),
          {
            id,
            input: { title: 'Hiking boot' },
          },
        )
      ).productSet;
      assert.deepEqual(changed.userErrors, []);
      const stale = (await data(RESOURCE, { id, locale: 'de', outdated: true })).translatableResource.translations as Json[];
      assert.deepEqual(
        stale.map((t) => [t.key, t.outdated]),
        [['title', true]],
      );
      assert.deepEqual((await data(RESOURCE, { id, locale: 'de', outdated: false })).translatableResource.translations, []);
      // The old digest is refused now; the new one is taken.
      assert.equal((await reg('Wanderstiefel', first.title.digest)).translationsRegister.userErrors[0].code, 'INVALID_TRANSLATABLE_CONTENT');
      const now = await content(id);
      assert.deepEqual((await reg('Wanderstiefel', now.title.digest)).translationsRegister.userErrors, []);
      assert.deepEqual(
        ((await data(RESOURCE, { id, locale: 'de' })).translatableResource.translations as Json[]).map((t) => [t.value, t.outdated]),
        [['Wanderstiefel', false]],
      );
    });

    it('translationsRemove deletes keys × locales; a locale not enabled or an unknown key is refused', async () => {
      const id = await create({ title: 'Cap', descriptionHtml: '<p>Cap</p>' });
      const c = await content(id);
      await data(REGISTER, {
        id,
        translations: ['de', 'fr-CA'].flatMap((locale) => [
          { key: 'title', locale, value: `Cap ${locale}`, translatableContentDigest: c.title.digest },
          { key: 'body_html', locale, value: `<p>${locale}</p>`, translatableContentDigest: c.body_html.digest },
        ]),
      });
      const bad = (await data(REMOVE, { id, keys: ['title', 'colour'], locales: ['de', 'ja'] })).translationsRemove;
      assert.deepEqual(
        (bad.userErrors as Json[]).map((e) => [e.field.join('.'), e.code]),
        [
          ['locales.1', 'INVALID_LOCALE_FOR_SHOP'],
          ['translationKeys.1', 'INVALID_KEY_FOR_MODEL'],
        ],
      );
      const ok = (await data(REMOVE, { id, keys: ['title'], locales: ['de', 'fr-CA'] })).translationsRemove;
      assert.deepEqual(ok.userErrors, []);
      assert.equal(ok.translations.length, 2);
      assert.deepEqual(
        ((await data(RESOURCE, { id, locale: 'de' })).translatableResource.translations as Json[]).map((t) => t.key),
        ['body_html'],
      );
    });

    it('translatableResources pages the store products; ByIds only those asked; disabling a locale deletes its translations', async () => {
      const page = (await data(`{ translatableResources(resourceType: PRODUCT, first: 2) { nodes { resourceId } pageInfo { hasNextPage endCursor } } }`))
        .translatableResources;
      assert.equal(page.nodes.length, 2);
      assert.equal(page.pageInfo.hasNextPage, true);
      const next = (
        await data(`query ($after: String) { translatableResources(resourceType: PRODUCT, first: 50, after: $after) { nodes { resourceId } } }`, {
          after: page.pageInfo.endCursor,
        })
      ).translatableResources.nodes as Json[];
      assert.ok(next.length >= 1);
      assert.ok(!next.some((n) => page.nodes.some((p: Json) => p.resourceId === n.resourceId)));
      const one = page.nodes[1].resourceId as string;
      const byIds = (
        await data(`query ($ids: [ID!]!) { translatableResourcesByIds(resourceIds: $ids, first: 10) { nodes { resourceId translatableContent { key } } } }`, {
          ids: [one, 'gid://shopify/Product/999999999'],
        })
      ).translatableResourcesByIds.nodes as Json[];
      assert.deepEqual(
        byIds.map((n) => n.resourceId),
        [one],
      );
      const other = await gql(`{ translatableResources(resourceType: COLLECTION, first: 2) { nodes { resourceId } } }`);
      assert.equal(other.errors[0].extensions.code, 'NOT_IMPLEMENTED');

      const id = await create({ title: 'Scarf' });
      const c = await content(id);
      await data(REGISTER, { id, translations: [{ key: 'title', locale: 'fr-CA', value: 'Foulard', translatableContentDigest: c.title.digest }] });
      assert.deepEqual((await data(DISABLE, { locale: 'fr-CA' })).shopLocaleDisable, { locale: 'fr-CA', userErrors: [] });
      await data(ENABLE, { locale: 'fr-CA' });
      assert.deepEqual((await data(RESOURCE, { id, locale: 'fr-CA' })).translatableResource.translations, [], 'gone with the locale');
    });

    it('costs: translationsRegister is a mutation (10 + its payload), translatableResource 1 + content', async () => {
      const body = await gql(`{ shopLocales { locale } }`);
      assert.equal(body.extensions.cost.requestedQueryCost, 1);
      const id = await create({ title: 'Sock' });
      const reg = await gql(REGISTER, { id, translations: [] });
      assert.equal(reg.extensions.cost.requestedQueryCost, 12);
      const read = await gql(`query ($id: ID!) { translatableResource(resourceId: $id) { resourceId translatableContent { key digest } } }`, { id });
      assert.equal(read.extensions.cost.requestedQueryCost, 2);
    });
  });
}
