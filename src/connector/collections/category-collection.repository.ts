// SQL for category_collections: which shop collection the bridge made for each PIM category of an integration.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { categoryCollections } from '../mapping.tables.js';

export interface CategoryCollectionRow {
  pimCategoryId: number;
  storefrontCollectionId: string;
  title: string;
  handle: string;
  createdAt: Date;
  updatedAt: Date;
}

export class CategoryCollectionRepository {
  constructor(private readonly db: Db) {}

  async list(integrationId: number): Promise<CategoryCollectionRow[]> {
    return this.db
      .select({
        pimCategoryId: categoryCollections.pimCategoryId,
        storefrontCollectionId: categoryCollections.storefrontCollectionId,
        title: categoryCollections.title,
        handle: categoryCollections.handle,
        createdAt: categoryCollections.createdAt,
        updatedAt: categoryCollections.updatedAt,
      })
      .from(categoryCollections)
      .where(eq(categoryCollections.integrationId, integrationId))
      .orderBy(asc(categoryCollections.pimCategoryId));
  }

  /** Records (or, for a category already recorded, replaces) the category's collection. */
  async save(integrationId: number, row: { pimCategoryId: number; storefrontCollectionId: string; title: string; handle: string }): Promise<void> {
    await this.db
      .insert(categoryCollections)
      .values({ integrationId, ...row })
      .onConflictDoUpdate({
        target: [categoryCollections.integrationId, categoryCollections.pimCategoryId],
        set: { storefrontCollectionId: row.storefrontCollectionId, title: row.title, handle: row.handle, updatedAt: sql`now()` },
      });
  }

  async remove(integrationId: number, pimCategoryId: number): Promise<void> {
    await this.db
      .delete(categoryCollections)
      .where(and(eq(categoryCollections.integrationId, integrationId), eq(categoryCollections.pimCategoryId, pimCategoryId)));
  }
}
