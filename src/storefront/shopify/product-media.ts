// A product's images as productSet's `files`: which are ours (by media id, or by the file name we give them), whether
// they changed since the last push, their alt texts, and the merchant's media sent back with them.
import { createHash } from 'node:crypto';
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import { sortedVariants } from './product-options.js';
import type { FileInput, StorefrontTags } from './product-set-input.js';

export const isUrl = (u: unknown): u is string => typeof u === 'string' && u.trim() !== '';

/**
 * The PIM's image URLs of a product, distinct, in order: the product's images, then its variants' images (in variant
 * order) that are not among them. A variant's image is one of the product's media in Shopify (ProductVariantSetInput.file
 * "must also be specified in the `files` input for the product"), so it is sent, matched and remembered like the others.
 */
export function imageUrlsOf(product: PimProductSnapshot): string[] {
  const variantImages = product.variants.length > 0 ? sortedVariants(product).map((v) => v.image) : [];
  return [...new Set([...(product.images ?? []), ...variantImages].filter(isUrl))];
}

/** The image of each variant that has one, by SKU (what `owned.variantImages` remembers). */
export function variantImagesOf(product: PimProductSnapshot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of product.variants) if (isUrl(v.image)) out[v.sku] = v.image;
  return out;
}

/**
 * The mapped product has exactly these images already (by id, or sent and not confirmed), its variants the images our
 * last push attached (`variantImages`, when given) and its images the PIM's alt texts the last push sent (`alts`, the
 * PIM's alt text of each image, when given; an image without one has the product's name from its upload, which a rename
 * does not change): its media are left alone.
 */
export function imagesUnchanged(
  known: KnownStorefrontProduct,
  imageUrls: string[],
  variantImages?: Record<string, string>,
  alts?: (url: string) => string | undefined,
): boolean {
  if (known.productId === null) return false;
  const there = new Set([...Object.keys(known.mediaIds), ...(known.imagesUnconfirmed ?? [])]);
  if (!(there.size === imageUrls.length && imageUrls.every((u) => there.has(u)))) return false;
  if (alts) {
    const sent = known.owned?.imageAlts ?? {};
    if (imageUrls.some((u) => sent[u] !== alts(u))) return false;
  }
  if (variantImages === undefined) return true;
  const before = known.owned?.variantImages ?? {};
  const skus = new Set([...Object.keys(before), ...Object.keys(variantImages)]);
  return [...skus].every((sku) => before[sku] === variantImages[sku]);
}

/** Each image's alt text in the PIM (`image_alts`, by the image's place in `images`); undefined: none. */
export function pimAltOf(product: Pick<PimProductSnapshot, 'images' | 'image_alts'>): (url: string) => string | undefined {
  const alts = new Map<string, string>();
  const images = product.images ?? [];
  const given = Array.isArray(product.image_alts) ? product.image_alts : [];
  images.forEach((url, i) => {
    const alt = given[i];
    if (typeof alt === 'string' && alt.trim() !== '' && !alts.has(url)) alts.set(url, alt.trim());
  });
  return (url) => alts.get(url);
}

/** The alt text an image is uploaded with: the PIM media's, else the product's name. */
export function imageAltOf(product: Pick<PimProductSnapshot, 'images' | 'image_alts' | 'name'>): (url: string) => string {
  const pim = pimAltOf(product);
  const name = product.name.trim();
  return (url) => pim(url) ?? name;
}

/**
 * The product's images as a push sends them: in order (imageUrlsOf), its variants' images, the PIM's alt texts, whether
 * they are unchanged (then neither `files` nor a variant's `file` is sent), and each one's `files` entry.
 */
export function imagePlanOf(product: PimProductSnapshot, known: KnownStorefrontProduct) {
  const urls = imageUrlsOf(product);
  const variantImages = variantImagesOf(product);
  const pimAlt = pimAltOf(product);
  return { urls, variantImages, pimAlt, unchanged: imagesUnchanged(known, urls, variantImages, pimAlt), fileOf: imageFileOf(product, known, pimAlt) };
}

/**
 * A mapped product whose image list (or an image's PIM alt text, or a variant's image) changed: `files` will be sent,
 * which replaces the product's media, so the product's media are read first and the merchant's sent back.
 */
export function filesWillBeSent(known: KnownStorefrontProduct, product: PimProductSnapshot): boolean {
  return known.productId !== null && !imagesUnchanged(known, imageUrlsOf(product), variantImagesOf(product), pimAltOf(product));
}

/**
 * Images sent earlier whose media ids are unknown, when files will be sent (filesWillBeSent): the product must be read
 * (its media matched by our file names) before its files are sent, or those images would be uploaded again.
 */
export function needsMediaIds(known: KnownStorefrontProduct, product: PimProductSnapshot): boolean {
  const imageUrls = imageUrlsOf(product);
  return (known.imagesUnconfirmed ?? []).some((u) => imageUrls.includes(u)) && filesWillBeSent(known, product);
}

/** A PIM image sent for Shopify to fetch, under our stable file name (mediaFilename), with its alt text (imageAltOf). */
export function imageFile(url: string, product: PimProductSnapshot): FileInput {
  return { originalSource: url, alt: imageAltOf(product)(url), contentType: 'IMAGE', filename: mediaFilename(url) };
}

/**
 * The media of the product as read that are the merchant's: not one we know by id, and not carrying our file name
 * (`pim-` + 16 hex) in its URL. Kept whatever their state (one still processing has no URL: never taken for ours).
 */
export function merchantMediaOf(current: StorefrontTags | null, known: KnownStorefrontProduct): string[] {
  const ours = new Set([...Object.values(known.mediaIds), ...(known.owned?.failedMedia ?? [])]);
  return (current?.media ?? []).filter((m) => !ours.has(m.id) && mediaKeyIn(m.url) === null).map((m) => m.id);
}

/**
 * A product's images as `files` entries: known ones by media id, new ones from their source under our file name (the
 * same entry in `files` and in a variant's `file`, so Shopify makes one media of it, uploaded once, and attaches it to
 * the variant). A known image gets the PIM's alt text when it has one, the product's name when the PIM's was removed,
 * else keeps the shop's.
 */
export function imageFileOf(
  product: PimProductSnapshot,
  known: KnownStorefrontProduct,
  pimAlt: (url: string) => string | undefined,
): (url: string) => FileInput {
  const sentAlts = known.owned?.imageAlts ?? {};
  return (url) => {
    if (!known.mediaIds[url]) return imageFile(url, product);
    const alt = pimAlt(url) ?? (sentAlts[url] !== undefined ? product.name.trim() : undefined);
    return { id: known.mediaIds[url], ...(alt !== undefined ? { alt } : {}) };
  };
}

/**
 * The file name we give an image: `pim-` + 16 hex of the SHA-256 of its PIM URL + the URL's extension. Shopify names
 * the file by it (FileSetInput.filename) and keeps it at the end of the image's CDN URL (with a UUID appended when the
 * name is taken), so a product whose mapping was lost is matched to its images by name, not by URL or position.
 */
export function mediaFilename(url: string): string {
  const ext = /\.(jpe?g|png|gif|webp|avif|heic|svg)(?:$|[?#])/i.exec(url)?.[1]?.toLowerCase() ?? 'jpg';
  return `pim-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.${ext}`;
}

/** Our key in a storefront file URL or name (`…/pim-0123456789abcdef_<uuid>.jpg?v=1` → `pim-0123456789abcdef`). */
export function mediaKeyIn(urlOrName: string | null | undefined): string | null {
  return urlOrName ? (/pim-[0-9a-f]{16}/.exec(urlOrName)?.[0] ?? null) : null;
}
