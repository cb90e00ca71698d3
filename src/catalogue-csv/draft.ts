// The catalogue as a file describes it: one ProductDraft per product, format-neutral. CSV formats (ours, Shopify's)
// read rows into drafts and write drafts into rows; the PIM's importer writes drafts to the database and its exporter
// reads the database into drafts. Pure data: no database, no HTTP, so the connector can build one too.
//
// Values are the file's text, trimmed, checked only for their syntax (a decimal is a decimal); what needs the
// organization's data (does the warehouse exist, does the attribute value fit its definition) is the importer's.
// A field absent from the object was absent from the file (its column missing): the import leaves it as it is.

export interface ProductFields {
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
}

export interface VariantFields {
  name: string;
  price: string | null;
  sale_price: string | null;
  cost: string | null;
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
  fields: Partial<VariantFields>;
}

export interface ProductDraft {
  /** The line of the product's first row; `lines` every line that belongs to it, in order. */
  line: number;
  lines: number[];
  sku: string;
  fields: Partial<ProductFields>;
  /** Attribute values by attribute code, as text (lists joined by `|`); the importer converts by the definition's type. */
  attributes?: Record<string, string | null>;
  /** Stock by warehouse code. */
  stock?: Record<string, number>;
  /** Image URLs in order (http/https). */
  images?: string[];
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
