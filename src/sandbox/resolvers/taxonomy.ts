// Shopify's Standard Product Taxonomy as the sandbox knows it (taxonomy-data.ts, a subset): `taxonomy { categories }`
// and the TaxonomyCategory objects Product.category answers. Rules (schema 2026-10, Taxonomy.categories): "If a `search`
// argument is provided, then all categories that match the search query globally are returned. If a `children_of`
// argument is provided, then all children of the specified category are returned. If a `siblings_of` argument is
// provided, then all siblings of the specified category are returned. If a `decendents_of` argument is provided, then
// all descendents of the specified category are returned. If no arguments are provided, then all the top-level
// categories of the taxonomy are returned." The sandbox's search: every word of the query (split on spaces and `>`) in
// the category's full name, without case (Shopify's own matching is not documented further). Category attributes are not
// emulated.
import { GraphQLError } from 'graphql';
import { notEmulated } from '../not-emulated.js';
import { TAXONOMY, TAXONOMY_GID_PREFIX, taxonomyNode, type TaxonomyNode } from '../taxonomy-data.js';
import { listConnection, type PageArgs } from './connection.js';
import type { ResolverModule } from './types.js';

const gid = (id: string) => `${TAXONOMY_GID_PREFIX}${id}`;
const position = new Map(TAXONOMY.map((n, i) => [n.id, i + 1]));

/** A category as GraphQL answers it. */
export function taxonomyCategoryObject(node: TaxonomyNode): Record<string, unknown> {
  return {
    __typename: 'TaxonomyCategory',
    id: gid(node.id),
    name: node.name,
    fullName: node.fullName,
    parentId: node.parentId ? gid(node.parentId) : null,
    ancestorIds: node.ancestorIds.map(gid),
    childrenIds: node.childrenIds.map(gid),
    isLeaf: node.childrenIds.length === 0,
    isRoot: node.parentId === null,
    isArchived: false,
    level: node.level,
    attributes: () => {
      throw notEmulated('TaxonomyCategory.attributes');
    },
  };
}

function byGid(value: unknown, argument: string): TaxonomyNode {
  const node = typeof value === 'string' && value.startsWith(TAXONOMY_GID_PREFIX) ? taxonomyNode(value) : undefined;
  if (!node) throw new GraphQLError(`Invalid ${argument}: ${String(value)} is not a taxonomy category`, { extensions: { code: 'BAD_REQUEST' } });
  return node;
}

function categories(args: PageArgs & { search?: string | null; childrenOf?: string | null; descendantsOf?: string | null; siblingsOf?: string | null }) {
  let rows: TaxonomyNode[];
  if (args.search != null) {
    const words = args.search
      .toLowerCase()
      .split(/[\s>]+/)
      .filter(Boolean);
    rows = TAXONOMY.filter((n) => words.every((w) => n.fullName.toLowerCase().includes(w)));
  } else if (args.childrenOf != null) {
    const parent = byGid(args.childrenOf, 'childrenOf');
    rows = TAXONOMY.filter((n) => n.parentId === parent.id);
  } else if (args.descendantsOf != null) {
    const root = byGid(args.descendantsOf, 'descendantsOf');
    rows = TAXONOMY.filter((n) => n.ancestorIds.includes(root.id));
  } else if (args.siblingsOf != null) {
    const me = byGid(args.siblingsOf, 'siblingsOf');
    rows = TAXONOMY.filter((n) => n.parentId === me.parentId && n.id !== me.id);
  } else {
    rows = TAXONOMY.filter((n) => n.parentId === null);
  }
  return listConnection(
    rows,
    args,
    (n) => position.get(n.id)!,
    (n) => taxonomyCategoryObject(n),
  );
}

export const taxonomyResolvers: ResolverModule = {
  query: {
    taxonomy: async () => ({ __typename: 'Taxonomy', categories }),
  },
};
