// The sandbox's languages and translations, as Shopify's Admin API has them (docs/sandbox/translations.md):
// shopLocales / shopLocaleEnable / shopLocaleUpdate / shopLocaleDisable, the translatable content of products with its
// digests, and translationsRegister / translationsRemove with their checks. SQL in sandbox-translation.repository.ts.
import { createHash } from 'node:crypto';
import type { ProductRow } from './sandbox-product.repository.js';
import { gidNumber } from './gid.js';
import { PRIMARY_LOCALE, type SandboxTranslationRepository, type ShopLocaleRow, type TranslationRow } from './sandbox-translation.repository.js';

export interface ContentEntry {
  key: string;
  value: string | null;
  digest: string | null;
  locale: string;
  /** LocalizableContentType. */
  type: string;
}

export interface UserError {
  field: string[] | null;
  message: string;
}

export interface TranslationUserError extends UserError {
  code: string;
}

export interface TranslationInput {
  key: string;
  locale: string;
  value: string;
  translatableContentDigest: string;
  marketId?: string | null;
}

/**
 * "Hash digest representation of the content value" (schema 2026-10, TranslatableContent.digest): the SHA-256 of the
 * value, in hex. The documentation's own example answers it: translatableResources' `"value": "Element"` has digest
 * `4e5b548d…01bf6` = sha256("Element") (https://shopify.dev/docs/api/admin-graphql/2025-10/queries/translatableResources),
 * as apps found (https://community.shopify.dev/t/how-we-can-generate-translatablecontentdigest-locally/18641).
 */
export function contentDigest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none', languageDisplay: 'standard' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * The locale as Shopify spells it (`fr-ca` → `fr-CA`), or null for a code that names no language (Shopify answers such a
 * code "Locale is invalid"). The sandbox knows every language and region ICU knows; Shopify's list is shorter.
 */
export function canonicalLocale(code: string): string | null {
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(code)) return null;
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(code);
  } catch {
    return null;
  }
  const [language, region] = canonical.split('-');
  if (!languageNames.of(language)) return null;
  if (region && /^[A-Z]{2}$/.test(region) && !regionNames.of(region)) return null;
  return canonical;
}

/** ShopLocale.name: "The human-readable locale name" (schema 2026-10), e.g. `German`, `French (Canada)`. */
export function localeName(locale: string): string {
  return languageNames.of(locale) ?? locale;
}

/**
 * A product's translatable content: "An online store product. Translatable fields: `title`, `body_html`, `handle`,
 * `product_type`, `meta_title`, `meta_description`" (schema 2026-10, TranslatableResourceType.PRODUCT). The SEO keys
 * only when the product has that SEO value: the documentation's example of products without one lists the first four
 * only (https://shopify.dev/docs/api/admin-graphql/2025-10/queries/translatableResources). Types as Shopify answers them.
 */
export function productContent(product: ProductRow, primary: string): ContentEntry[] {
  const entry = (key: string, value: string, type: string): ContentEntry => ({ key, value, digest: contentDigest(value), locale: primary, type });
  const out = [
    entry('title', product.title, 'SINGLE_LINE_TEXT_FIELD'),
    entry('body_html', product.descriptionHtml, 'HTML'),
    entry('handle', product.handle, 'URI'),
    entry('product_type', product.productType, 'SINGLE_LINE_TEXT_FIELD'),
  ];
  if (product.seo?.title) out.push(entry('meta_title', product.seo.title, 'SINGLE_LINE_TEXT_FIELD'));
  if (product.seo?.description) out.push(entry('meta_description', product.seo.description, 'MULTI_LINE_TEXT_FIELD'));
  return out;
}

/** A Translation object: `outdated` "Whether the original content has changed since this translation was updated" (schema 2026-10). */
export function translationObject(row: TranslationRow, content: ContentEntry[]) {
  const current = content.find((c) => c.key === row.key);
  return {
    key: row.key,
    locale: row.locale,
    value: row.value,
    outdated: current?.digest !== row.digest,
    updatedAt: row.updatedAt.toISOString(),
    market: null,
  };
}

export type ResourceOf = (storeId: number, resourceId: string) => Promise<ProductRow | null>;

export class SandboxTranslationService {
  constructor(
    private readonly repo: SandboxTranslationRepository,
    /** The product behind a Product GID of the store (null: none). */
    private readonly product: (storeId: number, id: number) => Promise<ProductRow | null>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * shopLocales(published:): "Returns the locales enabled on a shop"; `published` "Return only published locales"
   * (schema 2026-10, default false): true keeps those visible to buyers, false filters nothing.
   */
  async shopLocales(storeId: number, published?: boolean | null): Promise<ShopLocaleRow[]> {
    const rows = await this.repo.locales(storeId);
    return published ? rows.filter((r) => r.published) : rows;
  }

  async primaryLocale(storeId: number): Promise<string> {
    return (await this.repo.locales(storeId)).find((r) => r.primary)?.locale ?? PRIMARY_LOCALE;
  }

  /** shopLocaleEnable: "Adds a locale for a shop. The newly added locale is in the unpublished state" (schema 2026-10). */
  async enable(storeId: number, code: string): Promise<{ shopLocale: ShopLocaleRow | null; userErrors: UserError[] }> {
    const locale = canonicalLocale(code);
    if (!locale) return { shopLocale: null, userErrors: [{ field: ['locale'], message: 'Locale is invalid' }] };
    const locales = await this.repo.locales(storeId);
    const had = locales.find((r) => r.locale === locale);
    // Enabling a locale the shop has already changes nothing and answers it.
    if (had) return { shopLocale: had, userErrors: [] };
    const row = (await this.repo.enable(storeId, locale)) ?? (await this.repo.locales(storeId)).find((r) => r.locale === locale) ?? null;
    return { shopLocale: row, userErrors: [] };
  }

  /** shopLocaleUpdate: publishes or unpublishes an enabled locale; the primary locale is always published. */
  async update(storeId: number, code: string, input: { published?: boolean | null }): Promise<{ shopLocale: ShopLocaleRow | null; userErrors: UserError[] }> {
    const locale = canonicalLocale(code);
    const row = locale ? (await this.repo.locales(storeId)).find((r) => r.locale === locale) : undefined;
    if (!row) return { shopLocale: null, userErrors: [{ field: ['locale'], message: 'Locale is invalid' }] };
    if (input.published == null || input.published === row.published) return { shopLocale: row, userErrors: [] };
    if (row.primary)
      return { shopLocale: null, userErrors: [{ field: ['shopLocale', 'published'], message: "The shop's primary locale can't be unpublished" }] };
    return { shopLocale: await this.repo.setPublished(storeId, row.locale, input.published), userErrors: [] };
  }

  /** shopLocaleDisable: "Deletes a locale for a shop. This also deletes all translations of this locale" (schema 2026-10). */
  async disable(storeId: number, code: string): Promise<{ locale: string | null; userErrors: UserError[] }> {
    const locale = canonicalLocale(code);
    const row = locale ? (await this.repo.locales(storeId)).find((r) => r.locale === locale) : undefined;
    if (!row) return { locale: null, userErrors: [{ field: ['locale'], message: 'Locale is invalid' }] };
    // The primary locale is changed in the Shopify admin only (https://shopify.dev/docs/apps/selling-strategies/markets/translate-content, Limitations).
    if (row.primary) return { locale: null, userErrors: [{ field: ['locale'], message: "The shop's primary locale can't be disabled" }] };
    await this.repo.disable(storeId, row.locale);
    return { locale: row.locale, userErrors: [] };
  }

  /** The product behind a resource id, with its content in the primary locale; null when it is no product of the store. */
  async resource(storeId: number, resourceId: string): Promise<{ product: ProductRow; content: ContentEntry[] } | null> {
    const id = gidNumber(resourceId, 'Product');
    const product = id === null ? null : await this.product(storeId, id);
    if (!product) return null;
    return { product, content: productContent(product, await this.primaryLocale(storeId)) };
  }

  /** TranslatableResource.translations(locale:, outdated:): the resource's translations into the locale. */
  async translations(storeId: number, resourceId: string, content: ContentEntry[], locale: string, outdated?: boolean | null) {
    const rows = (await this.repo.translations(storeId, resourceId, locale)).map((r) => translationObject(r, content));
    return outdated == null ? rows : rows.filter((t) => t.outdated === outdated);
  }

  /**
   * translationsRegister: every translation checked (TranslationErrorCode, schema 2026-10), then all written, or none
   * when any is refused.
   */
  async register(storeId: number, resourceId: string, input: TranslationInput[]) {
    const resource = await this.resource(storeId, resourceId);
    if (!resource) return { translations: null, userErrors: [notFound()] };
    const locales = await this.repo.locales(storeId);
    const userErrors: TranslationUserError[] = [];
    for (const [i, t] of input.entries()) {
      const at = (f: string) => ['translations', String(i), f];
      const shopLocale = locales.find((l) => l.locale === t.locale);
      // "ISO code of the locale being translated into. Only locales returned in `shopLocales` are valid" (TranslationInput.locale).
      if (!shopLocale || shopLocale.primary) {
        userErrors.push({ field: at('locale'), message: 'Locale is invalid for the shop', code: 'INVALID_LOCALE_FOR_SHOP' });
        continue;
      }
      const content = resource.content.find((c) => c.key === t.key);
      if (!content) {
        userErrors.push({ field: at('key'), message: `Key ${t.key} is not a valid translatable field`, code: 'INVALID_KEY_FOR_MODEL' });
        continue;
      }
      if (t.value.trim() === '') {
        userErrors.push({ field: at('value'), message: "Value can't be blank", code: 'BLANK' });
        continue;
      }
      if (t.translatableContentDigest !== content.digest) {
        // The message Shopify answers (https://community.shopify.com/t/unable-to-update-theme-translations-to-shopify-if-the-digest-changes-before-translations-are-ready/88642).
        userErrors.push({ field: at('translatableContentDigest'), message: 'Translatable content hash is invalid', code: 'INVALID_TRANSLATABLE_CONTENT' });
      }
    }
    if (userErrors.length > 0) return { translations: null, userErrors };
    const rows = await this.repo.register(
      storeId,
      resourceId,
      // The same key and locale twice: the last one is kept.
      [...new Map(input.map((t) => [`${t.locale}\n${t.key}`, { key: t.key, locale: t.locale, value: t.value, digest: t.translatableContentDigest }])).values()],
      this.now(),
    );
    return { translations: rows.map((r) => translationObject(r, resource.content)), userErrors: [] as TranslationUserError[] };
  }

  /** translationsRemove: "Deletes translations" (schema 2026-10) of the given keys in the given locales. */
  async remove(storeId: number, resourceId: string, keys: string[], locales: string[]) {
    const resource = await this.resource(storeId, resourceId);
    if (!resource) return { translations: null, userErrors: [notFound()] };
    const shop = await this.repo.locales(storeId);
    const userErrors: TranslationUserError[] = [];
    for (const [i, l] of locales.entries())
      if (!shop.some((s) => s.locale === l && !s.primary))
        userErrors.push({ field: ['locales', String(i)], message: 'Locale is invalid for the shop', code: 'INVALID_LOCALE_FOR_SHOP' });
    for (const [i, k] of keys.entries())
      if (!resource.content.some((c) => c.key === k))
        userErrors.push({ field: ['translationKeys', String(i)], message: `Key ${k} is not a valid translatable field`, code: 'INVALID_KEY_FOR_MODEL' });
    if (userErrors.length > 0) return { translations: null, userErrors };
    const rows = await this.repo.remove(storeId, resourceId, keys, locales);
    return { translations: rows.map((r) => translationObject(r, resource.content)), userErrors: [] as TranslationUserError[] };
  }

  products(storeId: number, afterId: number, limit: number, ids?: number[]) {
    return this.repo.products(storeId, afterId, limit, ids);
  }
}

/** TranslationErrorCode.RESOURCE_NOT_FOUND "Resource does not exist" (schema 2026-10). */
function notFound(): TranslationUserError {
  return { field: ['resourceId'], message: 'Resource does not exist', code: 'RESOURCE_NOT_FOUND' };
}
