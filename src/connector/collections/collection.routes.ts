// GET /api/collections (read scope): the shop collection the bridge made for each PIM category. POST
// /api/collections/reconcile (write scope): compares them with the PIM's categories now (the collection of a deleted
// category or of one without products is deleted, a renamed one's renamed) instead of waiting for the delta sync.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { IGNORED_BODY } from '../../http/route-docs.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses, Timestamp } from '../connector.schemas.js';
import { ymdHis } from '../timestamps.js';
import type { CategoryCollectionService } from './category-collection.service.js';

const Collection = Type.Object({
  pim_category_id: Type.Integer(),
  storefront_collection_id: Type.Integer({ description: "the shop collection's numeric id" }),
  storefront_collection_gid: Type.String({ description: 'e.g. gid://shopify/Collection/1' }),
  title: Type.String({ description: 'the category name the bridge last wrote as the title' }),
  handle: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Reconciled = Type.Object({
  renamed: Type.Integer(),
  deleted: Type.Integer(),
  kept: Type.Integer(),
});

export function collectionRoutes(app: App, collections: Pick<CategoryCollectionService, 'list' | 'reconcileNow'>): void {
  app.get(
    '/api/collections',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Collections'],
        security: bearer,
        operationId: 'listCollections',
        summary: "The shop's custom collections the bridge made for PIM categories",
        description:
          'Lists the custom collection the bridge made in the shop for each PIM category, with its ids, title (the category name last written) and handle. Needs a connector token with the read scope (or a console session).',
        response: connectorResponses(Type.Object({ collections: Type.Array(Collection), total: Type.Integer() })),
      },
    },
    async (req) => {
      const rows = await collections.list(req.connector!.integrationId);
      const list = rows.map((r) => ({
        pim_category_id: r.pimCategoryId,
        storefront_collection_id: Number(/\d+$/.exec(r.storefrontCollectionId)?.[0] ?? 0),
        storefront_collection_gid: r.storefrontCollectionId,
        title: r.title,
        handle: r.handle,
        created_at: ymdHis(r.createdAt)!,
        updated_at: ymdHis(r.updatedAt)!,
      }));
      return success('Collections retrieved', { collections: list, total: list.length });
    },
  );

  app.post(
    '/api/collections/reconcile',
    {
      config: { access: 'write', openapi: IGNORED_BODY },
      schema: {
        tags: ['Collections'],
        security: bearer,
        operationId: 'reconcileCollections',
        summary: "Reconcile the category collections with the PIM's categories",
        description:
          "Compares the collections with the PIM's categories now, instead of waiting for the next sync: deletes those of deleted categories and of categories without products, renames those of renamed ones, and answers the counts renamed, deleted and kept. Needs a connector token with the write scope (or a console session). Errors: CONNECTION_FAILED (503) when the PIM or the shop cannot be reached.",
        response: connectorResponses(Reconciled),
      },
    },
    async (req) => success('Collections reconciled', await collections.reconcileNow(req.connector!.integrationId)),
  );
}
