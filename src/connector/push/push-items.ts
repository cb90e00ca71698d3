// A push's body, checked item by item: a PIM id to read, a full snapshot, or the reason an item cannot be pushed.
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import { ConnectorError } from '../connector.errors.js';

/** At most this many products per request (spec). */
export const MAX_PUSH_BATCH = 50;

/** The largest PIM product id (int4). */
const MAX_PIM_ID = 2_147_483_647;

/** One item of the request, checked: either a PIM id to read, a full snapshot, or the reason it cannot be pushed. */
export type Item =
  | { kind: 'read'; id: number }
  | { kind: 'snapshot'; id: number; snapshot: PimProductSnapshot }
  | { kind: 'invalid'; id: number | null; errors: string[] };

/**
 * The body → items, in request order. No product data at all is NO_PRODUCTS, more than 50 BATCH_SIZE_EXCEEDED; an
 * item that is not a pushable product (no integer id, a malformed snapshot) is that item's error, the others still go.
 */
export function parseBody(body: unknown): (Item & { position: number })[] {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ConnectorError('NO_PRODUCTS', 'No product data provided: send a product object with an integer id, or {products: [...]}');
  }
  const obj = body as Record<string, unknown>;
  let list: unknown[];
  if ('products' in obj) {
    if (!Array.isArray(obj.products) || obj.products.length === 0) {
      throw new ConnectorError('NO_PRODUCTS', 'No product data provided: products must be a non-empty array of product objects');
    }
    list = obj.products;
  } else if (Object.keys(obj).length === 0) {
    throw new ConnectorError('NO_PRODUCTS', 'No product data provided: send a product object with an integer id, or {products: [...]}');
  } else list = [obj];
  if (list.length > MAX_PUSH_BATCH) {
    throw new ConnectorError('BATCH_SIZE_EXCEEDED', `At most ${MAX_PUSH_BATCH} products per push, got ${list.length}`);
  }
  return list.map((raw, position) => ({ ...parseItem(raw, position), position }));
}

function parseItem(raw: unknown, position: number): Item {
  const where = `product ${position + 1}`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { kind: 'invalid', id: null, errors: [`${where} must be an object with an integer id`] };
  const p = raw as Record<string, unknown>;
  if (!Number.isInteger(p.id) || (p.id as number) < 1 || (p.id as number) > MAX_PIM_ID) {
    const id = Number.isSafeInteger(p.id) ? (p.id as number) : null;
    return { kind: 'invalid', id, errors: [`${where}: id is required and must be a positive integer (the PIM product id)`] };
  }
  const id = p.id as number;
  if (Object.keys(p).length === 1) return { kind: 'read', id };
  const errors: string[] = [];
  if (typeof p.name !== 'string') errors.push(`${where}: name must be a string (a product with more fields than id is taken as the full PIM product)`);
  if (p.sku !== undefined && typeof p.sku !== 'string') errors.push(`${where}: sku must be a string`);
  if (p.variants !== undefined && !Array.isArray(p.variants)) errors.push(`${where}: variants must be an array`);
  else if (Array.isArray(p.variants)) {
    p.variants.forEach((v, i) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || typeof (v as { sku?: unknown }).sku !== 'string') {
        errors.push(`${where}: variants[${i}] must be a variant object with a string sku`);
      }
    });
  }
  for (const list of ['images', 'categories', 'warehouse_stock'] as const) {
    if (p[list] !== undefined && p[list] !== null && !Array.isArray(p[list])) errors.push(`${where}: ${list} must be an array`);
  }
  if (errors.length > 0) return { kind: 'invalid', id, errors };
  const snapshot = { ...p, id, sku: typeof p.sku === 'string' ? p.sku : '', variants: (p.variants as unknown[] | undefined) ?? [] } as PimProductSnapshot;
  if (p.warehouse_stock === null) delete snapshot.warehouse_stock;
  return { kind: 'snapshot', id, snapshot };
}
