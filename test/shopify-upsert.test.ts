// The Shopify adapter's upsertProduct: the PIM → productSet mapping field by field, Shopify's limits checked before
// sending, the identifier (mapped id, else customId or the deterministic handle), recovery after a lost mapping —
// against a fake Shopify that records what it is sent — and end to end against the built-in sandbox on both databases.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import { preflight, userErrorLines } from '../src/storefront/shopify/preflight.js';
import { handleOf, handleTakenProblem } from '../src/storefront/shopify/product-identity.js';
import { mapProduct, mapStatus } from '../src/storefront/shopify/product-mapper.js';
import { mediaFilename } from '../src/storefront/shopify/product-media.js';
import { stockAt, pricing, toMoney } from '../src/storefront/shopify/variant-inputs.js';
import { mergeTags } from '../src/storefront/shopify/tags-metafields-collections.js';
import { StorefrontError, StorefrontValidationError } from '../src/storefront/port/errors.js';
import type { KnownStorefrontProduct } from '../src/storefront/port/known-product.js';
import type { PimProductSnapshot, PimVariant } from '../src/storefront/port/pim-product.js';
import type { SyncPlacement } from '../src/storefront/port/placement.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';

const NONE: KnownStorefrontProduct = { productId: null, variantIds: {}, mediaIds: {} };
/** Where Shopify's CDN would serve an image we sent: its path ends with our file name plus a UUID. */
const cdn = (url: string) => `https://cdn.shopify.com/s/files/1/0001/files/${mediaFilename(url).replace('.', '_0c9e1f.')}?v=1700000000`;
const PLACEMENT: SyncPlacement = {
  channelPublications: {},
  warehouseLocations: {},
  unsyncedWarehouses: [],
  variantStockLocation: 'gid://shopify/Location/1',
  pricesConvertedElsewhere: true,
};
const LOCATIONS = [
  { id: 'gid://shopify/Location/1', name: 'Main warehouse', isActive: true },
  { id: 'gid://shopify/Location/2', name: 'Berlin', isActive: true },
  { id: 'gid://shopify/Location/3', name: 'Closed', isActive: false },
];

function variant(id: number, sku: string, attrs: Record<string, string>, extra: Partial<PimVariant> = {}): PimVariant {
  return {
    id,
    sku,
    name: Object.values(attrs).join(' / ') || sku,
    price: '25.0000',
    sale_price: null,
    cost: null,
    weight: null,
    stock_quantity: 4,
    stock_status: 'in_stock',
    is_enabled: true,
    position: id,
    image: null,
    attributes: Object.entries(attrs).map(([attribute_name, value]) => ({ attribute_name, value })),
    ...extra,
  };
}

const TEE: PimProductSnapshot = {
  id: 42,
  sku: 'TEE',
  slug: 'organic-tee',
  name: 'Organic Tee',
  description: '<p>Soft</p>',
  short_description: 'A soft tee',
  product_type: 'variable',
  price: '25.0000',
  sale_price: null,
  status: 'active',
  stock: 8,
  ean: '4006381333931',
  brand: { id: 1, name: 'Acme' },
  categories: [
    { id: 1, name: 'Shirts' },
    { id: 2, name: 'Organic' },
  ],
  images: ['https://pim.example/media/a.jpg', 'https://pim.example/media/b.jpg'],
  variants: [variant(1, 'TEE-S-RED', { Size: 'S', Color: 'Red' }, { sale_price: '19.9000' }), variant(2, 'TEE-M-RED', { Size: 'M', Color: 'Red' })],
};

const SIMPLE: PimProductSnapshot = {
  id: 7,
  sku: 'MUG',
  slug: 'mug',
  name: 'Mug',
  price: '12.5000',
  sale_price: '9.9900',
  status: 'draft',
  stock: 11,
  ean: '4006381333931',
  variants: [],
  warehouse_stock: [
    { warehouse_id: 1, code: 'BER', name: 'Berlin', quantity: 5 },
    { warehouse_id: 2, code: 'MAIN', name: 'Elsewhere', quantity: 4 },
    { warehouse_id: 3, code: 'X', name: 'Unknown', quantity: 2 },
  ],
};

describe('product mapper (PIM → productSet input)', () => {
  it('maps every field of a product with variants', () => {
    const { input, imageUrls } = mapProduct(
      TEE,
      {
        productId: 'gid://shopify/Product/9',
        variantIds: { 'TEE-S-RED': 'gid://shopify/ProductVariant/91' },
        mediaIds: { 'https://pim.example/media/a.jpg': 'gid://shopify/MediaImage/5' },
      },
      { locations: LOCATIONS, placement: PLACEMENT, current: null },
    );
    assert.equal(input.title, 'Organic Tee');
    assert.equal(input.descriptionHtml, '<p>Soft</p>');
    assert.equal(input.vendor, 'Acme');
    // The first category's name (the default), never the PIM's structural product_type (docs/shopify-fidelity.md).
    assert.equal(input.productType, 'Shirts');
    // Categories are collections, not tags: the PIM's tags only (none here); no category name becomes a tag.
    assert.deepEqual(input.tags, []);
    assert.equal(input.status, 'ACTIVE');
    // No SEO attributes: no SEO fields (Shopify derives them; nothing is made from the name or short description).
    assert.equal(input.seo, undefined);
    assert.equal(input.handle, undefined, 'an update never sends the handle: a merchant-edited handle survives');
    assert.deepEqual(input.productOptions, [
      { name: 'Size', values: [{ name: 'S' }, { name: 'M' }] },
      { name: 'Color', values: [{ name: 'Red' }] },
    ]);
    assert.deepEqual(input.variants, [
      {
        id: 'gid://shopify/ProductVariant/91',
        sku: 'TEE-S-RED',
        price: '19.90',
        compareAtPrice: '25.00',
        optionValues: [
          { optionName: 'Size', name: 'S' },
          { optionName: 'Color', name: 'Red' },
        ],
        // The PIM sets no inventory policy or tracking: an existing variant keeps the shop's (never reset to DENY/tracked).
        inventoryItem: { sku: 'TEE-S-RED' },
        // An existing variant's stock moves by the inventory step, never set outright by productSet.
      },
      {
        // No sale and no compare-at price we wrote before: left out, so a merchant's own stays.
        sku: 'TEE-M-RED',
        price: '25.00',
        optionValues: [
          { optionName: 'Size', name: 'M' },
          { optionName: 'Color', name: 'Red' },
        ],
        inventoryPolicy: 'DENY',
        inventoryItem: { sku: 'TEE-M-RED', tracked: true },
        inventoryQuantities: [{ locationId: 'gid://shopify/Location/1', name: 'available', quantity: 4 }],
      },
    ]);
    assert.deepEqual(input.files, [
      // Known by id; the PIM gives no alt text, so the shop's stays (the name it was uploaded with).
      { id: 'gid://shopify/MediaImage/5' },
      {
        originalSource: 'https://pim.example/media/b.jpg',
        alt: 'Organic Tee',
        contentType: 'IMAGE',
        filename: mediaFilename('https://pim.example/media/b.jpg'),
      },
    ]);
    assert.match(mediaFilename('https://pim.example/media/b.jpg'), /^pim-[0-9a-f]{16}\.jpg$/);
    assert.deepEqual(imageUrls, TEE.images);
    assert.deepEqual(input.metafields, [
      { namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '42' },
      { namespace: 'pimbridge', key: 'pim_tags', type: 'json', value: '[]' },
    ]);
  });

  it('a product without variants becomes one "Default Title" variant with its sku, sale price, EAN and warehouse stock', () => {
    const { input } = mapProduct(
      SIMPLE,
      { productId: null, variantIds: { MUG: 'gid://shopify/ProductVariant/3' }, mediaIds: {} },
      { locations: LOCATIONS, placement: PLACEMENT, current: null, handle: 'mug-7' },
    );
    assert.deepEqual(input.productOptions, [{ name: 'Title', values: [{ name: 'Default Title' }] }]);
    assert.equal(input.handle, 'mug-7');
    assert.equal(input.status, 'DRAFT');
    assert.deepEqual(input.variants, [
      {
        id: 'gid://shopify/ProductVariant/3',
        sku: 'MUG',
        price: '9.99',
        compareAtPrice: '12.50',
        barcode: '4006381333931',
        optionValues: [{ optionName: 'Title', name: 'Default Title' }],
        inventoryItem: { sku: 'MUG' },
        // (An existing variant: its stock is the inventory step's, see stockAt below.)
      },
    ]);
    // Berlin by name; MAIN (named "Elsewhere") and Unknown match no location → the default location.
    assert.deepEqual(stockAt(PLACEMENT, LOCATIONS, SIMPLE.stock!, SIMPLE.warehouse_stock), { 'gid://shopify/Location/2': 5, 'gid://shopify/Location/1': 6 });
    assert.deepEqual(input.files, []);
  });

  it('statuses: active/out_of_stock → ACTIVE, draft → DRAFT, archived → ARCHIVED, anything else → DRAFT', () => {
    assert.deepEqual(
      ['active', 'out_of_stock', 'draft', 'archived', undefined, 'weird'].map((s) => mapStatus(s)),
      ['ACTIVE', 'ACTIVE', 'DRAFT', 'ARCHIVED', 'DRAFT', 'DRAFT'],
    );
  });

  it('prices: 4-place decimals become Money, a lower sale price is the price with the regular one as compare-at', () => {
    assert.equal(toMoney('19.9900'), '19.99');
    assert.equal(toMoney('0'), '0.00');
    assert.equal(toMoney('19.995'), null);
    assert.equal(toMoney('-1.00'), null);
    assert.equal(toMoney('abc'), null);
    assert.deepEqual(pricing('20.0000', '15.0000'), { price: '15.00', compareAtPrice: '20.00' });
    assert.deepEqual(pricing('20.0000', '25.0000'), { price: '20.00', compareAtPrice: null });
    assert.deepEqual(pricing('20.0000', null), { price: '20.00', compareAtPrice: null });
    assert.deepEqual(pricing(null, '5.00'), { compareAtPrice: null });
  });

  it('tags: the PIM tags, plus the storefront tags that are not tags we sent before', () => {
    assert.deepEqual(mergeTags(['eco', 'summer'], null), ['eco', 'summer']);
    assert.deepEqual(mergeTags(['Shirts'], { tags: ['Organic', 'summer-sale', 'shirts'], previousTags: ['Shirts', 'Organic'] }), ['summer-sale', 'Shirts']);
    // Without a record of what we sent, no existing tag is taken for ours.
    assert.deepEqual(mergeTags(['Shirts'], { tags: ['Organic', 'summer-sale'], previousTags: null }), ['Organic', 'summer-sale', 'Shirts']);
  });

  it('stock: nothing goes to an inactive location; without warehouse levels the total goes to the default location; a warehouse goes to the location of its name or code, an unmatched one to the default, an unsynced one nowhere', () => {
    assert.deepEqual(stockAt({ ...PLACEMENT, variantStockLocation: 'x' }, [{ id: 'x', name: 'a', isActive: false }], 5, undefined), {});
    assert.deepEqual(stockAt(PLACEMENT, LOCATIONS, 5, []), { 'gid://shopify/Location/1': 5 });
    assert.deepEqual(stockAt(PLACEMENT, LOCATIONS, 0, [{ warehouse_id: 1, code: 'berlin', name: 'x', quantity: 3 }]), { 'gid://shopify/Location/2': 3 });
    assert.deepEqual(
      stockAt({ ...PLACEMENT, unsyncedWarehouses: ['gone'] }, LOCATIONS, 0, [
        { warehouse_id: 1, code: 'nowhere', name: 'Nowhere', quantity: 4 },
        { warehouse_id: 2, code: 'gone', name: 'Berlin', quantity: 9 },
        { warehouse_id: 3, code: 'main', name: 'Main warehouse', quantity: 1 },
      ]),
      { 'gid://shopify/Location/1': 5 },
    );
  });

  it('variants without attributes get one "Title" option valued by their names', () => {
    const p: PimProductSnapshot = { ...TEE, variants: [variant(1, 'A', {}, { name: 'Small' }), variant(2, 'B', {}, { name: 'Large' })] };
    const { input } = mapProduct(p, NONE, { locations: [], placement: PLACEMENT, current: null });
    assert.deepEqual(input.productOptions, [{ name: 'Title', values: [{ name: 'Small' }, { name: 'Large' }] }]);
    assert.deepEqual(
      input.variants.map((v) => v.optionValues),
      [[{ optionName: 'Title', name: 'Small' }], [{ optionName: 'Title', name: 'Large' }]],
    );
    assert.equal(input.variants[0].inventoryQuantities, undefined);
  });

  it("a new product's handle is the PIM slug, exactly (Unicode included); a snapshot without one gets its name's slug", () => {
    assert.equal(handleOf({ slug: 'organic-tee', name: 'x' }), 'organic-tee');
    assert.equal(handleOf({ slug: 'рубашка-синяя', name: 'x' }), 'рубашка-синяя');
    assert.equal(handleOf({ slug: '東京-tシャツ', name: 'x' }), '東京-tシャツ');
    assert.equal(handleOf({ name: 'Crème Brûlée 2' }), 'crème-brûlée-2');
  });

  it('a taken handle names the holder and says what to do, by whose product it is', () => {
    const holder = { id: 'gid://shopify/Product/9', handle: 'organic-tee', title: 'Merchant Tee', pimId: null };
    assert.equal(
      handleTakenProblem('organic-tee', holder, 42),
      `handle: 'organic-tee' (the PIM slug) is taken in the shop by Shopify product 9 "Merchant Tee" (gid://shopify/Product/9, handle 'organic-tee'), which the bridge does not own: adopt it (POST /api/adopt: its handle matches this PIM product's slug), or change this product's slug in the PIM`,
    );
    assert.match(
      handleTakenProblem('organic-tee', { ...holder, pimId: '7' }, 42),
      /which the bridge pushed for PIM product 7: change this product's slug in the PIM/,
    );
    assert.match(
      handleTakenProblem('organic-tee', { ...holder, pimId: '42' }, 42),
      /made for this PIM product before its mapping was lost: push this product again/,
    );
    assert.match(handleTakenProblem('organic-tee', null, 42), /is taken in the shop, but no product with that handle could be read/);
  });
});

describe('pre-flight (Shopify limits before sending)', () => {
  const check = (p: PimProductSnapshot, limits?: { maxProductOptions: number; maxProductVariants: number }) =>
    preflight(p, mapProduct(p, NONE, { locations: [], placement: PLACEMENT, current: null }).input, limits);

  it('a valid product passes', () => {
    assert.deepEqual(check(TEE), []);
    assert.deepEqual(check(SIMPLE), []);
  });

  it('title required', () => {
    assert.deepEqual(check({ ...SIMPLE, name: '  ' }), ['title: is required']);
  });

  it('at most 3 options', () => {
    const p = { ...TEE, variants: [variant(1, 'A', { Size: 'S', Color: 'Red', Fit: 'Slim', Sleeve: 'Long' })] };
    assert.deepEqual(check(p), ['options: 4 options (Size, Color, Fit, Sleeve), Shopify allows at most 3']);
  });

  it("at most 2048 variants (or the shop's own limit)", () => {
    const many = Array.from({ length: 2049 }, (_, i) => variant(i + 1, `V${i}`, { N: String(i) }));
    assert.deepEqual(check({ ...TEE, variants: many }), ['variants: 2049 variants, Shopify allows at most 2048']);
    assert.deepEqual(check(TEE, { maxProductOptions: 3, maxProductVariants: 1 }), ['variants: 2 variants, Shopify allows at most 1']);
  });

  it('unique option-value combinations, a value for every option, unique SKUs', () => {
    const p = {
      ...TEE,
      variants: [variant(1, 'A', { Size: 'S' }), variant(2, 'B', { Size: 'S' }), variant(3, 'A', { Size: 'M' }), variant(4, 'C', { Color: 'Red' })],
    };
    const errs = check(p);
    assert.ok(errs.includes('variant A: sku is used by another variant of the product'));
    assert.ok(errs.includes("variant C: has no value for option 'Size'"));
    assert.ok(errs.includes("variant A: has no value for option 'Color'"));
    const dup = { ...TEE, variants: [variant(1, 'A', { Size: 'S' }), variant(2, 'B', { Size: 'S' })] };
    assert.deepEqual(check(dup), ['variant B: has the same option values (S) as variant A']);
  });

  it('price format: non-negative decimal with at most 2 places; required when active', () => {
    assert.deepEqual(check({ ...SIMPLE, price: '1.999' }), ["product: price '1.999' is not a non-negative decimal with at most 2 decimal places"]);
    assert.deepEqual(check({ ...SIMPLE, status: 'active', price: null, sale_price: null }), ['product: price is required for an active product']);
    assert.deepEqual(check({ ...SIMPLE, price: null, sale_price: null }), [], 'a draft without a price is fine');
    assert.deepEqual(check({ ...TEE, variants: [variant(1, 'A', { Size: 'S' }, { price: '-3' })] }), [
      "variant A: price '-3' is not a non-negative decimal with at most 2 decimal places",
    ]);
  });

  it("SEO lengths past the admin's 70/320 hints are not errors (the API takes them): a name of 71 and long SEO attributes pass", () => {
    assert.deepEqual(check({ ...SIMPLE, name: 'x'.repeat(71), short_description: 'y'.repeat(321) }), []);
    assert.deepEqual(check({ ...SIMPLE, name: 'x'.repeat(255), attributes: { seo_title: 't'.repeat(80), seo_description: 'd'.repeat(400) } }), []);
    assert.match(check({ ...SIMPLE, name: 'x'.repeat(256) }).join(), /title: is 256 characters, Shopify allows at most 255/);
  });

  it('image URLs must be absolute http(s)', () => {
    assert.deepEqual(check({ ...SIMPLE, images: ['ftp://x/a.jpg'] }), ["images: 'ftp://x/a.jpg' is not an absolute http(s) URL"]);
  });

  it('userErrors become lines `field: message (CODE)`', () => {
    assert.deepEqual(
      userErrorLines([
        { field: ['input', 'variants', '0', 'price'], message: 'Price is invalid', code: 'INVALID_VARIANT' },
        { field: null, message: 'Oops', code: null },
      ]),
      ['input.variants.0.price: Price is invalid (INVALID_VARIANT)', 'Oops'],
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Identifier choice and recovery, against a fake Shopify that records the variables of every call.

interface Seen {
  op: string;
  variables: Record<string, any>;
}

describe('upsertProduct: identifier and recovery (fake Shopify)', () => {
  let server: TestServer;
  const seen: Seen[] = [];
  let definition: 'created' | 'taken' | 'unsupported' = 'created';
  let lookup: (v: Record<string, any>) => unknown = () => null;
  /** What `products(query:)` answers (ProductIdentities). */
  let search: (v: Record<string, any>) => unknown[] = () => [];
  /** Handles other products hold: a productSet sending one is refused HANDLE_NOT_UNIQUE, as Shopify does (2025-01 on). */
  let takenHandles = new Set<string>();
  /** Appended to the handle a create sent, in productSet's answer (a shop that suffixed it). */
  let answeredSuffix = '';
  /** The product's media as the last lookup answered them: productSet answers them when it is sent no files. */
  let lookedUpMedia: unknown[] = [];
  let failNextProductSet: (() => void) | null = null;
  const cost = { requestedQueryCost: 10, actualQueryCost: 10, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990, restoreRate: 100 } };

  before(async () => {
    server = await serveHttp((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const { query, variables } = JSON.parse(body) as { query: string; variables: Record<string, any> };
        const op = /(?:query|mutation) (\w+)/.exec(query)?.[1] ?? '?';
        seen.push({ op, variables });
        let data: unknown;
        let errors: unknown;
        if (op === 'Locations') data = { locations: { nodes: LOCATIONS, pageInfo: { hasNextPage: false, endCursor: null } } };
        else if (op === 'ShopHealth')
          data = {
            shop: {
              id: 'gid://shopify/Shop/1',
              name: 'Test',
              myshopifyDomain: 'test.myshopify.com',
              currencyCode: 'EUR',
              plan: { publicDisplayName: 'Basic', shopifyPlus: false, partnerDevelopment: false },
              resourceLimits: { maxProductVariants: 2048, maxProductOptions: 3 },
            },
          };
        else if (op === 'MetafieldDefinitionCapabilities')
          data = { metafieldDefinition: { id: 'gid://shopify/MetafieldDefinition/1', capabilities: { uniqueValues: { enabled: true } } } };
        else if (op === 'MetafieldDefinitionCreate') {
          if (definition === 'unsupported') errors = [{ message: 'metafieldDefinitionCreate is not emulated', extensions: { code: 'NOT_IMPLEMENTED' } }];
          else
            data = {
              metafieldDefinitionCreate:
                definition === 'created'
                  ? { createdDefinition: { id: 'gid://shopify/MetafieldDefinition/1' }, userErrors: [] }
                  : { createdDefinition: null, userErrors: [{ field: ['definition', 'key'], message: 'Key is in use', code: 'TAKEN' }] },
            };
        } else if (op === 'ProductIdentities') {
          data = { products: { nodes: search(variables) } };
        } else if (op === 'ProductSetSync' && variables.input.handle && takenHandles.has(variables.input.handle)) {
          const handle = variables.input.handle;
          data = {
            productSet: {
              product: null,
              userErrors: [
                { field: ['input', 'handle'], message: `Handle '${handle}' already in use. Please provide a new handle.`, code: 'HANDLE_NOT_UNIQUE' },
              ],
            },
          };
        } else if (op === 'ProductLookup' || op === 'ProductRecoveryLookup' || op === 'ProductLookupMedia') {
          const found = lookup(variables) as { media?: { nodes: unknown[] } } | null;
          lookedUpMedia = found?.media?.nodes ?? [];
          data = { productByIdentifier: found };
        } else if (op === 'ProductSetSync' && failNextProductSet) {
          failNextProductSet();
          failNextProductSet = null;
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ errors: 'Service Unavailable' }));
          return;
        } else if (op === 'ProductSetSync' && variables.identifier?.id === 'gid://shopify/Product/404') {
          data = {
            productSet: { product: null, userErrors: [{ field: ['identifier', 'id'], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' }] },
          };
        } else if (op === 'ProductSetSync') {
          const input = variables.input;
          data = {
            productSet: {
              product: {
                id: variables.identifier?.id ?? 'gid://shopify/Product/500',
                handle: input.handle ? `${input.handle}${answeredSuffix}` : 'organic-tee',
                title: input.title,
                variants: { nodes: input.variants.map((v: any, i: number) => ({ id: v.id ?? `gid://shopify/ProductVariant/${600 + i}`, sku: v.sku })) },
                // Shopify answers the product's media: those sent, or (no files sent) those it has.
                media: {
                  nodes: input.files
                    ? input.files.map((f: any, i: number) => ({
                        id: f.id ?? `gid://shopify/MediaImage/${700 + i}`,
                        status: f.id ? 'READY' : 'UPLOADED',
                        image: null,
                      }))
                    : lookedUpMedia,
                },
              },
              userErrors: [],
            },
          };
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(errors ? { errors, extensions: { cost } } : { data, extensions: { cost } }));
      });
    });
  });
  after(() => server.close());
  beforeEach(() => {
    seen.length = 0;
    definition = 'created';
    lookup = () => null;
    search = () => [];
    takenHandles = new Set();
    answeredSuffix = '';
    failNextProductSet = null;
  });

  const shop = (): StorefrontShop => ({ domain: 'fake.myshopify.com', apiBaseUrl: `${server.url}/s/fake.myshopify.com`, accessToken: 'shpat_x' });
  const ops = () => seen.map((s) => s.op);
  const productSet = () => seen.find((s) => s.op === 'ProductSetSync')!.variables;

  it('with a mapping: looks the product up by id (tags and, its images to send, its media), productSet by {id}, method update', async () => {
    const adapter = new ShopifyAdapter();
    lookup = () => ({
      id: 'gid://shopify/Product/9',
      handle: 'my-own-handle',
      tags: ['Shirts', 'merchant-tag'],
      metafields: {
        nodes: [
          { namespace: 'custom', key: 'care', type: 'single_line_text_field', value: 'Wash cold' },
          { namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '42' },
          { namespace: 'pimbridge', key: 'category_tags', type: 'json', value: '["Shirts","Old category"]' },
        ],
      },
    });
    const r = await adapter.upsertProduct(
      shop(),
      { ...TEE, tags: ['eco'] },
      {
        productId: 'gid://shopify/Product/9',
        variantIds: { 'TEE-S-RED': 'gid://shopify/ProductVariant/91', 'TEE-M-RED': 'gid://shopify/ProductVariant/92' },
        mediaIds: {},
      },
      PLACEMENT,
    );
    // The images are not the product's yet: files will be sent, so the product's media are read with it.
    assert.deepEqual(ops(), ['Locations', 'ProductLookupMedia', 'ProductSetSync']);
    assert.deepEqual(seen[1].variables, { identifier: { id: 'gid://shopify/Product/9' } });
    assert.deepEqual(productSet().identifier, { id: 'gid://shopify/Product/9' });
    assert.equal(productSet().input.id, undefined, 'input.id is deprecated');
    assert.equal(productSet().input.handle, undefined);
    // The first push after categories stopped being tags: the category tags an older push recorded go (unless the PIM
    // has them as tags), the merchant's stay, the PIM's are added.
    assert.deepEqual(productSet().input.tags, ['merchant-tag', 'eco']);
    // Our tags changed: the metafield list is sent, the merchant's metafield in it, the old category record gone.
    assert.deepEqual(productSet().input.metafields, [
      { namespace: 'custom', key: 'care', type: 'single_line_text_field', value: 'Wash cold' },
      { namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '42' },
      { namespace: 'pimbridge', key: 'pim_tags', type: 'json', value: '["eco"]' },
    ]);
    assert.deepEqual(
      productSet().input.variants.map((v: any) => v.id),
      ['gid://shopify/ProductVariant/91', 'gid://shopify/ProductVariant/92'],
    );
    assert.equal(r.method, 'update');
    assert.equal(r.productNumericId, 9);
    assert.equal(r.firstVariantNumericId, 91);
    assert.deepEqual(r.mediaIds, {
      'https://pim.example/media/a.jpg': 'gid://shopify/MediaImage/700',
      'https://pim.example/media/b.jpg': 'gid://shopify/MediaImage/701',
    });
    assert.equal(r.variantCount, 2);
    assert.equal(r.imageCount, 2);
  });

  // The images the mapping knows (unchanged images: no files, so no media to read).
  const TEE_MEDIA = { 'https://pim.example/media/a.jpg': 'gid://shopify/MediaImage/5', 'https://pim.example/media/b.jpg': 'gid://shopify/MediaImage/6' };

  it('with a mapping and the PIM tags of the last push: no lookup, productSet by {id} leaving tags and metafields alone', async () => {
    const r = await new ShopifyAdapter().upsertProduct(
      shop(),
      { ...TEE, tags: ['Eco', 'summer'] },
      {
        productId: 'gid://shopify/Product/9',
        variantIds: { 'TEE-S-RED': 'gid://shopify/ProductVariant/91', 'TEE-M-RED': 'gid://shopify/ProductVariant/92' },
        mediaIds: TEE_MEDIA,
        owned: { tags: ['summer', 'eco'] },
      },
      PLACEMENT,
    );
    assert.deepEqual(ops(), ['Locations', 'ProductSetSync']);
    assert.deepEqual(productSet().identifier, { id: 'gid://shopify/Product/9' });
    assert.equal(productSet().input.tags, undefined, 'tags left out: the storefront keeps its own');
    assert.equal(productSet().input.metafields, undefined);
    assert.equal(productSet().input.files, undefined, 'unchanged images: the media are left alone');
    assert.equal(r.method, 'update');
    assert.deepEqual(r.owned.tags, ['Eco', 'summer']);
  });

  it('with a mapping whose PIM tags changed since the last push: the product is read first, so merchant tags survive', async () => {
    lookup = () => ({
      id: 'gid://shopify/Product/9',
      handle: 'h',
      tags: ['old', 'merchant-tag'],
      metafields: { nodes: [{ namespace: 'pimbridge', key: 'pim_tags', type: 'json', value: '["old"]' }] },
    });
    await new ShopifyAdapter().upsertProduct(
      shop(),
      { ...TEE, tags: ['new'] },
      { productId: 'gid://shopify/Product/9', variantIds: {}, mediaIds: TEE_MEDIA, owned: { tags: ['old'] } },
      PLACEMENT,
    );
    assert.deepEqual(ops(), ['Locations', 'ProductLookup', 'ProductSetSync']);
    assert.deepEqual(productSet().input.tags, ['merchant-tag', 'new']);
  });

  it('files sent to a mapped product: the merchant media read with it go back in the list, ours first; only ours are ever dropped', async () => {
    lookup = () => ({
      id: 'gid://shopify/Product/9',
      handle: 'h',
      tags: [],
      metafields: { nodes: [] },
      media: {
        nodes: [
          { id: 'gid://shopify/MediaImage/5', status: 'READY', image: { url: 'https://cdn.example/pim-0000000000000000.jpg' } },
          { id: 'gid://shopify/MediaImage/77', status: 'READY', image: { url: 'https://cdn.example/lifestyle.jpg' } },
          { id: 'gid://shopify/MediaImage/78', status: 'PROCESSING', image: null },
          // Ours by file name, an image the PIM dropped: not sent back, so productSet removes it.
          { id: 'gid://shopify/MediaImage/79', status: 'READY', image: { url: `https://cdn.example/${mediaFilename('https://pim.example/media/gone.jpg')}` } },
        ],
      },
    });
    const r = await new ShopifyAdapter().upsertProduct(
      shop(),
      { ...TEE, images: ['https://pim.example/media/a.jpg'], image_alts: ['Front view'] },
      {
        productId: 'gid://shopify/Product/9',
        variantIds: {},
        mediaIds: { 'https://pim.example/media/a.jpg': 'gid://shopify/MediaImage/5' },
        owned: { tags: [] },
      },
      PLACEMENT,
    );
    assert.deepEqual(ops(), ['Locations', 'ProductLookupMedia', 'ProductSetSync']);
    assert.deepEqual(productSet().input.files, [
      // Ours with the PIM media's alt text (it changed: the reason files are sent), then the merchant's by id.
      { id: 'gid://shopify/MediaImage/5', alt: 'Front view' },
      { id: 'gid://shopify/MediaImage/77' },
      { id: 'gid://shopify/MediaImage/78' },
    ]);
    assert.deepEqual(r.mediaIds, { 'https://pim.example/media/a.jpg': 'gid://shopify/MediaImage/5' }, "the merchant's media are never taken for ours");
    assert.deepEqual(r.owned.imageAlts, { 'https://pim.example/media/a.jpg': 'Front view' });
  });

  it('unchanged tags but the product was deleted in Shopify: PRODUCT_DOES_NOT_EXIST, then looked for and created again', async () => {
    const r = await new ShopifyAdapter().upsertProduct(
      shop(),
      TEE,
      { productId: 'gid://shopify/Product/404', variantIds: {}, mediaIds: TEE_MEDIA, owned: { tags: [] } },
      PLACEMENT,
    );
    const sets = seen.filter((x) => x.op === 'ProductSetSync');
    assert.equal(sets.length, 2);
    assert.deepEqual(sets[0].variables.identifier, { id: 'gid://shopify/Product/404' });
    assert.ok('customId' in sets[1].variables.identifier, JSON.stringify(sets[1].variables.identifier));
    assert.ok(Array.isArray(sets[1].variables.input.tags), 'the new product gets its tags');
    assert.equal(r.method, 'create');
  });

  it('without a mapping: ensures the unique pim_product_id definition once per shop, then creates by customId', async () => {
    const adapter = new ShopifyAdapter();
    const r = await adapter.upsertProduct(shop(), TEE, NONE, PLACEMENT);
    await adapter.upsertProduct(shop(), SIMPLE, NONE, PLACEMENT);
    assert.deepEqual(ops(), ['Locations', 'MetafieldDefinitionCreate', 'ProductRecoveryLookup', 'ProductSetSync', 'ProductRecoveryLookup', 'ProductSetSync']);
    assert.deepEqual(seen[1].variables.definition, {
      name: 'PIM product id',
      namespace: 'pimbridge',
      key: 'pim_product_id',
      type: 'single_line_text_field',
      ownerType: 'PRODUCT',
      capabilities: { uniqueValues: { enabled: true } },
    });
    assert.deepEqual(seen[2].variables, { identifier: { customId: { namespace: 'pimbridge', key: 'pim_product_id', value: '42' } } });
    assert.deepEqual(seen[3].variables.identifier, { customId: { namespace: 'pimbridge', key: 'pim_product_id', value: '42' } });
    assert.equal(seen[3].variables.input.handle, 'organic-tee', "a new product's handle is the PIM slug, exactly");
    assert.equal(r.method, 'create');
    assert.deepEqual(r.variantIds, { 'TEE-S-RED': 'gid://shopify/ProductVariant/600', 'TEE-M-RED': 'gid://shopify/ProductVariant/601' });
  });

  it('a definition that already exists (TAKEN) still means customId', async () => {
    definition = 'taken';
    await new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT);
    assert.ok('customId' in productSet().identifier);
  });

  it('a shop that cannot make the definition: a lost product is searched by our metafield, never by handle; a new one is a plain create with the slug as handle', async () => {
    definition = 'unsupported';
    // A shop that does not apply the filter answers other products: only one carrying our value counts.
    search = () => [{ id: 'gid://shopify/Product/5', handle: 'organic-tee', title: 'Merchant Tee', pimProductId: null }];
    await new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT);
    assert.deepEqual(ops(), ['Locations', 'MetafieldDefinitionCreate', 'ProductIdentities', 'ProductSetSync']);
    assert.deepEqual(seen[2].variables, { query: 'metafields.pimbridge.pim_product_id:"42"', first: 10 });
    assert.equal(productSet().identifier, undefined, 'no identifier: a handle identifier would update whichever product holds it');
    assert.equal(productSet().input.handle, 'organic-tee');
  });

  it('a shop without the definition: the product our metafield search finds is recovered by id, whatever its handle now', async () => {
    definition = 'unsupported';
    search = () => [
      { id: 'gid://shopify/Product/5', handle: 'organic-tee', title: 'Merchant Tee', pimProductId: null },
      { id: 'gid://shopify/Product/77', handle: 'renamed-by-the-merchant', title: 'Organic Tee', pimProductId: { value: '42' } },
    ];
    lookup = (v) =>
      v.identifier.id === 'gid://shopify/Product/77'
        ? {
            id: 'gid://shopify/Product/77',
            handle: 'renamed-by-the-merchant',
            title: 'Organic Tee',
            tags: [],
            metafields: { nodes: [] },
            variants: { nodes: [] },
          }
        : null;
    const r = await new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT);
    assert.deepEqual(ops(), ['Locations', 'MetafieldDefinitionCreate', 'ProductIdentities', 'ProductRecoveryLookup', 'ProductSetSync']);
    assert.deepEqual(productSet().identifier, { id: 'gid://shopify/Product/77' });
    assert.equal(productSet().input.handle, undefined, 'the handle is never sent to an existing product');
    assert.equal(r.method, 'update');
  });

  it("a handle a merchant's product holds: the push fails naming that product, after one read of it; nothing is created", async () => {
    takenHandles = new Set(['organic-tee']);
    lookup = (v) =>
      v.identifier.handle === 'organic-tee'
        ? { id: 'gid://shopify/Product/9', handle: 'organic-tee', title: 'Merchant Tee', tags: [], metafields: { nodes: [] }, variants: { nodes: [] } }
        : null;
    await assert.rejects(new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT), (e: unknown) => {
      assert.ok(e instanceof StorefrontValidationError);
      assert.equal(e.errors.length, 1);
      assert.match(e.errors[0], /^handle: 'organic-tee' \(the PIM slug\) is taken in the shop by Shopify product 9 "Merchant Tee"/);
      assert.match(e.errors[0], /adopt it \(POST \/api\/adopt/);
      return true;
    });
    assert.deepEqual(ops(), ['Locations', 'MetafieldDefinitionCreate', 'ProductRecoveryLookup', 'ProductSetSync', 'ProductRecoveryLookup']);
    assert.deepEqual(seen[4].variables.identifier, { handle: 'organic-tee' });
  });

  it('a never-pushed product costs no read before its create, a taken handle one read after', async () => {
    takenHandles = new Set(['organic-tee']);
    lookup = (v) =>
      v.identifier.handle === 'organic-tee'
        ? { id: 'gid://shopify/Product/9', handle: 'organic-tee', title: 'Merchant Tee', tags: [], metafields: { nodes: [] }, variants: { nodes: [] } }
        : null;
    const adapter = new ShopifyAdapter();
    await adapter.upsertProduct(shop(), SIMPLE, { ...NONE, neverPushed: true }, PLACEMENT);
    assert.deepEqual(ops(), ['Locations', 'MetafieldDefinitionCreate', 'ProductSetSync'], 'no read in the common case');
    seen.length = 0;
    await assert.rejects(adapter.upsertProduct(shop(), TEE, { ...NONE, neverPushed: true }, PLACEMENT), StorefrontValidationError);
    assert.deepEqual(ops(), ['ProductSetSync', 'ProductRecoveryLookup']);
  });

  it("the handle held by the bridge's own product for this PIM product (a lost mapping the search missed): taken over and updated", async () => {
    definition = 'unsupported';
    takenHandles = new Set(['organic-tee']);
    lookup = (v) =>
      v.identifier.handle === 'organic-tee' || v.identifier.id === 'gid://shopify/Product/77'
        ? {
            id: 'gid://shopify/Product/77',
            handle: 'organic-tee',
            title: 'Organic Tee',
            tags: ['Shirts'],
            metafields: { nodes: [{ namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '42' }] },
            variants: { nodes: [{ id: 'gid://shopify/ProductVariant/771', sku: 'TEE-S-RED' }] },
          }
        : null;
    const r = await new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT);
    const sets = seen.filter((x) => x.op === 'ProductSetSync');
    assert.equal(sets.length, 2);
    assert.equal(sets[0].variables.input.handle, 'organic-tee');
    assert.deepEqual(sets[1].variables.identifier, { id: 'gid://shopify/Product/77' });
    assert.equal(sets[1].variables.input.handle, undefined);
    assert.equal(sets[1].variables.input.variants[0].id, 'gid://shopify/ProductVariant/771', 'its variant ids recovered by SKU');
    assert.equal(r.method, 'update');
  });

  it('a create answered with another handle than the slug sent is never silent: the product is kept, with a problem naming both', async () => {
    answeredSuffix = '-1';
    const r = await new ShopifyAdapter().upsertProduct(shop(), TEE, { ...NONE, neverPushed: true }, PLACEMENT);
    assert.equal(r.handle, 'organic-tee-1');
    assert.ok(
      r.problems.includes("handle: Shopify gave the new product the handle 'organic-tee-1', not the PIM slug 'organic-tee'"),
      JSON.stringify(r.problems),
    );
    seen.length = 0;
    lookup = (v) =>
      v.identifier.id === r.productId ? { id: r.productId, handle: 'organic-tee-1', title: 'Organic Tee', tags: [], metafields: { nodes: [] } } : null;
    const again = await new ShopifyAdapter().upsertProduct(shop(), TEE, { productId: r.productId, variantIds: r.variantIds, mediaIds: r.mediaIds }, PLACEMENT);
    assert.equal(productSet().input.handle, undefined);
    assert.ok(!again.problems.some((p) => p.startsWith('handle:')), 'an update sends no handle and checks none');
  });

  it("a handle held by the bridge's product for another PIM product: the push fails naming it and that PIM product", async () => {
    takenHandles = new Set(['organic-tee']);
    lookup = (v) =>
      v.identifier.handle === 'organic-tee'
        ? {
            id: 'gid://shopify/Product/9',
            handle: 'organic-tee',
            title: 'Old Tee',
            tags: [],
            metafields: { nodes: [{ namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '7' }] },
          }
        : null;
    await assert.rejects(
      new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT),
      (e: unknown) => e instanceof StorefrontValidationError && /Shopify product 9 "Old Tee".*pushed for PIM product 7/.test(e.errors[0]),
    );
    assert.equal(seen.filter((x) => x.op === 'ProductSetSync').length, 1);
  });

  it('a lost mapping: the product found by customId is updated by id, its variant ids recovered by SKU and images by our file name in their CDN URL (not uploaded again)', async () => {
    lookup = (v) =>
      v.identifier.customId
        ? {
            id: 'gid://shopify/Product/77',
            handle: 'organic-tee',
            tags: ['merchant-tag'],
            metafields: {
              nodes: [
                { namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '42' },
                { namespace: 'pimbridge', key: 'pim_tags', type: 'json', value: '[]' },
              ],
            },
            variants: {
              nodes: [
                { id: 'gid://shopify/ProductVariant/771', sku: 'TEE-S-RED' },
                { id: 'gid://shopify/ProductVariant/772', sku: 'TEE-M-RED' },
              ],
            },
            // Shopify's CDN URLs end with the file name we gave (a UUID appended when the name was taken); never our URL.
            media: {
              nodes: [
                { id: 'gid://shopify/MediaImage/882', image: { url: cdn('https://pim.example/media/b.jpg') } },
                { id: 'gid://shopify/MediaImage/881', image: { url: cdn('https://pim.example/media/a.jpg') } },
              ],
            },
          }
        : null;
    const r = await new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT);
    assert.deepEqual(productSet().identifier, { id: 'gid://shopify/Product/77' });
    assert.deepEqual(
      productSet().input.variants.map((v: any) => v.id),
      ['gid://shopify/ProductVariant/771', 'gid://shopify/ProductVariant/772'],
    );
    assert.equal(productSet().input.files, undefined, 'the product has exactly our images: the list is not sent (none uploaded again)');
    assert.deepEqual(r.mediaIds, {
      'https://pim.example/media/a.jpg': 'gid://shopify/MediaImage/881',
      'https://pim.example/media/b.jpg': 'gid://shopify/MediaImage/882',
    });
    assert.equal(productSet().input.metafields, undefined, 'our metafields are unchanged: the list is not sent (and so kept)');
    assert.equal(r.method, 'update');
  });

  it("recovery never matches images by position: media without our file name are not taken for ours (they are kept as the merchant's)", async () => {
    lookup = () => ({
      id: 'gid://shopify/Product/78',
      handle: 'x',
      tags: [],
      metafields: { nodes: [] },
      variants: { nodes: [] },
      media: {
        nodes: [
          { id: 'gid://shopify/MediaImage/1', image: { url: 'https://cdn.shopify.com/s/files/1/files/1.jpg' } },
          { id: 'gid://shopify/MediaImage/2', image: null },
        ],
      },
    });
    await new ShopifyAdapter().upsertProduct(shop(), TEE, NONE, PLACEMENT);
    // Ours uploaded from their source, then the media we cannot prove ours (another name, one still processing) by id:
    // productSet's `files` replaces the list, and only media the bridge made are ever removed.
    assert.deepEqual(
      productSet().input.files.map((f: any) => f.originalSource ?? f.id),
      [...TEE.images!, 'gid://shopify/MediaImage/1', 'gid://shopify/MediaImage/2'],
    );
  });

  it('recovery with a new image: the known ones by id, the new one uploaded', async () => {
    lookup = () => ({
      id: 'gid://shopify/Product/79',
      handle: 'x',
      tags: [],
      metafields: { nodes: [] },
      variants: { nodes: [] },
      media: {
        nodes: [
          { id: 'gid://shopify/MediaImage/1', image: { url: cdn('https://pim.example/media/a.jpg') } },
          { id: 'gid://shopify/MediaImage/2', image: { url: cdn('https://pim.example/media/b.jpg') } },
        ],
      },
    });
    const r = await new ShopifyAdapter().upsertProduct(shop(), { ...TEE, images: [...TEE.images!, 'https://pim.example/media/new.jpg'] }, NONE, PLACEMENT);
    assert.deepEqual(productSet().input.files, [
      { id: 'gid://shopify/MediaImage/1' },
      { id: 'gid://shopify/MediaImage/2' },
      {
        originalSource: 'https://pim.example/media/new.jpg',
        alt: 'Organic Tee',
        contentType: 'IMAGE',
        filename: mediaFilename('https://pim.example/media/new.jpg'),
      },
    ]);
    assert.equal(Object.keys(r.mediaIds).length, 3);
  });

  it('a mapped product deleted on the storefront is found again or created, never updated by a stale id', async () => {
    const r = await new ShopifyAdapter().upsertProduct(
      shop(),
      TEE,
      {
        productId: 'gid://shopify/Product/404',
        variantIds: { 'TEE-S-RED': 'gid://shopify/ProductVariant/1' },
        mediaIds: { 'https://pim.example/media/a.jpg': 'gid://shopify/MediaImage/1' },
      },
      PLACEMENT,
    );
    assert.ok('customId' in productSet().identifier);
    assert.ok(productSet().input.variants.every((v: any) => v.id === undefined));
    assert.ok(productSet().input.files.length === 2 && productSet().input.files.every((f: any) => f.id === undefined));
    assert.equal(r.method, 'create');
  });

  it('a productSet that failed with a 503 after being applied is looked up again: no second upload, method create', async () => {
    let applied = false;
    lookup = () =>
      applied
        ? {
            id: 'gid://shopify/Product/500',
            handle: 'organic-tee',
            tags: ['Shirts', 'Organic'],
            metafields: {
              nodes: [
                { namespace: 'pimbridge', key: 'pim_product_id', type: 'single_line_text_field', value: '42' },
                { namespace: 'pimbridge', key: 'category_tags', type: 'json', value: '["Shirts","Organic"]' },
              ],
            },
            variants: {
              nodes: [
                { id: 'gid://shopify/ProductVariant/600', sku: 'TEE-S-RED' },
                { id: 'gid://shopify/ProductVariant/601', sku: 'TEE-M-RED' },
              ],
            },
            // Still processing at the first look (no URL yet), processed at the next: the push waits for the names.
            media: {
              nodes:
                looks++ === 0
                  ? [
                      { id: 'gid://shopify/MediaImage/700', status: 'PROCESSING', image: null },
                      { id: 'gid://shopify/MediaImage/701', status: 'UPLOADED', image: null },
                    ]
                  : [
                      { id: 'gid://shopify/MediaImage/700', status: 'READY', image: { url: cdn('https://pim.example/media/a.jpg') } },
                      { id: 'gid://shopify/MediaImage/701', status: 'READY', image: { url: cdn('https://pim.example/media/b.jpg') } },
                    ],
            },
          }
        : null;
    let looks = 0;
    failNextProductSet = () => {
      applied = true;
    };
    const adapter = new ShopifyAdapter({ clock: { now: () => 0, sleep: async () => {}, random: () => 0 } });
    const r = await adapter.upsertProduct(shop(), TEE, NONE, PLACEMENT);
    const sets = seen.filter((s) => s.op === 'ProductSetSync');
    assert.equal(sets.length, 2);
    assert.deepEqual(
      sets[0].variables.input.files.map((f: any) => f.originalSource),
      TEE.images,
    );
    assert.deepEqual(sets[1].variables.identifier, { id: 'gid://shopify/Product/500' });
    assert.equal(sets[1].variables.input.files, undefined, 'the images the failed attempt uploaded are there: none sent again');
    assert.deepEqual(
      sets[1].variables.input.variants.map((v: any) => v.id),
      ['gid://shopify/ProductVariant/600', 'gid://shopify/ProductVariant/601'],
    );
    assert.equal(r.method, 'create', 'this push made the product');
  });

  it('a pre-flight failure sends no productSet', async () => {
    await assert.rejects(
      new ShopifyAdapter().upsertProduct(shop(), { ...SIMPLE, name: '' }, NONE, PLACEMENT),
      (e: unknown) => e instanceof StorefrontValidationError && e.errors[0] === 'title: is required',
    );
    assert.ok(!ops().includes('ProductSetSync'));
  });

  it('locations are read once per shop', async () => {
    const adapter = new ShopifyAdapter();
    await adapter.upsertProduct(shop(), SIMPLE, NONE, PLACEMENT);
    await adapter.upsertProduct(shop(), SIMPLE, NONE, PLACEMENT);
    assert.equal(ops().filter((o) => o === 'Locations').length, 1);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// End to end against the built-in sandbox (real HTTP, real schema validation, real productSet semantics). The sandbox
// fetches every image it is sent, as Shopify does: the PIM's images are on a local server.

const picture = await makeImage('jpeg', 8, 6);
const images = await serveHttp((_req, res) => {
  res.writeHead(200, { 'content-type': 'image/jpeg' });
  res.end(picture);
});
after(() => images.close());
const LOCAL_TEE: PimProductSnapshot = { ...TEE, images: TEE.images!.map((u) => u.replace('https://pim.example', images.url)) };

for (const target of databaseTargets()) {
  describe(`upsertProduct against the sandbox (${target.name})`, () => {
    let h: Harness;
    let shop: StorefrontShop;
    const adapter = new ShopifyAdapter();

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
      await h.app.listen({ port, host: '127.0.0.1' });
      const domain = 'upsert-e2e.myshopify.com';
      const { accessToken } = await h.app.services.sandbox!.stores.create(domain);
      // The test's images are on a local server: this store may fetch them (a real Shopify fetches public addresses only).
      await h.app.services.sandbox!.stores.configure(domain, { allow_private_media_sources: true });
      shop = { domain, apiBaseUrl: `http://127.0.0.1:${port}/sandbox/shopify/${domain}`, accessToken };
    });
    after(async () => h.close());

    async function gql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
      return adapter.request<any>(shop, query, variables);
    }

    let first: Awaited<ReturnType<ShopifyAdapter['upsertProduct']>>;

    it('creates, then updates by id: same product, same variant ids, images sent by id the second time', async () => {
      first = await adapter.upsertProduct(shop, LOCAL_TEE, NONE, PLACEMENT);
      assert.equal(first.method, 'create');
      assert.equal(first.variantCount, 2);
      assert.equal(Object.keys(first.variantIds).length, 2);
      assert.equal(Object.keys(first.mediaIds).length, 2);
      const second = await adapter.upsertProduct(
        shop,
        { ...LOCAL_TEE, name: 'Organic Tee v2' },
        { productId: first.productId, variantIds: first.variantIds, mediaIds: first.mediaIds },
        PLACEMENT,
      );
      assert.equal(second.method, 'update');
      assert.equal(second.productId, first.productId);
      assert.deepEqual(second.variantIds, first.variantIds);
      assert.deepEqual(second.mediaIds, first.mediaIds);
      // A third image: the two known ones go by id, only the new one is uploaded.
      const threeImages = [...LOCAL_TEE.images!, `${images.url}/media/c.jpg`];
      const third = await adapter.upsertProduct(
        shop,
        { ...LOCAL_TEE, name: 'Organic Tee v2', images: threeImages },
        { productId: first.productId, variantIds: second.variantIds, mediaIds: second.mediaIds },
        PLACEMENT,
      );
      assert.equal(third.mediaIds[LOCAL_TEE.images![0]], first.mediaIds[LOCAL_TEE.images![0]]);
      assert.equal(third.mediaIds[LOCAL_TEE.images![1]], first.mediaIds[LOCAL_TEE.images![1]]);
      assert.equal(Object.keys(third.mediaIds).length, 3);
      let data = await gql(`query Check($id: ID!) { product(id: $id) { media(first: 10) { nodes { id } } } }`, { id: first.productId });
      assert.equal(data.product.media.nodes.length, 3);
      // Back to two: the removed image goes.
      await adapter.upsertProduct(
        shop,
        { ...LOCAL_TEE, name: 'Organic Tee v2' },
        { productId: first.productId, variantIds: third.variantIds, mediaIds: third.mediaIds },
        PLACEMENT,
      );
      data = await gql(
        `query Check($id: ID!) { product(id: $id) { title tags status media(first: 10) { nodes { id } } } products(first: 10) { nodes { id } } }`,
        { id: first.productId },
      );
      assert.equal(data.product.title, 'Organic Tee v2');
      assert.deepEqual(data.product.media.nodes.map((n: any) => n.id).sort(), Object.values(first.mediaIds).sort(), 'images were not uploaded again');
      assert.equal(data.products.nodes.length, 1);
      assert.equal(data.product.status, 'ACTIVE');
    });

    it('a variant and an image deleted in Shopify: the stale ids are refreshed once and the push succeeds', async () => {
      const data = await gql(
        `query V($id: ID!) { product(id: $id) { variants(first: 5) { nodes { id sku selectedOptions { name value } } } media(first: 5) { nodes { id } } } }`,
        { id: first.productId },
      );
      const keep = data.product.variants.nodes[1];
      // The merchant deletes the first variant and the first image.
      const edit = await gql(
        `mutation Edit($id: ID!, $input: ProductSetInput!) { productSet(identifier: {id: $id}, input: $input) { userErrors { field message code } } }`,
        {
          id: first.productId,
          input: {
            productOptions: [
              { name: 'Size', values: [{ name: keep.selectedOptions[0].value }] },
              { name: 'Color', values: [{ name: 'Red' }] },
            ],
            variants: [{ id: keep.id, optionValues: keep.selectedOptions.map((o: any) => ({ optionName: o.name, name: o.value })) }],
            files: [{ id: data.product.media.nodes[1].id }],
          },
        },
      );
      assert.deepEqual(edit.productSet.userErrors, []);
      const r = await adapter.upsertProduct(
        shop,
        { ...LOCAL_TEE, name: 'Organic Tee v2' },
        { productId: first.productId, variantIds: first.variantIds, mediaIds: first.mediaIds },
        PLACEMENT,
      );
      assert.equal(r.variantCount, 2);
      const after = await gql(`query V($id: ID!) { product(id: $id) { variants(first: 5) { nodes { id sku } } media(first: 5) { nodes { id } } } }`, {
        id: first.productId,
      });
      assert.deepEqual(after.product.variants.nodes.map((v: any) => v.sku).sort(), ['TEE-M-RED', 'TEE-S-RED']);
      assert.equal(after.product.media.nodes.length, 2, 'the deleted image is uploaded again, the other kept');
      first = { ...r, productId: first.productId };
    });

    it('a lost mapping recovers the product by customId: no duplicate, no image uploaded again', async () => {
      const again = await adapter.upsertProduct(shop, LOCAL_TEE, NONE, PLACEMENT);
      assert.equal(again.method, 'update');
      assert.equal(again.productId, first.productId);
      assert.deepEqual(again.variantIds, first.variantIds);
      const data = await gql(`query Check($id: ID!) { product(id: $id) { media(first: 10) { nodes { id } } } products(first: 10) { nodes { id } } }`, {
        id: first.productId,
      });
      assert.equal(data.products.nodes.length, 1);
      assert.equal(data.product.media.nodes.length, 2);
    });

    it("the first push after categories stopped being tags: an older push's category tags and their record go, the merchant's tags and metafields stay", async () => {
      // What an older push left (category names as tags, recorded in pimbridge.category_tags) and the merchant's own tag
      // and metafield, set in the shop.
      const before = await gql(`query Mf($id: ID!) { product(id: $id) { metafields(first: 50) { nodes { namespace key type value } } } }`, {
        id: first.productId,
      });
      const metafields = [
        ...before.product.metafields.nodes.filter((m: any) => m.key !== 'pim_tags'),
        { namespace: 'pimbridge', key: 'category_tags', type: 'json', value: '["Shirts","Organic"]' },
        { namespace: 'custom', key: 'care', type: 'single_line_text_field', value: 'Wash cold' },
      ];
      const edit = await gql(
        `mutation Edit($id: ID!, $metafields: [MetafieldInput!]) { productSet(identifier: {id: $id}, input: {tags: ["Shirts", "Organic", "merchant-pick"], metafields: $metafields}) { userErrors { message } } }`,
        { id: first.productId, metafields },
      );
      assert.deepEqual(edit.productSet.userErrors, []);
      // A mapping from before PIM tags (no owned.tags): the product is read, so the old category tags are known as ours.
      const r = await adapter.upsertProduct(
        shop,
        { ...LOCAL_TEE, tags: ['eco', 'summer', 'Organic'], categories: [{ id: 1, name: 'Shirts' }] },
        { productId: first.productId, variantIds: first.variantIds, mediaIds: first.mediaIds },
        PLACEMENT,
      );
      const data = await gql(`query Check($id: ID!) { product(id: $id) { tags metafields(first: 50) { nodes { namespace key value } } } }`, {
        id: first.productId,
      });
      // Shirts (a category name an older push sent) is gone; Organic stays because the PIM has it as a tag now.
      assert.deepEqual([...data.product.tags].sort(), ['Organic', 'eco', 'merchant-pick', 'summer']);
      const byKey = Object.fromEntries(data.product.metafields.nodes.map((m: any) => [`${m.namespace}.${m.key}`, m.value]));
      assert.equal(byKey['custom.care'], 'Wash cold', "the merchant's metafield survived");
      assert.equal(byKey['pimbridge.category_tags'], undefined, "the older push's record is removed with its tags");
      assert.deepEqual(JSON.parse(byKey['pimbridge.pim_tags']), ['eco', 'summer', 'Organic']);
      assert.equal(byKey['pimbridge.pim_product_id'], '42');
      assert.deepEqual(r.owned.tags, ['eco', 'summer', 'Organic']);
    });

    it('a tag removed in the PIM is removed from the shop; the merchant tag added meanwhile stays', async () => {
      const edit = await gql(
        `mutation Edit($id: ID!) { productSet(identifier: {id: $id}, input: {tags: ["Organic", "eco", "summer", "merchant-pick", "staff-pick"]}) { userErrors { message } } }`,
        {
          id: first.productId,
        },
      );
      assert.deepEqual(edit.productSet.userErrors, []);
      await adapter.upsertProduct(
        shop,
        { ...LOCAL_TEE, tags: ['eco'] },
        { productId: first.productId, variantIds: first.variantIds, mediaIds: first.mediaIds, owned: { tags: ['eco', 'summer', 'Organic'] } },
        PLACEMENT,
      );
      const data = await gql(`query Check($id: ID!) { product(id: $id) { tags } }`, { id: first.productId });
      assert.deepEqual([...data.product.tags].sort(), ['eco', 'merchant-pick', 'staff-pick']);
    });

    it('pushed again with the same PIM tags (known from the last push): merchant tags and metafields untouched, the title updated', async () => {
      const last = { productId: first.productId, variantIds: first.variantIds, mediaIds: first.mediaIds, owned: { tags: ['eco'] } };
      const r = await adapter.upsertProduct(shop, { ...LOCAL_TEE, name: 'Organic Tee v3', tags: ['eco'] }, last, PLACEMENT);
      assert.equal(r.method, 'update');
      assert.deepEqual(r.owned.tags, ['eco']);
      const data = await gql(`query Check($id: ID!) { product(id: $id) { title tags metafields(first: 50) { nodes { namespace key value } } } }`, {
        id: first.productId,
      });
      assert.equal(data.product.title, 'Organic Tee v3');
      assert.deepEqual([...data.product.tags].sort(), ['eco', 'merchant-pick', 'staff-pick']);
      const byKey = Object.fromEntries(data.product.metafields.nodes.map((m: any) => [`${m.namespace}.${m.key}`, m.value]));
      assert.equal(byKey['custom.care'], 'Wash cold');
      assert.equal(byKey['pimbridge.pim_product_id'], '42');
    });

    it('under a tiny bucket, concurrent pushes wait instead of failing (no THROTTLED surfaces)', async () => {
      // Tiny, yet above the largest single call: the recovery lookup (product, metafields, custom collections, variants,
      // media) requests 65 points, and a call the bucket can never hold fails at once.
      await h.app.services.sandbox!.stores.configure(shop.domain, { bucket_size: 80, restore_rate: 400 });
      const throttled = new ShopifyAdapter();
      const products = Array.from({ length: 8 }, (_, i) => ({ ...SIMPLE, id: 100 + i, sku: `THR-${i}`, slug: `thr-${i}`, name: `Throttled ${i}`, images: [] }));
      const results = await Promise.all(products.map((p) => throttled.upsertProduct(shop, p, NONE, PLACEMENT)));
      assert.equal(new Set(results.map((r) => r.productId)).size, 8);
      assert.ok(throttled.throttle.stats.waits > 0, 'the throttle waited');
      await h.app.services.sandbox!.stores.configure(shop.domain, { bucket_size: null, restore_rate: null });
    });

    it('with failures after commit, pushing again never duplicates a product or re-uploads an image', async () => {
      await h.app.services.sandbox!.stores.configure(shop.domain, { fail_after_commit_rate: 0.5, error_rate: 0.1, fault_seed: 7 });
      const faulty = new ShopifyAdapter({ retry: { baseDelayMs: 5, maxDelayMs: 20 } });
      const products = Array.from({ length: 6 }, (_, i) => ({
        ...LOCAL_TEE,
        id: 200 + i,
        sku: `F-${i}`,
        slug: `f-${i}`,
        name: `Faulty ${i}`,
        images: [`${images.url}/media/f${i}-1.jpg`, `${images.url}/media/f${i}-2.jpg`],
        variants: LOCAL_TEE.variants.map((v) => ({ ...v, sku: `F-${i}-${v.sku}` })),
      }));
      for (const p of products) {
        await faulty
          .upsertProduct(shop, p, NONE, PLACEMENT)
          .catch((e: unknown) => assert.ok(e instanceof StorefrontError && e.kind === 'unavailable', String(e)));
      }
      assert.ok(faulty.throttle.stats.waits > 0, 'faults happened and were retried');
      await h.app.services.sandbox!.stores.configure(shop.domain, { fail_after_commit_rate: 0, error_rate: 0 });
      const healthy = new ShopifyAdapter();
      for (const p of products) await healthy.upsertProduct(shop, p, NONE, PLACEMENT);
      const data = await gql(`query All { products(first: 100) { nodes { title media(first: 10) { nodes { id } } variants(first: 5) { nodes { id } } } } }`);
      const faultyNodes = data.products.nodes.filter((n: any) => n.title.startsWith('Faulty'));
      assert.equal(faultyNodes.length, 6);
      for (const n of faultyNodes) {
        assert.equal(n.media.nodes.length, 2, `${n.title}: images uploaded once`);
        assert.equal(n.variants.nodes.length, 2);
      }
    });

    it('a product without variants and a draft: Default Title variant, DRAFT, price and compare-at price', async () => {
      const r = await adapter.upsertProduct(shop, SIMPLE, NONE, PLACEMENT);
      assert.equal(r.method, 'create');
      const data = await gql(`query Check($id: ID!) { product(id: $id) { status variants(first: 5) { nodes { sku price compareAtPrice barcode title } } } }`, {
        id: r.productId,
      });
      assert.equal(data.product.status, 'DRAFT');
      assert.deepEqual(data.product.variants.nodes, [{ sku: 'MUG', price: '9.99', compareAtPrice: '12.50', barcode: '4006381333931', title: 'Default Title' }]);
    });
  });
}
