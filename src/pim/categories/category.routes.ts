import type { FastifyReply } from 'fastify';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
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
  app.get(
    '/api/categories',
    {
      schema: {
        tags,
        summary: 'List categories, all or the children of one parent',
        querystring: CategoryListQuery,
        response: pimResponses(200, CategoryList),
      },
    },
    async (req, reply) => okJson(reply, await categories.list(req.pim.organizationId, req.query.parent_id)),
  );

  app.get(
    '/api/categories/tree',
    { schema: { tags, summary: 'The whole category tree, nested', response: pimResponses(200, CategoryTree) } },
    async (req, reply) => okJson(reply, await categories.tree(req.pim.organizationId)),
  );

  app.get('/api/categories/:id', { schema: { tags, summary: 'Get a category', params: IdParams, response: pimResponses(200, Category) } }, async (req) =>
    ok(await categories.get(req.pim.organizationId, req.params.id)),
  );

  app.post(
    '/api/categories',
    { schema: { tags, summary: 'Create a category (appended as the last child of its parent)', body: CategoryCreate, response: pimResponses(201, Category) } },
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
        summary: 'Change name, description or parent of a category (fields not sent stay)',
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
        summary: 'Delete a category without children; its products are unassigned',
        params: IdParams,
        response: pimResponses(200, CategoryDeleted),
      },
    },
    async (req) => ok(await categories.delete(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/categories/:id/children',
    { schema: { tags, summary: 'The direct children of a category', params: IdParams, response: pimResponses(200, CategoryList) } },
    async (req) => ok(await categories.children(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/categories/:id/products',
    {
      schema: {
        tags,
        summary: 'Products assigned to a category, paginated as the product list',
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
        summary: 'Assign products to a category (all or none)',
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
        summary: 'Move a category under another parent (null: to the root) at a position',
        params: IdParams,
        body: CategoryMove,
        response: pimResponses(200, Category),
      },
    },
    async (req) => ok(await categories.move(req.pim.organizationId, req.params.id, req.body)),
  );
}
