import type { FastifyReply } from 'fastify';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { ProductList } from '../products/product.schemas.js';
import {
  Category,
  CategoryAssign,
  CategoryAssignResult,
  CategoryCreate,
  CategoryDeleted,
  CategoryList,
  CategoryListQuery,
  CategoryMove,
  CategoryProductsQuery,
  CategoryTree,
  CategoryUpdate,
} from './category.schemas.js';
import { JsonText, type CategoryService } from './category.service.js';

const tags = ['Categories'];

/** The success envelope; `data` that the service already serialized goes out as text, past the response serializer. */
function okJson<T>(reply: FastifyReply, data: T | JsonText): ReturnType<typeof ok<Exclude<T, JsonText>>> {
  if (!(data instanceof JsonText)) return ok(data as Exclude<T, JsonText>);
  reply.type('application/json; charset=utf-8');
  return `{"status":1,"data":${data.text},"error":null}` as never;
}

export function categoryRoutes(app: App, categories: CategoryService): void {
  readRoutes(app, categories);
  writeRoutes(app, categories);
  relationRoutes(app, categories);
}

/** Reading categories: the list, the tree, one. */
function readRoutes(app: App, categories: CategoryService): void {
  app.get(
    '/api/categories',
    {
      schema: {
        tags,
        operationId: 'listCategories',
        summary: 'List categories, all or the children of one parent',
        description:
          "Lists all categories as {categories, total}, ordered by parent (roots first), position and id; parent_id gives one parent's children (0 or null: the root categories). Requires an API key (X-API-KEY) or a console session; 400 for an invalid parent_id.",
        querystring: CategoryListQuery,
        response: pimResponses(200, CategoryList),
      },
    },
    async (req, reply) => okJson(reply, await categories.list(req.pim.organizationId, req.query.parent_id)),
  );

  app.get(
    '/api/categories/tree',
    {
      schema: {
        tags,
        operationId: 'getCategoryTree',
        summary: 'Get the whole category tree, nested',
        description: 'Returns every category with its children nested in `children`, by position. Requires an API key (X-API-KEY) or a console session.',
        response: pimResponses(200, CategoryTree),
      },
    },
    async (req, reply) => okJson(reply, await categories.tree(req.pim.organizationId)),
  );

  app.get(
    '/api/categories/:id',
    {
      schema: {
        tags,
        operationId: 'getCategory',
        summary: 'Get a category',
        description:
          'Returns one category with its level, path (the ids from the root down to it), position and counts of children and products. Requires an API key (X-API-KEY) or a console session; 404 for an unknown category.',
        params: IdParams,
        response: pimResponses(200, Category),
      },
    },
    async (req) => ok(await categories.get(req.pim.organizationId, req.params.id)),
  );
}

/** Creating, changing and deleting a category. */
function writeRoutes(app: App, categories: CategoryService): void {
  app.post(
    '/api/categories',
    {
      schema: {
        tags,
        operationId: 'createCategory',
        summary: 'Create a category',
        description:
          'Creates a category (name required, description, parent_id) appended as the last child of its parent, and answers 201 with it. Requires an API key (X-API-KEY) or a console session; 400 for an invalid field, an unknown parent or a tree deeper than 32 levels.',
        body: CategoryCreate,
        response: pimResponses(201, Category),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await categories.create(req.pim.organizationId, req.body));
    },
  );

  app.put(
    '/api/categories/:id',
    {
      schema: {
        tags,
        operationId: 'updateCategory',
        summary: 'Change name, description or parent of a category',
        description:
          "Partial update: fields not sent stay as they are, and a new parent_id appends the category as that parent's last child. Requires an API key (X-API-KEY) or a console session; 404 for an unknown category, 400 for an unknown parent, a parent that is the category itself or below it, or a tree deeper than 32 levels.",
        params: IdParams,
        body: CategoryUpdate,
        response: pimResponses(200, Category),
      },
    },
    async (req) => ok(await categories.update(req.pim.organizationId, req.params.id, req.body)),
  );

  app.delete(
    '/api/categories/:id',
    {
      schema: {
        tags,
        operationId: 'deleteCategory',
        summary: 'Delete a category without children',
        description:
          'Deletes the category and unassigns its products, answering {id, deleted, unassigned_products}. Requires an API key (X-API-KEY) or a console session; 400 when the category has children, 404 for an unknown category.',
        params: IdParams,
        response: pimResponses(200, CategoryDeleted),
      },
    },
    async (req) => ok(await categories.delete(req.pim.organizationId, req.params.id)),
  );
}

/** A category's children and products, and moving it in the tree. */
function relationRoutes(app: App, categories: CategoryService): void {
  app.get(
    '/api/categories/:id/children',
    {
      schema: {
        tags,
        operationId: 'listCategoryChildren',
        summary: 'List the direct children of a category',
        description:
          "Returns the category's direct children by position, as {categories, total}. Requires an API key (X-API-KEY) or a console session; 404 for an unknown category.",
        params: IdParams,
        response: pimResponses(200, CategoryList),
      },
    },
    async (req) => ok(await categories.children(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/categories/:id/products',
    {
      schema: {
        tags,
        operationId: 'listCategoryProducts',
        summary: 'List the products assigned to a category',
        description:
          'Returns the products assigned to the category, paginated as the product list is (page, limit). Requires an API key (X-API-KEY) or a console session; 404 for an unknown category.',
        params: IdParams,
        querystring: CategoryProductsQuery,
        response: pimResponses(200, ProductList),
      },
    },
    async (req) => ok(await categories.listProducts(req.pim.organizationId, req.params.id, req.query)),
  );

  app.post(
    '/api/categories/:id/products',
    {
      schema: {
        tags,
        operationId: 'assignCategoryProducts',
        summary: 'Assign products to a category (all or none)',
        description:
          'Body {product_ids} (1-1000): assigns them all or none (products already assigned are fine) and answers {category_id, product_ids, assigned, product_count}. Requires an API key (X-API-KEY) or a console session; 400 naming the unknown products (nothing is then assigned), 404 for an unknown category.',
        params: IdParams,
        body: CategoryAssign,
        response: pimResponses(200, CategoryAssignResult),
      },
    },
    async (req) => ok(await categories.assign(req.pim.organizationId, req.params.id, req.body)),
  );

  app.post(
    '/api/categories/:id/move',
    {
      schema: {
        tags,
        operationId: 'moveCategory',
        summary: 'Move a category under another parent at a position',
        description:
          'Body {parent_id, position?}: parent_id null moves it to the root; no position, or one past the end, appends it; the old and new siblings are renumbered. Requires an API key (X-API-KEY) or a console session; 404 for an unknown category, 400 for an unknown parent, a move under itself or a tree deeper than 32 levels.',
        params: IdParams,
        body: CategoryMove,
        response: pimResponses(200, Category),
      },
    },
    async (req) => ok(await categories.move(req.pim.organizationId, req.params.id, req.body)),
  );
}
