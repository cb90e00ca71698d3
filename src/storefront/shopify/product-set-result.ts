// productSet's answer → ProductUpsertResult, shared by the per-call upsert and the bulk result lines.
import type { ProductUpsertResult } from '../storefront.port.js';

/** The numeric part of a GID (`gid://shopify/Product/1001` → 1001; 0 when there is none). */
export function numericId(gid: string): number {
  const m = /(\d+)(?:\?.*)?$/.exec(gid);
  return m ? Number(m[1]) : 0;
}

interface ProductSetProduct {
  id: string;
  handle: string;
  title: string;
  variants?: { nodes?: { id: string; sku: string | null }[] };
}

/** Variant ids by SKU from the answer; media ids as the caller matched them (the two paths match them differently). */
export function upsertResultOf(
  p: ProductSetProduct,
  o: { method: 'create' | 'update'; mediaIds: Record<string, string>; variantCount: number; imageCount: number; categoryTags: string[] },
): ProductUpsertResult {
  const variantIds: Record<string, string> = {};
  for (const v of p.variants?.nodes ?? []) if (v.sku) variantIds[v.sku] = v.id;
  const firstVariant = p.variants?.nodes?.[0]?.id;
  return {
    method: o.method,
    productId: p.id,
    productNumericId: numericId(p.id),
    handle: p.handle,
    title: p.title,
    firstVariantNumericId: firstVariant ? numericId(firstVariant) : null,
    variantIds,
    mediaIds: o.mediaIds,
    variantCount: o.variantCount,
    imageCount: o.imageCount,
    categoryTags: o.categoryTags,
  };
}
