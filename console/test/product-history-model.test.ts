// A product's history in a merchant's words (console/src/features/products/product-history-model.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  changeLabel,
  changeText,
  fieldLabel,
  type HistoryNames,
  imagesText,
  inFieldOrder,
  valueText,
  whoText,
} from '../src/features/products/product-history-model.ts';

const names: HistoryNames = {
  brands: new Map([[3, 'Acme']]),
  suppliers: new Map(),
  vatRates: new Map([[1, 'Standard (DE)']]),
  categories: new Map([
    [5, 'Clothing › Tops'],
    [6, 'Sale'],
  ]),
};

test('who made a change, as the merchant knows them', () => {
  assert.equal(whoText({ kind: 'api_key', key_id: 4, key_name: 'ERP sync', label: null }), 'API key “ERP sync”');
  assert.equal(whoText({ kind: 'api_key', key_id: 4, key_name: null, label: null }), 'API key #4');
  assert.equal(whoText({ kind: 'console', key_id: 4, key_name: 'Shop team', label: null }), 'The console (signed in with key “Shop team”)');
  assert.equal(whoText({ kind: 'import', key_id: 4, key_name: null, label: 'prices.csv' }), 'Import of prices.csv');
  assert.equal(whoText({ kind: 'adoption', key_id: 4, key_name: null, label: 'shop-adoption.csv' }), 'Bringing in the Shopify store');
});

test('values in words: decimals, statuses, names for ids, lists, yes and no, nothing', () => {
  assert.equal(valueText('price', '12.5000', names), '12.50');
  assert.equal(valueText('price', null, names), '(empty)');
  assert.equal(valueText('status', 'out_of_stock', names), 'Out of stock');
  assert.equal(valueText('product_type', 'simple', names), 'Standard');
  assert.equal(valueText('product_type', 'kit', names), 'kit');
  assert.equal(valueText('brand_id', 3, names), 'Acme');
  assert.equal(valueText('supplier_id', 9, names), '#9');
  assert.equal(valueText('category_ids', [5, 6], names), 'Clothing › Tops, Sale');
  assert.equal(valueText('category_ids', [], names), '(none)');
  assert.equal(valueText('tags', ['summer', 'linen'], names), 'summer, linen');
  assert.equal(valueText('gift_card', false, names), 'No');
  assert.equal(valueText('attributes', { material: 'cotton', sizes: ['S', 'M'] }, names), 'material: cotton; sizes: S, M');
  assert.equal(fieldLabel('sale_price'), 'Sale price');
  assert.equal(fieldLabel('something_new'), 'something new');
  assert.equal(fieldLabel('seo_title@de'), 'SEO title (de)');
});

test("a change's fields in the editor's order", () => {
  const fields = inFieldOrder([{ field: 'status' }, { field: 'unknown' }, { field: 'price' }, { field: 'name' }]).map((f) => f.field);
  assert.deepEqual(fields, ['name', 'price', 'status', 'unknown']);
});

test("a variant's changes, a stock level's and a variant added or removed, in words", () => {
  const variant = { variant_id: 7, variant_sku: 'TEE-S' };
  assert.equal(changeLabel({ field: 'price', old: '1.0000', new: '2.0000', ...variant }), 'Variant TEE-S · Price');
  assert.equal(changeLabel({ field: 'stock_quantity', old: 1, new: 2, ...variant }), 'Variant TEE-S · Stock');
  assert.equal(changeLabel({ field: 'stock_level', old: 1, new: 2, ...variant, warehouse: 'EAST' }), 'Variant TEE-S · Stock in EAST');
  assert.equal(changeLabel({ field: 'stock_level', old: null, new: 4, warehouse: 'MAIN' }), 'Stock in MAIN');
  assert.equal(changeLabel({ field: 'variant', old: null, new: { sku: 'TEE-S' }, ...variant }), 'Variant TEE-S');
  assert.deepEqual(changeText({ field: 'variant', old: null, new: { sku: 'TEE-S' }, ...variant }, names, false), { before: null, after: 'added' });
  assert.deepEqual(changeText({ field: 'variant', old: { sku: 'TEE-S' }, new: null, ...variant }, names, false), { before: null, after: 'removed' });
  assert.deepEqual(changeText({ field: 'stock_status', old: 'out_of_stock', new: 'in_stock', ...variant }, names, false), {
    before: 'Out of stock',
    after: 'In stock',
  });
  assert.deepEqual(changeText({ field: 'cost', old: null, new: '2.5000', ...variant }, names, true), { before: null, after: '2.50' });
  assert.equal(
    valueText(
      'attributes',
      [
        { attribute_name: 'Size', value: 'S' },
        { attribute_name: 'Color', value: 'Red' },
      ],
      names,
    ),
    'Size: S, Color: Red',
  );
});

test('what changed among the images, in words', () => {
  const a = { id: 1, alt_text: null };
  const b = { id: 2, alt_text: 'Back' };
  assert.equal(imagesText([a], [a, b]), '1 added');
  assert.equal(imagesText([a, b], [b]), '1 removed');
  assert.equal(imagesText([a, b], [b, a]), 'order changed');
  assert.equal(imagesText([a, b], [a, { ...b, alt_text: 'Front' }]), 'alt text changed');
  assert.equal(imagesText([a], [b]), '1 added, 1 removed');
  assert.equal(imagesText(null, [a, b], true), '2 images');
});

test("a change's product fields come first in the editor's order, its variants' after them", () => {
  const fields = inFieldOrder([
    { field: 'price', variant_sku: 'TEE-S' },
    { field: 'stock_level', warehouse: 'MAIN' },
    { field: 'name' },
    { field: 'stock' },
  ]).map((f) => `${f.field}${f.variant_sku ? ` ${f.variant_sku}` : ''}`);
  assert.deepEqual(fields, ['name', 'stock', 'stock_level', 'price TEE-S']);
});
