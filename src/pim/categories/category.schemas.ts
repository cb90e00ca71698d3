import { Type, type Static } from '@sinclair/typebox';
import { Id, MAX_INT, Nullable, Text } from '../pim.schemas.js';
import { ProductListQuery } from '../products/product.schemas.js';

/** Deepest allowed level (roots are level 0): keeps paths short and the nested tree far from any recursion limit. */
export const MAX_LEVEL = 31;

const recordFields = {
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  parent_id: Nullable(Type.Integer()),
  position: Type.Integer({ description: 'place among its siblings, 0-based and contiguous' }),
  level: Type.Integer({ description: 'depth in the tree; root categories are level 0' }),
  path: Type.Array(Type.Integer(), { description: 'ids from the root down to and including this category' }),
  children_count: Type.Integer(),
  product_count: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const Category = Type.Object(recordFields);
export type CategoryView = Static<typeof Category>;

/** A category with its sub-categories, recursively (fast-json-stringify follows the self-reference). */
export const CategoryNode = Type.Recursive((Self) => Type.Object({ ...recordFields, children: Type.Array(Self) }), { $id: 'CategoryNode' });

export const CategoryList = Type.Object({ categories: Type.Array(Category), total: Type.Integer() });
export const CategoryTree = Type.Object({
  categories: Type.Array(CategoryNode, { description: 'the root categories, each with its children nested, ordered by position' }),
  total: Type.Integer({ description: 'number of categories in the whole tree' }),
});

export const CategoryListQuery = Type.Object({
  parent_id: Type.Optional(
    Type.String({
      pattern: '^(null|0|[1-9]\\d{0,9})$',
      description: 'only the children of this category; `0` or `null` for the root categories; absent for all',
      errorMessage: 'must be a category id, or 0 or null for the root categories',
    }),
  ),
});

/** page, limit (and locale) exactly as on the product list. */
export const CategoryProductsQuery = Type.Pick(ProductListQuery, ['page', 'limit', 'locale']);
export type CategoryProductsQueryInput = Static<typeof CategoryProductsQuery>;

const name = Text(255, { minLength: 1 });
const description = Nullable(Text(65_535));
const parentId = Nullable(Id('parent category id; null for a root category'));

export const CategoryCreate = Type.Object(
  { name, description: Type.Optional(description), parent_id: Type.Optional(parentId) },
  { additionalProperties: false },
);
export type CategoryCreateInput = Static<typeof CategoryCreate>;

export const CategoryUpdate = Type.Object(
  { name: Type.Optional(name), description: Type.Optional(description), parent_id: Type.Optional(parentId) },
  { additionalProperties: false, minProperties: 1, errorMessage: { minProperties: 'must carry name, description or parent_id' } },
);
export type CategoryUpdateInput = Static<typeof CategoryUpdate>;

export const CategoryMove = Type.Object(
  {
    parent_id: parentId,
    position: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_INT, description: '0-based place among the new siblings; absent or past the end appends' }),
    ),
  },
  { additionalProperties: false },
);
export type CategoryMoveInput = Static<typeof CategoryMove>;

export const CategoryAssign = Type.Object(
  { product_ids: Type.Array(Id('product id'), { minItems: 1, maxItems: 1000, uniqueItems: true }) },
  { additionalProperties: false },
);
export type CategoryAssignInput = Static<typeof CategoryAssign>;

export const CategoryAssignResult = Type.Object({
  category_id: Type.Integer(),
  product_ids: Type.Array(Type.Integer(), { description: 'the products of the request, all now assigned' }),
  assigned: Type.Integer({ description: 'how many of them were not assigned before' }),
  product_count: Type.Integer({ description: 'products in the category now' }),
});

export const CategoryDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean(), unassigned_products: Type.Integer() });
