import { StorefrontError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';
import { readJsonl, ResultLineTooLong } from './bulk-transfer.js';
import { bulkOperationEnded, startBulkQuery } from './bulk-operation.js';
import { OurProducts, type OurProductLine, type ProductLookupData } from './operations.js';
import type { ShopifyClient } from './shopify-client.js';

type Found = NonNullable<ProductLookupData['productByIdentifier']>;

/** Products to find from which one bulk query is cheaper than a lookup each (each lookup is a call of 20–65 points). */
export const BULK_FIND_MIN = 25;

/**
 * Our products for these PIM ids, by PIM id, as ProductRecoveryLookup answers them (absent: the shop has none). Null:
 * no bulk query could run now (the shop runs as many bulk operations as it allows, or the query failed): look each up.
 */
export async function findOursInBulk(client: ShopifyClient, shop: StorefrontShop, pimIds: ReadonlySet<number>): Promise<Map<number, Found> | null> {
  let operationId: string;
  try {
    operationId = await startBulkQuery(client, shop, OurProducts);
  } catch (err) {
    if (err instanceof StorefrontError && err.kind === 'unavailable') return null;
    throw err;
  }
  const op = await bulkOperationEnded(client, shop, operationId);
  if (op.status !== 'COMPLETED') return null;
  const found = new OursAssembler(pimIds);
  // A query that found nothing has no file (url null).
  if (!op.url) return found.result();
  try {
    await readJsonl(op.url, (value) => found.add(value as OurProductLine), { apiBaseUrl: shop.apiBaseUrl, timeoutMs: client.transferTimeoutMs });
  } catch (err) {
    if (err instanceof ResultLineTooLong) return null;
    throw err;
  }
  return found.result();
}

/** Keeps the wanted products of the result file, whatever the order of its lines. */
export class OursAssembler {
  private readonly byShopId = new Map<string, { pimId: number; found: Found }>();
  private readonly taken = new Set<number>();
  /** Shop ids of products read that are not wanted: their children are dropped. */
  private readonly skipped = new Set<string>();
  /** Children whose product has not been read yet, by product id. */
  private readonly waiting = new Map<string, OurProductLine[]>();

  constructor(private readonly pimIds: ReadonlySet<number>) {}

  add(line: OurProductLine): void {
    if (!line || typeof line !== 'object' || typeof line.id !== 'string')
      throw new StorefrontError('invalid_response', 'the bulk query result has a line without an id');
    if (typeof line.__parentId === 'string') {
      const parent = this.byShopId.get(line.__parentId);
      if (parent) attach(parent.found, line);
      else if (!this.skipped.has(line.__parentId)) this.waiting.set(line.__parentId, [...(this.waiting.get(line.__parentId) ?? []), line]);
      return;
    }
    const p = line as Extract<OurProductLine, { handle: string }>;
    const value = p.pimProductId?.value;
    const pimId = value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    const children = this.waiting.get(p.id) ?? [];
    this.waiting.delete(p.id);
    // A second product with the same PIM id (made by hand with our metafield copied): the first read stays ours.
    if (!this.pimIds.has(pimId) || this.taken.has(pimId)) {
      this.skipped.add(p.id);
      return;
    }
    const found: Found = {
      id: p.id,
      handle: String(p.handle ?? ''),
      title: String(p.title ?? ''),
      tags: Array.isArray(p.tags) ? p.tags.filter((t): t is string => typeof t === 'string') : [],
      metafields: { nodes: [] },
      collections: { nodes: [] },
      variants: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
      media: { nodes: [] },
    };
    this.byShopId.set(p.id, { pimId, found });
    this.taken.add(pimId);
    for (const child of children) attach(found, child);
  }

  result(): Map<number, Found> {
    return new Map([...this.byShopId.values()].map((o) => [o.pimId, o.found]));
  }
}

/** A child line, by the kind of its id: a metafield, a collection, a variant, or else one of the product's media. */
function attach(found: Found, line: OurProductLine): void {
  if (line.id.startsWith('gid://shopify/Metafield/')) {
    const m = line as Extract<OurProductLine, { namespace: string }>;
    found.metafields.nodes.push({ namespace: m.namespace, key: m.key, type: m.type, value: m.value });
  } else if (line.id.startsWith('gid://shopify/Collection/')) {
    found.collections?.nodes.push({ id: line.id });
  } else if (line.id.startsWith('gid://shopify/ProductVariant/')) {
    const v = line as Extract<OurProductLine, { sku: string | null }>;
    found.variants?.nodes.push({ id: v.id, sku: typeof v.sku === 'string' ? v.sku : null, inventoryItem: null });
  } else {
    const m = line as Extract<OurProductLine, { status?: string }>;
    found.media?.nodes.push({ id: m.id, ...(m.status !== undefined ? { status: m.status } : {}), ...(m.image !== undefined ? { image: m.image } : {}) });
  }
}
