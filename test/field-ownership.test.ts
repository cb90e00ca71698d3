// The field-ownership table (src/storefront/shopify/field-ownership.ts) and what reads it: docs/shopify-fidelity.md's
// table is generated from it (UPDATE_DOCS=1 rewrites it), the dry run's and the drift report's reads select every field
// they compare, the mapper writes each field only from PIM values (create defaults from the table), the taxonomy
// category is resolved (an id without a call, a full name by one search, cached), and the diff compares by the table.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Kind, parse, type FieldNode, type SelectionSetNode } from 'graphql';
import { FIELD_OWNERSHIP, fidelityTable } from '../src/storefront/shopify/field-ownership.js';
import { CatalogueProducts, ProductPreviewRead } from '../src/storefront/shopify/operations.js';
import { driftChanges, previewChanges, writtenOf, type ShopProductView } from '../src/storefront/shopify/product-diff.js';
import { mapProduct } from '../src/storefront/shopify/product-mapper.js';
import { mergeTags, pimTagsOf } from '../src/storefront/shopify/tags-metafields-collections.js';
import { sellingValuesOf } from '../src/storefront/shopify/variant-inputs.js';
import { preflight } from '../src/storefront/shopify/preflight.js';
import { upsertResultOf } from '../src/storefront/shopify/product-set-result.js';
import { TaxonomyCategories, taxonomyGidOf } from '../src/storefront/shopify/taxonomy.js';
import { StorefrontValidationError } from '../src/storefront/port/errors.js';
import type { KnownStorefrontProduct } from '../src/storefront/port/known-product.js';
import type { PimProductSnapshot, PimVariant } from '../src/storefront/port/pim-product.js';
import type { SyncPlacement } from '../src/storefront/port/placement.js';

const DOCS = path.join(import.meta.dirname, '..', 'docs', 'shopify-fidelity.md');
const START =
  '<!-- field-ownership:start (generated from src/storefront/shopify/field-ownership.ts; UPDATE_DOCS=1 npx tsx --test test/field-ownership.test.ts) -->';
const END = '<!-- field-ownership:end -->';

const PLACEMENT: SyncPlacement = {
  channelPublications: {},
  warehouseLocations: {},
  unsyncedWarehouses: [],
  variantStockLocation: null,
  pricesConvertedElsewhere: true,
};
const NEW: KnownStorefrontProduct = { productId: null, variantIds: {}, mediaIds: {} };

const variant = (id: number, sku: string, extra: Partial<PimVariant> = {}): PimVariant => ({
  id,
  sku,
  name: sku,
  price: '10.00',
  sale_price: null,
  cost: null,
  weight: null,
  stock_quantity: 1,
  stock_status: 'in_stock',
  is_enabled: true,
  position: id,
  image: null,
  attributes: [{ attribute_name: 'Size', value: sku }],
  ...extra,
});

const base: PimProductSnapshot = { id: 7, sku: 'CAP', name: 'Cap', status: 'active', price: '12.00', variants: [] };

/** Every selection path of a document from `Product` (connections' nodes/edges skipped, fragments followed). */
function productPaths(document: string, rootPath: string[]): Set<string> {
  const doc = parse(document);
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])));
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
  const out = new Set<string>();
  const walk = (set: SelectionSetNode, at: string[]) => {
    for (const s of set.selections) {
      if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, at);
      else if (s.kind === Kind.FRAGMENT_SPREAD) walk(fragments.get(s.name.value)!, at);
      else {
        const f = s as FieldNode;
        const name = f.name.value;
        const next = ['nodes', 'edges', 'node'].includes(name) ? at : [...at, name];
        if (next !== at) out.add(next.join('.'));
        if (f.selectionSet) walk(f.selectionSet, next);
      }
    }
  };
  walk(op.selectionSet, []);
  if (rootPath.length === 0) return out;
  const prefix = `${rootPath.join('.')}.`;
  return new Set([...out].filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length)));
}

describe('the field-ownership table', () => {
  it("is docs/shopify-fidelity.md's field-ownership table (generated from it)", () => {
    const docs = readFileSync(DOCS, 'utf8');
    const table = fidelityTable();
    const at = docs.indexOf(START);
    const end = docs.indexOf(END);
    assert.ok(at >= 0 && end > at, `docs/shopify-fidelity.md has no ${START} … ${END} block`);
    const current = docs.slice(at + START.length, end).trim();
    if (current !== table && process.env.UPDATE_DOCS === '1') {
      writeFileSync(DOCS, `${docs.slice(0, at + START.length)}\n${table}\n${docs.slice(end)}`);
      return;
    }
    assert.equal(current, table, 'regenerate with UPDATE_DOCS=1 npx tsx --test test/field-ownership.test.ts');
  });

  it('names every field once, each with its PIM source, input, read-back selection, owner and test', () => {
    const keys = FIELD_OWNERSHIP.map((f) => `${f.level}:${f.key}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const f of FIELD_OWNERSHIP) for (const k of ['pim', 'input', 'read', 'unset', 'test'] as const) assert.ok(f[k].trim(), `${f.key}.${k}`);
  });

  it('the dry run reads (ProductPreviewRead) every field it compares, the drift report (CatalogueProducts) every field it compares', () => {
    // `nodes(ids:)` answers the products themselves (its name is skipped like a connection's nodes).
    const preview = productPaths(ProductPreviewRead, []);
    const catalogue = productPaths(CatalogueProducts, ['products']);
    for (const f of FIELD_OWNERSHIP) {
      if (f.dryRun !== 'not compared') assert.ok(preview.has(f.read), `ProductPreviewRead lacks ${f.read} (${f.key})`);
      if (f.drift !== 'not compared') assert.ok(catalogue.has(f.read), `CatalogueProducts lacks ${f.read} (${f.key})`);
    }
  });
});

describe('the mapper writes only PIM values', () => {
  const full: PimProductSnapshot = {
    ...base,
    tags: [' eco ', 'Eco', 'summer', ''],
    seo_title: 'Column title',
    seo_description: null,
    attributes: { seo_title: 'attribute title', seo_description: 'attribute description' },
    gift_card: true,
    barcode: null,
    ean: '4006381333931',
    compare_at_price: '15.0000',
    weight: '0.5000',
    weight_unit: 'lb',
    inventory_policy: 'continue',
    inventory_tracked: false,
    taxable: false,
    requires_shipping: false,
    storefront_type: 'Hats',
    categories: [{ id: 1, name: 'Headwear' }],
  };

  it('a new product without variants: every field from the PIM, the category resolved, tags distinct without case', () => {
    const { input, owned } = mapProduct(full, NEW, { locations: [], placement: PLACEMENT, current: null, category: 'gid://shopify/TaxonomyCategory/aa-2-17' });
    assert.deepEqual(input.tags, ['eco', 'summer']);
    assert.deepEqual(input.seo, { title: 'Column title', description: 'attribute description' }, 'the columns first, the attributes as a fallback');
    assert.equal(input.productType, 'Hats', 'storefront_type wins over the setting (the first category)');
    assert.equal(input.giftCard, true);
    assert.equal(input.category, 'gid://shopify/TaxonomyCategory/aa-2-17');
    const [v] = input.variants;
    assert.deepEqual(
      { barcode: v.barcode, compareAtPrice: v.compareAtPrice, inventoryPolicy: v.inventoryPolicy, taxable: v.taxable, item: v.inventoryItem },
      {
        barcode: '4006381333931',
        compareAtPrice: '15.00',
        inventoryPolicy: 'CONTINUE',
        taxable: false,
        item: { sku: 'CAP', tracked: false, requiresShipping: false, measurement: { weight: { value: 0.5, unit: 'POUNDS' } } },
      },
    );
    assert.deepEqual(owned.tags, ['eco', 'summer']);
    assert.deepEqual(owned.compareAt, ['CAP']);
    assert.equal(owned.giftCard, true);
  });

  it('an existing product where the PIM says nothing: policy, tracking, taxable, shipping, weight, barcode, type and category left out', () => {
    const known: KnownStorefrontProduct = { productId: 'gid://shopify/Product/1', variantIds: { CAP: 'gid://shopify/ProductVariant/1' }, mediaIds: {} };
    const { input } = mapProduct(base, known, { locations: [], placement: PLACEMENT, current: null });
    assert.equal(input.productType, undefined, 'never blanked: the merchant keeps theirs');
    assert.equal(input.giftCard, undefined, 'gift card: create only');
    assert.equal(input.category, undefined);
    const [v] = input.variants;
    for (const k of ['barcode', 'compareAtPrice', 'inventoryPolicy', 'taxable'] as const) assert.equal(v[k], undefined, k);
    assert.deepEqual(v.inventoryItem, { sku: 'CAP' });
  });

  it('create defaults come from the table; a disabled variant is DENY and tracked whatever the PIM says', () => {
    const product: PimProductSnapshot = {
      ...base,
      variants: [variant(1, 'S'), variant(2, 'M', { inventory_policy: 'continue', inventory_tracked: false, is_enabled: false })],
    };
    const { input } = mapProduct(product, NEW, { locations: [], placement: PLACEMENT, current: null });
    assert.deepEqual(
      input.variants.map((v) => [v.inventoryPolicy, v.inventoryItem.tracked]),
      [
        ['DENY', true],
        ['DENY', true],
      ],
    );
  });

  it('compare-at: the sale first, else the PIM value as given (even at or below the price), else cleared only when ours', () => {
    const sale: PimProductSnapshot = { ...base, price: '20.00', sale_price: '15.00', compare_at_price: '99.00' };
    assert.equal(mapProduct(sale, NEW, { locations: [], placement: PLACEMENT, current: null }).input.variants[0].compareAtPrice, '20.00');
    const given: PimProductSnapshot = { ...base, price: '20.00', compare_at_price: '10.00' };
    assert.equal(mapProduct(given, NEW, { locations: [], placement: PLACEMENT, current: null }).input.variants[0].compareAtPrice, '10.00');
    const known: KnownStorefrontProduct = { productId: 'gid://shopify/Product/1', variantIds: {}, mediaIds: {}, owned: { compareAt: ['CAP'] } };
    assert.equal(mapProduct(base, known, { locations: [], placement: PLACEMENT, current: null }).input.variants[0].compareAtPrice, null);
    assert.equal(mapProduct(base, { ...known, owned: {} }, { locations: [], placement: PLACEMENT, current: null }).input.variants[0].compareAtPrice, undefined);
  });

  it('a gift card changed in the PIM after creation: left as it is, with a warning', () => {
    const known: KnownStorefrontProduct = { productId: 'gid://shopify/Product/1', variantIds: {}, mediaIds: {}, owned: { giftCard: false } };
    const mapped = mapProduct({ ...base, gift_card: true }, known, { locations: [], placement: PLACEMENT, current: null });
    assert.equal(mapped.input.giftCard, undefined);
    assert.match(mapped.warnings.join(), /gift_card: the product was created not as a gift card/);
    assert.equal(mapped.owned.giftCard, false);
  });

  it('weights in every unit; none given is kilograms; a unit or policy the PIM cannot mean is a pre-flight error', () => {
    const w = (weight: string, unit: string | null) => sellingValuesOf({ weight_unit: unit }, weight).weight;
    assert.deepEqual(
      [w('1', 'g'), w('1', 'kg'), w('1', 'lb'), w('1', 'oz'), w('2.5', null)],
      [
        { value: 1, unit: 'GRAMS' },
        { value: 1, unit: 'KILOGRAMS' },
        { value: 1, unit: 'POUNDS' },
        { value: 1, unit: 'OUNCES' },
        { value: 2.5, unit: 'KILOGRAMS' },
      ],
    );
    const bad: PimProductSnapshot = { ...base, weight_unit: 'stone', inventory_policy: 'sometimes', compare_at_price: '1.234' };
    assert.deepEqual(preflight(bad, mapProduct(bad, NEW, { locations: [], placement: PLACEMENT, current: null }).input), [
      "product: compare_at_price '1.234' is not a non-negative decimal with at most 2 decimal places",
      "product: weight_unit 'stone' is not one of g, kg, lb, oz",
      "product: inventory_policy 'sometimes' is not deny or continue",
    ]);
  });

  it('a SKU the PIM made up is never written (sku and inventoryItem.sku left out) but stays the key; the answer maps it by its place', () => {
    const product: PimProductSnapshot = { ...base, variants: [variant(1, 'CAP-1', { sku_generated: true }), variant(2, 'REAL')] };
    const mapped = mapProduct(product, NEW, { locations: [], placement: PLACEMENT, current: null });
    assert.deepEqual(
      mapped.input.variants.map((v) => [v.sku, v.inventoryItem.sku]),
      [
        [undefined, undefined],
        ['REAL', 'REAL'],
      ],
    );
    assert.deepEqual(mapped.variantKeys, ['CAP-1', 'REAL']);
    const result = upsertResultOf(
      {
        id: 'gid://shopify/Product/1',
        handle: 'cap',
        title: 'Cap',
        variants: {
          nodes: [
            { id: 'gid://shopify/ProductVariant/11', sku: null, inventoryItem: { id: 'gid://shopify/InventoryItem/11' } },
            { id: 'gid://shopify/ProductVariant/12', sku: 'REAL', inventoryItem: { id: 'gid://shopify/InventoryItem/12' } },
          ],
        },
      },
      { method: 'create', mediaIds: {}, variantCount: 2, imageCount: 0, keys: mapped.variantKeys },
    );
    assert.deepEqual(result.variantIds, { 'CAP-1': 'gid://shopify/ProductVariant/11', REAL: 'gid://shopify/ProductVariant/12' });
    assert.deepEqual(result.inventoryItemIds, { 'CAP-1': 'gid://shopify/InventoryItem/11', REAL: 'gid://shopify/InventoryItem/12' });
    // Written with its shop id: drift and dry run match it by id (the shop has no SKU for it).
    const written = writtenOf(mapped.input, [], [], mapped.variantKeys, result.variantIds);
    assert.equal(written.variants['CAP-1'].id, 'gid://shopify/ProductVariant/11');
  });

  it('tags: the PIM tags plus the merchant tags; ours sent before (and an older push’s category tags) removed', () => {
    assert.deepEqual(pimTagsOf({ tags: ['a', 'A', ' b '] }), ['a', 'b']);
    assert.deepEqual(mergeTags(['new'], { tags: ['Shirts', 'old', 'mine'], previousTags: ['old', 'Shirts'] }), ['mine', 'new']);
  });
});

describe('the taxonomy category', () => {
  it('an id or GID needs no call; a full name is searched once (per shop and process); a name Shopify lacks refuses the product', async () => {
    assert.equal(taxonomyGidOf('aa-1-13-8'), 'gid://shopify/TaxonomyCategory/aa-1-13-8');
    assert.equal(taxonomyGidOf('gid://shopify/TaxonomyCategory/aa'), 'gid://shopify/TaxonomyCategory/aa');
    assert.equal(taxonomyGidOf('T-Shirts'), null);
    const searched: string[] = [];
    const nodes = [
      {
        id: 'gid://shopify/TaxonomyCategory/aa-1-1-2-2',
        name: 'T-Shirts',
        fullName: 'Apparel & Accessories > Clothing > Activewear > Activewear Tops > T-Shirts',
      },
      { id: 'gid://shopify/TaxonomyCategory/aa-1-13-8', name: 'T-Shirts', fullName: 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts' },
    ];
    const taxonomy = new TaxonomyCategories({
      call: async <T>(_shop: unknown, _doc: string, variables: Record<string, unknown>) => {
        searched.push(String(variables.search));
        return { taxonomy: { categories: { nodes } } } as T;
      },
    });
    const shop = { domain: 'x.myshopify.com', apiBaseUrl: null, accessToken: 't' };
    assert.equal(await taxonomy.resolve(shop, null), undefined);
    assert.equal(await taxonomy.resolve(shop, 'aa-1-13-8'), 'gid://shopify/TaxonomyCategory/aa-1-13-8');
    assert.deepEqual(searched, []);
    assert.equal(await taxonomy.resolve(shop, 'apparel & accessories>Clothing >  Clothing Tops > T-Shirts'), 'gid://shopify/TaxonomyCategory/aa-1-13-8');
    assert.equal(await taxonomy.resolve(shop, 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts'), 'gid://shopify/TaxonomyCategory/aa-1-13-8');
    assert.deepEqual(searched, ['T-Shirts'], 'searched by its last part, once');
    await assert.rejects(taxonomy.resolve(shop, 'T-Shirts'), (e: unknown) => e instanceof StorefrontValidationError && /is not a category/.test(e.errors[0]));
  });
});

describe('dry run and drift by the table', () => {
  const shopView = (over: Partial<ShopProductView> = {}): ShopProductView => ({
    id: 'gid://shopify/Product/1',
    handle: 'cap',
    title: 'Cap',
    descriptionHtml: '',
    vendor: '',
    productType: 'Merchant type',
    status: 'ACTIVE',
    tags: ['eco', 'mine'],
    seo: { title: null, description: null },
    giftCard: false,
    category: null,
    variants: [
      {
        id: 'gid://shopify/ProductVariant/1',
        sku: 'CAP',
        price: '12.00',
        compareAtPrice: null,
        barcode: null,
        options: [{ name: 'Title', value: 'Default Title' }],
        inventoryPolicy: 'CONTINUE',
        tracked: true,
        taxable: true,
        requiresShipping: true,
        weight: { value: 1, unit: 'KILOGRAMS' },
      },
    ],
    images: [{ mediaId: 'gid://shopify/MediaImage/9', url: 'https://cdn.example/merchant.jpg' }],
    ...over,
  });
  const known: KnownStorefrontProduct = { productId: 'gid://shopify/Product/1', variantIds: { CAP: 'gid://shopify/ProductVariant/1' }, mediaIds: {} };

  it('drift: ours changed in the shop is reported; what the push leaves out, the merchant tags and media are not', () => {
    const product: PimProductSnapshot = { ...base, tags: ['eco'], taxable: false, weight: '1', weight_unit: 'kg' };
    const { input, imageUrls } = mapProduct(product, known, { locations: [], placement: PLACEMENT, current: null });
    const written = writtenOf(input, ['eco'], imageUrls);
    assert.deepEqual(driftChanges(written, shopView()), [{ field: 'variants[CAP].taxable', storefront: true, written: false }]);
    assert.deepEqual(
      driftChanges(written, shopView({ tags: ['mine'] })).map((c) => c.field),
      ['tags', 'variants[CAP].taxable'],
    );
  });

  it('dry run: the fields a push would change, by the table', () => {
    const product: PimProductSnapshot = { ...base, inventory_policy: 'deny', weight: '500', weight_unit: 'g' };
    const current = { tags: ['eco', 'mine'], previousTags: null };
    const { input, imageUrls } = mapProduct(product, known, { locations: [], placement: PLACEMENT, current });
    assert.deepEqual(
      previewChanges(input, imageUrls, shopView()).map((c) => [c.field, c.storefront, c.pim]),
      [
        ['variants[CAP].inventoryPolicy', 'CONTINUE', 'DENY'],
        ['variants[CAP].weight', { value: 1, unit: 'KILOGRAMS' }, { value: 500, unit: 'GRAMS' }],
      ],
    );
  });
});
