// The product pages' pure helpers: list filters in the URL, the body a product form sends (the store's fields
// included: tags, search engine listing, selling and shipping), decimals, attribute values, a variant's form, variant
// order and a push answer in plain words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type AttributeDefinition,
  addTags,
  attributeFromInput,
  decimalInput,
  decimalShown,
  emptyForm,
  emptySelling,
  emptyVariantDraft,
  errorKey,
  flattenTree,
  formOf,
  listQuery,
  optionsFromText,
  type Product,
  productBody,
  pushSummary,
  readFilters,
  removeTag,
  SEO_DESCRIPTION_LIMIT,
  SEO_TITLE_LIMIT,
  sellingSummary,
  seoCount,
  swapPositions,
  tagsProblem,
  VARIANT_KEYS,
  type Variant,
  variantBody,
  variantDraftOf,
  productKinds,
  writeFilters,
} from '../src/features/products/product-model.ts';

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

test('tags: typed one by one or several with commas, trimmed, a tag of another letter case left out, and checked against the store', () => {
  assert.deepEqual(addTags([], ' summer '), ['summer']);
  assert.deepEqual(addTags(['summer'], 'Linen, SUMMER,  , new   in'), ['summer', 'Linen', 'new in']);
  assert.deepEqual(removeTag(['a', 'b'], 'a'), ['b']);
  assert.equal(tagsProblem(['a']), null);
  assert.match(tagsProblem(Array.from({ length: 251 }, (_, i) => `t${i}`)) ?? '', /at most 250 tags/);
  assert.match(tagsProblem(['x'.repeat(256)]) ?? '', /longer than 255/);
});

test('the search engine listing counts characters as Shopify does, and says when search engines cut the rest', () => {
  assert.deepEqual(seoCount('Linen shirt', SEO_TITLE_LIMIT), { text: '11 of 70 characters used', over: false });
  assert.deepEqual(seoCount('x'.repeat(71), SEO_TITLE_LIMIT), { text: '71 characters: search engines show about the first 70', over: true });
  assert.equal(seoCount('é'.repeat(320), SEO_DESCRIPTION_LIMIT).over, false);
});

const product = (over: Partial<Product> = {}) =>
  ({
    sku: 'S-1',
    name: 'Linen shirt',
    slug: 'linen-shirt',
    description: null,
    short_description: null,
    product_type: 'simple',
    price: '49.0000',
    sale_price: null,
    cost_price: null,
    currency: 'EUR',
    status: 'active',
    ean: null,
    vat_rate: null,
    brand: null,
    supplier: null,
    categories: [],
    publishing_channels: ['web'],
    product_condition: 'new',
    attributes: {},
    tags: [],
    seo_title: null,
    seo_description: null,
    gift_card: false,
    taxonomy_category: null,
    weight: null,
    barcode: null,
    compare_at_price: null,
    weight_unit: null,
    inventory_policy: null,
    inventory_tracked: null,
    taxable: null,
    requires_shipping: null,
    storefront_type: null,
    ...over,
  }) as Product;

test("a product's store fields: null is 'not set' in the form, and an edit sends only what changed", () => {
  const before = formOf(
    product({ tags: ['summer'], weight: '0.2500', weight_unit: 'g', inventory_tracked: false, compare_at_price: '59.0000', barcode: '0012345' }),
    [],
  );
  assert.deepEqual(before.selling, {
    barcode: '0012345',
    compare_at_price: '59.00',
    weight: '0.25',
    weight_unit: 'g',
    inventory_policy: '',
    inventory_tracked: 'no',
    taxable: '',
    requires_shipping: '',
  });
  // A unit the API does not set is kilograms; nothing is sent for it while it stays so.
  assert.equal(formOf(product(), []).selling.weight_unit, 'kg');
  assert.deepEqual(productBody(formOf(product(), []), [], formOf(product(), [])).body, {});

  const edited = productBody(
    {
      ...before,
      tags: ['summer', 'linen'],
      seo_title: '  Linen shirt for summer ',
      gift_card: true,
      selling: { ...before.selling, weight_unit: 'kg', inventory_policy: 'continue', inventory_tracked: '', barcode: '' },
    },
    [],
    before,
  );
  assert.deepEqual(edited.errors, {});
  assert.deepEqual(edited.body, {
    tags: ['summer', 'linen'],
    seo_title: 'Linen shirt for summer',
    gift_card: true,
    barcode: null,
    weight_unit: 'kg',
    inventory_policy: 'continue',
    inventory_tracked: null,
  });

  // Cleared texts are null; a bad weight or compare-at price is refused beside its field.
  const cleared = productBody({ ...before, tags: [], selling: { ...before.selling, weight: '1,5', compare_at_price: 'abc' } }, [], before);
  assert.deepEqual(Object.keys(cleared.errors), ['compare_at_price']);
  const fine = productBody({ ...before, tags: [], selling: { ...before.selling, weight: '1,5' } }, [], before);
  assert.deepEqual(fine.body, { tags: [], weight: '1.5' });
});

test('a new product sends the store fields that have a value, in the currency it is given', () => {
  const form = emptyForm([], 'CHF');
  assert.equal(form.currency, 'CHF');
  assert.equal(emptyForm([]).currency, 'EUR');
  const { body, errors } = productBody(
    {
      ...form,
      name: 'Gift card',
      sku: 'GC',
      gift_card: true,
      tags: ['gift'],
      taxonomy_category: 'Gift Cards',
      selling: { ...emptySelling(), requires_shipping: 'no', taxable: 'no', weight_unit: 'kg' },
    },
    [],
    null,
  );
  assert.deepEqual(errors, {});
  assert.deepEqual(body, {
    sku: 'GC',
    name: 'Gift card',
    product_type: 'simple',
    currency: 'CHF',
    status: 'draft',
    product_condition: 'new',
    publishing_channels: ['web'],
    category_ids: [],
    tags: ['gift'],
    taxonomy_category: 'Gift Cards',
    gift_card: true,
    taxable: false,
    requires_shipping: false,
  });
  // Shopify's Type is sent once typed, and cleared to null.
  assert.equal(productBody({ ...form, name: 'x', sku: 'y', storefront_type: ' Jackets ' }, [], null).body.storefront_type, 'Jackets');
  const typed = formOf(product({ storefront_type: 'Jackets' }), []);
  assert.equal(typed.storefront_type, 'Jackets');
  assert.deepEqual(productBody({ ...typed, storefront_type: ' ' }, [], typed).body, { storefront_type: null });
});

test("a variant's form: its selling fields behind 'More' are sent as they changed, and summed up in words", () => {
  const variant = {
    id: 1,
    sku: 'V-1',
    name: 'M',
    price: '10.0000',
    sale_price: null,
    stock_quantity: 3,
    attributes: [{ attribute_name: 'Size', value: 'M' }],
    weight: '500.0000',
    weight_unit: 'g',
    barcode: null,
    compare_at_price: null,
    inventory_policy: 'deny',
    inventory_tracked: true,
    taxable: null,
    requires_shipping: null,
  } as unknown as Variant;
  const before = variantDraftOf(variant);
  assert.equal(before.selling.weight, '500');
  assert.equal(sellingSummary(before.selling, 'EUR'), '500 g · stop selling when out of stock · quantity tracked');
  assert.equal(sellingSummary(emptySelling(), 'EUR'), '');
  assert.deepEqual(variantBody(before, before), { body: {}, errors: {} });
  const { body, errors } = variantBody({ ...before, selling: { ...before.selling, barcode: ' ISBN 978-3 ', weight_unit: 'oz', taxable: 'yes' } }, before);
  assert.deepEqual(errors, {});
  assert.deepEqual(body, { barcode: 'ISBN 978-3', weight_unit: 'oz', taxable: true });

  const created = variantBody(
    { ...emptyVariantDraft(), sku: 'V-2', name: 'L', selling: { ...emptySelling(), weight: '1', inventory_policy: 'continue' } },
    null,
  );
  assert.deepEqual(created.body, { sku: 'V-2', name: 'L', stock_quantity: 0, attributes: [], weight: '1', inventory_policy: 'continue' });
  assert.ok(VARIANT_KEYS.includes('inventory_policy'));
});

test('a slug is checked as the server checks it (a Shopify handle): lower-case letters of any script, digits, single hyphens', () => {
  const base = { ...emptyForm([]), sku: 'S-1', name: 'Shirt', product_type: 'simple' };
  for (const slug of ['blue-shirt', 'рубашка-синяя', '東京-tシャツ', 'crème-brûlée']) {
    assert.equal(productBody({ ...base, slug }, [], null).errors.slug, undefined, slug);
  }
  for (const slug of ['Blue-shirt', 'blue_shirt', 'a--b', '-a']) assert.ok(productBody({ ...base, slug }, [], null).errors.slug, slug);
});

test("the kind of product is shown in a merchant's words; a kind set through the API is kept as it is", () => {
  assert.deepEqual(
    productKinds('simple').map(([, label]) => label),
    ['Standard', 'Bundle', 'Digital', 'Service'],
  );
  assert.deepEqual(productKinds('configurable').at(-1), ['configurable', 'configurable']);
  assert.equal(emptyForm([]).product_type, 'simple');
});
