// The console's query keys (console/src/features/*/keys.ts): one key per resource whichever page reads it (the Lists
// page and the product editor read brands through the same query), and what each change marks stale: its resource,
// and the reads that carry it, never another resource.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { bridgeKeys, isFullSyncKey } from '../src/features/bridge/keys.ts';
import { attributeKeys, brandKeys, categoryKeys, channelKeys, supplierKeys, vatRateKeys, warehouseKeys } from '../src/features/catalogue/keys.ts';
import { importKeys } from '../src/features/files/keys.ts';
import { organizationKeys } from '../src/features/organization/keys.ts';
import { productKeys } from '../src/features/products/keys.ts';

// The API client reads the page's origin when it loads: a stand-in for Node (nothing here calls the server).
globalThis.window ??= { location: { origin: 'http://console.test' } } as never;
const catalogue = await import('../src/features/catalogue/api.ts');
const { LIST_CONFIGS } = await import('../src/features/catalogue/list-configs.tsx');
const products = await import('../src/features/products/api.ts');
const bridge = await import('../src/features/bridge/api.ts');
const files = await import('../src/features/files/api.ts');

const startsWith = (key: QueryKey, prefix: QueryKey) =>
  prefix.length <= key.length && prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));

/** A client holding data under each key, nothing invalidated yet. */
function clientWith(keys: QueryKey[]) {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, { cached: true });
  return client;
}
const invalidated = (client: QueryClient, keys: QueryKey[]) => keys.filter((key) => client.getQueryState(key)?.isInvalidated);

test('each resource has a key of its own: none is another one, or under another one', () => {
  const roots: QueryKey[] = [
    brandKeys.all,
    supplierKeys.all,
    vatRateKeys.all,
    channelKeys.all,
    warehouseKeys.all,
    categoryKeys.all,
    attributeKeys.all,
    organizationKeys.all,
    productKeys.all,
    bridgeKeys.all,
    importKeys.all,
  ];
  for (const a of roots) for (const b of roots) if (a !== b) assert.ok(!startsWith(a, b), `${JSON.stringify(a)} is under ${JSON.stringify(b)}`);
  // The same arguments, the same key (a factory, not a new array of another shape each time).
  assert.deepEqual(productKeys.detail(7), productKeys.detail(7));
  assert.deepEqual(bridgeKeys.mapping(3, 7), ['bridge', 3, 'mapping', 7]);
  assert.deepEqual(bridgeKeys.statesOf([7, 8]), ['bridge', 'states', '7,8']);
});

test('the Lists page reads each list through the query the product pages and the export read (the same key, the same read)', () => {
  assert.equal(LIST_CONFIGS.brands.query, catalogue.brandsQuery);
  assert.equal(LIST_CONFIGS.suppliers.query, catalogue.suppliersQuery);
  assert.equal(LIST_CONFIGS['vat-rates'].query, catalogue.vatRatesQuery);
  assert.equal(LIST_CONFIGS.channels.query, catalogue.channelsQuery);
  assert.equal(LIST_CONFIGS.warehouses.query, catalogue.warehousesQuery);
  assert.deepEqual(catalogue.brandsQuery.queryKey, brandKeys.all);
  assert.deepEqual(catalogue.suppliersQuery.queryKey, supplierKeys.all);
  assert.deepEqual(catalogue.vatRatesQuery.queryKey, vatRateKeys.all);
  assert.deepEqual(catalogue.channelsQuery.queryKey, channelKeys.all);
  assert.deepEqual(catalogue.warehousesQuery.queryKey, warehouseKeys.all);
  // The categories page's tree is what the product pages flatten; the attributes page's list what the editor reads.
  assert.deepEqual(catalogue.categoryTreeQuery.queryKey, categoryKeys.tree());
  assert.deepEqual(catalogue.attributesQuery.queryKey, attributeKeys.all);
});

test('a change of brands marks the brands and every product read stale, and no other list', async () => {
  const others = [supplierKeys.all, vatRateKeys.all, channelKeys.all, warehouseKeys.all, categoryKeys.tree(), attributeKeys.all, organizationKeys.all];
  const productReads = [productKeys.detail(1), productKeys.list({ page: 1 }), productKeys.names([1, 2])];
  const client = clientWith([brandKeys.all, ...others, ...productReads]);
  await catalogue.catalogueChanged(client, brandKeys.all);
  assert.deepEqual(invalidated(client, [brandKeys.all, ...others, ...productReads]), [brandKeys.all, ...productReads]);
});

test("a change of a category marks the tree stale, which the product editor's category list is read from", async () => {
  const client = clientWith([categoryKeys.tree(), brandKeys.all]);
  await catalogue.catalogueChanged(client, categoryKeys.all);
  assert.deepEqual(invalidated(client, [categoryKeys.tree(), brandKeys.all]), [categoryKeys.tree()]);
});

test("a change of one product's parts marks that product and every list stale, not its other parts nor other products", () => {
  const keys = [
    productKeys.detail(1),
    productKeys.variants(1),
    productKeys.media(1),
    productKeys.translation(1, 'de'),
    productKeys.detail(2),
    productKeys.list({ page: 2, q: 'merino' }),
    productKeys.names([1]),
  ];
  const client = clientWith(keys);
  products.productChanged(client, 1);
  assert.deepEqual(invalidated(client, keys), [productKeys.detail(1), productKeys.list({ page: 2, q: 'merino' }), productKeys.names([1])]);
});

test('a push marks everything of its integration stale (the product editor’s mapping included) but a full sync’s progress and other integrations', async () => {
  const keys = [
    bridgeKeys.status(3),
    bridgeKeys.mappingsPage(3, 'error', 2),
    bridgeKeys.mapping(3, 7),
    bridgeKeys.syncLogs(3),
    bridgeKeys.fullSync(3, 'sync-1'),
    bridgeKeys.status(4),
    bridgeKeys.integrations(),
    bridgeKeys.statesOf([7, 8]),
  ];
  assert.equal(isFullSyncKey(bridgeKeys.fullSync(3, 'sync-1')), true);
  assert.equal(isFullSyncKey(bridgeKeys.status(3)), false);
  const client = clientWith(keys);
  await bridge.bridgeChanged(client, 3);
  assert.deepEqual(invalidated(client, keys), [
    bridgeKeys.status(3),
    bridgeKeys.mappingsPage(3, 'error', 2),
    bridgeKeys.mapping(3, 7),
    bridgeKeys.syncLogs(3),
    bridgeKeys.integrations(),
    // The product list's states (every shop's, one read): what the push wrote shows there too.
    bridgeKeys.statesOf([7, 8]),
  ]);
});

test('an import that ended marks what it may have written stale: products, brands, suppliers, categories', () => {
  const keys = [productKeys.detail(1), productKeys.lists(), brandKeys.all, supplierKeys.all, categoryKeys.tree(), warehouseKeys.all, importKeys.detail('im-1')];
  const client = clientWith(keys);
  files.importEnded(client);
  assert.deepEqual(invalidated(client, keys), [productKeys.detail(1), productKeys.lists(), brandKeys.all, supplierKeys.all, categoryKeys.tree()]);
});
