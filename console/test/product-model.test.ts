// The product pages' pure helpers: list filters in the URL, the body a product form sends, decimals, attribute
// values, variant order and a push answer in plain words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type AttributeDefinition,
  attributeFromInput,
  decimalInput,
  decimalShown,
  emptyForm,
  errorKey,
  flattenTree,
  listQuery,
  optionsFromText,
  productBody,
  pushSummary,
  readFilters,
  swapPositions,
  writeFilters,
} from '../src/components/product-model.tsx';

test('filters survive a round trip through the URL, defaults left out and nonsense ignored', () => {
  const f = readFilters(new URLSearchParams('q=wool&status=active&brand=2&channel=web&category=5&page=3&per_page=50'));
  assert.deepEqual(f, { q: 'wool', status: 'active', brand: 2, channel: 'web', category: 5, page: 3, perPage: 50 });
  assert.equal(writeFilters(f).toString(), 'q=wool&status=active&brand=2&channel=web&category=5&page=3&per_page=50');
  const bad = readFilters(new URLSearchParams('status=gone&brand=-1&page=abc&per_page=1000'));
  assert.deepEqual(bad, { q: '', status: '', brand: null, channel: '', category: null, page: 1, perPage: 25 });
  assert.equal(writeFilters(bad).toString(), '');
  assert.deepEqual(listQuery({ ...bad, q: '  ', category: 4 }), { page: 1, limit: 25, category: 4 });
});

test("decimals follow the server's pattern; a comma is a decimal point", () => {
  assert.deepEqual(decimalInput('19,99'), { value: '19.99', error: null });
  assert.deepEqual(decimalInput(''), { value: null, error: null });
  assert.ok(decimalInput('1.23456').error);
  assert.ok(decimalInput('-1').error);
  assert.equal(decimalShown('19.9000'), '19.90');
  assert.equal(decimalShown('19.1250'), '19.125');
});

const defs: AttributeDefinition[] = [
  { code: 'weight', name: 'Weight', type: 'number', options: [], is_required: false },
  { code: 'tags', name: 'Tags', type: 'multiselect', options: ['a', 'b'], is_required: false },
];

test('a new product sends what has a value; an edit sends only what changed (blank clears)', () => {
  const form = { ...emptyForm(defs), name: 'Scarf', sku: 'S-1', price: '9.5' };
  const created = productBody(form, defs, null);
  assert.deepEqual(created.errors, {});
  assert.equal(created.body.price, '9.5');
  assert.equal(created.body.slug, undefined);
  assert.equal(created.body.attributes, undefined);

  const before = { ...form, attributes: { weight: '12', tags: ['a'] } };
  const edited = productBody({ ...before, price: '', attributes: { weight: 'x', tags: [] } }, defs, before);
  assert.deepEqual(edited.errors, { 'attributes.weight': 'must be a number' });
  assert.deepEqual(edited.body, { price: null, attributes: { tags: null } });
  assert.deepEqual(attributeFromInput(defs[0], '1,5'), { value: 1.5, error: null });
});

test('a server field name finds its input', () => {
  assert.equal(errorKey('category_ids[0]', ['category_ids']), 'category_ids');
  assert.equal(errorKey('attributes.color', ['attributes.color', 'attributes']), 'attributes.color');
  assert.equal(errorKey('attributes[0].attribute_name', ['attributes']), 'attributes');
  assert.equal(errorKey('nothing', ['sku']), null);
});

test('variants move by swapping positions with their neighbour, ties included', () => {
  const list = [
    { id: 1, position: 0 },
    { id: 2, position: 1 },
    { id: 3, position: 1 },
  ];
  assert.deepEqual(swapPositions(list, 1, 1), [
    { id: 1, position: 1 },
    { id: 2, position: 0 },
  ]);
  assert.deepEqual(swapPositions(list, 1, -1), []);
  assert.deepEqual(swapPositions(list, 3, -1), [
    { id: 3, position: 1 },
    { id: 2, position: 2 },
  ]);
  assert.deepEqual(optionsFromText('Size: M, Colour: Navy').value, [
    { attribute_name: 'Size', value: 'M' },
    { attribute_name: 'Colour', value: 'Navy' },
  ]);
  assert.ok(optionsFromText('Navy').error);
});

test('categories are listed depth first with their path; a push answer reads as sentences', () => {
  const node = (id: number, name: string, position: number, children: never[] = []) =>
    ({ id, name, position, level: 0, children }) as unknown as Parameters<typeof flattenTree>[0][number];
  const flat = flattenTree([node(2, 'B', 1), { ...node(1, 'A', 0), children: [node(3, 'A1', 0)] } as never]);
  assert.deepEqual(
    flat.map((c) => c.label),
    ['A', 'A › A1', 'B'],
  );
  assert.deepEqual(pushSummary({ status: 'error', message: 'Validation failed', validation_errors: ['Title is empty'], storefront_product_id: null }, 'x'), {
    ok: false,
    lines: ['Validation failed', 'Title is empty'],
  });
  assert.deepEqual(pushSummary(undefined, 'Integration is inactive'), { ok: false, lines: ['Integration is inactive'] });
});
