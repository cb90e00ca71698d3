// Publication objects and a product's Publishable fields (publishedOnPublication, resourcePublicationsV2, publishedAt,
// onlineStoreUrl, counts), read from the product's rows in sandbox_product_publications. A row whose date is still
// ahead is a scheduled publication: not published yet (schema 2026-10: ResourcePublicationV2.isPublished "If false,
// then the resource publication is staged to be published to the publication").
import { GraphQLError } from 'graphql';
import type { ProductRow } from '../sandbox-product.repository.js';
import { gidNumber } from '../gid.js';
import type { ProductPublicationRow, PublicationRow } from '../sandbox-publication.repository.js';
import { publicationGid } from '../sandbox-publication.service.js';
import { connection, dateTime, page, type PageArgs } from './connection.js';
import type { SandboxContext } from './types.js';

/** How a product row becomes a Product object (products.ts's productObject; passed in to keep imports one-way). */
export type ProductNode = (row: ProductRow) => unknown;

type ListArgs = PageArgs & { reverse?: boolean | null };

/** The sandbox pages forwards only. */
export function forwardPage(args: ListArgs) {
  if (args.reverse) throw new GraphQLError('The Pimbridge sandbox does not emulate reverse: true yet', { extensions: { code: 'NOT_IMPLEMENTED' } });
  return page(args);
}

/** A sales channel's publication; its catalog is an AppCatalog (schema 2026-10: AppCatalog "A catalog that defines the publication associated with an app"). */
export function publicationObject(row: PublicationRow, ctx: SandboxContext, node: ProductNode): Record<string, unknown> {
  const publication: Record<string, unknown> = {
    __typename: 'Publication',
    id: publicationGid(row.id),
    // Deprecated in 2026-10 (the catalog's title replaces it) but still answered, as Shopify does.
    name: row.name,
    autoPublish: row.autoPublish,
    supportsFuturePublishing: ctx.publications.supportsFuturePublishing(row),
    catalog: {
      __typename: 'AppCatalog',
      id: `gid://shopify/AppCatalog/${row.id}`,
      title: row.name,
      status: 'ACTIVE',
      priceList: null,
      operations: [],
      publication: () => publication,
    },
    operation: null,
    // schema 2026-10, Publication.hasCollection: "Whether the collection is available to the publication" (published on it).
    hasCollection: async ({ id }: { id: string }) => {
      const collection = await ctx.collections.find(ctx.store.id, id);
      return collection !== null && (await ctx.collections.isPublishedOn(row.id, collection.id));
    },
    products: async (args: ListArgs & { query?: string | null; sortKey?: string | null; savedSearchId?: string | null }) => {
      if (args.query != null || args.savedSearchId != null || (args.sortKey != null && args.sortKey !== 'ID')) {
        throw new GraphQLError('The Pimbridge sandbox does not emulate Publication.products(query:, savedSearchId:, sortKey:) yet', {
          extensions: { code: 'NOT_IMPLEMENTED' },
        });
      }
      const p = forwardPage(args);
      const rows = await ctx.publications.productsOn(ctx.store.id, row.id, p.afterKey, p.fetch);
      return connection(p, rows, (r) => r.id, node, p.afterKey > 0);
    },
  };
  return publication;
}

const isPublished = (r: ProductPublicationRow) => new Date(r.publishedAt).getTime() <= Date.now();

/** The product's Publishable fields and the two that hang on its Online Store publication. */
export function publishableFields(product: ProductRow, ctx: SandboxContext, node: ProductNode): Record<string, unknown> {
  let loaded: Promise<ProductPublicationRow[]> | null = null;
  const rows = () => (loaded ??= ctx.publications.ofProduct(product.id));
  const chosen = async (onlyPublished: boolean | null | undefined) => (await rows()).filter((r) => onlyPublished === false || isPublished(r));
  const onlineStore = async () => (await rows()).find((r) => ctx.publications.isOnlineStore(r.publication) && isPublished(r)) ?? null;
  return {
    // schema 2026-10: Product.publishedAt "The date and time when the product was published to the online store."
    publishedAt: async () => {
      const r = await onlineStore();
      return r ? dateTime(r.publishedAt) : null;
    },
    // schema 2026-10: Product.onlineStoreUrl "If `null`, then the product isn't published to the online store sales
    // channel"; and only an active product is visible in a channel (ProductStatus.ACTIVE; publishablePublish's page).
    onlineStoreUrl: async () => ((await onlineStore()) && product.status === 'ACTIVE' ? `https://${ctx.store.domain}/products/${product.handle}` : null),
    publishedOnPublication: async ({ publicationId }: { publicationId: string }) => {
      const id = gidNumber(publicationId, 'Publication');
      return (await chosen(true)).some((r) => r.publication.id === id);
    },
    // catalogType defaults to APP; every sandbox publication is an app's (schema 2026-10: Product.resourcePublicationsV2).
    resourcePublicationsV2: async (args: ListArgs & { onlyPublished?: boolean | null; catalogType?: string | null }) => {
      const p = forwardPage(args);
      const all = args.catalogType == null || args.catalogType === 'APP' ? await chosen(args.onlyPublished) : [];
      const rest = all.filter((r) => r.publication.id > p.afterKey).slice(0, p.fetch);
      return connection(
        p,
        rest,
        (r) => r.publication.id,
        (r) => ({
          __typename: 'ResourcePublicationV2',
          isPublished: isPublished(r),
          publishDate: dateTime(r.publishedAt),
          publication: publicationObject(r.publication, ctx, node),
          publishable: () => node(product),
        }),
        p.afterKey > 0,
      );
    },
    unpublishedPublications: async (args: ListArgs) => {
      const p = forwardPage(args);
      const on = new Set((await chosen(true)).map((r) => r.publication.id));
      const all = await ctx.publications.list(ctx.store.id, p.afterKey, 10_000);
      const rest = all.filter((r) => !on.has(r.id)).slice(0, p.fetch);
      return connection(
        p,
        rest,
        (r) => r.id,
        (r) => publicationObject(r, ctx, node),
        p.afterKey > 0,
      );
    },
    resourcePublicationsCount: async ({ onlyPublished }: { onlyPublished?: boolean | null }) => ({
      count: (await chosen(onlyPublished)).length,
      precision: 'EXACT',
    }),
    // The sandbox has no feedback errors, so every publication counts.
    availablePublicationsCount: async () => ({ count: (await chosen(true)).length, precision: 'EXACT' }),
    publicationCount: async ({ onlyPublished }: { onlyPublished?: boolean | null }) => (await chosen(onlyPublished)).length,
  };
}
