// A sandbox store's locales and the translations registered for its resources.
import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { storeId } from './store.tables.js';

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/**
 * A store's locales (shopLocales): one primary (made lazily, `en`), and the alternates enabled by shopLocaleEnable.
 * `published`: shown to buyers (ShopLocale.published).
 */
export const sandboxShopLocales = pgTable(
  'sandbox_shop_locales',
  {
    storeId: storeId(),
    /** An ISO code as Shopify spells it: `de`, `fr-CA`, `pt-BR`. */
    locale: text('locale').notNull(),
    primary: boolean('primary').notNull().default(false),
    published: boolean('published').notNull().default(false),
    createdAt: ts('created_at'),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.locale] })],
);

/**
 * Translations registered with translationsRegister: one value per resource, key and locale, with the digest of the
 * content it translates (outdated when the resource's content digest is another one now).
 */
export const sandboxTranslations = pgTable(
  'sandbox_translations',
  {
    storeId: storeId(),
    /** The translatable resource's GID, e.g. `gid://shopify/Product/1`. */
    resourceId: text('resource_id').notNull(),
    /** A TranslatableContent key, e.g. title, body_html, meta_title, meta_description. */
    key: text('key').notNull(),
    locale: text('locale').notNull(),
    value: text('value').notNull(),
    /** TranslationInput.translatableContentDigest as registered. */
    digest: text('digest').notNull(),
    updatedAt: ts('updated_at'),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.resourceId, t.locale, t.key] })],
);
