import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { assertError, okData, type Call } from './helpers/pim.js';

const DEFAULTS = {
  channels: [
    { value: 'web', label: 'Web', description: 'Online store' },
    { value: 'mobile', label: 'Mobile', description: 'Mobile app' },
  ],
  total: 2,
};

for (const target of databaseTargets()) {
  describe(`channels (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(() => h.close());

    const fresh = async (): Promise<Call> => h.as(await h.tenant());

    it('defaults to web and mobile with value, label and description', async () => {
      const c = await fresh();
      const data = okData(await c('GET', '/api/channels'));
      assert.deepEqual(data, DEFAULTS);
      assert.deepEqual(Object.keys(data), ['channels', 'total']);
      for (const channel of data.channels) assert.deepEqual(Object.keys(channel), ['value', 'label', 'description']);
    });

    it('configures the channels in the given order, with default labels for known values', async () => {
      const c = await fresh();
      const body = {
        channels: [{ value: 'api' }, { value: 'web', label: 'Shop', description: 'Our Shopify store' }, { value: 'email', description: 'Newsletter' }],
      };
      const expected = {
        channels: [
          { value: 'api', label: 'API', description: 'Headless and API consumers' },
          { value: 'web', label: 'Shop', description: 'Our Shopify store' },
          { value: 'email', label: 'Email', description: 'Newsletter' },
        ],
        total: 3,
      };
      assert.deepEqual(okData(await c('PUT', '/api/channels', body)), expected);
      assert.deepEqual(okData(await c('GET', '/api/channels')), expected);
    });

    it('replaces the previous configuration as a whole', async () => {
      const c = await fresh();
      okData(await c('PUT', '/api/channels', { channels: [{ value: 'api' }, { value: 'social' }] }));
      const data = okData(await c('PUT', '/api/channels', { channels: [{ value: 'marketplace', label: 'Amazon' }] }));
      assert.deepEqual(data, { channels: [{ value: 'marketplace', label: 'Amazon', description: 'Third-party marketplaces' }], total: 1 });
      assert.deepEqual(okData(await c('GET', '/api/channels')), data);
    });

    it('accepts all six channels', async () => {
      const c = await fresh();
      const values = ['web', 'mobile', 'api', 'marketplace', 'social', 'email'];
      const data = okData(await c('PUT', '/api/channels', { channels: values.map((value) => ({ value })) }));
      assert.equal(data.total, 6);
      assert.deepEqual(
        data.channels.map((ch: { value: string }) => ch.value),
        values,
      );
      for (const ch of data.channels) {
        assert.equal(typeof ch.label, 'string');
        assert.ok(ch.label.length > 0);
        assert.ok(ch.description.length > 0);
      }
    });

    it('restores the defaults with an empty list', async () => {
      const c = await fresh();
      okData(await c('PUT', '/api/channels', { channels: [{ value: 'social' }] }));
      assert.deepEqual(okData(await c('PUT', '/api/channels', { channels: [] })), DEFAULTS);
      assert.deepEqual(okData(await c('GET', '/api/channels')), DEFAULTS);
    });

    it('rejects duplicates and keeps the previous configuration', async () => {
      const c = await fresh();
      const before = okData(await c('PUT', '/api/channels', { channels: [{ value: 'api' }] }));
      assertError(await c('PUT', '/api/channels', { channels: [{ value: 'web' }, { value: 'mobile' }, { value: 'web', label: 'Again' }] }), 400, /'web' twice/);
      assert.deepEqual(okData(await c('GET', '/api/channels')), before);
    });

    it('rejects unknown values, bad labels and malformed bodies', async () => {
      const c = await fresh();
      const error = assertError(await c('PUT', '/api/channels', { channels: [{ value: 'tiktok' }] }), 400, /field 'channels\[0\]\.value'/);
      assert.match(error, /web, mobile, api, marketplace, social, email/);
      const cases: [unknown, RegExp][] = [
        [{}, /field 'channels' is required/],
        [{ channels: 'web' }, /field 'channels'/],
        [{ channels: ['web'] }, /field 'channels\[0\]'/],
        [{ channels: [{ label: 'Web' }] }, /field 'channels\[0\]\.value' is required/],
        [{ channels: [{ value: 'web', label: '' }] }, /field 'channels\[0\]\.label'/],
        [{ channels: [{ value: 'web', label: 'x'.repeat(101) }] }, /field 'channels\[0\]\.label'/],
        [{ channels: [{ value: 'web', description: 'x'.repeat(501) }] }, /field 'channels\[0\]\.description'/],
        [{ channels: [{ value: 'web', position: 1 }] }, /field 'channels\[0\]\.position' is not allowed/],
        [{ channels: [{ value: 'web' }], extra: true }, /field 'extra' is not allowed/],
        [{ channels: Array.from({ length: 7 }, () => ({ value: 'web' })) }, /field 'channels'/],
      ];
      for (const [body, message] of cases) assertError(await c('PUT', '/api/channels', body), 400, message);
      assert.deepEqual(okData(await c('GET', '/api/channels')), DEFAULTS, 'nothing was configured');
    });

    it('survives concurrent reconfiguration without a 5xx, ending in one of the requested lists', async () => {
      const c = await fresh();
      const lists = [['web', 'api'], ['mobile'], ['email', 'social', 'web'], ['marketplace'], ['api', 'mobile']];
      const results = await Promise.all(lists.map((values) => c('PUT', '/api/channels', { channels: values.map((value) => ({ value })) })));
      for (const r of results) okData(r);
      const final = okData(await c('GET', '/api/channels'));
      const values = final.channels.map((ch: { value: string }) => ch.value);
      assert.ok(
        lists.some((l) => JSON.stringify(l) === JSON.stringify(values)),
        `final list ${JSON.stringify(values)} is one of the requested ones`,
      );
      assert.equal(final.total, values.length);
    });
  });
}
