// The productSet input the mapping builds (product-mapper.ts), what it takes from the shop (locations, the storefront
// product as read before a push) and what it gives back with the input.
import type { KnownStorefrontProduct, MerchantVariant } from '../port/known-product.js';

export interface ShopLocation {
  id: string;
  name: string;
  isActive: boolean;
}

export interface StorefrontMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/** What the lookup before the push found on the storefront product (null: not looked up, or not there). */
export interface StorefrontTags {
  tags: string[];
  /**
   * Tags our previous pushes sent (the PIM tags of `pimbridge.pim_tags`, and the category names an older push recorded in
   * `pimbridge.category_tags`), or null when unknown (then no existing tag is treated as ours).
   */
  previousTags: string[] | null;
  /** The product's metafields (all of them, ours included), when read. */
  metafields?: StorefrontMetafield[];
  /** The custom collections the product is in (ours and the merchant's), when read. */
  collections?: string[];
  /** The product's media in order (ours and the merchant's), when read: a push that sends `files` sends the merchant's back. */
  media?: { id: string; url: string | null }[];
}

export interface FileInput {
  id?: string;
  originalSource?: string;
  alt?: string;
  contentType?: 'IMAGE';
  /** Our stable key of the image (mediaFilename): Shopify names the file by it, so a lost mapping finds it again. */
  filename?: string;
}

/** Shopify's WeightUnit. */
export type WeightUnit = 'GRAMS' | 'KILOGRAMS' | 'POUNDS' | 'OUNCES';

export interface InventoryItemInput {
  /** Left out for a SKU the PIM made up (sku_generated): never written to the shop. */
  sku?: string;
  /** Left out on update when the PIM does not say (the merchant's stays); true on create. */
  tracked?: boolean;
  /** Left out when the PIM does not say. */
  requiresShipping?: boolean;
  /** Unit cost, in the shop's currency (Decimal). */
  cost?: string | null;
  measurement?: { weight: { value: number; unit: WeightUnit } };
}

export interface VariantInput {
  id?: string;
  /** Left out for a SKU the PIM made up (sku_generated): never written to the shop (MappedProduct.variantKeys keeps it). */
  sku?: string;
  price?: string;
  /** Left out when neither the PIM nor our last push set it: the merchant's own compare-at price stays. */
  compareAtPrice?: string | null;
  barcode?: string;
  optionValues: { optionName: string; name: string }[];
  /** Left out on update when the PIM does not say (the merchant's stays); DENY on create. */
  inventoryPolicy?: 'DENY' | 'CONTINUE';
  /** Left out when the PIM does not say. */
  taxable?: boolean;
  inventoryItem: InventoryItemInput;
  /**
   * The variant's image (the PIM variant's `image`), sent with the product's `files` only: "Any file specified here must
   * also be specified in the `files` input for the product" (schema 2026-10, ProductVariantSetInput.file). The same entry
   * as in `files` (its media id when known, else the same source and file name), so it is one media, uploaded once.
   */
  file?: FileInput;
  /** Only for a variant the storefront does not have yet: an existing one's stock moves by the inventory step. */
  inventoryQuantities?: { locationId: string; name: 'available'; quantity: number }[];
}

export interface ProductSetInput {
  title: string;
  descriptionHtml?: string;
  vendor?: string;
  /** Never blanked: left out when there is no type, so the merchant's stays. */
  productType?: string;
  tags?: string[];
  /** Sent on create only (Shopify refuses a change: GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED). */
  giftCard?: boolean;
  /** The taxonomy category's GID; left out when the PIM has none. */
  category?: string;
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  /** Left out when the PIM has no SEO fields and our last push wrote none: the merchant's own stay. */
  seo?: { title?: string; description?: string };
  handle?: string;
  productOptions: { name: string; values: { name: string }[] }[];
  variants: VariantInput[];
  /**
   * Left out when an existing product already has exactly our images (the list is kept, images added in Shopify too);
   * when sent: ours, then the merchant's media as read (by id), so only media the bridge made are ever removed.
   */
  files?: FileInput[];
  /** Left out when nothing of ours changed on an existing product (productSet keeps a list that is not sent). */
  metafields?: StorefrontMetafield[];
  /** Custom collection ids; left out when our categories' collections did not change, or collections are not managed. */
  collections?: string[];
}

export interface MappedProduct {
  input: ProductSetInput;
  /** The product's image URLs, in order, then its variants' images that are not among them (imageUrlsOf). */
  imageUrls: string[];
  /** What this input writes from PIM data (kept with the mapping: the next push clears only these). */
  owned: NonNullable<KnownStorefrontProduct['owned']>;
  /** The PIM quantity each variant should have per location id (by SKU). */
  stock: Record<string, Record<string, number>>;
  /** SKUs of disabled PIM variants: sent unsellable, their stock set to 0 outright rather than moved by a change. */
  disabled: string[];
  /** The merchant's media sent back in `files` (by id): never matched to our images. */
  merchantMedia: string[];
  /**
   * The PIM SKU of each entry of `input.variants`, in order: the key of the variant's ids, stock and written values, also
   * where the SKU is the PIM's own invention and so not sent (productSet answers the variants in that order).
   */
  variantKeys: string[];
  /** What the push leaves as it is though the PIM says otherwise (reported with the mapping, never an error). */
  warnings: string[];
  /**
   * The merchant's variants sent back unchanged, after the PIM's (by id: `input.variants` past `variantKeys`), and those
   * that cannot be kept beside the PIM's variants: a push of the product would delete them, so it is refused.
   */
  merchantVariants: { kept: MerchantVariant[]; refused: string[] };
}
