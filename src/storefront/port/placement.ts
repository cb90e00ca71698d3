// Where a push puts a product on the shop: its publications (sales channels), its locations (stock) and the settings
// an integration resolves against them.

/** A sales channel's publication (Shopify: Publication, titled by its catalog). */
export interface StorefrontPublication {
  id: string;
  name: string;
}

/** A place that stocks inventory (Shopify: Location). */
export interface StorefrontLocation {
  id: string;
  name: string;
  isActive: boolean;
}

/**
 * Where one integration's push puts a product on the shop, resolved from the integration's settings and the shop's
 * publications and locations (connector/integrations/integration-settings.ts).
 */
export interface SyncPlacement {
  /** Publication ids per PIM channel; a channel not listed is not published anywhere. */
  channelPublications: Record<string, string[]>;
  /** Location id per PIM warehouse code mapped explicitly; other warehouses go to the location of the same name. */
  warehouseLocations: Record<string, string>;
  /** Warehouse codes mapped to no location: their stock is not synced. */
  unsyncedWarehouses: string[];
  /** Where stock without a warehouse goes (a variant's or product's count without levels, a warehouse of no location); null: nowhere. */
  variantStockLocation: string | null;
  /** Prices are converted by something else (e.g. Shopify Markets): no currency check before sending. */
  pricesConvertedElsewhere: boolean;
  /** false: a product deleted in the shop (mapping `metadata.deleted_in_shop`) is not created again; unset/true: it is. */
  recreateDeletedProducts?: boolean;
  /** Where the product type comes from: a PIM attribute's value, or (null, the default) the first category's name. */
  productType?: { attributeCode: string | null };
  /** The PIM attributes written as product metafields (none when unset). */
  attributeMetafields?: AttributeMetafieldSpec[];
  /**
   * The shop collection of each PIM category (by category id) that the bridge made (connector/collections): a product
   * joins those of its categories and leaves those of the categories it left. Unset: membership is left alone.
   */
  categoryCollections?: Record<string, string>;
}

/** One PIM attribute synced as a product metafield: its PIM definition, and the namespace and key it goes to. */
export interface AttributeMetafieldSpec {
  code: string;
  name: string;
  /** The PIM's attribute type: text, textarea, number, boolean, date, select, multiselect. */
  pimType: string;
  options: string[];
  namespace: string;
  key: string;
  /**
   * The attribute's own metafield (the PIM attribute's `metafield`, e.g. `custom.material`): its namespace is shared
   * with the merchant, so only this key is the bridge's. Absent: the integration's namespace, all of it the bridge's.
   */
  home?: boolean;
}
