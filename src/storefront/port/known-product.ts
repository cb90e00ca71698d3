// What the connector's mapping remembers of one product on the storefront: its ids, the fields the bridge owns and
// what the last push wrote of them, so a push updates instead of creating and never overwrites the merchant's own.

/** What our mapping remembers of the storefront side of one product, so a push updates instead of creating. */
export interface KnownStorefrontProduct {
  /** The storefront product (Shopify GID), or null when there is no mapping yet. */
  productId: string | null;
  /** Storefront variant ids by PIM variant SKU (or by the product SKU for a product without variants). */
  variantIds: Record<string, string>;
  /** Storefront media ids by PIM image URL: images already there are sent by id, never uploaded again. */
  mediaIds: Record<string, string>;
  /**
   * Images sent whose media ids the storefront did not answer (a bulk line may select one connection, the variants):
   * they are on the product, so an unchanged image list is not sent again; a changed one is matched first by our file
   * names (a read of the product), so they are kept by id.
   */
  imagesUnconfirmed?: string[];
  /**
   * True when no push of this product to this shop was ever attempted (we had no mapping row before this push): nothing
   * of ours can be on the storefront, so the adapter skips looking for a product an interrupted push may have made.
   */
  neverPushed?: boolean;
  /**
   * Storefront fields the last push wrote from PIM data, so a push clears only what it wrote before and never what the
   * merchant set in the shop: the SKUs whose compare-at price came from a PIM sale price, and the SEO fields.
   */
  owned?: {
    /** The SKUs whose compare-at price the last push wrote (from a PIM sale, or the PIM's compare_at_price). */
    compareAt?: string[];
    seoTitle?: boolean;
    seoDescription?: boolean;
    /**
     * The PIM tags the last push sent (the merchant's other tags are kept). While they are unchanged, tags and metafields
     * are left as they are on the storefront and the product is not read first. Absent (a mapping from before PIM tags,
     * whose pushes sent category names as tags): the next push reads the product and removes those category tags.
     */
    tags?: string[];
    /** The gift-card flag the product was created with (Shopify refuses to change it afterwards). */
    giftCard?: boolean;
    /** The PIM's alt text of each image the last push sent, by PIM image URL (a change sends the files again). */
    imageAlts?: Record<string, string>;
    /**
     * Media of ours that Shopify FAILED to process (not in `mediaIds`): a push that sends `files` drops them, where any
     * other media it does not know is the merchant's and is sent back.
     */
    failedMedia?: string[];
    /** A fingerprint of the attribute metafields the last push sent (unchanged: they are not sent, nor the product read). */
    attributeMetafields?: string;
    /** The image URL the last push attached to each variant (by SKU): a variant whose image changed sends the files again. */
    variantImages?: Record<string, string>;
    /** The category collections the last push put the product in, sorted (unchanged: the list is neither read nor sent). */
    collections?: string[];
    /**
     * The translations the last push registered (translation-sync.ts): a fingerprint of what they were made from (the
     * source content and the translations of the shop's locales; unchanged: no call) and the keys registered per shop locale.
     */
    translations?: { fingerprint: string; registered: Record<string, string[]> };
  };
  /** Inventory item ids by SKU. */
  inventoryItemIds?: Record<string, string>;
  /**
   * The PIM quantities the last push brought to the shop, by SKU and location id: a push moves the shop's count by the
   * PIM's change since then, so units sold in the shop meanwhile stay sold.
   */
  stock?: Record<string, Record<string, number>>;
  /** The publications the bridge published the product on. */
  publications?: string[];
  /** The values of the fields the bridge owns as the last push wrote them (the drift report compares the shop with them). */
  written?: WrittenFields;
  /**
   * The shop's own variants of an adopted product that its PIM product does not have (found by the adoption): a push
   * sends them back by id, unchanged (productSet deletes the variants it is not sent), and says so in its warnings,
   * until the PIM product gets a variant of that SKU (which then takes it over) or the merchant deletes it in the shop.
   */
  merchantVariants?: MerchantVariant[];
}

/** A variant of the shop the bridge keeps without owning it (KnownStorefrontProduct.merchantVariants). */
export interface MerchantVariant {
  /** Shopify GID. */
  id: string;
  sku: string | null;
  /** Its option values, in the product's option order. */
  options: { name: string; value: string }[];
}

/**
 * What a push wrote of the fields the bridge owns (storefront_state.written): a field left out of the push (the
 * merchant's) is absent. Variants by SKU; images as our file keys (`pim-` + 16 hex), in order. Which fields, and how
 * each is compared: storefront/shopify/field-ownership.ts.
 */
export interface WrittenFields {
  title: string;
  descriptionHtml?: string;
  vendor?: string;
  productType?: string;
  status: string;
  seo?: { title?: string; description?: string };
  /** Our tags (the PIM's); the product's other tags are the merchant's. */
  tags: string[];
  giftCard?: boolean;
  /** The taxonomy category's GID (`gid://shopify/TaxonomyCategory/aa-1-13-8`). */
  category?: string;
  variants: Record<string, WrittenVariant>;
  images: string[];
}

/** What a push wrote of one variant (WrittenFields.variants). */
export interface WrittenVariant {
  /** The shop variant's GID when known (a variant whose SKU the PIM made up has no SKU in the shop to match it by). */
  id?: string;
  price?: string;
  compareAtPrice?: string | null;
  barcode?: string;
  options: string[];
  inventoryPolicy?: string;
  tracked?: boolean;
  taxable?: boolean;
  requiresShipping?: boolean;
  weight?: { value: number; unit: string };
}
