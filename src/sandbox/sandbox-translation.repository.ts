// SQL for the sandbox's languages and translations: a store's locales (sandbox_shop_locales) and the translations
// registered on its resources (sandbox_translations). The rules are in sandbox-translation.service.ts.
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxProducts } from './product.tables.js';
import { sandboxShopLocales, sandboxTranslations } from './translation.tables.js';
import type { ProductRow } from './sandbox-product.repository.js';

export type ShopLocaleRow = typeof sandboxShopLocales.$inferSelect;
export type TranslationRow = typeof sandboxTranslations.$inferSelect;

/** Every store's primary locale until its merchant changes it (the sandbox has no admin to change it in). */
export const PRIMARY_LOCALE = 'en';

export class SandboxTranslationRepository {
  constructor(private readonly db: Db) {}

  /** The store's locales, primary first, then by code; the primary `en` is made on first use. */
  async locales(storeId: number): Promise<ShopLocaleRow[]> {
    const read = () =>
      this.db
        .select()
        .from(sandboxShopLocales)
        .where(eq(sandboxShopLocales.storeId, storeId))
        .orderBy(sql`${sandboxShopLocales.primary} DESC`, asc(sandboxShopLocales.locale));
    let rows = await read();
    if (!rows.some((r) => r.primary)) {
      await this.db
        .insert(sandboxShopLocales)
        .values({ storeId, locale: PRIMARY_LOCALE, primary: true, published: true })
        .onConflictDoNothing({ target: [sandboxShopLocales.storeId, sandboxShopLocales.locale] });
      rows = await read();
    }
    return rows;
  }

  /** A new, unpublished locale; null when the store has it already. */
  async enable(storeId: number, locale: string): Promise<ShopLocaleRow | null> {
    const [row] = await this.db.insert(sandboxShopLocales).values({ storeId, locale, primary: false, published: false }).onConflictDoNothing().returning();
    return row ?? null;
  }

  async setPublished(storeId: number, locale: string, published: boolean): Promise<ShopLocaleRow | null> {
    const [row] = await this.db
      .update(sandboxShopLocales)
      .set({ published })
      .where(and(eq(sandboxShopLocales.storeId, storeId), eq(sandboxShopLocales.locale, locale)))
      .returning();
    return row ?? null;
  }

  /** Removes a (non-primary) locale and every translation into it, in one transaction. */
  async disable(storeId: number, locale: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const gone = await tx
        .delete(sandboxShopLocales)
        .where(and(eq(sandboxShopLocales.storeId, storeId), eq(sandboxShopLocales.locale, locale), eq(sandboxShopLocales.primary, false)))
        .returning({ locale: sandboxShopLocales.locale });
      if (gone.length === 0) return false;
      await tx.delete(sandboxTranslations).where(and(eq(sandboxTranslations.storeId, storeId), eq(sandboxTranslations.locale, locale)));
      return true;
    });
  }

  /** The resource's translations into `locale` (every locale when null), by key. */
  async translations(storeId: number, resourceId: string, locale: string | null): Promise<TranslationRow[]> {
    return this.db
      .select()
      .from(sandboxTranslations)
      .where(
        and(
          eq(sandboxTranslations.storeId, storeId),
          eq(sandboxTranslations.resourceId, resourceId),
          ...(locale !== null ? [eq(sandboxTranslations.locale, locale)] : []),
        ),
      )
      .orderBy(asc(sandboxTranslations.locale), asc(sandboxTranslations.key));
  }

  /** Creates or replaces the translations (one statement); returns them as stored. */
  async register(
    storeId: number,
    resourceId: string,
    rows: { key: string; locale: string; value: string; digest: string }[],
    at: Date,
  ): Promise<TranslationRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insert(sandboxTranslations)
      .values(rows.map((r) => ({ storeId, resourceId, ...r, updatedAt: at })))
      .onConflictDoUpdate({
        target: [sandboxTranslations.storeId, sandboxTranslations.resourceId, sandboxTranslations.locale, sandboxTranslations.key],
        set: { value: sql`excluded.value`, digest: sql`excluded.digest`, updatedAt: sql`excluded.updated_at` },
      })
      .returning();
  }

  /** Deletes the translations of these keys into these locales; returns those deleted. */
  async remove(storeId: number, resourceId: string, keys: string[], locales: string[]): Promise<TranslationRow[]> {
    if (keys.length === 0 || locales.length === 0) return [];
    return this.db
      .delete(sandboxTranslations)
      .where(
        and(
          eq(sandboxTranslations.storeId, storeId),
          eq(sandboxTranslations.resourceId, resourceId),
          inArray(sandboxTranslations.key, keys),
          inArray(sandboxTranslations.locale, locales),
        ),
      )
      .returning();
  }

  /** The store's products after `afterId`, by id (translatableResources of type PRODUCT). */
  async products(storeId: number, afterId: number, limit: number, ids?: number[]): Promise<ProductRow[]> {
    if (ids && ids.length === 0) return [];
    return this.db
      .select()
      .from(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), gt(sandboxProducts.id, afterId), ...(ids ? [inArray(sandboxProducts.id, ids)] : [])))
      .orderBy(asc(sandboxProducts.id))
      .limit(limit);
  }
}
