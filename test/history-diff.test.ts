// What a product's history records of a write, from its snapshots before and after (src/pim/history/history-diff.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffSnapshots } from '../src/pim/history/history-diff.js';

const variant = (sku: string, fields: Record<string, unknown> = {}) => ({ sku, price: '10.0000', stock_quantity: 0, stock_levels: {}, ...fields });

describe('history diff', () => {
  it('lists a new product by the fields it has a value for, and its variants as added', () => {
    const changes = diffSnapshots(null, {
      name: 'Tee',
      price: null,
      tags: [],
      gift_card: false,
      attributes: {},
      images: [],
      stock_levels: { MAIN: 4 },
      variants: { 7: variant('TEE-S') },
    });
    assert.deepEqual(changes, [
      { field: 'name', old: null, new: 'Tee' },
      { field: 'stock_level', warehouse: 'MAIN', old: null, new: 4 },
      { field: 'variant', variant_id: 7, variant_sku: 'TEE-S', old: null, new: variant('TEE-S') },
    ]);
  });

  it('names a changed variant field by its variant, and a stock level by its warehouse', () => {
    const before = { name: 'Tee', stock: 3, stock_levels: {}, variants: { 7: variant('TEE-S', { stock_quantity: 3, stock_levels: { MAIN: 3 } }) } };
    const after = {
      name: 'Tee',
      stock: 5,
      stock_levels: {},
      variants: { 7: variant('TEE-SMALL', { price: '12.0000', stock_quantity: 5, stock_levels: { MAIN: 3, EAST: 2 } }) },
    };
    assert.deepEqual(diffSnapshots(before, after), [
      { field: 'stock', old: 3, new: 5 },
      { field: 'sku', variant_id: 7, variant_sku: 'TEE-SMALL', old: 'TEE-S', new: 'TEE-SMALL' },
      { field: 'price', variant_id: 7, variant_sku: 'TEE-SMALL', old: '10.0000', new: '12.0000' },
      { field: 'stock_quantity', variant_id: 7, variant_sku: 'TEE-SMALL', old: 3, new: 5 },
      { field: 'stock_level', variant_id: 7, variant_sku: 'TEE-SMALL', warehouse: 'EAST', old: null, new: 2 },
    ]);
  });

  it('records a variant removed with what it was, and a level gone as null', () => {
    const before = { stock_levels: { MAIN: 1 }, variants: { 7: variant('TEE-S'), 8: variant('TEE-M') } };
    const after = { stock_levels: {}, variants: { 8: variant('TEE-M') } };
    assert.deepEqual(diffSnapshots(before, after), [
      { field: 'stock_level', warehouse: 'MAIN', old: 1, new: null },
      { field: 'variant', variant_id: 7, variant_sku: 'TEE-S', old: variant('TEE-S'), new: null },
    ]);
  });

  it('records images as one list: added, moved or given another alt text', () => {
    const before = { images: [{ id: 1, alt_text: null }] };
    const after = {
      images: [
        { id: 2, alt_text: 'Back' },
        { id: 1, alt_text: null },
      ],
    };
    assert.deepEqual(diffSnapshots(before, after), [{ field: 'images', old: before.images, new: after.images }]);
    assert.deepEqual(diffSnapshots(after, after), []);
  });
});
