// Completeness per channel and language (beyond the spec): required attributes per channel on the attribute API, the
// organization's languages, GET /api/products/{id}/completeness and GET /api/products/completeness?ids=.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completenessOf } from '../src/pim/completeness/completeness.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { assertError, createProduct, okData, type Call } from './helpers/pim.js';

const ATTRS = '/api/product-attributes';

describe('completenessOf (pure)', () => {
  const defs = [
    { id: 1, code: 'material', name: 'Material', is_required: false, required_channels: ['web'] },
    { id: 2, code: 'gtin_brand', name: 'Brand line', is_required: true, required_channels: [] },
  ];
  it('counts required attributes per channel and translations per language, rounding the score down', () => {
    const facts = {
      id: 7,
      channels: ['web', 'mobile'],
      attributes: { gtin_brand: 'x', material: '  ' },
      has_description: true,
      translations: [{ locale: 'de', name: true, description: false }],
    };
    const result = completenessOf(facts, defs, ['de', 'fr']);
    const [web, mobile] = result.channels;
    assert.deepEqual(web.missing_attributes, [{ id: 1, code: 'material', name: 'Material' }], 'blank text is empty');
    assert.deepEqual(web.missing_translations, [
      { locale: 'de', fields: ['description'] },
      { locale: 'fr', fields: ['name', 'description'] },
    ]);
    assert.deepEqual([web.required, web.filled, web.score], [6, 2, 33]);
    assert.deepEqual([mobile.required, mobile.filled, mobile.score], [5, 2, 40]);
    assert.equal(result.score, 36, '4 of 11, rounded down');
  });
  it('false and 0 are values; no channel is no score; nothing required is 100', () => {
    const facts = { id: 1, channels: ['api'], attributes: { gtin_brand: false }, has_description: false, translations: [] };
    assert.equal(completenessOf(facts, defs, []).score, 100);
    assert.equal(completenessOf({ ...facts, channels: [] }, defs, ['de']).score, null);
    assert.equal(completenessOf({ ...facts, attributes: {} }, [], []).channels[0].score, 100);
  });
});

for (const target of databaseTargets()) {
  describe(`completeness (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());
    const fresh = async (): Promise<Call> => h.as(await h.tenant());

    it('sets and clears the channels an attribute is required on', async () => {
      const c = await fresh();
      const a = okData(await c('POST', ATTRS, { code: 'material', name: 'Material', type: 'text', required_channels: ['web', 'api'] }), 201);
      assert.deepEqual(a.required_channels, ['web', 'api']);
      assert.deepEqual(okData(await c('PATCH', `${ATTRS}/${a.id}`, { required_channels: ['mobile'] })).required_channels, ['mobile']);
      assert.deepEqual(okData(await c('GET', `${ATTRS}/${a.id}`)).required_channels, ['mobile']);
      assert.deepEqual(okData(await c('PUT', `${ATTRS}/${a.id}`, { required_channels: [] })).required_channels, []);
      const b = okData(await c('POST', ATTRS, { code: 'colour', name: 'Colour', type: 'text' }), 201);
      assert.deepEqual(b.required_channels, [], 'none by default');
    });

    it('refuses unknown or repeated channels with a 400 and changes nothing', async () => {
      const c = await fresh();
      const a = okData(await c('POST', ATTRS, { code: 'material', name: 'Material', type: 'text', required_channels: ['web'] }), 201);
      assertError(await c('PATCH', `${ATTRS}/${a.id}`, { required_channels: ['shop'] }), 400, /required_channels/);
      assertError(await c('PATCH', `${ATTRS}/${a.id}`, { required_channels: ['web', 'web'] }), 400, /required_channels/);
      assertError(await c('PATCH', `${ATTRS}/${a.id}`, { required_channels: 'web' }), 400, /required_channels/);
      assertError(await c('POST', ATTRS, { code: 'x', name: 'X', type: 'text', required_channels: ['tv'] }), 400, /required_channels/);
      assert.deepEqual(okData(await c('GET', `${ATTRS}/${a.id}`)).required_channels, ['web']);
      assert.equal(okData(await c('GET', ATTRS)).total, 1);
    });

    it("sets the organization's languages; refuses bad ones", async () => {
      const c = await fresh();
      assert.deepEqual(okData(await c('GET', '/api/organization')).languages, []);
      const org = okData(await c('PATCH', '/api/organization', { languages: ['de', 'fr-CA'] }));
      assert.deepEqual(org.languages, ['de', 'fr-CA']);
      assert.equal(org.default_currency, null, 'the currency is left alone');
      okData(await c('PATCH', '/api/organization', { default_currency: 'USD' }));
      assert.deepEqual(okData(await c('GET', '/api/organization')).languages, ['de', 'fr-CA'], 'the languages are left alone');
      assertError(await c('PATCH', '/api/organization', { languages: ['German'] }), 400, /languages/);
      assertError(await c('PATCH', '/api/organization', { languages: ['de', 'de'] }), 400, /languages/);
      assertError(await c('PATCH', '/api/organization', {}), 400, /at least one field/);
      assert.deepEqual(okData(await c('GET', '/api/organization')).languages, ['de', 'fr-CA']);
    });

    it('scores a product per channel and language, and reaches 100 once filled', async () => {
      const c = await fresh();
      okData(await c('POST', ATTRS, { code: 'material', name: 'Material', type: 'text', required_channels: ['web'] }), 201);
      okData(await c('POST', ATTRS, { code: 'sizes', name: 'Sizes', type: 'multiselect', options: ['S', 'M'], required_channels: ['web', 'mobile'] }), 201);
      okData(await c('PATCH', '/api/organization', { languages: ['de'] }));
      const p = await createProduct(c, { description: 'A shirt', publishing_channels: ['web', 'mobile'] });
      let got = okData(await c('GET', `/api/products/${p.id}/completeness`));
      assert.deepEqual(Object.keys(got), ['product_id', 'score', 'languages', 'channels']);
      assert.equal(got.product_id, p.id);
      assert.deepEqual(got.languages, ['de']);
      const web = got.channels.find((ch: { channel: string }) => ch.channel === 'web');
      assert.deepEqual(
        web.missing_attributes.map((m: { code: string }) => m.code),
        ['material', 'sizes'],
      );
      assert.deepEqual(web.missing_translations, [{ locale: 'de', fields: ['name', 'description'] }]);
      assert.deepEqual([web.required, web.filled, web.score], [4, 0, 0]);
      const mobile = got.channels.find((ch: { channel: string }) => ch.channel === 'mobile');
      assert.deepEqual([mobile.required, mobile.filled], [3, 0]);
      assert.equal(got.score, 0);

      okData(await c('PATCH', `/api/products/${p.id}`, { attributes: { sizes: ['S'] } }));
      okData(await c('PUT', `/api/products/${p.id}/translations/de`, { name: 'Hemd' }));
      got = okData(await c('GET', `/api/products/${p.id}/completeness`));
      assert.deepEqual(
        got.channels.map((ch: { channel: string; score: number }) => [ch.channel, ch.score]),
        [
          ['web', 50],
          ['mobile', 66],
        ],
      );
      assert.equal(got.score, 57, '4 of 7');

      okData(await c('PATCH', `/api/products/${p.id}`, { attributes: { material: 'Cotton' } }));
      okData(await c('PUT', `/api/products/${p.id}/translations/de`, { description: 'Ein Hemd' }));
      got = okData(await c('GET', `/api/products/${p.id}/completeness`));
      assert.equal(got.score, 100);
      for (const ch of got.channels) assert.deepEqual([ch.score, ch.missing_attributes, ch.missing_translations], [100, [], []]);

      // Clearing the requirement on web and the language: nothing more is counted.
      okData(await c('PATCH', '/api/organization', { languages: [] }));
      got = okData(await c('GET', `/api/products/${p.id}/completeness`));
      assert.deepEqual(
        got.channels.map((ch: { required: number }) => ch.required),
        [2, 1],
      );
    });

    it('counts is_required attributes on every channel; a product on no channel has no score', async () => {
      const c = await fresh();
      const p = await createProduct(c, { publishing_channels: ['social'] });
      okData(await c('POST', ATTRS, { code: 'origin', name: 'Origin', type: 'text', is_required: true }), 201);
      const got = okData(await c('GET', `/api/products/${p.id}/completeness`));
      assert.deepEqual(got.channels[0].missing_attributes, [{ id: got.channels[0].missing_attributes[0].id, code: 'origin', name: 'Origin' }]);
      const none = await createProduct(c, { publishing_channels: [], attributes: { origin: 'FR' } });
      assert.deepEqual(okData(await c('GET', `/api/products/${none.id}/completeness`)), { product_id: none.id, score: null, languages: [], channels: [] });
    });

    it("answers a page of ids in one call, leaving out another organization's and missing ids", async () => {
      const c = await fresh();
      const other = await fresh();
      okData(await other('POST', ATTRS, { code: 'material', name: 'Material', type: 'text', required_channels: ['web'] }), 201);
      okData(await other('PATCH', '/api/organization', { languages: ['it'] }));
      const foreign = await createProduct(other, { publishing_channels: ['web'] });
      okData(await c('POST', ATTRS, { code: 'fabric', name: 'Fabric', type: 'text', required_channels: ['web'] }), 201);
      const a = await createProduct(c, { publishing_channels: ['web'], attributes: { fabric: 'Linen' } });
      const b = await createProduct(c, { publishing_channels: ['web'] });
      const data = okData(await c('GET', `/api/products/completeness?ids=${b.id},${foreign.id},${a.id},999999,${a.id}`));
      assert.deepEqual(
        data.products.map((x: { product_id: number; score: number }) => [x.product_id, x.score]),
        [
          [a.id, 100],
          [b.id, 0],
        ],
      );
      assert.deepEqual(data.products[1].languages, [], "the other organization's languages are not this one's");
      assert.deepEqual(
        data.products[1].channels[0].missing_attributes.map((m: { code: string }) => m.code),
        ['fabric'],
      );
      assertError(await c('GET', `/api/products/${foreign.id}/completeness`), 404, /not found/);
      assert.deepEqual(okData(await other('GET', `/api/products/completeness?ids=${a.id}`)), { products: [] });
    });

    it('refuses malformed ids with a 400', async () => {
      const c = await fresh();
      for (const ids of ['', 'a', '1,,2', '0', '99999999999', Array.from({ length: 101 }, (_, i) => i + 1).join(',')]) {
        assertError(await c('GET', `/api/products/completeness?ids=${ids}`), 400, /ids/);
      }
      assertError(await c('GET', '/api/products/completeness'), 400, /ids/);
      assertError(await c('GET', '/api/products/abc/completeness'), 400, /id/);
    });
  });
}
