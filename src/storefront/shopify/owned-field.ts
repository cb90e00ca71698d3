// What a row of FIELD_OWNERSHIP (field-ownership.ts) says of one field the bridge writes.

/** Who decides a field's value in the shop. */
export type Owner = 'PIM' | 'PIM + merchant' | 'setting';

/** How a dry run or a drift report compares a field (the shop's value against the PIM's, or against what was written). */
export type Comparison =
  /** The same text or value exactly. */
  | 'equal'
  /** The same amount (19.9 = 19.90). */
  | 'money'
  /** The same value and unit. */
  | 'weight'
  /** The same set of tags, without order or case (the merged list a push sends). */
  | 'set'
  /** Every tag the bridge sent is there; the merchant's other tags are not a change. */
  | 'ours present'
  /** The bridge's images, by our file name or known media id, in order; the merchant's media are theirs. */
  | 'our images'
  /** Collections by title (the merchant's custom collections included). */
  | 'by title'
  /** On create only: the product that would be made. */
  | 'on create'
  /** The key variants are matched by (their id when known, else the SKU): a shop variant of neither is one removed. */
  | 'variants by SKU'
  | 'not compared';

export interface OwnedField {
  /** Product fields by their name (`title`, `seo.title`); variant fields too, reported as `variants[SKU].{key}`. */
  key: string;
  level: 'product' | 'variant';
  /** The PIM's source (Product / Variant fields of the PIM API). */
  pim: string;
  /** The input that writes it: a productSet input path, or another mutation. */
  input: string;
  /** The selection that reads it back, from `Product` (`variants.` is the product's variants, `media.` its media). */
  read: string;
  owner: Owner;
  /** What a push does when the PIM has no value. */
  unset: string;
  dryRun: Comparison;
  drift: Comparison;
  /** The end-to-end test that pushes it through the sandbox and reads it back. */
  test: string;
  /** On create, when the PIM has no value: what the bridge sends (the rest are Shopify's own defaults). */
  createDefault?: unknown;
}

/** The end-to-end suites most rows name as their test. */
export const UPSERT = 'shopify-upsert';
export const FIELDS_E2E = 'shopify-fields-e2e';
