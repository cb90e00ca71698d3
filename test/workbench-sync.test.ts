// The bulk-edit grid's batch reaches the shop by the delta sync: PATCH /api/products/batch is one catalogue change, told
// to the connector, which polls at once (SYNC_POLL_SECONDS is 60 here, so the tick is not what moves it) and writes the
// new prices to the sandbox shop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, freePort, type ConnectorHarness, type SandboxConnection } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import { createProduct, okData, type Call } from './helpers/pim.js';
import { until } from './helpers/until.js';

for (const target of databaseTargets()) {
  describe(`the grid's batch reaches the shop by the delta sync [${target.name}]`, () => {
    let h: ConnectorHarness;
    let shop: SandboxConnection;
    let c: Call;
    const mapping = async (productId: number) => {
      const res = await h.call('GET', `/api/products/mapping/${productId}`, shop.token);
      return res.statusCode === 404 ? null : res.json().data;
    };
    const shopPrice = async (storefrontProductId: number) =>
      (
        await shop.gql<{ product: { variants: { nodes: { price: string }[] } } }>(
          'query ($id: ID!) { product(id: $id) { variants(first: 1) { nodes { price } } } }',
          {
            id: `gid://shopify/Product/${storefrontProductId}`,
          },
        )
      ).product.variants.nodes[0].price;

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, SYNC_POLL_SECONDS: '60' }, port);
      shop = await h.sandboxConnected();
      c = h.as(shop.tenant);
      await h.app.services.jobs.workers.start();
    });

    after(async () => {
      await h.app.services.jobs.workers.stop(5_000);
      await h.close();
    });

    it('new prices of several products, saved as one batch, are in the shop within moments', async () => {
      const products = [];
      for (let i = 1; i <= 3; i++) products.push(await createProduct(c, { name: `Grid Lantern ${i}`, status: 'active', price: `${10 + i}.00` }));
      const shopIds: number[] = [];
      for (const p of products) {
        await until(`product ${p.id} in the shop`, async () => (await mapping(p.id))?.sync_status === 'synced', 20_000, 50);
        shopIds.push((await mapping(p.id)).storefront_product_id);
      }
      const changedAt = Date.now();
      okData(await c('PATCH', '/api/products/batch', { products: products.map((p, i) => ({ id: p.id, price: `${30 + i}.50` })) }));
      const prices = await until(
        'the new prices in the shop',
        async () => {
          const now = await Promise.all(shopIds.map(shopPrice));
          return now.every((price, i) => price === `${30 + i}.50`) ? now : null;
        },
        15_000,
        50,
      );
      assert.deepEqual(prices, ['30.50', '31.50', '32.50']);
      assert.ok(Date.now() - changedAt < 15_000);
    });
  });
}
