// The sandbox's inventory rules alone, over real HTTP: several locations (admin PATCH, CLI), listed by name; productSet
// stocks a new variant where it gets quantities and takes an existing one's quantities only where it is stocked;
// inventoryActivate; compare-and-swap with CHANGE_FROM_QUANTITY_STALE applying nothing, changeFromQuantity mandatory
// (null opts out); quantities set where an item is not stocked land on an inactive level (2026-10); the mandatory
// @idempotent key (a key seen again applies nothing, with other parameters it is refused); concurrent compare-and-swaps
// on one item; kept variant fields and inventory-item fields; the variant-creation throttle.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { freePort } from './helpers/connector.js';
import { sandboxCall, sandboxData, type Json } from './helpers/sandbox-graphql.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness } from './helpers/harness.js';
import { CLI } from './helpers/cli-command.js';

const PRODUCT_SET = /* GraphQL */ `
  mutation Set($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input) {
      product { id variants(first: 10) { nodes { id sku price compareAtPrice barcode inventoryPolicy inventoryQuantity
        inventoryItem { id sku tracked unitCost { amount currencyCode } measurement { weight { value unit } }
          inventoryLevels(first: 10) { nodes { location { id name } quantities(names: ["available"]) { quantity } } } } } } }
      userErrors { field message code }
    }
  }
`;
const SET = /* GraphQL */ `
  mutation S($input: InventorySetQuantitiesInput!, $key: String!) {
    inventorySetQuantities(input: $input) @idempotent(key: $key) {
      inventoryAdjustmentGroup { id reason referenceDocumentUri changes { name delta quantityAfterChange item { id } location { name } } }
      userErrors { field message code }
    }
  }
`;
const ADJUST = /* GraphQL */ `
  mutation A($input: InventoryAdjustQuantitiesInput!, $key: String!) {
    inventoryAdjustQuantities(input: $input) @idempotent(key: $key) { inventoryAdjustmentGroup { id changes(quantityNames: ["available"]) { delta quantityAfterChange } } userErrors { field message code } }
  }
`;
const ACTIVATE = /* GraphQL */ `
  mutation Act($item: ID!, $loc: ID!, $available: Int, $key: String!) {
    inventoryActivate(inventoryItemId: $item, locationId: $loc, available: $available) @idempotent(key: $key) { inventoryLevel { isActive location { name } quantities(names: ["available"]) { quantity } } userErrors { field message } }
  }
`;
const LEVELS = /* GraphQL */ `
  query L($ids: [ID!]!, $inactive: Boolean) {
    nodes(ids: $ids) { ... on InventoryItem { id locationsCount { count } inventoryLevels(first: 10, includeInactive: $inactive) { nodes { isActive location { name } quantities(names: ["available"]) { quantity } } } } }
  }
`;

for (const target of databaseTargets()) {
  describe(`Shopify sandbox inventory (${target.name})`, () => {
    let h: Harness;
    let shopId: number;
    let token: string;
    let url: string;
    const loc: Record<string, string> = {};

    const gql = (query: string, variables: Json = {}) => sandboxCall(url, token, query, variables);
    const data = (query: string, variables: Json = {}) => sandboxData(url, token, query, variables);
    /** Quantity by location name; inactive levels as `name (inactive)` when asked for. */
    const levels = async (itemId: string, inactive = false) =>
      Object.fromEntries(
        (await data(LEVELS, { ids: [itemId], inactive })).nodes[0].inventoryLevels.nodes.map((n: Json) => [
          n.isActive ? n.location.name : `${n.location.name} (inactive)`,
          n.quantities[0].quantity,
        ]),
      );
    const addLocations = async (names: string[]) => {
      const res = await h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, { locations: names });
      assert.equal(res.statusCode, 200, res.body);
      for (const l of res.json().locations) loc[l.name] = l.id;
      return res.json().locations.map((l: Json) => l.name) as string[];
    };
    const title = { productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }] };
    const defaultOption = [{ optionName: 'Title', name: 'Default Title' }];

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      const domain = 'inventory.myshopify.com';
      const { organizationId } = await h.tenant();
      const res = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: organizationId });
      assert.equal(res.statusCode, 201, res.body);
      shopId = res.json().id;
      token = res.json().access_token;
      url = `http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`;
    });
    after(async () => h.close());

    it('locations added through the admin API (none twice), listed by name (sortKey NAME is the default), by id on request', async () => {
      assert.deepEqual(await addLocations(['Berlin', 'Aachen', 'Berlin', ' aachen ']), ['Shop location', 'Berlin', 'Aachen']);
      const byName = await data(`{ locations(first: 10) { nodes { name } } }`);
      assert.deepEqual(
        byName.locations.nodes.map((n: Json) => n.name),
        ['Aachen', 'Berlin', 'Shop location'],
      );
      const byId = await data(`{ locations(first: 2, sortKey: ID) { nodes { name } pageInfo { hasNextPage endCursor } } }`);
      assert.deepEqual(
        byId.locations.nodes.map((n: Json) => n.name),
        ['Shop location', 'Berlin'],
      );
      assert.equal(byId.locations.pageInfo.hasNextPage, true);
      const reversed = await data(`{ locations(first: 10, reverse: true) { nodes { name } } }`);
      assert.deepEqual(
        reversed.locations.nodes.map((n: Json) => n.name),
        ['Shop location', 'Berlin', 'Aachen'],
      );
    });

    let itemId = '';
    let variantId = '';
    let productId = '';

    it('a new variant is stocked where productSet gives it quantities; an existing one only takes quantities where it is stocked', async () => {
      const created = (
        await data(PRODUCT_SET, {
          input: {
            title: 'Stocked tee',
            ...title,
            variants: [
              {
                price: '10',
                compareAtPrice: '15',
                barcode: '4006381333931',
                inventoryPolicy: 'CONTINUE',
                optionValues: defaultOption,
                inventoryItem: { sku: 'ST-1', tracked: true, cost: '4.25', measurement: { weight: { value: 0.3, unit: 'KILOGRAMS' } } },
                inventoryQuantities: [
                  { locationId: loc['Shop location'], name: 'available', quantity: 5 },
                  { locationId: loc.Aachen, name: 'on_hand', quantity: 2 },
                ],
              },
            ],
          },
        })
      ).productSet;
      assert.deepEqual(created.userErrors, []);
      productId = created.product.id;
      const v = created.product.variants.nodes[0];
      variantId = v.id;
      itemId = v.inventoryItem.id;
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2 });
      assert.deepEqual([v.sku, v.inventoryItem.sku, v.inventoryPolicy, v.inventoryQuantity], ['ST-1', 'ST-1', 'CONTINUE', 7]);
      assert.deepEqual(
        { tracked: v.inventoryItem.tracked, cost: v.inventoryItem.unitCost, weight: v.inventoryItem.measurement.weight },
        {
          tracked: true,
          cost: { amount: '4.25', currencyCode: (await data(`{ shop { currencyCode } }`)).shop.currencyCode },
          weight: { value: 0.3, unit: 'KILOGRAMS' },
        },
      );
      // Where it is not stocked there is no level; quantity names other than available/on_hand answer 0.
      const item = (
        await data(
          `query ($id: ID!, $berlin: ID!, $aachen: ID!) { inventoryItem(id: $id) { locationsCount { count }
          berlin: inventoryLevel(locationId: $berlin) { id } aachen: inventoryLevel(locationId: $aachen) { quantities(names: ["available", "on_hand", "committed"]) { name quantity } } } }`,
          { id: itemId, berlin: loc.Berlin, aachen: loc.Aachen },
        )
      ).inventoryItem;
      assert.deepEqual([item.locationsCount.count, item.berlin], [2, null]);
      assert.deepEqual(
        item.aachen.quantities.map((q: Json) => [q.name, q.quantity]),
        [
          ['available', 2],
          ['on_hand', 2],
          ['committed', 0],
        ],
      );

      const refused = (
        await data(PRODUCT_SET, {
          identifier: { id: productId },
          input: {
            ...title,
            variants: [{ id: variantId, optionValues: defaultOption, inventoryQuantities: [{ locationId: loc.Berlin, name: 'available', quantity: 9 }] }],
          },
        })
      ).productSet;
      assert.equal(refused.product, null);
      assert.deepEqual(
        refused.userErrors.map((e: Json) => [e.field.at(-1), e.code]),
        [['locationId', 'INVALID_INPUT']],
      );
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2 }, 'nothing of the refused call applied');

      // An update that leaves fields out keeps them: price, compare-at price, barcode, policy, inventory item, stock.
      const kept = (await data(PRODUCT_SET, { identifier: { id: productId }, input: { ...title, variants: [{ id: variantId, optionValues: defaultOption }] } }))
        .productSet;
      assert.deepEqual(kept.userErrors, []);
      const k = kept.product.variants.nodes[0];
      assert.deepEqual(
        [
          k.price,
          k.compareAtPrice,
          k.barcode,
          k.inventoryPolicy,
          k.sku,
          k.inventoryItem.tracked,
          k.inventoryItem.unitCost.amount,
          k.inventoryItem.measurement.weight.value,
          k.inventoryQuantity,
        ],
        ['10.00', '15.00', '4006381333931', 'CONTINUE', 'ST-1', true, '4.25', 0.3, 7],
      );
      // Sent fields change: null clears the compare-at price, tracked and the policy take the new values.
      const changed = (
        await data(PRODUCT_SET, {
          identifier: { id: productId },
          input: {
            ...title,
            variants: [{ id: variantId, optionValues: defaultOption, compareAtPrice: null, inventoryPolicy: 'DENY', inventoryItem: { tracked: false } }],
          },
        })
      ).productSet.product.variants.nodes[0];
      assert.deepEqual(
        [changed.compareAtPrice, changed.inventoryPolicy, changed.inventoryItem.tracked, changed.inventoryItem.unitCost.amount],
        [null, 'DENY', false, '4.25'],
      );
    });

    it('inventoryActivate stocks the item at a location; then productSet takes a quantity there', async () => {
      const act = (await data(ACTIVATE, { item: itemId, loc: loc.Berlin, available: 4, key: 'act-1' })).inventoryActivate;
      assert.deepEqual(act.userErrors, []);
      assert.deepEqual([act.inventoryLevel.isActive, act.inventoryLevel.location.name, act.inventoryLevel.quantities[0].quantity], [true, 'Berlin', 4]);
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2, Berlin: 4 });
      const taken = (
        await data(PRODUCT_SET, {
          identifier: { id: productId },
          input: {
            ...title,
            variants: [{ id: variantId, optionValues: defaultOption, inventoryQuantities: [{ locationId: loc.Berlin, name: 'available', quantity: 6 }] }],
          },
        })
      ).productSet;
      assert.deepEqual(taken.userErrors, []);
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2, Berlin: 6 });
      const unknown = (await data(ACTIVATE, { item: itemId, loc: 'gid://shopify/Location/999999', key: 'act-2' })).inventoryActivate;
      assert.deepEqual([unknown.inventoryLevel, unknown.userErrors.map((e: Json) => e.field)], [null, [['locationId']]]);
    });

    it('a location added after the store was in use is known at once', async () => {
      await addLocations(['Cologne']);
      const made = (
        await data(PRODUCT_SET, {
          input: {
            title: 'Cologne cap',
            ...title,
            variants: [{ optionValues: defaultOption, inventoryQuantities: [{ locationId: loc.Cologne, name: 'available', quantity: 3 }] }],
          },
        })
      ).productSet;
      assert.deepEqual(made.userErrors, []);
      assert.deepEqual(await levels(made.product.variants.nodes[0].inventoryItem.id), { Cologne: 3 });
    });

    it('inventorySetQuantities compares and swaps: a stale changeFromQuantity refuses the whole call; null skips the check; leaving it out is refused', async () => {
      const input = (quantities: Json[]) => ({ name: 'available', reason: 'correction', referenceDocumentUri: 'gid://pimbridge/Product/1', quantities });
      const stale = (
        await data(SET, {
          key: 'set-1',
          input: input([
            { inventoryItemId: itemId, locationId: loc['Shop location'], quantity: 50, changeFromQuantity: 5 },
            { inventoryItemId: itemId, locationId: loc.Aachen, quantity: 20, changeFromQuantity: 99 },
          ]),
        })
      ).inventorySetQuantities;
      assert.deepEqual(
        stale.userErrors.map((e: Json) => [e.field, e.code]),
        [[['input', 'quantities', '1', 'changeFromQuantity'], 'CHANGE_FROM_QUANTITY_STALE']],
      );
      assert.equal(stale.inventoryAdjustmentGroup, null);
      assert.deepEqual(await levels(itemId), { 'Shop location': 5, Aachen: 2, Berlin: 6 }, 'nothing of the call applied');

      const ok = (
        await data(SET, { key: 'set-2', input: input([{ inventoryItemId: itemId, locationId: loc['Shop location'], quantity: 50, changeFromQuantity: 5 }]) })
      ).inventorySetQuantities;
      assert.deepEqual(ok.userErrors, []);
      assert.equal(ok.inventoryAdjustmentGroup.reason, 'correction');
      assert.equal(ok.inventoryAdjustmentGroup.referenceDocumentUri, 'gid://pimbridge/Product/1');
      assert.deepEqual(
        ok.inventoryAdjustmentGroup.changes.map((c: Json) => [c.name, c.delta, c.quantityAfterChange, c.item.id, c.location.name]),
        [
          ['available', 45, 50, itemId, 'Shop location'],
          ['on_hand', 45, 50, itemId, 'Shop location'],
        ],
      );
      assert.equal((await levels(itemId))['Shop location'], 50);

      const unchecked = (
        await data(SET, { key: 'set-3', input: input([{ inventoryItemId: itemId, locationId: loc.Aachen, quantity: 8, changeFromQuantity: null }]) })
      ).inventorySetQuantities;
      assert.deepEqual(unchecked.userErrors, []);
      const omitted = (await data(SET, { key: 'set-4', input: input([{ inventoryItemId: itemId, locationId: loc.Aachen, quantity: 1 }]) }))
        .inventorySetQuantities;
      assert.deepEqual(
        omitted.userErrors.map((e: Json) => e.code),
        ['COMPARE_QUANTITY_REQUIRED'],
      );
      assert.equal((await levels(itemId)).Aachen, 8);

      const negative = (
        await data(SET, { key: 'set-5', input: input([{ inventoryItemId: itemId, locationId: loc.Aachen, quantity: -1, changeFromQuantity: 8 }]) })
      ).inventorySetQuantities;
      assert.deepEqual(
        negative.userErrors.map((e: Json) => e.code),
        ['INVALID_QUANTITY_NEGATIVE'],
      );
      const twice = (
        await data(SET, {
          key: 'set-6',
          input: input([
            { inventoryItemId: itemId, locationId: loc.Aachen, quantity: 1, changeFromQuantity: null },
            { inventoryItemId: itemId, locationId: loc.Aachen, quantity: 2, changeFromQuantity: null },
          ]),
        })
      ).inventorySetQuantities;
      assert.deepEqual(
        twice.userErrors.map((e: Json) => e.code),
        ['NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR'],
      );
      const badReason = (await data(SET, { key: 'set-7', input: { ...input([]), reason: 'because' } })).inventorySetQuantities;
      assert.deepEqual(
        badReason.userErrors.map((e: Json) => e.code),
        ['INVALID_REASON'],
      );
      const badName = (await data(SET, { key: 'set-8', input: { ...input([]), name: 'committed' } })).inventorySetQuantities;
      assert.deepEqual(
        badName.userErrors.map((e: Json) => e.code),
        ['INVALID_NAME'],
      );
      assert.deepEqual(await levels(itemId), { 'Shop location': 50, Aachen: 8, Berlin: 6 });
    });

    it('a sale is an adjustment; an idempotency key seen again applies nothing; with other parameters it is refused', async () => {
      const sale = {
        name: 'available',
        reason: 'correction',
        changes: [{ inventoryItemId: itemId, locationId: loc['Shop location'], delta: -3, changeFromQuantity: 50 }],
      };
      const first = (await data(ADJUST, { key: 'sale-1', input: sale })).inventoryAdjustQuantities;
      assert.deepEqual(first.userErrors, []);
      assert.deepEqual(first.inventoryAdjustmentGroup.changes, [{ delta: -3, quantityAfterChange: 47 }]);
      const again = (await data(ADJUST, { key: 'sale-1', input: sale })).inventoryAdjustQuantities;
      assert.deepEqual(again, first, 'the repeated key answers the first answer');
      assert.equal((await levels(itemId))['Shop location'], 47, 'the repeated key sold once');
      const product = (
        await data(`query ($id: ID!) { product(id: $id) { totalInventory variants(first: 1) { nodes { inventoryQuantity } } } }`, { id: productId })
      ).product;
      assert.deepEqual([product.totalInventory, product.variants.nodes[0].inventoryQuantity], [61, 61]);

      const other = (await data(ADJUST, { key: 'sale-1', input: { ...sale, changes: [{ ...sale.changes[0], delta: -1 }] } })).inventoryAdjustQuantities;
      assert.deepEqual(
        other.userErrors.map((e: Json) => e.code),
        ['IDEMPOTENCY_KEY_PARAMETER_MISMATCH'],
      );
      const stale = (await data(ADJUST, { key: 'sale-2', input: sale })).inventoryAdjustQuantities;
      assert.deepEqual(
        stale.userErrors.map((e: Json) => e.code),
        ['CHANGE_FROM_QUANTITY_STALE'],
      );
      const omitted = (
        await data(ADJUST, { key: 'sale-3', input: { ...sale, changes: [{ inventoryItemId: itemId, locationId: loc['Shop location'], delta: -1 }] } })
      ).inventoryAdjustQuantities;
      assert.deepEqual(
        omitted.userErrors.map((e: Json) => e.field.at(-1)),
        ['changeFromQuantity'],
      );
      assert.equal((await levels(itemId))['Shop location'], 47);
    });

    it('without @idempotent (or with a blank key) the mutation is refused (mandatory from 2026-04) and applies nothing', async () => {
      const input = {
        name: 'available',
        reason: 'correction',
        changes: [{ inventoryItemId: itemId, locationId: loc['Shop location'], delta: -1, changeFromQuantity: null }],
      };
      const bare = await gql(`mutation ($input: InventoryAdjustQuantitiesInput!) { inventoryAdjustQuantities(input: $input) { userErrors { code } } }`, {
        input,
      });
      assert.match(JSON.stringify(bare.errors), /@idempotent/);
      assert.deepEqual(bare.data, { inventoryAdjustQuantities: null });
      const blank = await gql(ADJUST, { input, key: '  ' });
      assert.match(JSON.stringify(blank.errors), /@idempotent/);
      const activate = await gql(
        `mutation ($item: ID!, $loc: ID!) { inventoryActivate(inventoryItemId: $item, locationId: $loc) { userErrors { message } } }`,
        { item: itemId, loc: loc.Cologne },
      );
      assert.match(JSON.stringify(activate.errors), /@idempotent/);
      assert.deepEqual(await levels(itemId), { 'Shop location': 47, Aachen: 8, Berlin: 6 });
    });

    it('a quantity set where the item is not stocked lands on an inactive level, not sellable until inventoryActivate keeps it', async () => {
      const made = (await data(PRODUCT_SET, { input: { title: 'Unstocked', ...title, variants: [{ optionValues: defaultOption }] } })).productSet;
      const other = made.product.variants.nodes[0].inventoryItem.id;
      assert.deepEqual(await levels(other), {});
      const set = (
        await data(SET, {
          key: 'un-1',
          input: {
            name: 'available',
            reason: 'received',
            quantities: [{ inventoryItemId: other, locationId: loc.Berlin, quantity: 7, changeFromQuantity: 0 }],
          },
        })
      ).inventorySetQuantities;
      assert.deepEqual(set.userErrors, []);
      const adjusted = (
        await data(ADJUST, {
          key: 'un-2',
          input: { name: 'available', reason: 'received', changes: [{ inventoryItemId: other, locationId: loc.Berlin, delta: 2, changeFromQuantity: 7 }] },
        })
      ).inventoryAdjustQuantities;
      assert.deepEqual(adjusted.userErrors, []);
      assert.deepEqual(await levels(other), {}, 'inactive levels are listed only with includeInactive');
      assert.deepEqual(await levels(other, true), { 'Berlin (inactive)': 9 });
      const variant = (await data(`query ($id: ID!) { productVariant(id: $id) { inventoryQuantity } }`, { id: made.product.variants.nodes[0].id }))
        .productVariant;
      assert.equal(variant.inventoryQuantity, 0, 'an inactive level sells nothing');
      // productSet still takes quantities only where the variant is stocked.
      const refused = (
        await data(PRODUCT_SET, {
          identifier: { id: made.product.id },
          input: {
            ...title,
            variants: [
              {
                id: made.product.variants.nodes[0].id,
                optionValues: defaultOption,
                inventoryQuantities: [{ locationId: loc.Berlin, name: 'available', quantity: 1 }],
              },
            ],
          },
        })
      ).productSet;
      assert.deepEqual(
        refused.userErrors.map((e: Json) => e.code),
        ['INVALID_INPUT'],
      );

      const act = (await data(ACTIVATE, { item: other, loc: loc.Berlin, key: 'un-3' })).inventoryActivate;
      assert.deepEqual([act.userErrors, act.inventoryLevel.quantities[0].quantity], [[], 9]);
      assert.deepEqual(await levels(other, true), { Berlin: 9 });
      const unknownLocation = (
        await data(SET, {
          key: 'un-4',
          input: {
            name: 'available',
            reason: 'received',
            quantities: [{ inventoryItemId: other, locationId: 'gid://shopify/Location/999999', quantity: 1, changeFromQuantity: null }],
          },
        })
      ).inventorySetQuantities;
      assert.deepEqual(
        unknownLocation.userErrors.map((e: Json) => e.code),
        ['INVALID_LOCATION'],
      );
      const unknownItem = (
        await data(SET, {
          key: 'un-5',
          input: {
            name: 'available',
            reason: 'received',
            quantities: [{ inventoryItemId: 'gid://shopify/InventoryItem/999999', locationId: loc.Berlin, quantity: 1, changeFromQuantity: null }],
          },
        })
      ).inventorySetQuantities;
      assert.deepEqual(
        unknownItem.userErrors.map((e: Json) => e.code),
        ['INVALID_INVENTORY_ITEM'],
      );
    });

    it('concurrent compare-and-swaps on one item: exactly one wins, the others are stale', async () => {
      const current = (await levels(itemId)).Berlin;
      const results = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          data(ADJUST, {
            key: `race-${n}`,
            input: {
              name: 'available',
              reason: 'correction',
              changes: [{ inventoryItemId: itemId, locationId: loc.Berlin, delta: -1, changeFromQuantity: current }],
            },
          }),
        ),
      );
      const codes = results.map((r) => r.inventoryAdjustQuantities.userErrors.map((e: Json) => e.code).join() || 'ok').sort();
      assert.deepEqual(codes, ['CHANGE_FROM_QUANTITY_STALE', 'CHANGE_FROM_QUANTITY_STALE', 'CHANGE_FROM_QUANTITY_STALE', 'ok']);
      assert.equal((await levels(itemId)).Berlin, current - 1);
    });

    it("past the store's variant throttle a productSet that creates variants is refused with VARIANT_THROTTLE_EXCEEDED and writes nothing", async () => {
      const count = async () => (await data(`{ productsCount { count } }`)).productsCount.count as number;
      const before = await count();
      const variants = (await data(`{ products(first: 50) { nodes { variantsCount { count } } } }`)).products.nodes.reduce(
        (n: number, p: Json) => n + p.variantsCount.count,
        0,
      );
      assert.equal((await h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, { variant_throttle_limit: variants + 1 })).statusCode, 200);
      const two = {
        title: 'Two sizes',
        productOptions: [{ name: 'Size', values: [{ name: 'S' }, { name: 'M' }] }],
        variants: ['S', 'M'].map((s) => ({ sku: `TW-${s}`, optionValues: [{ optionName: 'Size', name: s }] })),
      };
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

describe('pimbridge shop sandbox-config --locations', () => {
  let h: Harness;
  let url: string;
  before(async () => {
    h = await harness(databaseTargets()[0], { SHOPIFY_SANDBOX: 'true' });
    url = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => h.close());

  it('ensures N numbered locations and the named ones', async () => {
    const { organizationId } = await h.tenant();
    const shop = (
      await h.admin('POST', '/admin/shops', { domain: 'cli-locations.myshopify.com', platform: 'sandbox', organization_id: organizationId })
    ).json();
    const root = path.resolve(import.meta.dirname, '..');
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, [...CLI, '--url', url, '--admin-token', TEST_ADMIN_TOKEN, ...args], {
        cwd: root,
        timeout: 60_000,
      });
    const names = async (...args: string[]) =>
      JSON.parse((await cli('shop', 'sandbox-config', String(shop.id), ...args, '--json')).stdout).locations.map((l: Json) => l.name);
    assert.deepEqual(await names('--locations', '3', '--location', 'Berlin'), ['Shop location', 'Location 2', 'Location 3', 'Berlin']);
    assert.deepEqual(await names('--locations', '4'), ['Shop location', 'Location 2', 'Location 3', 'Berlin', 'Location 4']);
  });
});
