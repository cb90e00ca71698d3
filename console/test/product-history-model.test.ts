// A product's history in a merchant's words (console/src/features/products/product-history-model.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldLabel, type HistoryNames, inFieldOrder, valueText, whoText } from '../src/features/products/product-history-model.ts';

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
