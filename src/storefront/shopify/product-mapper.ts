// PIM product snapshot → Shopify `productSet` input, field by field (the table is in docs/sync.md, "The productSet input,
// field by field"). Pure: everything the mapping needs from the shop (locations, the product's current tags, the ids we
// know) is passed in, so it is tested without a server. Shopify's limits are checked separately (preflight.ts).
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { SyncPlacement } from '../port/placement.js';
import { metafieldsFingerprint, productTypeOf } from './attribute-metafields.js';
import { keepMerchantVariants, keptVariantsWarning } from './merchant-variants.js';
import { imagePlanOf, merchantMediaOf } from './product-media.js';
import { productOptions, sortedVariants } from './product-options.js';
import type { FileInput, MappedProduct, ProductSetInput, ShopLocation, StorefrontMetafield, StorefrontTags, VariantInput } from './product-set-input.js';
import { attributeOwnership, collectionIdsOf, mergeTags, ourMetafields, pimTagsOf, withCollections, withMetafields } from './tags-metafields-collections.js';
import { pimVariantInputs, type VariantContext } from './variant-inputs.js';

/** PIM status → Shopify status. `out_of_stock` stays ACTIVE (tracked inventory at 0 shows it sold out); unknown → DRAFT. */
export function mapStatus(status: string | undefined): ProductSetInput['status'] {
  switch (status) {
    case 'active':
    case 'out_of_stock':
      return 'ACTIVE';
    case 'archived':
      return 'ARCHIVED';
    default:
      return 'DRAFT';
  }
}

/** A product the storefront has nothing of yet (no mapping, nothing found). */
export const NOTHING_KNOWN: KnownStorefrontProduct = { productId: null, variantIds: {}, mediaIds: {} };

/** A snapshot's storefront type (`storefront_type`), trimmed; undefined when it has none. */
function storefrontTypeOf(product: PimProductSnapshot): string | undefined {
  return typeof product.storefront_type === 'string' && product.storefront_type.trim() !== '' ? product.storefront_type.trim() : undefined;
}

/** The SEO fields to send, and which of them the PIM gives. */
function seoOf(
  product: PimProductSnapshot,
  known: KnownStorefrontProduct,
): { seo: NonNullable<ProductSetInput['seo']>; seoTitle: string | undefined; seoDescription: string | undefined } {
  // SEO fields from the PIM's SEO columns, else its SEO attributes (Shopify derives the rest from the title and
  // description); one we wrote before and the PIM no longer has is cleared, one the merchant wrote is left alone.
  const attrs = product.attributes ?? {};
  const textOf = (...values: unknown[]) => values.map((x) => (typeof x === 'string' ? x.trim() : '')).find((x) => x !== '') || undefined;
  const seoTitle = textOf(product.seo_title, attrs.seo_title);
  const seoDescription = textOf(product.seo_description, attrs.seo_description);
  const seo: NonNullable<ProductSetInput['seo']> = {};
  if (seoTitle !== undefined || known.owned?.seoTitle) seo.title = seoTitle ?? '';
  if (seoDescription !== undefined || known.owned?.seoDescription) seo.description = seoDescription ?? '';
  return { seo, seoTitle, seoDescription };
}

/** What the bridge wrote and owns of the product (kept with the mapping), as mapProduct found it. */
function ownedOf(
  w: {
    attributeMetafields: StorefrontMetafield[];
    compareAtOwned: string[];
    seoTitle: string | undefined;
    seoDescription: string | undefined;
    pimTags: string[];
    giftCard: boolean;
    imageAlts: Record<string, string>;
    variantImages: Record<string, string>;
    collections: ReturnType<typeof collectionIdsOf>;
  },
  known: KnownStorefrontProduct,
): MappedProduct['owned'] {
  const fingerprint = metafieldsFingerprint(w.attributeMetafields);
  const creating = known.productId === null;
  return {
    ...(fingerprint !== undefined ? { attributeMetafields: fingerprint } : {}),
    compareAt: w.compareAtOwned,
    ...(w.seoTitle !== undefined ? { seoTitle: true } : {}),
    ...(w.seoDescription !== undefined ? { seoDescription: true } : {}),
    tags: w.pimTags,
    giftCard: creating ? w.giftCard : (known.owned?.giftCard ?? w.giftCard),
    ...(Object.keys(w.imageAlts).length > 0 ? { imageAlts: w.imageAlts } : {}),
    ...(Object.keys(w.variantImages).length > 0 ? { variantImages: w.variantImages } : {}),
    ...(w.collections ? { collections: w.collections } : {}),
  };
}

/** What mapProduct takes from the shop and the integration besides the product and what is known of it there. */
interface MappingContext {
  locations: ShopLocation[];
  placement: SyncPlacement;
  current: StorefrontTags | null;
  /** Only when creating: the PIM slug, exactly (product-identity.ts, handleOf); never sent to an existing product. */
  handle?: string;
  /**
   * The category tags are those of the last push, so `tags` and `metafields` are left out and stay as they are on the
   * storefront (productSet keeps a list it is not sent).
   */
  keepTagsAndMetafields?: boolean;
  /** The product's attribute metafields, checked against the shop's definitions (attribute-metafields.ts). */
  attributeMetafields?: StorefrontMetafield[];
  /** The PIM's taxonomy category as Shopify's GID, resolved by the adapter (taxonomy.ts); absent: left out. */
  category?: string;
}

/**
 * A gift card is one from its creation: "The product gift_card attribute cannot be changed after creation"
 * (ProductSetUserErrorCode.GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED, schema 2026-10). Sent on create only; a PIM that says
 * otherwise later gets a warning.
 */
function giftCardOf(product: PimProductSnapshot, known: KnownStorefrontProduct, warnings: string[]): boolean {
  const giftCard = product.gift_card === true;
  if (known.productId !== null && known.owned?.giftCard !== undefined && known.owned.giftCard !== giftCard) {
    warnings.push(`gift_card: the product was created ${known.owned.giftCard ? 'as' : 'not as'} a gift card; Shopify does not change that afterwards`);
  }
  return giftCard;
}

/** The productSet input, from what mapProduct worked out: every field left out that must stay as the shop has it. */
function productSetInputOf(
  product: PimProductSnapshot,
  known: KnownStorefrontProduct,
  context: MappingContext,
  parts: {
    options: ReturnType<typeof productOptions>;
    variants: VariantInput[];
    pimTags: string[];
    seo: NonNullable<ProductSetInput['seo']>;
    giftCard: boolean;
    /** Undefined when the images are unchanged. */
    files: FileInput[] | undefined;
    collections: string[] | undefined;
  },
): ProductSetInput {
  // The product type: the PIM's storefront type, else the integration's setting (the first category's name by default,
  // or an attribute), never the PIM's structural product_type; never blanked (no value: left out, the merchant's stays).
  const productType = storefrontTypeOf(product) ?? productTypeOf(product, context.placement.productType?.attributeCode);
  const keep = context.keepTagsAndMetafields;
  return {
    title: product.name.trim(),
    ...(product.description != null ? { descriptionHtml: product.description } : {}),
    ...(product.brand?.name ? { vendor: product.brand.name } : {}),
    ...(productType !== '' ? { productType } : {}),
    ...(keep ? {} : { tags: mergeTags(parts.pimTags, context.current) }),
    status: mapStatus(product.status),
    ...(Object.keys(parts.seo).length > 0 ? { seo: parts.seo } : {}),
    ...(known.productId === null ? { giftCard: parts.giftCard } : {}),
    ...(context.category ? { category: context.category } : {}),
    ...(context.handle ? { handle: context.handle } : {}),
    productOptions: parts.options.map((o) => ({ name: o.name, values: o.values.map((name) => ({ name })) })),
    variants: parts.variants,
    ...(parts.files ? { files: parts.files } : {}),
    ...(keep
      ? {}
      : withMetafields(
          [...ourMetafields(product.id, parts.pimTags), ...(context.attributeMetafields ?? [])],
          context.current,
          attributeOwnership(context.placement),
        )),
    ...(keep || !parts.collections ? {} : withCollections(parts.collections, context.current, context.placement, known)),
  };
}

/** A PIM product as a productSet input, with what that input writes and owns, its stock and its warnings. */
export function mapProduct(product: PimProductSnapshot, known: KnownStorefrontProduct, context: MappingContext): MappedProduct {
  const options = productOptions(product);
  const pimTags = pimTagsOf(product);
  const images = imagePlanOf(product, known);
  const shared: VariantContext = {
    known,
    previouslyOwned: new Set(known.owned?.compareAt ?? []),
    unchanged: images.unchanged,
    fileOf: images.fileOf,
    stock: {},
    disabled: [],
    compareAtOwned: [],
  };
  const variants = pimVariantInputs(product, context, options, shared);
  const warnings: string[] = [];

  // The merchant's variants an adoption found (the PIM product lacks them): sent back by id, never deleted unasked.
  const merchantVariants = keepMerchantVariants(known, variants, options);
  variants.push(...merchantVariants.inputs);
  if (merchantVariants.kept.length > 0) warnings.push(keptVariantsWarning(merchantVariants.kept));

  // `files` replaces the product's media: ours in the PIM's order, then the merchant's as read (by id, their alt kept).
  const merchantMedia = images.unchanged ? [] : merchantMediaOf(context.current, known);
  const files = images.unchanged ? undefined : [...images.urls.map(images.fileOf), ...merchantMedia.map((id) => ({ id }))];

  const { seo, seoTitle, seoDescription } = seoOf(product, known);
  const giftCard = giftCardOf(product, known, warnings);
  const collections = collectionIdsOf(product, context.placement);
  const input = productSetInputOf(product, known, context, { options, variants, pimTags, seo, giftCard, files, collections });
  const imageAlts = Object.fromEntries(images.urls.flatMap((u) => (images.pimAlt(u) !== undefined ? [[u, images.pimAlt(u)!]] : [])));
  const owned = ownedOf(
    {
      attributeMetafields: context.attributeMetafields ?? [],
      compareAtOwned: shared.compareAtOwned,
      seoTitle,
      seoDescription,
      pimTags,
      giftCard,
      imageAlts,
      variantImages: images.variantImages,
      collections,
    },
    known,
  );
  return {
    input,
    imageUrls: images.urls,
    owned,
    stock: shared.stock,
    disabled: shared.disabled,
    merchantMedia,
    warnings,
    variantKeys: product.variants.length === 0 ? [product.sku] : sortedVariants(product).map((v) => v.sku),
    merchantVariants: { kept: merchantVariants.kept, refused: merchantVariants.refused },
  };
}
