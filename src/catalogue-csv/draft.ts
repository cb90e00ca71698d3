// The catalogue as a file describes it: one ProductDraft per product, format-neutral. CSV formats (ours, Shopify's)
// read rows into drafts and write drafts into rows; the PIM's importer writes drafts to the database and its exporter
// reads the database into drafts. Pure data: no database, no HTTP, so the connector can build one too.
//
// Values are the file's text, trimmed, checked only for their syntax (a decimal is a decimal); what needs the
// organization's data (does the warehouse exist, does the attribute value fit its definition) is the importer's.
// A field absent from the object was absent from the file (its column missing): the import leaves it as it is.

/**
 * What a Shopify variant holds beyond the spec's fields, on a product without variants (its one Shopify variant) and
 * on each variant (src/pim/products/selling-fields.ts). Null is "not set in the PIM".
 */
export interface SellingFields {
  /** Free text (UPC, ISBN, an internal code); the GTIN check is on the product's `ean` only. */
  barcode: string | null;
  /** A compare-at price as given, when it is not the regular price of a sale (price above sale_price). */
  compare_at_price: string | null;
  /** The unit of `weight`: g, kg, lb, oz; null is kilograms. */
  weight_unit: string | null;
  /** deny or continue (selling when out of stock). */
  inventory_policy: string | null;
  inventory_tracked: boolean | null;
  taxable: boolean | null;
  requires_shipping: boolean | null;
}

export interface ProductFields extends SellingFields {
  name: string;
  slug: string;
  description: string | null;
  short_description: string | null;
  product_type: string;
  /** Decimals as written in the file, e.g. "19.9" (normalised to 4 places by `normaliseDecimal` before comparing). */
  price: string | null;
  sale_price: string | null;
  cost_price: string | null;
  currency: string;
  status: string;
  ean: string | null;
  brand: string | null;
  supplier: string | null;
  publishing_channels: string[];
  product_condition: string;
  /** Category paths, each the names from the root down, e.g. [["Apparel", "Tops"], ["Sale"]]. */
  categories: string[][];
  /** Storefront tags, in the file's order. */
  tags: string[];
  seo_title: string | null;
  seo_description: string | null;
  gift_card: boolean;
  /** A Shopify Standard Product Taxonomy category, as given (id or full name). */
  taxonomy_category: string | null;
  /** The merchant's product type in the storefront (Shopify's `Type`); `product_type` is the PIM's structural type. */
  storefront_type: string | null;
  /** The weight of a product without variants, in `weight_unit`. */
  weight: string | null;
  /** The product's own stock (`products.stock`), for a product without warehouse levels (with levels: their sum). */
  stock_quantity: number;
}

export interface VariantFields extends SellingFields {
  name: string;
  price: string | null;
  sale_price: string | null;
  cost: string | null;
  /** In `weight_unit` (kilograms when null). */
  weight: string | null;
  stock_quantity: number;
  stock_status: string;
  is_enabled: boolean;
  image: string | null;
  /** Option values, e.g. [{attribute_name: "Size", value: "M"}], in the file's order. */
  attributes: { attribute_name: string; value: string }[];
}

export interface TranslationFields {
  name: string | null;
  description: string | null;
  short_description: string | null;
}

export interface VariantDraft {
  /** The file line (1-based, counting the header as line 1) of the row describing this variant. */
  line: number;
  sku: string;
  /**
   * The SKU was not given by the file but made up (Shopify: `{handle}-{n}` for an empty Variant SKU); on export, the
   * stored flag (such a SKU is not written to a Shopify file). Absent: given.
   */
  skuGenerated?: boolean;
  fields: Partial<VariantFields>;
}

export interface ProductDraft {
  /** The line of the product's first row; `lines` every line that belongs to it, in order. */
  line: number;
  lines: number[];
  /** The product's SKU: our format's grouping key; in a Shopify file its one variant's SKU, else made from the Handle. */
  sku: string;
  /**
   * Reading: the SKU was made up (Shopify: the file gave none); our format's `sku_generated` column. Export: the stored
   * flag (a Shopify file leaves such a SKU out). Absent: given, or (our format) the column is absent.
   */
  skuGenerated?: boolean;
  fields: Partial<ProductFields>;
  /** Attribute values by attribute code, as text (lists joined by `|`); the importer converts by the definition's type. */
  attributes?: Record<string, string | null>;
  /** Stock by warehouse code. */
  stock?: Record<string, number>;
  /** Image URLs in order (http/https). */
  images?: string[];
  /** The alt text of each image of `images` (same order; null: none); absent when the file has no alt text column. */
  imageAlts?: (string | null)[];
  /**
   * Shopify's `Published` (published on the online store): the `web` publishing channel, when the organization has
   * it. Absent when the file does not say.
   */
  published?: boolean;
  /**
   * Storefront metafield values by `namespace.key` (Shopify's metafield and Google Shopping columns), as text; the
   * importer keeps each in the product attribute mapped to that metafield. Null: the cell is empty.
   */
  metafields?: Record<string, string | null>;
  /** Translations by locale; only the fields whose columns exist. */
  translations?: Record<string, Partial<TranslationFields>>;
  variants: VariantDraft[];
}

/** A row the format could not read (bad syntax, a broken quote): reported with its line, never imported. */
export interface RowError {
  line: number;
  sku: string | null;
  reason: string;
}

export const FORMATS = ['ours', 'shopify'] as const;
export type CsvFormat = (typeof FORMATS)[number];

/** "19.9" → "19.9000": decimals compared and stored as the database keeps numeric(19,4). */
export function normaliseDecimal(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const [whole, fraction = ''] = value.split('.');
  return `${BigInt(whole!).toString()}.${fraction.padEnd(4, '0')}`;
}
