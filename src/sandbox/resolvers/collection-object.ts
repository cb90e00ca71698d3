// The Collection object (rules in sandbox-collection.service.ts). Products become Product objects through a function
// passed in (products.ts's productObject), so that products.ts can import this file for Product.collections without a
// cycle.
import type { CollectionMetafieldRow, CollectionRow } from '../sandbox-collection.repository.js';
import { collectionGid, sourceGid } from '../sandbox-collection.service.js';
import type { ProductRow } from '../sandbox-product.repository.js';
import { gidNumber } from '../gid.js';
import type { ProductPublicationRow } from '../sandbox-publication.repository.js';
import { dateTime, listConnection, type PageArgs } from './connection.js';
import { metafieldObject } from './metafield-object.js';
import { plainText } from './html-text.js';
import { publicationObject, type ProductNode } from './publishable.js';
import type { SandboxContext } from './types.js';

type ListArgs = PageArgs & { reverse?: boolean | null };

const isPublished = (r: ProductPublicationRow) => new Date(r.publishedAt).getTime() <= Date.now();

/** The collection's Publishable fields, from sandbox_collection_publications (as publishable.ts answers a product's). */
function publishableFields(collection: CollectionRow, self: () => unknown, ctx: SandboxContext, node: ProductNode): Record<string, unknown> {
  let loaded: ReturnType<SandboxContext['collections']['publicationsOf']> | null = null;
  const rows = () => (loaded ??= ctx.collections.publicationsOf(collection.id));
  const chosen = async (onlyPublished: boolean | null | undefined) => (await rows()).filter((r) => onlyPublished === false || isPublished(r));
  const publication = (r: ProductPublicationRow) => publicationObject(r.publication, ctx, node);
  // Collection supports APP catalogs only (schema 2026-10, Collection.resourcePublicationsV2 catalogType "Has no effect on
  // Collection, which only supports APP").
  const list = async (args: ListArgs & { onlyPublished?: boolean | null }, v2: boolean) => {
    const all = await chosen(args.onlyPublished);
    return listConnection(
      args.reverse ? [...all].reverse() : all,
      args,
      (r) => r.publication.id,
      (r) => ({
        __typename: v2 ? 'ResourcePublicationV2' : 'ResourcePublication',
        // ResourcePublication.isPublished "Also returns true if the resource publication is scheduled to be published";
        // ResourcePublicationV2.isPublished "If false, then the resource publication is staged to be published".
        isPublished: v2 ? isPublished(r) : true,
        publishDate: dateTime(r.publishedAt),
        publication: publication(r),
        publishable: self,
      }),
    );
  };
  return {
    publishedOnPublication: async ({ publicationId }: { publicationId: string }) => {
      const id = gidNumber(publicationId, 'Publication');
      return (await chosen(true)).some((r) => r.publication.id === id);
    },
    resourcePublications: (args: ListArgs & { onlyPublished?: boolean | null }) => list(args, false),
    resourcePublicationsV2: (args: ListArgs & { onlyPublished?: boolean | null }) => list(args, true),
    resourcePublicationsCount: async ({ onlyPublished }: { onlyPublished?: boolean | null }) => ({
      count: (await chosen(onlyPublished)).length,
      precision: 'EXACT',
    }),
    // The sandbox has no feedback errors, so every publication counts.
    availablePublicationsCount: async () => ({ count: (await chosen(true)).length, precision: 'EXACT' }),
    publicationCount: async ({ onlyPublished }: { onlyPublished?: boolean | null }) => (await chosen(onlyPublished)).length,
    unpublishedPublications: async (args: ListArgs) => {
      const on = new Set((await chosen(true)).map((r) => r.publication.id));
      const all = (await ctx.publications.list(ctx.store.id, 0, 10_000)).filter((r) => !on.has(r.id));
      return listConnection(
        args.reverse ? all.reverse() : all,
        args,
        (r) => r.id,
        (r) => publicationObject(r, ctx, node),
      );
    },
  };
}

export function collectionObject(row: CollectionRow, ctx: SandboxContext, node: ProductNode): Record<string, unknown> {
  const service = ctx.collections;
  const productPage = productPageOf(row, ctx, node);
  let metafields: Promise<CollectionMetafieldRow[]> | null = null;
  const allMetafields = () => (metafields ??= service.metafields(row.id));
  const self: Record<string, unknown> = {
    __typename: 'Collection',
    id: collectionGid(row.id),
    legacyResourceId: String(row.id),
    title: row.title,
    handle: row.handle,
    descriptionHtml: row.descriptionHtml,
    description: ({ truncateAt }: { truncateAt?: number | null }) => {
      const text = plainText(row.descriptionHtml);
      return truncateAt != null && text.length > truncateAt ? `${text.slice(0, truncateAt)}…` : text;
    },
    sortOrder: row.sortOrder,
    templateSuffix: row.templateSuffix,
    seo: row.seo,
    image: null,
    feedback: null,
    updatedAt: dateTime(row.updatedAt),
    // A custom collection has no rules (schema 2026-10, Collection.ruleSet "the rules that determine whether a product is included").
    ruleSet: null,
    products: productPage,
    productsCount: async () => ({ count: await service.countProducts(row.id), precision: 'EXACT' }),
    hasProduct: ({ id }: { id: string }) => service.hasProduct(row.id, id),
    metafield: async ({ namespace, key }: { namespace?: string | null; key: string }) => {
      const m = (await allMetafields()).find((x) => x.namespace === (namespace ?? '$app') && x.key === key);
      return m ? metafieldObject(m, 'COLLECTION') : null;
    },
    metafields: async (args: ListArgs & { namespace?: string | null; keys?: string[] | null }) => {
      const all = (await allMetafields()).filter(
        (m) => (args.namespace == null || m.namespace === args.namespace) && (args.keys == null || args.keys.includes(`${m.namespace}.${m.key}`)),
      );
      return listConnection(
        args.reverse ? all.reverse() : all,
        args,
        (m) => m.id,
        (m) => metafieldObject(m, 'COLLECTION'),
      );
    },
    // The one source of manual selections the sandbox keeps per collection (sandbox-collection.service.ts).
    sources: () => [manualSource(row, productPage)],
  };
  Object.assign(
    self,
    publishableFields(row, () => self, ctx, node),
  );
  return self;
}

type ProductPage = (args: ListArgs & { sortKey?: string | null }) => Promise<ReturnType<typeof listConnection>>;

/** A page of the collection's products in a sort order. */
function productPageOf(row: CollectionRow, ctx: SandboxContext, node: ProductNode): ProductPage {
  const service = ctx.collections;
  return async (args) => {
    const ids = await service.productIds(row, args.sortKey, args.reverse === true);
    // Only the page's products are read.
    const page = listConnection(
      ids,
      args,
      (id) => id,
      (id) => id,
    );
    const rows = new Map((await service.products(ctx.store.id, page.nodes as number[])).map((p) => [p.id, p]));
    const nodes = (page.nodes as number[]).map((id) => node(rows.get(id) as ProductRow));
    return { ...page, nodes, edges: page.edges.map((e, i) => ({ node: nodes[i], cursor: e.cursor })) };
  };
}

/** The collection's one source of manual selections, its products in manual order. */
function manualSource(row: CollectionRow, productPage: ProductPage): Record<string, unknown> {
  return {
    __typename: 'CollectionConditionsSource',
    id: sourceGid(row.id),
    title: 'Manual selections',
    description: null,
    app: null,
    shareable: false,
    targetType: 'PRODUCTS',
    exclusion: null,
    inclusion: {
      conditions: [],
      matchType: null,
      selections: async (args: ListArgs) => {
        const page = await productPage({ ...args, sortKey: 'MANUAL' });
        const wrap = (product: unknown) => ({ __typename: 'CollectionInclusionProductSelection', product, variantIds: null });
        return { ...page, nodes: page.nodes.map(wrap), edges: page.edges.map((e) => ({ ...e, node: wrap(e.node) })) };
      },
    },
    products: (args: ListArgs) => productPage({ ...args, sortKey: 'MANUAL' }),
  };
}
