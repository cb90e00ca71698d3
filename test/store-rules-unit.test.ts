// The bridge's store rules without a server: the inventory step's compare-and-swap and its retries, the publishing step,
// placements resolved from integration settings, media matched by our file name, and pre-flight's currency, option-case
// and SEO rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolvePlacement } from '../src/connector/integrations/integration-settings.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import type { SyncPlacement } from '../src/storefront/port/placement.js';
import { syncInventory, type Call, type InventoryStepInput } from '../src/storefront/shopify/inventory-sync.js';
import { InventoryActivate, InventoryLevels, InventorySetQuantities, PublishablePublish, PublishableUnpublish } from '../src/storefront/shopify/operations.js';
import { preflight, preflightWarnings } from '../src/storefront/shopify/preflight.js';
import { mapProduct } from '../src/storefront/shopify/product-mapper.js';
import { mediaFilename } from '../src/storefront/shopify/product-media.js';
import { matchMedia } from '../src/storefront/shopify/product-set-result.js';
import { syncPublications, targetPublications } from '../src/storefront/shopify/publication-sync.js';

const LOC = 'gid://shopify/Location/1';
const ITEM = 'gid://shopify/InventoryItem/7';
const PLACEMENT: SyncPlacement = {
  channelPublications: {},
  warehouseLocations: {},
  unsyncedWarehouses: [],
  variantStockLocation: LOC,
  pricesConvertedElsewhere: false,
};

/** A fake shop: one item's available count at LOC, with an optional sale landing before the next write. */
function fakeShop(available: number | null) {
  const state = { available, sales: [] as number[], calls: [] as string[] };
  const call: Call = async <T>(document: string, variables: Record<string, unknown>): Promise<T> => {
    const name = /(?:query|mutation) (\w+)/.exec(document)![1];
    state.calls.push(name);
    if (document === InventoryLevels) {
      return {
        nodes: [
          {
            id: ITEM,
            inventoryLevels: {
              nodes: state.available === null ? [] : [{ location: { id: LOC }, quantities: [{ name: 'available', quantity: state.available }] }],
            },
          },
        ],
      } as T;
    }
    if (document === InventoryActivate) {
      state.available = variables.available as number;
      return { inventoryActivate: { inventoryLevel: { id: 'lvl' }, userErrors: [] } } as T;
    }
    if (document === InventorySetQuantities) {
      const sale = state.sales.shift();
      if (sale) state.available! -= sale;
      const q = (variables.input as { quantities: { quantity: number; changeFromQuantity: number }[] }).quantities[0];
      if (q.changeFromQuantity !== state.available)
        return { inventorySetQuantities: { userErrors: [{ field: null, message: 'stale', code: 'CHANGE_FROM_QUANTITY_STALE' }] } } as T;
      state.available = q.quantity;
      return { inventorySetQuantities: { userErrors: [] } } as T;
    }
    throw new Error(`unexpected ${name}`);
  };
  return { state, call };
}

const step = (target: number, baseline: number | undefined, extra: { disabled?: boolean; created?: boolean } = {}): InventoryStepInput => ({
  pimProductId: 1,
  target: { S: { [LOC]: target } },
  baseline: baseline === undefined ? {} : { S: { [LOC]: baseline } },
  created: new Set(extra.created ? ['S'] : []),
  disabled: new Set(extra.disabled ? ['S'] : []),
  inventoryItemIds: { S: ITEM },
});

describe('inventory step', () => {
  it('makes no call when the PIM count is what was pushed last time, whatever the shop sold', async () => {
    const shop = fakeShop(4);
    const r = await syncInventory(shop.call, step(10, 10));
    assert.deepEqual(shop.state.calls, []);
    assert.deepEqual(r.stock, { S: { [LOC]: 10 } });
  });

  it('moves the shop by the PIM change with compare-and-swap: 10 pushed, 3 sold, PIM 20 → 17', async () => {
    const shop = fakeShop(7);
    const r = await syncInventory(shop.call, step(20, 10));
    assert.equal(shop.state.available, 17);
    assert.deepEqual(r, { stock: { S: { [LOC]: 20 } }, problems: [] });
  });

  it('reads again and retries when a sale lands between the read and the write', async () => {
    const shop = fakeShop(7);
    shop.state.sales.push(2);
    await syncInventory(shop.call, step(20, 10));
    assert.equal(shop.state.available, 15);
    assert.deepEqual(shop.state.calls, ['InventoryLevels', 'InventorySetQuantities', 'InventoryLevels', 'InventorySetQuantities']);
  });

  it('activates an item not stocked at the location with the PIM count; a disabled variant is set to 0 outright', async () => {
    const unstocked = fakeShop(null);
    await syncInventory(unstocked.call, step(6, undefined));
    assert.equal(unstocked.state.available, 6);
    assert.deepEqual(unstocked.state.calls, ['InventoryLevels', 'InventoryActivate']);
    const disabled = fakeShop(9);
    await syncInventory(disabled.call, step(0, 5, { disabled: true }));
    assert.equal(disabled.state.available, 0);
  });

  it('never sets below zero, and leaves variants the productSet created alone', async () => {
    const oversold = fakeShop(1);
    await syncInventory(oversold.call, step(2, 10));
    assert.equal(oversold.state.available, 0);
    const created = fakeShop(3);
    const r = await syncInventory(created.call, step(3, undefined, { created: true }));
    assert.deepEqual(created.state.calls, []);
    assert.deepEqual(r.stock, { S: { [LOC]: 3 } });
  });
});

describe('publishing step', () => {
  it('targets the mapped publications of an active product only', () => {
    const placement = { channelPublications: { web: ['P1'], mobile: ['P2', 'P1'] } };
    assert.deepEqual(targetPublications({ publishing_channels: ['web', 'mobile', 'email'] }, 'ACTIVE', placement).sort(), ['P1', 'P2']);
    assert.deepEqual(targetPublications({ publishing_channels: ['web'] }, 'DRAFT', placement), []);
  });

  it('publishes what is new, unpublishes what it left, and calls nothing when unchanged', async () => {
    const calls: [string, unknown][] = [];
    const call: Call = async <T>(document: string, variables: Record<string, unknown>) => {
      calls.push([document === PublishablePublish ? 'publish' : document === PublishableUnpublish ? 'unpublish' : '?', variables.input]);
      return { publishablePublish: { userErrors: [] }, publishableUnpublish: { userErrors: [] } } as T;
    };
    const r = await syncPublications(call, 'gid://shopify/Product/1', ['P1', 'P3'], ['P1', 'P2']);
    assert.deepEqual(calls, [
      ['publish', [{ publicationId: 'P3' }]],
      ['unpublish', [{ publicationId: 'P2' }]],
    ]);
    assert.deepEqual(r.publications.sort(), ['P1', 'P3']);
    calls.length = 0;
    await syncPublications(call, 'gid://shopify/Product/1', ['P1'], ['P1']);
    assert.deepEqual(calls, []);
  });

  it('a refused publish is a problem and is not remembered (the next push tries again)', async () => {
    const call: Call = async <T>() => ({ publishablePublish: { userErrors: [{ field: ['input'], message: 'Publication does not exist' }] } }) as T;
    const r = await syncPublications(call, 'gid://shopify/Product/1', ['P9'], []);
    assert.deepEqual(r.publications, []);
    assert.match(r.problems[0], /Publication does not exist/);
  });
});

describe('placement from integration settings', () => {
  const pubs = [
    { id: 'P-OS', name: 'Online Store' },
    { id: 'P-POS', name: 'Point of Sale' },
    { id: 'P-SHOP', name: 'Shop' },
  ];
  const locs = [
    { id: 'L-B', name: 'Berlin', isActive: true },
    { id: 'L-A', name: 'Aachen', isActive: true },
    { id: 'L-X', name: 'Closed', isActive: false },
  ];
  it('defaults: web → Online Store, mobile → Shop, others nowhere; the first active location by name', () => {
    const p = resolvePlacement({}, pubs, locs);
    assert.deepEqual(p.channelPublications.web, ['P-OS']);
    assert.deepEqual(p.channelPublications.mobile, ['P-SHOP']);
    assert.deepEqual(p.channelPublications.marketplace, []);
    assert.equal(p.variantStockLocation, 'L-A');
    assert.equal(p.pricesConvertedElsewhere, false);
  });
  it('explicit mappings win; an inactive or null warehouse mapping is not synced', () => {
    const p = resolvePlacement(
      { channels: { web: ['P-POS'] }, warehouses: { MAIN: 'L-B', OLD: 'L-X', NONE: null }, default_location: 'L-B', prices_converted_elsewhere: true },
      pubs,
      locs,
    );
    assert.deepEqual(p.channelPublications.web, ['P-POS']);
    assert.deepEqual(p.warehouseLocations, { MAIN: 'L-B' });
    assert.deepEqual(p.unsyncedWarehouses.sort(), ['NONE', 'OLD']);
    assert.equal(p.variantStockLocation, 'L-B');
    assert.equal(p.pricesConvertedElsewhere, true);
  });
});

describe('media matched by our file name', () => {
  const a = 'https://pim.example/media/a.jpg';
  const b = 'https://pim.example/media/b.png';
  it('known ids first, then the file name in the CDN URL (wherever it is in the answer), then new uploads in order', () => {
    const nameB = mediaFilename(b).replace('.png', '');
    const r = matchMedia([a, b], {}, [
      { id: 'M2', status: 'READY', image: { url: `https://cdn.example/files/${nameB}_0f3c.png?v=1` } },
      { id: 'M1', status: 'UPLOADED', image: null },
    ]);
    assert.deepEqual(r.mediaIds, { [a]: 'M1', [b]: 'M2' });
    assert.deepEqual(r.problems, []);
  });
  it("a FAILED image is a problem with Shopify's reason, and its id is dropped so the next push sends the source again", () => {
    const r = matchMedia([a, b], { [a]: 'M1' }, [
      { id: 'M1', status: 'FAILED', mediaErrors: [{ code: 'IMAGE_DOWNLOAD_FAILURE', message: 'could not download' }] },
      { id: 'M2', status: 'FAILED', mediaErrors: [{ code: 'UNSUPPORTED_IMAGE_FILE_TYPE', message: 'unsupported' }] },
    ]);
    assert.deepEqual(r.mediaIds, {}, 'neither the known nor the fresh failed media is kept');
    assert.equal(r.problems.length, 2);
    assert.match(r.problems[0], /could not download \(IMAGE_DOWNLOAD_FAILURE\)/);
  });
});

describe('pre-flight refuses only what Shopify refuses', () => {
  const base: PimProductSnapshot = { id: 1, sku: 'P', name: 'Tee', price: '10.00', currency: 'EUR', status: 'active', variants: [] };
  const check = (p: PimProductSnapshot, currency = { currencyCode: 'EUR', pricesConvertedElsewhere: false }) =>
    preflight(
      p,
      mapProduct(p, { productId: null, variantIds: {}, mediaIds: {} }, { locations: [], placement: PLACEMENT, current: null }).input,
      undefined,
      currency,
    );

  it('a price in another currency is refused naming both, unless converted elsewhere', () => {
    assert.match(check({ ...base, currency: 'USD' }).join(), /USD.*EUR/);
    assert.deepEqual(check({ ...base, currency: 'USD' }, { currencyCode: 'EUR', pricesConvertedElsewhere: true }), []);
  });

  it('a long name is fine and makes no SEO title; a long SEO title is a warning, not an error', () => {
    const long = { ...base, name: 'N'.repeat(200), attributes: { seo_title: 'S'.repeat(90) } };
    const input = mapProduct(long, { productId: null, variantIds: {}, mediaIds: {} }, { locations: [], placement: PLACEMENT, current: null }).input;
    assert.deepEqual(check(long), []);
    assert.equal(input.seo?.title, 'S'.repeat(90));
    assert.match(preflightWarnings(input).join(), /seo.title: 90 characters/);
    const plain = mapProduct(base, { productId: null, variantIds: {}, mediaIds: {} }, { locations: [], placement: PLACEMENT, current: null }).input;
    assert.equal(plain.seo, undefined);
  });

  it('option values differing only in case are one value: two such variants are the same combination', () => {
    const v = (id: number, size: string) => ({
      id,
      sku: `V${id}`,
      name: size,
      price: '1.00',
      sale_price: null,
      cost: null,
      weight: null,
      stock_quantity: 1,
      stock_status: 'in_stock',
      is_enabled: true,
      position: id,
      image: null,
      attributes: [{ attribute_name: 'Size', value: size }],
    });
    const errors = check({ ...base, variants: [v(1, 'S'), v(2, 's')] });
    assert.ok(
      errors.some((e) => /same option values/.test(e)),
      errors.join('; '),
    );
  });
});
