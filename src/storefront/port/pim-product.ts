// What a push sends: the PIM's product as the PIM core API answers it (the spec's fields and the optional ones beyond).

/**
 * What a Shopify variant holds beyond the spec's fields (the PIM's `selling-fields.ts`), on a PIM variant and on a product
 * without variants (its one Shopify variant). Null or absent: not set in the PIM, so the push leaves the shop's value (or
 * Shopify's default on create). A PIM that does not have them sends none.
 */
export interface PimSellingFields {
  /** Free text (UPC, ISBN, an internal code). */
  barcode?: string | null;
  /** The compare-at price as given (a sale, `sale_price` below `price`, sets it from the regular price instead). */
  compare_at_price?: string | null;
  /** The unit of `weight`: g, kg, lb or oz; null is kilograms. */
  weight_unit?: string | null;
  /** deny | continue. */
  inventory_policy?: string | null;
  inventory_tracked?: boolean | null;
  taxable?: boolean | null;
  requires_shipping?: boolean | null;
  /** The PIM made the SKU up (a catalogue file gave none): the bridge's key for the variant, never written to the shop. */
  sku_generated?: boolean;
}

/** A PIM variant as the PIM core API returns it (spec: Variant), with the selling fields beyond it. */
export interface PimVariant extends PimSellingFields {
  id: number;
  sku: string;
  name: string;
  price: string | null;
  sale_price: string | null;
  cost: string | null;
  weight: string | null;
  stock_quantity: number;
  stock_status: string;
  is_enabled: boolean;
  position: number;
  image: string | null;
  attributes: { attribute_name: string; value: string }[];
  /**
   * The variant's levels per warehouse (stock_quantity is their sum), pushed to the locations their warehouses map to as
   * a product's are; absent or empty: its stock_quantity goes to the variant stock location.
   */
  warehouse_stock?: { warehouse_id: number; code: string; name: string; quantity: number }[];
}

/**
 * What a push sends to a storefront: the PIM's Product (spec: Product, as GET /api/products/{id} answers it) with its
 * variants and, when the PIM has them, its per-warehouse stock levels; the selling fields (PimSellingFields) are those of
 * a product without variants. Every field beyond the spec is optional: a PIM that lacks one leaves the shop's value.
 */
export interface PimProductSnapshot extends PimSellingFields {
  id: number;
  sku: string;
  slug?: string;
  name: string;
  description?: string | null;
  short_description?: string | null;
  product_type?: string | null;
  price?: string | null;
  sale_price?: string | null;
  cost_price?: string | null;
  currency?: string;
  status?: string;
  stock?: number;
  in_stock?: boolean;
  ean?: string | null;
  brand?: { id: number; name: string } | null;
  supplier?: { id: number; name: string } | null;
  categories?: { id: number; name: string }[];
  images?: string[];
  /** Each image's alt text, in the order of `images` (null: none). Absent (a PIM without it): the product's name. */
  image_alts?: (string | null)[];
  publishing_channels?: string[];
  product_condition?: string;
  attributes?: Record<string, unknown>;
  /** The product's storefront tags (merged with the merchant's own tags in the shop). */
  tags?: string[];
  seo_title?: string | null;
  seo_description?: string | null;
  gift_card?: boolean;
  /** A Shopify Standard Product Taxonomy category: its id (`aa-1-13-8`) or its full name (`Apparel & Accessories > …`). */
  taxonomy_category?: string | null;
  /** The weight of a product without variants, in `weight_unit`. */
  weight?: string | null;
  /** The storefront's product type (Shopify's `Type`), free text: written as `productType` (else the integration's setting). */
  storefront_type?: string | null;
  variants: PimVariant[];
  warehouse_stock?: { warehouse_id: number; code: string; name: string; quantity: number }[];
  /** The PIM's version of the product (ISO 8601); the mapping remembers the one synced (delta sync skips it). */
  updated_at?: string;
  /**
   * The product's translations by PIM locale (`include=translations`), with the fields each has. Absent: the PIM did not
   * say (its translations in the shop are left as they are); `{}`: it has none.
   */
  translations?: Record<string, PimTranslation>;
}

/** One translation of a PIM product (GET /api/products/{id}?include=translations). */
export interface PimTranslation {
  name?: string;
  description?: string;
  short_description?: string;
  seo_title?: string;
  seo_description?: string;
}
