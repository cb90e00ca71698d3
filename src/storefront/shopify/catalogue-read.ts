import type { CatalogueReadState, StorefrontCatalogueProduct } from '../port/catalogue.js';
import { StorefrontError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';
import { ACTIVE_BULK_STATUSES, startBulkQuery } from './bulk-operation.js';
import { readJsonl, ResultLineTooLong } from './bulk-transfer.js';
import { BulkOperationState, CatalogueProducts, type BulkOperationStateData, type CatalogueLine } from './operations.js';
import type { ShopifyClient } from './shopify-client.js';

const numericId = (gid: string) => Number(/\/(\d+)(?:\?.*)?$/.exec(gid)?.[1] ?? NaN);

export class ShopifyCatalogueReads {
  constructor(private readonly client: ShopifyClient) {}

  /** One bulk query of every product (CatalogueProducts, under a name of its own). */
  start(shop: StorefrontShop): Promise<{ operationId: string }> {
    return startBulkQuery(this.client, shop, CatalogueProducts).then((operationId) => ({ operationId }));
  }

  async state(shop: StorefrontShop, operationId: string): Promise<CatalogueReadState> {
    const op = (await this.client.call<BulkOperationStateData>(shop, BulkOperationState, { id: operationId }, 2)).bulkOperation;
    if (!op) return { state: 'failed', message: `${shop.domain} knows no bulk operation ${operationId}` };
    if (ACTIVE_BULK_STATUSES.has(op.status)) return { state: 'running', objectCount: Number(op.objectCount) || 0 };
    if (op.status !== 'COMPLETED')
      return { state: 'failed', message: `bulk operation ${op.id} ${op.status.toLowerCase()}${op.errorCode ? ` (${op.errorCode})` : ''}` };
    // A query that found nothing has no file (url null).
    if (!op.url) return { state: 'completed', products: [] };
    const reader = new CatalogueAssembler();
    try {
      await readJsonl(op.url, (value) => reader.add(value as CatalogueLine), { apiBaseUrl: shop.apiBaseUrl, timeoutMs: this.client.transferTimeoutMs });
    } catch (err) {
      if (err instanceof ResultLineTooLong) return { state: 'failed', message: `bulk operation ${op.id}: ${err.message}` };
      throw err;
    }
    return { state: 'completed', products: reader.products() };
  }
}

/** Builds the products from the result file's lines, whatever their order. */
export class CatalogueAssembler {
  private readonly byId = new Map<string, StorefrontCatalogueProduct>();
  /** Children whose product has not been read yet, by product id. */
  private readonly waiting = new Map<string, CatalogueLine[]>();

  add(line: CatalogueLine): void {
    if (!line || typeof line !== 'object' || typeof line.id !== 'string')
      throw new StorefrontError('invalid_response', 'the bulk query result has a line without an id');
    if (typeof line.__parentId === 'string') {
      const parent = this.byId.get(line.__parentId);
      if (parent) attach(parent, line);
      else this.waiting.set(line.__parentId, [...(this.waiting.get(line.__parentId) ?? []), line]);
      return;
    }
    const p = line as Extract<CatalogueLine, { handle: string }>;
    const pim = p.pimProductId?.value;
    const product: StorefrontCatalogueProduct = {
      id: p.id,
      numericId: numericId(p.id),
      handle: String(p.handle ?? ''),
      title: String(p.title ?? ''),
      descriptionHtml: p.descriptionHtml ?? '',
      vendor: p.vendor ?? '',
      productType: p.productType ?? '',
      status: String(p.status ?? 'ACTIVE'),
      tags: Array.isArray(p.tags) ? p.tags.filter((t): t is string => typeof t === 'string') : [],
      pimProductId: pim !== undefined && /^\d{1,10}$/.test(pim) && Number(pim) > 0 && Number(pim) <= 2_147_483_647 ? Number(pim) : null,
      variants: [],
      images: [],
      ...(p.seo !== undefined ? { seo: { title: p.seo?.title ?? null, description: p.seo?.description ?? null } } : {}),
      ...(p.isGiftCard !== undefined && p.isGiftCard !== null ? { giftCard: p.isGiftCard === true } : {}),
      ...(p.category !== undefined ? { category: p.category ? { id: String(p.category.id), fullName: String(p.category.fullName ?? '') } : null } : {}),
    };
    this.byId.set(p.id, product);
    for (const child of this.waiting.get(p.id) ?? []) attach(product, child);
    this.waiting.delete(p.id);
  }

  /** The products in the order of their lines (children of a product never read are dropped). */
  products(): StorefrontCatalogueProduct[] {
    return [...this.byId.values()];
  }
}

function attach(product: StorefrontCatalogueProduct, line: CatalogueLine): void {
  if (line.id.startsWith('gid://shopify/ProductVariant/')) {
    const v = line as Extract<CatalogueLine, { sku: string | null }>;
    product.variants.push({
      id: v.id,
      sku: typeof v.sku === 'string' && v.sku.trim() !== '' ? v.sku : null,
      barcode: typeof v.barcode === 'string' && v.barcode.trim() !== '' ? v.barcode : null,
      price: v.price ?? null,
      compareAtPrice: v.compareAtPrice ?? null,
      inventoryQuantity: typeof v.inventoryQuantity === 'number' ? v.inventoryQuantity : null,
      options: Array.isArray(v.selectedOptions) ? v.selectedOptions.map((o) => ({ name: String(o.name), value: String(o.value) })) : [],
      inventoryItemId: v.inventoryItem?.id ?? null,
      ...(v.inventoryPolicy !== undefined ? { inventoryPolicy: v.inventoryPolicy } : {}),
      ...(v.taxable !== undefined ? { taxable: v.taxable } : {}),
      ...(v.inventoryItem && v.inventoryItem.tracked !== undefined ? { tracked: v.inventoryItem.tracked } : {}),
      ...(v.inventoryItem && v.inventoryItem.requiresShipping !== undefined ? { requiresShipping: v.inventoryItem.requiresShipping } : {}),
      ...(v.inventoryItem?.measurement !== undefined ? { weight: v.inventoryItem.measurement?.weight ?? null } : {}),
    });
    return;
  }
  // Anything else under a product is one of its media (MediaImage, Video, …): its URL when it is a processed image.
  const m = line as Extract<CatalogueLine, { image?: unknown }>;
  product.images.push({
    mediaId: m.id,
    url: typeof m.image?.url === 'string' ? m.image.url : null,
    ...(m.alt !== undefined ? { alt: typeof m.alt === 'string' ? m.alt : null } : {}),
  });
}
