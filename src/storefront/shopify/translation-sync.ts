// The translation step of a push (docs/shopify-fidelity.md, "Translations"). For each PIM translation whose locale the
// shop has enabled (shopLocales; not its primary locale), the product's translated title, description and SEO fields are
// registered with one translationsRegister for all locales, each with the digest of the content it translates
// ("Each translation requires a digest value from the resource's translatable content. Use the translatableResource
// query to get a resource's translatable content and digest values before creating translations", schema 2026-10,
// Mutation.translationsRegister). Translations the bridge registered before and the PIM no longer has are removed
// (translationsRemove); translations the merchant made in the shop for other keys or locales are left alone.
//
// Calls: none when the product has no translation and the bridge registered none, and none when a fingerprint of what
// the translations are made of (the source content sent, the translations of the shop's enabled locales) equals the
// one the mapping keeps (`owned.translations`). Otherwise one translatableResource read (the digests) and one
// translationsRegister, plus one translationsRemove per distinct set of removed keys (rare). The shop's locales are read
// once per shop and cached by the adapter.
import { createHash } from 'node:crypto';
import { StorefrontError } from '../port/errors.js';
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot, PimTranslation } from '../port/pim-product.js';
import type { Call } from './inventory-sync.js';
import {
  TranslatableProductContent,
  TranslationsRegister,
  TranslationsRemove,
  type TranslatableProductContentData,
  type TranslationsMutationData,
} from './operations.js';

export interface ShopLocale {
  locale: string;
  primary: boolean;
}

export type OwnedTranslations = NonNullable<NonNullable<KnownStorefrontProduct['owned']>['translations']>;

/** What the productSet sent of the translated fields' source (the content the digests are taken of). */
export interface TranslationSource {
  title: string;
  descriptionHtml?: string;
  seo?: { title?: string; description?: string };
}

export interface TranslationOutcome {
  /** What the mapping keeps (undefined: nothing registered by us and nothing to remember). */
  owned?: OwnedTranslations;
  /** A call the shop refused: the product is on the shop, its translations are tried again by the next push. */
  problems: string[];
  /** The PIM locales the shop has not enabled (undefined when the product's translations were not looked at). */
  missingLocales?: string[];
}

/** The SHA-256 of "": Shopify's digest of empty content (a field the product has no text in: nothing to translate). */
const EMPTY_DIGEST = createHash('sha256').update('').digest('hex');

/** The Shopify content keys of a PIM translation (TranslatableResourceType.PRODUCT, schema 2026-10), blank values left out. */
export function translatedValues(t: PimTranslation): Record<string, string> {
  const out: Record<string, string> = {};
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  // As product-mapper.ts sends them: the title trimmed, the description as it is (descriptionHtml), SEO fields trimmed.
  const title = text(t.name)?.trim();
  const body = text(t.description);
  const metaTitle = text(t.seo_title)?.trim();
  const metaDescription = text(t.seo_description)?.trim();
  if (title) out.title = title;
  if (body !== undefined) out.body_html = body;
  if (metaTitle) out.meta_title = metaTitle;
  if (metaDescription) out.meta_description = metaDescription;
  return out;
}

/**
 * The PIM's translations split by the shop's locales: matched without case (`fr-ca` is the shop's `fr-CA`), exactly
 * otherwise (a PIM `de-AT` is not the shop's `de`: a regional text is no language's text). The primary locale's
 * translation is neither registered (Shopify refuses it) nor missing.
 */
export function matchLocales(
  translations: Record<string, PimTranslation>,
  shopLocales: ShopLocale[],
): { target: Record<string, Record<string, string>>; missing: string[] } {
  const byLower = new Map(shopLocales.map((l) => [l.locale.toLowerCase(), l]));
  const target: Record<string, Record<string, string>> = {};
  const missing: string[] = [];
  for (const [pimLocale, t] of Object.entries(translations)) {
    const shop = byLower.get(pimLocale.toLowerCase());
    if (!shop) missing.push(pimLocale);
    else if (!shop.primary) {
      const values = translatedValues(t);
      if (Object.keys(values).length > 0) target[shop.locale] = { ...target[shop.locale], ...values };
    }
  }
  return { target, missing: missing.sort() };
}

function fingerprintOf(source: TranslationSource, target: Record<string, Record<string, string>>): string {
  const sorted = <V>(o: Record<string, V>): [string, V][] => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const locales = sorted(target).map(([l, v]) => [l, sorted(v)]);
  const text = JSON.stringify({ s: [source.title, source.descriptionHtml ?? null, source.seo?.title ?? null, source.seo?.description ?? null], locales });
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

const errorsOf = (errors: { message: string }[] | undefined) => (errors ?? []).map((e) => e.message).join('; ');

/** Registers and removes the product's translations as needed (see the top of the file). */
export async function syncTranslations(
  call: Call,
  shopLocales: () => Promise<ShopLocale[]>,
  args: { productId: string; product: PimProductSnapshot; source: TranslationSource; previous?: OwnedTranslations },
): Promise<TranslationOutcome> {
  const { productId, product, source, previous } = args;
  // A PIM that did not say (no include=translations): what the bridge registered stays as it is.
  if (product.translations === undefined || product.translations === null) return { owned: previous, problems: [] };
  const pim = product.translations;
  const hadRegistered = Object.values(previous?.registered ?? {}).some((keys) => keys.length > 0);
  if (Object.keys(pim).length === 0 && !hadRegistered) return { problems: [], missingLocales: [] };

  let locales: ShopLocale[];
  try {
    locales = await shopLocales();
  } catch (err) {
    if (!(err instanceof StorefrontError)) throw err;
    return { owned: retry(previous), problems: [`translations: the shop's locales could not be read: ${err.message}`] };
  }
  const { target, missing } = matchLocales(pim, locales);
  const fingerprint = fingerprintOf(source, target);
  if (previous?.fingerprint === fingerprint) return { owned: previous, problems: [], missingLocales: missing };

  try {
    return { ...(await apply(call, productId, target, locales, fingerprint, previous)), missingLocales: missing };
  } catch (err) {
    if (!(err instanceof StorefrontError)) throw err;
    return { owned: retry(previous), problems: [`translations: ${err.message}`], missingLocales: missing };
  }
}

/** What the bridge had registered, with a fingerprint that matches nothing: the next push sends the translations again. */
function retry(previous: OwnedTranslations | undefined): OwnedTranslations | undefined {
  return previous ? { fingerprint: '', registered: previous.registered } : undefined;
}

async function apply(
  call: Call,
  productId: string,
  target: Record<string, Record<string, string>>,
  locales: ShopLocale[],
  fingerprint: string,
  previous: OwnedTranslations | undefined,
): Promise<{ owned?: OwnedTranslations; problems: string[] }> {
  const enabled = new Set(locales.filter((l) => !l.primary).map((l) => l.locale));
  // Locales the shop no longer has lost their translations with the locale ("This also deletes all translations of this
  // locale", schema 2026-10, Mutation.shopLocaleDisable): nothing to remove there.
  const before = Object.fromEntries(Object.entries(previous?.registered ?? {}).filter(([l]) => enabled.has(l)));
  const wanted = Object.values(target).some((v) => Object.keys(v).length > 0);
  const removable = Object.entries(before).some(([l, keys]) => keys.some((k) => !(k in (target[l] ?? {}))));
  if (!wanted && !removable) return { owned: { fingerprint, registered: {} }, problems: [] };

  // translatableResource: 1 + translatableContent (a list of objects, charged as one) 1.
  const data = await call<TranslatableProductContentData>(TranslatableProductContent, { resourceId: productId }, 2);
  const content = data.translatableResource?.translatableContent;
  if (!content) return { owned: retry(previous), problems: ['translations: the shop has no translatable content for the product'] };
  // A key the product has no text in (an empty description, no SEO title) has nothing to translate.
  const digests = new Map(content.filter((c) => c.digest && c.digest !== EMPTY_DIGEST).map((c) => [c.key, c.digest as string]));

  const registered: Record<string, string[]> = {};
  const inputs: { key: string; locale: string; value: string; translatableContentDigest: string }[] = [];
  for (const [locale, values] of Object.entries(target)) {
    for (const [key, value] of Object.entries(values)) {
      const digest = digests.get(key);
      if (!digest) continue;
      inputs.push({ key, locale, value, translatableContentDigest: digest });
      (registered[locale] ??= []).push(key);
    }
  }
  const problems: string[] = [];
  if (inputs.length > 0) {
    const answer = await call<TranslationsMutationData>(TranslationsRegister, { resourceId: productId, translations: inputs }, 11);
    const errors = answer.translationsRegister?.userErrors ?? [];
    if (errors.length > 0) return { owned: retry(previous), problems: [`translations: the shop refused to register them: ${errorsOf(errors)}`] };
  }

  // Removed in the PIM: grouped by the same keys, so most pushes remove with one call. Keys the product has no content
  // for any more cannot be removed (nor are they shown): they are forgotten.
  const known = new Set(content.map((c) => c.key));
  const groups = new Map<string, { keys: string[]; locales: string[] }>();
  for (const [locale, keys] of Object.entries(before)) {
    const gone = keys.filter((k) => !registered[locale]?.includes(k) && known.has(k)).sort();
    if (gone.length === 0) continue;
    const group = groups.get(gone.join('\n')) ?? { keys: gone, locales: [] };
    group.locales.push(locale);
    groups.set(gone.join('\n'), group);
  }
  for (const { keys, locales: groupLocales } of groups.values()) {
    const answer = await call<TranslationsMutationData>(TranslationsRemove, { resourceId: productId, translationKeys: keys, locales: groupLocales }, 11);
    const errors = answer.translationsRemove?.userErrors ?? [];
    if (errors.length > 0) {
      problems.push(`translations: the shop refused to remove ${keys.join(', ')} (${groupLocales.join(', ')}): ${errorsOf(errors)}`);
      // Still ours in the shop: kept, so the next push removes them again.
      for (const l of groupLocales) registered[l] = [...new Set([...(registered[l] ?? []), ...keys])];
    }
  }
  return { owned: { fingerprint: problems.length > 0 ? '' : fingerprint, registered }, problems };
}
