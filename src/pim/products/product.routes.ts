import { Type } from '@sinclair/typebox';
import type { App } from '../../server/kernel/app-type.js';
import { ok } from '../pim.types.js';
import { IdParams, pimResponses } from '../pim.schemas.js';
import type { ProductService } from './product.service.js';
import { ProductWithIncludes, ProductWithIncludesList } from './product-with-includes.schema.js';
import { Product, ProductCreate, ProductGetQuery, ProductListQuery, ProductPatch, Translation, TranslationBody, TranslationParams } from './product.schemas.js';

const tags = ['Products'];

export function productRoutes(app: App, products: ProductService): void {
  app.get(
    '/api/products',
    { schema: { tags, summary: 'List products', querystring: ProductListQuery, response: pimResponses(200, ProductWithIncludesList) } },
    async (req) => ok(await products.list(req.pim.organizationId, req.query)),
  );

  app.get(
    '/api/products/:id',
    { schema: { tags, summary: 'Get a product', params: IdParams, querystring: ProductGetQuery, response: pimResponses(200, Type.Ref(ProductWithIncludes)) } },
    async (req) => ok(await products.get(req.pim.organizationId, req.params.id, req.query.locale ?? null, req.query.include)),
  );

  app.post(
    '/api/products',
    { schema: { tags, summary: 'Create a product', body: ProductCreate, response: pimResponses(201, Type.Ref(Product)) } },
    async (req, reply) => {
      reply.code(201);
      return ok(await products.create(req.pim.organizationId, req.body));
    },
  );

  app.patch(
    '/api/products/:id',
    { schema: { tags, summary: 'Change some fields of a product', params: IdParams, body: ProductPatch, response: pimResponses(200, Type.Ref(Product)) } },
    async (req) => ok(await products.update(req.pim.organizationId, req.params.id, req.body)),
  );

  app.delete(
    '/api/products/:id',
    { schema: { tags, summary: 'Archive a product (soft delete)', params: IdParams, response: pimResponses(200, Type.Ref(Product)) } },
    async (req) => ok(await products.archive(req.pim.organizationId, req.params.id)),
  );

  app.put(
    '/api/products/:id/translations/:locale',
    { schema: { tags, summary: 'Set a translation of a product', params: TranslationParams, body: TranslationBody, response: pimResponses(200, Translation) } },
    async (req) => ok(await products.putTranslation(req.pim.organizationId, req.params.id, req.params.locale, req.body)),
  );

  app.delete(
    '/api/products/:id/translations/:locale',
    {
      schema: {
        tags,
        summary: 'Remove a translation of a product',
        params: TranslationParams,
        response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })),
      },
    },
    async (req) => {
      await products.deleteTranslation(req.pim.organizationId, req.params.id, req.params.locale);
      return ok({ deleted: true });
    },
  );
}
