// PIM translations → Shopify translations, end to end on both databases (docs/shopify-fidelity.md, "Translations"): the
// PIM's translations (include=translations), a push through the connector's HTTP API, the Shopify adapter registering
// them in the sandbox (translatableResource → translationsRegister), read back through the sandbox's Admin GraphQL API;
// a locale the shop lacks in GET /api/status; no translation call for an unchanged product; a change re-registered, a
// removal removed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import { connectorHarness, freePort, type ConnectorHarness, type SandboxConnection } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import { sku } from './helpers/pim.js';

const TRANSLATION_CALLS = new Set(['ShopLocales', 'TranslatableProductContent', 'TranslationsRegister', 'TranslationsRemove']);

for (const target of databaseTargets()) {
  describe(`translations, end to end (${target.name})`, () => {
    let h: ConnectorHarness;
    let s: SandboxConnection;
    let productId: number;
    /** The operation names the push's adapter sent, in order. */
    const sent: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as { query?: string };
      sent.push(/(?:query|mutation) (\w+)/.exec(body.query ?? '')?.[1] ?? '?');
      return fetch(input, init);
    };

    const pim = (method: string, url: string, payload?: unknown) =>
      h.app.inject({ method: method as never, url, payload: payload as never, headers: { 'x-api-key': s.tenant.apiKey } });
    const gql = (query: string, variables: Record<string, unknown> = {}) => s.gql<any>(query, variables);
    const push = async () => {
      const before = sent.length;
      const res = await h.call('POST', '/api/products/push', s.token, { products: [{ id: productId }] });
      assert.equal(res.statusCode, 200, res.body);
      const [result] = res.json().data.results as { status: string; message: string }[];
      return { result, calls: sent.slice(before) };
    };
    const translations = async (locale: string) => {
      const mapping = (await h.call('GET', `/api/products/mapping/${productId}`, s.token)).json().data;
      const data = await gql(
        `query ($id: ID!, $locale: String!) { translatableResource(resourceId: $id) { translations(locale: $locale) { key value outdated } } }`,
        { id: `gid://shopify/Product/${mapping.storefront_product_id}`, locale },
      );
      return Object.fromEntries((data.translatableResource.translations as { key: string; value: string; outdated: boolean }[]).map((t) => [t.key, t]));
    };

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port, {
        syncStorefront: new ShopifyAdapter({ fetch: counting }),
      });
      s = await h.sandboxConnected('translations-e2e.myshopify.com');
      // The shop has German (enabled through GraphQL, as a merchant or app would); French it lacks.
      const de = await gql(`mutation { shopLocaleEnable(locale: "de") { shopLocale { locale } userErrors { message } } }`);
      assert.deepEqual(de.shopLocaleEnable.userErrors, []);

      for (const code of ['seo_title', 'seo_description']) {
        const r = await pim('POST', '/api/product-attributes', { code, name: code, type: 'text', options: [] });
        assert.equal(r.statusCode, 201, r.body);
      }
      const created = await pim('POST', '/api/products', {
        name: 'Rain Jacket',
        sku: sku('TR'),
        description: '<p>Keeps you dry.</p>',
        price: '80.00',
        currency: 'EUR',
        status: 'draft',
        attributes: { seo_title: 'Rain jacket for hiking', seo_description: 'A light rain jacket.' },
      });
      assert.equal(created.statusCode, 201, created.body);
      productId = created.json().data.id;
    });
    after(async () => h.close());

    it('PUT translations with SEO fields; include=translations on GET /api/products/{id} and the list', async () => {
      const de = await pim('PUT', `/api/products/${productId}/translations/de`, {
        name: 'Regenjacke',
        description: '<p>Hält dich trocken.</p>',
        seo_title: 'Regenjacke zum Wandern',
        seo_description: 'Eine leichte Regenjacke.',
      });
      assert.equal(de.statusCode, 200, de.body);
      assert.equal(de.json().data.seo_title, 'Regenjacke zum Wandern');
      const fr = await pim('PUT', `/api/products/${productId}/translations/fr`, { name: 'Veste de pluie' });
      assert.equal(fr.statusCode, 200, fr.body);

      const one = (await pim('GET', `/api/products/${productId}?include=translations`)).json().data;
      assert.deepEqual(one.translations, {
        de: {
          name: 'Regenjacke',
          description: '<p>Hält dich trocken.</p>',
          seo_title: 'Regenjacke zum Wandern',
          seo_description: 'Eine leichte Regenjacke.',
        },
        fr: { name: 'Veste de pluie' },
      });
      assert.equal(one.variants, undefined, 'only what include asks for');
      const list = (await pim('GET', `/api/products?ids=${productId}&include=variants,translations`)).json().data.products;
      assert.deepEqual(list[0].translations.fr, { name: 'Veste de pluie' });
      assert.ok(Array.isArray(list[0].variants));
      assert.equal((await pim('GET', `/api/products/${productId}`)).json().data.translations, undefined);
      assert.equal((await pim('GET', `/api/products/${productId}?include=nope`)).statusCode, 400);
    });

    it('a push registers the de translations (title, body_html, meta_*) in one call; fr is a missing locale in the status, not an error', async () => {
      const { result, calls } = await push();
      assert.equal(result.status, 'success', result.message);
      assert.deepEqual(
        calls.filter((c) => TRANSLATION_CALLS.has(c)),
        ['ShopLocales', 'TranslatableProductContent', 'TranslationsRegister'],
      );
      const de = await translations('de');
      assert.deepEqual(Object.fromEntries(Object.entries(de).map(([k, t]) => [k, [t.value, t.outdated]])), {
        title: ['Regenjacke', false],
        body_html: ['<p>Hält dich trocken.</p>', false],
        meta_title: ['Regenjacke zum Wandern', false],
        meta_description: ['Eine leichte Regenjacke.', false],
      });
      const status = (await h.call('GET', '/api/status', s.token)).json().data;
      assert.deepEqual(status.translations, { missing_locales: ['fr'] });
      const mapping = (await h.call('GET', `/api/products/mapping/${productId}`, s.token)).json().data;
      assert.equal(mapping.sync_status ?? mapping.status, 'synced');
    });

    it('a second push of the unchanged product sends no translation call', async () => {
      const { result, calls } = await push();
      assert.equal(result.status, 'success', result.message);
      assert.deepEqual(
        calls.filter((c) => TRANSLATION_CALLS.has(c)),
        [],
      );
      assert.deepEqual(calls, ['ProductSetSync'], 'one call, as before translations');
    });

    it('a changed translation is registered again (no shopLocales read: cached); the source title changing re-registers too', async () => {
      assert.equal((await pim('PUT', `/api/products/${productId}/translations/de`, { name: 'Leichte Regenjacke' })).statusCode, 200);
      let { result, calls } = await push();
      assert.equal(result.status, 'success', result.message);
      assert.deepEqual(
        calls.filter((c) => TRANSLATION_CALLS.has(c)),
        ['TranslatableProductContent', 'TranslationsRegister'],
      );
      assert.equal((await translations('de')).title.value, 'Leichte Regenjacke');

      // The base name changes: Shopify marks the translation outdated; the push registers it with the new digest.
      assert.equal((await pim('PATCH', `/api/products/${productId}`, { name: 'Rain Jacket Pro' })).statusCode, 200);
      ({ result, calls } = await push());
      assert.equal(result.status, 'success', result.message);
      assert.ok(calls.includes('TranslationsRegister'));
      const de = await translations('de');
      assert.deepEqual([de.title.value, de.title.outdated], ['Leichte Regenjacke', false]);
    });

    it('a removed SEO field and a removed translation are removed in the shop', async () => {
      assert.equal((await pim('PUT', `/api/products/${productId}/translations/de`, { seo_description: null })).statusCode, 200);
      let { result, calls } = await push();
      assert.equal(result.status, 'success', result.message);
      assert.ok(calls.includes('TranslationsRemove'));
      assert.deepEqual(Object.keys(await translations('de')).sort(), ['body_html', 'meta_title', 'title']);

      assert.equal((await pim('DELETE', `/api/products/${productId}/translations/de`)).statusCode, 200);
      ({ result, calls } = await push());
      assert.equal(result.status, 'success', result.message);
      assert.deepEqual(
        calls.filter((c) => TRANSLATION_CALLS.has(c)),
        ['TranslatableProductContent', 'TranslationsRemove'],
      );
      assert.deepEqual(await translations('de'), {});
      // Nothing left to register or remove: the next push costs no translation call.
      ({ calls } = await push());
      assert.deepEqual(
        calls.filter((c) => TRANSLATION_CALLS.has(c)),
        [],
      );
    });
  });
}
