// productSet's arguments as the sandbox takes them, its limits, and the user errors it answers with.
import type { MediaRow, ProductRow, VariantRow } from './sandbox-product.repository.js';

export const MAX_OPTIONS = 3;
export const MAX_VARIANTS = 2048;

export interface UserError {
  field: string[] | null;
  message: string;
  code: string;
}

export interface ProductSetArgs {
  identifier?: { id?: string | null; handle?: string | null; customId?: { namespace?: string | null; key: string; value: string } | null } | null;
  input: ProductSetInput;
}

export interface FileInput {
  id?: string | null;
  originalSource?: string | null;
  alt?: string | null;
  filename?: string | null;
}

export interface VariantInput {
  id?: string | null;
  sku?: string | null;
  price?: unknown;
  compareAtPrice?: unknown;
  barcode?: string | null;
  position?: number | null;
  optionValues?: { name?: string | null; optionName?: string | null; optionId?: string | null; id?: string | null }[];
  inventoryQuantities?: { locationId: string; name: string; quantity: number }[] | null;
  inventoryPolicy?: string | null;
  taxable?: boolean | null;
  inventoryItem?: {
    tracked?: boolean | null;
    requiresShipping?: boolean | null;
    cost?: unknown;
    sku?: string | null;
    measurement?: { weight?: { value: number; unit: string } | null } | null;
  } | null;
  file?: FileInput | null;
  metafields?: unknown[] | null;
}

export interface ProductSetInput {
  id?: string | null;
  title?: string | null;
  handle?: string | null;
  descriptionHtml?: string | null;
  vendor?: string | null;
  productType?: string | null;
  status?: string | null;
  tags?: string[] | null;
  seo?: { title?: string | null; description?: string | null } | null;
  productOptions?: { name?: string | null; values?: { name?: string | null }[] | null }[] | null;
  variants?: VariantInput[] | null;
  files?: FileInput[] | null;
  metafields?: { namespace?: string | null; key?: string | null; type?: string | null; value?: string | null }[] | null;
  /** The custom collections the product belongs to: a list that is sent replaces its memberships. */
  collections?: string[] | null;
  /** Create only (GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED afterwards). */
  giftCard?: boolean | null;
  /** A TaxonomyCategory GID; null removes the product's category. */
  category?: string | null;
}

/** A new product's variants and media as its transaction wrote them (the answer needs no second read). */
export interface WrittenLists {
  variants: VariantRow[];
  media: MediaRow[];
}

export type ProductSetResult = { product: ProductRow; userErrors: []; written: WrittenLists | null } | { product: null; userErrors: UserError[] };

/** Thrown inside the transaction to roll it back with userErrors. */
export class Rejected extends Error {
  constructor(readonly errors: UserError[]) {
    super('rejected');
  }
}

/** A metafield's namespace when none is given (the app's own). */
export const DEFAULT_NAMESPACE = '$app';
/** A price or compare-at price as productSet takes it. */
export const MONEY = /^-?\d{1,15}(\.\d{1,4})?$/;

/** One user error. */
export const err = (field: string[] | null, message: string, code: string): UserError => ({ field, message, code });
