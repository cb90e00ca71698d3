// First start of an empty database: a demo organization with an API key, a small category tree and ten sample
// products with variants, created through the same services the API uses, and a sandbox shop (when the sandbox is on);
// once the server listens, their pictures (demo-images.ts).
// Once the server listens, connectDemo links that shop to the organization and pushes the products to it: over HTTP
// through this server's own PIM API and sandbox, exactly as a real PIM and a real shop would be reached.
import { withGtinCheckDigit } from '../lib/gtin.js';
import { demoImage } from './demo-images.js';
import type { Services } from './services.js';

/** Who the demo catalogue's products were made by, in their history. */
const DEMO_ACTOR = { kind: 'import', keyId: null, label: 'Demo catalogue' } as const;

export interface DemoSeed {
  organizationId: number;
  apiKey: string;
  apiSecret: string;
  firstProductId: number;
  productIds: number[];
  /** The demo sandbox shop (null when the sandbox is off). */
  shopDomain: string | null;
}

export const DEMO_SHOP_DOMAIN = 'demo-store.myshopify.com';

const CATALOGUE = [
  { name: 'Merino Crew Sweater', type: 'Knitwear', price: '89.0000', sizes: ['S', 'M', 'L'], colors: ['Navy', 'Oat'] },
  { name: 'Organic Cotton T-Shirt', type: 'Tops', price: '24.9000', sizes: ['S', 'M', 'L', 'XL'], colors: ['White', 'Black'] },
  { name: 'Waxed Canvas Jacket', type: 'Outerwear', price: '219.0000', sizes: ['M', 'L'], colors: ['Olive'] },
  { name: 'Selvedge Denim Jeans', type: 'Bottoms', price: '129.0000', sizes: ['30', '32', '34'], colors: ['Indigo'] },
  { name: 'Leather Chelsea Boots', type: 'Footwear', price: '179.0000', sizes: ['41', '42', '43', '44'], colors: ['Brown'] },
  { name: 'Wool Beanie', type: 'Accessories', price: '29.0000', sizes: ['One size'], colors: ['Grey', 'Mustard', 'Navy'] },
  { name: 'Linen Button-Down Shirt', type: 'Tops', price: '69.0000', sizes: ['S', 'M', 'L'], colors: ['Sky', 'Sand'] },
  { name: 'Recycled Down Vest', type: 'Outerwear', price: '149.0000', sizes: ['S', 'M', 'L'], colors: ['Black'] },
  { name: 'Canvas Tote Bag', type: 'Accessories', price: '35.0000', sizes: ['One size'], colors: ['Natural'] },
  { name: 'Trail Running Socks', type: 'Accessories', price: '14.5000', sizes: ['S/M', 'L/XL'], colors: ['Charcoal', 'Orange'] },
];

/**
 * The demo organization of an earlier first start (the organization its sandbox shop belongs to, while both are there),
 * so a later start can say how to sign in to it again: its key was shown once, and only its hash is kept.
 */
export async function demoOrganization(services: Services): Promise<{ id: number; name: string } | null> {
  const shop = (await services.shops.list()).find((s) => s.domain === DEMO_SHOP_DOMAIN);
  const org = shop?.organization_id ? await services.organizations.find(shop.organization_id) : null;
  return org ? { id: org.id, name: org.name } : null;
}

export async function seedDemo(services: Services): Promise<DemoSeed> {
  const org = await services.admin.createOrganization('Demo Store');
  const key = await services.admin.createApiKey(org.id, 'demo');
  const { pim } = services;
  const brands = [await pim.brands.create(org.id, 'Northwind Outfitters'), await pim.brands.create(org.id, 'Acme Apparel')];
  const supplier = await pim.suppliers.create(org.id, 'Contoso Textiles');
  const vat = await pim.vatRates.create(org.id, { name: 'Standard', rate: '19.0000', country_code: 'DE' });
  // Clothing > Tops, Bottoms, Knitwear, Outerwear; Footwear; Accessories — products go under their type's category.
  const clothing = await pim.categories.create(org.id, { name: 'Clothing' });
  const categoryOf = new Map<string, number>();
  for (const type of ['Tops', 'Bottoms', 'Knitwear', 'Outerwear']) {
    categoryOf.set(type, (await pim.categories.create(org.id, { name: type, parent_id: clothing.id })).id);
  }
  for (const type of ['Footwear', 'Accessories']) categoryOf.set(type, (await pim.categories.create(org.id, { name: type })).id);

  const productIds: number[] = [];
  for (const [i, item] of CATALOGUE.entries()) {
    const sku = `DEMO-${String(i + 1).padStart(3, '0')}`;
    const variantCount = item.sizes.length * item.colors.length;
    const product = await pim.products.create(
      org.id,
      {
        name: item.name,
        sku,
        description: `<p>${item.name} from the Pimbridge demo catalogue.</p>`,
        short_description: item.name,
        // The store's type (Shopify's "Type"); the PIM's own kind of product stays the default, simple.
        storefront_type: item.type,
        price: item.price,
        ...(i % 3 === 0 && { sale_price: (Number(item.price) * 0.8).toFixed(4) }),
        cost_price: (Number(item.price) * 0.4).toFixed(4),
        currency: 'EUR',
        status: i < 8 ? 'active' : 'draft',
        stock: variantCount * 5,
        ean: withGtinCheckDigit(`400638133${String(i).padStart(3, '0')}`),
        brand_id: brands[i % 2].id,
        supplier_id: supplier.id,
        vat_rate_id: vat.id,
        publishing_channels: i % 2 === 0 ? ['web', 'mobile'] : ['web'],
        category_ids: [categoryOf.get(item.type)!],
      },
      DEMO_ACTOR,
    );
    productIds.push(product.id);
    let position = 0;
    for (const color of item.colors) {
      for (const size of item.sizes) await pim.variants.create(org.id, product.id, demoVariant(item, sku, color, size, position++), DEMO_ACTOR);
    }
  }
  // A sandbox shop to connect the demo organization to (POST /api/connect), when the sandbox is on.
  const shop = services.shops.sandboxAvailable ? await services.shops.add({ domain: DEMO_SHOP_DOMAIN, platform: 'sandbox', organization_id: org.id }) : null;
  // The demo's images are this server's own media (PUBLIC_URL, a loopback address by default), which a real Shopify
  // could not fetch: the demo store is allowed to, so trying Pimbridge on one machine shows pictures in the shop.
  // Every other sandbox store fetches public addresses only (docs/sandbox/media.md).
  if (shop) await services.shops.configureSandbox(shop.id, { allow_private_media_sources: true });
  return {
    organizationId: org.id,
    apiKey: key.api_key,
    apiSecret: key.api_secret,
    firstProductId: productIds[0],
    productIds,
    shopDomain: shop?.domain ?? null,
  };
}

/** A demo product's variant of one colour and size, stocked with 5. */
function demoVariant(item: (typeof CATALOGUE)[number], sku: string, color: string, size: string, position: number) {
  return {
    sku: `${sku}-${color.slice(0, 3).toUpperCase()}-${size.replace(/\W+/g, '').toUpperCase()}`,
    name: `${item.name} / ${color} / ${size}`,
    price: item.price,
    stock_quantity: 5,
    position,
    attributes: [
      { attribute_name: 'Color', value: color },
      { attribute_name: 'Size', value: size },
    ],
  };
}

/**
 * The demo products' pictures: one per colour, the first the main image, drawn here and uploaded as the console's drag
 * and drop does. After listen (about a second of CPU that the first start's readiness need not wait for), before the
 * demo push, so the shop gets them too.
 */
export async function addDemoPictures(services: Services, seed: DemoSeed): Promise<void> {
  for (const [i, item] of CATALOGUE.entries()) {
    for (const color of item.colors) {
      const bytes = await demoImage(item.type, color);
      await services.pim.media.upload(seed.organizationId, seed.productIds[i], { bytes, alt_text: `${item.name} in ${color}` }, DEMO_ACTOR);
    }
  }
}

export interface DemoBridge {
  shopDomain: string;
  integrationId: number;
  /** The integration's admin token (shown once). */
  apiToken: string;
  pushed: number;
  failed: number;
}

/**
 * After listen: POST /api/connect's service connects the demo shop to the demo organization (PIM base URL = this
 * server's PUBLIC_URL, checked live like any PIM), then one push sends the sample products to the sandbox store.
 * Null when there is no demo shop (sandbox off).
 */
export async function connectDemo(services: Services, seed: DemoSeed, publicUrl: string): Promise<DemoBridge | null> {
  if (!seed.shopDomain) return null;
  const connected = await services.connector.integrations.connect({
    shop_domain: seed.shopDomain,
    pim_base_url: publicUrl,
    pim_api_key: seed.apiKey,
    pim_api_secret: seed.apiSecret,
  });
  const { data } = await services.connector.push.push(connected.integration_id, { products: seed.productIds.map((id) => ({ id })) });
  return {
    shopDomain: seed.shopDomain,
    integrationId: connected.integration_id,
    apiToken: connected.api_token,
    pushed: data.successful_count,
    failed: data.failed_count,
  };
}
