// The sandbox's inventory rules alone, over real HTTP: several locations (admin PATCH), listed by name; quantities only
// where an item is stocked (productSet and the inventory mutations); inventoryActivate; compare-and-swap with
// CHANGE_FROM_QUANTITY_STALE applying nothing; the mandatory @idempotent key (a key seen again applies nothing, with
// other parameters it is refused); kept variant fields and inventory-item fields; the variant-creation throttle.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';

type Json = Record<string, any>;

const PRODUCT_SET = /* GraphQL */ `
  mutation Set($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input) {
      product { id variants(first: 10) { nodes { id sku price compareAtPrice inventoryPolicy inventoryQuantity
        inventoryItem { id tracked unitCost { amount currencyCode } measurement { weight { value unit } }
          inventoryLevels(first: 10) { nodes { location { id name } quantities(names: ["available"]) { quantity } } } } } } }
      userErrors { field message code }
    }
  }
`;
const SET = /* GraphQL */ `
  mutation S($input: InventorySetQuantitiesInput!, $key: String!) { inventorySetQuantities(input: $input) @idempotent(key: $key) { userErrors { field message code } } }
`;
const ADJUST = /* GraphQL */ `
  mutation A($input: InventoryAdjustQuantitiesInput!, $key: String!) { inventoryAdjustQuantities(input: $input) @idempotent(key: $key) { userErrors { field message code } } }
`;
const ACTIVATE = /* GraphQL */ `
  mutation Act($item: ID!, $loc: ID!, $available: Int, $key: String!) {
    inventoryActivate(inventoryItemId: $item, locationId: $loc, available: $available) @idempotent(key: $key) { inventoryLevel { location { name } quantities(names: ["available"]) { quantity } } userErrors { field message } }
  }
`;
const LEVELS = /* GraphQL */ `
  query L($ids: [ID!]!) { nodes(ids: $ids) { ... on InventoryItem { id inventoryLevels(first: 10) { nodes { location { name } quantities(names: ["available"]) { quantity } } } } } }
`;

for (const target of databaseTargets()) {
  describe(`Shopify sandbox inventory (${target.name})`, () => {
    let h: Harness;
    let shopId: number;
    let token: string;
    let url: string;
    const loc: Record<string, string> = {};

    async function gql(query: string, variables: Json = {}): Promise<Json> {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-shopify-access-token': token }, body: JSON.stringify({ query, variables }) });
      assert.equal(res.status, 200);
      return (await res.json()) as Json;
    }
    async function data(query: string, variables: Json = {}): Promise<Json> {
      const body = await gql(query, variables);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    }
    const levels = async (itemId: string) =>
      Object.fromEntries((await data(LEVELS, { ids: [itemId] })).nodes[0].inventoryLevels.nodes.map((n: Json) => [n.location.name, n.quantities[0].quantity]));

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      const domain = 'inventory.myshopify.com';
      const res = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox' });
      shopId = res.json().id;
      token = res.json().access_token;
      url = `http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`;
    });
    after(async () => h.close());

    it('locations added through the admin API, listed by name (sortKey NAME is the default), by id on request', async () => {
      const res = await h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, { locations: ['Berlin', 'Aachen', 'Berlin'] });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().locations.map((l: Json) => l.name), ['Shop location', 'Berlin', 'Aachen']);
      for (const l of res.json().locations) loc[l.name] = l.id;
      const byName = await data(`{ locations(first: 10) { nodes { name } } }`);
      assert.deepEqual(byName.locations.nodes.map((n: Json) => n.name), ['Aachen', 'Berlin', 'Shop location']);
      const byId = await data(`{ locations(first: 2, sortKey: ID) { nodes { name } pageInfo { hasNextPage endCursor } } }`);
      assert.deepEqual(byId.locations.nodes.map((n: Json) => n.name), ['Shop location', 'Berlin']);
      assert.equal(byId.locations.pageInfo.hasNextPage, true);
    });

    let itemId = '';
    let variantId = '';
    let productId = '';

    it('a new variant is stocked where productSet gives it quantities; an existing one only takes quantities where it is stocked', async () => {
      const created = (
        await data(PRODUCT_SET, {
          input: {
            title: 'Stocked tee',
            productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
            variants: [{ sku: 'ST-1', price: '10', compareAtPrice: '15', inventoryPolicy: 'DENY', optionValues: [{ optionName: 'Title', name: 'Default Title' }],
              inventoryItem: { tracked: true, cost: '4.25', measurement: { weight: { value: 0.3, unit: 'KILOGRAMS' } } },
              inventoryQuantities: [{ locationId: loc['Shop location'], name: 'available', quantity: 5 }, { locationId: loc.Aachen, name: 'available', quantity: 2 }] }],
          },
        })
      ).productSet;
      assert.deepEqual(created.userErrors, []);
      productId = created.product.id;
      const v = created.product.variants.nodes[0];
      variantId = v.id;
      itemId = v.inventoryItem.id;
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2 });
      assert.equal(v.inventoryQuantity, 7);
      assert.deepEqual({ tracked: v.inventoryItem.tracked, cost: v.inventoryItem.unitCost.amount, weight: v.inventoryItem.measurement.weight }, { tracked: true, cost: '4.25', weight: { value: 0.3, unit: 'KILOGRAMS' } });

      const refused = (
        await data(PRODUCT_SET, {
          identifier: { id: productId },
          input: { productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }], variants: [{ id: variantId, optionValues: [{ optionName: 'Title', name: 'Default Title' }], inventoryQuantities: [{ locationId: loc.Berlin, name: 'available', quantity: 9 }] }] },
        })
      ).productSet;
      assert.equal(refused.product, null);
      assert.deepEqual(refused.userErrors.map((e: Json) => [e.field.at(-1), e.code]), [['locationId', 'INVALID_INPUT']]);

      // An update that leaves fields out keeps them: price, compare-at price, inventory item, stock.
      const kept = (await data(PRODUCT_SET, { identifier: { id: productId }, input: { productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }], variants: [{ id: variantId, optionValues: [{ optionName: 'Title', name: 'Default Title' }] }] } })).productSet;
      assert.deepEqual(kept.userErrors, []);
      const k = kept.product.variants.nodes[0];
      assert.deepEqual([k.price, k.compareAtPrice, k.inventoryItem.unitCost.amount, k.inventoryQuantity], ['10.00', '15.00', '4.25', 7]);
    });

    it('inventoryActivate stocks the item at a location; then quantities there are taken', async () => {
      const act = (await data(ACTIVATE, { item: itemId, loc: loc.Berlin, available: 4, key: 'act-1' })).inventoryActivate;
      assert.deepEqual(act.userErrors, []);
      assert.deepEqual([act.inventoryLevel.location.name, act.inventoryLevel.quantities[0].quantity], ['Berlin', 4]);
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2, Berlin: 4 });
    });

    it('inventorySetQuantities compares and swaps: a stale changeFromQuantity refuses the whole call', async () => {
      const input = (quantities: Json[]) => ({ name: 'available', reason: 'correction', quantities });
      const stale = (
        await data(SET, { key: 'set-1', input: input([{ inventoryItemId: itemId, locationId: loc['Shop location'], quantity: 50, changeFromQuantity: 5 }, { inventoryItemId: itemId, locationId: loc.Aachen, quantity: 20, changeFromQuantity: 99 }]) })
      ).inventorySetQuantities;
      assert.deepEqual(stale.userErrors.map((e: Json) => e.code), ['CHANGE_FROM_QUANTITY_STALE']);
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2, Berlin: 4 }, 'nothing of the call applied');
      const ok = (await data(SET, { key: 'set-2', input: input([{ inventoryItemId: itemId, locationId: loc['Shop location'], quantity: 50, changeFromQuantity: 5 }]) })).inventorySetQuantities;
      assert.deepEqual(ok.userErrors, []);
      assert.equal((await levels(itemId))['Shop location'], 50);
      const negative = (await data(SET, { key: 'set-3', input: input([{ inventoryItemId: itemId, locationId: loc.Aachen, quantity: -1, changeFromQuantity: 2 }]) })).inventorySetQuantities;
      assert.deepEqual(negative.userErrors.map((e: Json) => e.code), ['INVALID_QUANTITY_NEGATIVE']);
      const badReason = (await data(SET, { key: 'set-4', input: { ...input([]), reason: 'because' } })).inventorySetQuantities;
      assert.deepEqual(badReason.userErrors.map((e: Json) => e.code), ['INVALID_REASON']);
    });

    it('a sale is an adjustment; an idempotency key seen again applies nothing; with other parameters it is refused', async () => {
      const sale = { name: 'available', reason: 'correction', changes: [{ inventoryItemId: itemId, locationId: loc['Shop location'], delta: -3 }] };
      assert.deepEqual((await data(ADJUST, { key: 'sale-1', input: sale })).inventoryAdjustQuantities.userErrors, []);
      assert.deepEqual((await data(ADJUST, { key: 'sale-1', input: sale })).inventoryAdjustQuantities.userErrors, []);
      assert.equal((await levels(itemId))['Shop location'], 47, 'the repeated key sold once');
      const other = (await data(ADJUST, { key: 'sale-1', input: { ...sale, changes: [{ ...sale.changes[0], delta: -1 }] } })).inventoryAdjustQuantities;
      assert.deepEqual(other.userErrors.map((e: Json) => e.code), ['IDEMPOTENCY_KEY_PARAMETER_MISMATCH']);
      assert.equal((await levels(itemId))['Shop location'], 47);
    });

    it('without @idempotent the mutation is refused (mandatory from 2026-04); where the item is not stocked: INVALID_LOCATION', async () => {
      const bare = await gql(`mutation ($input: InventoryAdjustQuantitiesInput!) { inventoryAdjustQuantities(input: $input) { userErrors { code } } }`, {
        input: { name: 'available', reason: 'correction', changes: [{ inventoryItemId: itemId, locationId: loc['Shop location'], delta: -1 }] },
      });
      assert.match(JSON.stringify(bare.errors), /@idempotent/);
      assert.equal((await levels(itemId))['Shop location'], 47);
      const made = (await data(PRODUCT_SET, { input: { title: 'Unstocked', productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }], variants: [{ sku: 'UN-1', optionValues: [{ optionName: 'Title', name: 'Default Title' }] }] } })).productSet;
      const other = made.product.variants.nodes[0].inventoryItem.id;
      const refused = (await data(ADJUST, { key: 'un-1', input: { name: 'available', reason: 'correction', changes: [{ inventoryItemId: other, locationId: loc.Berlin, delta: 1 }] } })).inventoryAdjustQuantities;
      assert.deepEqual(refused.userErrors.map((e: Json) => e.code), ['INVALID_LOCATION']);
    });

    it('past the store\'s variant throttle a productSet that creates variants is refused with VARIANT_THROTTLE_EXCEEDED and writes nothing', async () => {
      const count = async () => (await data(`{ productsCount { count } }`)).productsCount.count as number;
      const before = await count();
      const variants = (await data(`{ products(first: 50) { nodes { variantsCount { count } } } }`)).products.nodes.reduce((n: number, p: Json) => n + p.variantsCount.count, 0);
      assert.equal((await h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, { variant_throttle_limit: variants + 1 })).statusCode, 200);
      const two = { title: 'Two sizes', productOptions: [{ name: 'Size', values: [{ name: 'S' }, { name: 'M' }] }], variants: ['S', 'M'].map((s) => ({ sku: `TW-${s}`, optionValues: [{ optionName: 'Size', name: s }] })) };
      const throttled = await gql(PRODUCT_SET, { input: two });
      assert.equal(throttled.errors?.[0]?.extensions?.code, 'VARIANT_THROTTLE_EXCEEDED', JSON.stringify(throttled));
      assert.equal(await count(), before);
      // Updating existing variants creates none: still allowed.
      const update = (await data(PRODUCT_SET, { identifier: { id: productId }, input: { title: 'Stocked tee v2' } })).productSet;
      assert.deepEqual(update.userErrors, []);
      assert.equal((await h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, { variant_throttle_limit: null })).statusCode, 200);
      assert.deepEqual((await data(PRODUCT_SET, { input: two })).productSet.userErrors, []);
    });
  });
}
