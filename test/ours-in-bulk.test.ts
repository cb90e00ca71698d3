// The bulk search for our products (ours-in-bulk.ts) reads a bulk query's result file as Shopify writes it: lines in any
// order from 2026-01 (groupObjects false), children naming their product in `__parentId`. Only products carrying our
// metafield with a wanted PIM id are kept, with their metafields, collections, variants and media.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OurProductLine } from '../src/storefront/shopify/operations.js';
import { OursAssembler } from '../src/storefront/shopify/ours-in-bulk.js';

const product = (n: number, pimId: string | null): OurProductLine => ({
  id: `gid://shopify/Product/${n}`,
  handle: `p-${n}`,
  title: `P ${n}`,
  tags: ['a'],
  pimProductId: pimId === null ? null : { value: pimId },
});
const child = (kind: string, n: number, parent: number, extra: object = {}) =>
  ({ id: `gid://shopify/${kind}/${n}`, __parentId: `gid://shopify/Product/${parent}`, ...extra }) as OurProductLine;

describe('OursAssembler', () => {
  it('keeps wanted products of ours with their children, whatever the order; drops the rest', () => {
    const a = new OursAssembler(new Set([7, 8]));
    // A child before its product (allowed without groupObjects), then the product, then the rest of its children.
    a.add(child('ProductVariant', 1, 1, { sku: 'S-1' }));
    a.add(product(1, '7'));
    a.add(child('Metafield', 2, 1, { namespace: 'pimbridge', key: 'pim_product_id', type: 'number_integer', value: '7' }));
    a.add(child('Collection', 3, 1));
    a.add(child('MediaImage', 4, 1, { status: 'READY', image: { url: 'https://cdn.example/x.png' } }));
    a.add(child('ProductVariant', 5, 1, { sku: null }));
    // The merchant's product (no metafield), ours for an unwanted PIM id, and a copy of ours for 7 made by hand.
    a.add(product(2, null));
    a.add(child('ProductVariant', 6, 2, { sku: 'M-1' }));
    a.add(product(3, '9'));
    a.add(product(4, '7'));
    a.add(child('ProductVariant', 7, 4, { sku: 'COPY' }));
    const found = a.result();
    assert.deepEqual([...found.keys()], [7]);
    assert.deepEqual(found.get(7), {
      id: 'gid://shopify/Product/1',
      handle: 'p-1',
      title: 'P 1',
      tags: ['a'],
      metafields: { nodes: [{ namespace: 'pimbridge', key: 'pim_product_id', type: 'number_integer', value: '7' }] },
      collections: { nodes: [{ id: 'gid://shopify/Collection/3' }] },
      variants: {
        nodes: [
          { id: 'gid://shopify/ProductVariant/1', sku: 'S-1', inventoryItem: null },
          { id: 'gid://shopify/ProductVariant/5', sku: null, inventoryItem: null },
        ],
        pageInfo: { hasNextPage: false, endCursor: null },
      },
      media: { nodes: [{ id: 'gid://shopify/MediaImage/4', status: 'READY', image: { url: 'https://cdn.example/x.png' } }] },
    });
  });

  it('a metafield value that is not a PIM id matches nothing; a line without an id is a broken file', () => {
    const a = new OursAssembler(new Set([7]));
    a.add(product(1, '7.0'));
    a.add(product(2, ' 7'));
    assert.equal(a.result().size, 0);
    assert.throws(() => a.add({ handle: 'x' } as unknown as OurProductLine), /line without an id/);
  });
});
