import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { ok } from '../pim.types.js';
import { actorOf } from '../history/actor.js';
import { IdParams, pimResponses } from '../pim.schemas.js';
import type { ProductService } from './product.service.js';
import { ProductWithIncludes, ProductWithIncludesList } from './product-with-includes.schema.js';
import { Product, ProductCreate, ProductGetQuery, ProductListQuery, ProductPatch, Translation, TranslationBody, TranslationParams } from './product.schemas.js';

const tags = ['Products'];

export function productRoutes(app: App, products: ProductService): void {
  readRoutes(app, products);
  writeRoutes(app, products);
  translationRoutes(app, products);
}

/** Reading products: the list, one. */
function readRoutes(app: App, products: ProductService): void {
  app.get(
    '/api/products',
    {
      schema: {
        tags,
        operationId: 'listProducts',
        summary: 'List products',
        description:
          "Lists the organization's products by id (or by sort: name, sku, price, stock, status, updated_at, id, - for descending), paginated with page and limit (1-100, default 20) and filtered by search (name, description, SKU), status, brand, channel, category, updated_since or ids. after_id switches to keyset paging for syncs, include adds variants, warehouse_stock or translations to each product, and locale overlays a translation. Requires an API key (X-API-KEY) or a console session; 400 for an invalid query parameter.",
        querystring: ProductListQuery,
        response: pimResponses(200, ProductWithIncludesList),
      },
    },
    async (req) => ok(await products.list(req.pim.organizationId, req.query)),
  );

  app.get(
    '/api/products/:id',
    {
      schema: {
        tags,
        operationId: 'getProduct',
        summary: 'Get a product',
        description:
          'Returns one product of the organization (archived ones too). locale overlays a translation (falling back to the base text) and include adds variants, warehouse_stock or translations. Requires an API key (X-API-KEY) or a console session; 404 if the product does not exist.',
        params: IdParams,
        querystring: ProductGetQuery,
        response: pimResponses(200, Type.Ref(ProductWithIncludes)),
      },
    },
    // The envelope around the product's JSON text as the database built it: sent as it is (a string with a JSON
    // content type is not serialized again). The answer is the schema's: test/product-read-json.test.ts holds it to it.
    async (req, reply) => {
      const product = await products.getJson(req.pim.organizationId, req.params.id, req.query.locale ?? null, req.query.include);
      // (The type provider knows only the object form of the answer.)
      return reply.type('application/json; charset=utf-8').send(`{"status":1,"data":${product},"error":null}` as never);
    },
  );
}

/** Creating, changing and deleting a product. */
function writeRoutes(app: App, products: ProductService): void {
  app.post(
    '/api/products',
    {
      schema: {
        tags,
        operationId: 'createProduct',
        summary: 'Create a product',
        description:
          "Creates a product and answers 201 with it; name and sku are required, prices are decimal strings, and SKU, slug and EAN must be unique in the organization. The slug is generated from the name when not given; status defaults to draft and currency to the organization's default currency (else EUR). Requires an API key (X-API-KEY) or a console session; 400 for an invalid field, an unknown reference or a duplicate.",
        body: ProductCreate,
        response: pimResponses(201, Type.Ref(Product)),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await products.create(req.pim.organizationId, req.body, actorOf(req.pim)));
    },
  );

  app.patch(
    '/api/products/:id',
    {
      schema: {
        tags,
        operationId: 'updateProduct',
        summary: 'Change some fields of a product',
        description:
          'Changes only the fields sent (at least one) and answers the updated product. attributes are merged key by key (null removes one), and stock cannot be set here once the product has stock per warehouse. Requires an API key (X-API-KEY) or a console session; 404 if the product does not exist, 400 for an invalid field or a duplicate SKU, slug or EAN.',
        params: IdParams,
        body: ProductPatch,
        response: pimResponses(200, Type.Ref(Product)),
      },
    },
    async (req) => ok(await products.update(req.pim.organizationId, req.params.id, req.body, { actor: actorOf(req.pim) })),
  );

  app.delete(
    '/api/products/:id',
    {
      schema: {
        tags,
        operationId: 'deleteProduct',
        summary: 'Archive a product (soft delete)',
        description:
          "Sets the product's status to archived and answers 200 with it; the product stays readable, and archiving it again changes nothing. Requires an API key (X-API-KEY) or a console session; 404 if the product does not exist.",
        params: IdParams,
        response: pimResponses(200, Type.Ref(Product)),
      },
    },
    async (req) => ok(await products.archive(req.pim.organizationId, req.params.id, actorOf(req.pim))),
  );
}

/** A product's translations, one locale at a time. */
function translationRoutes(app: App, products: ProductService): void {
  app.put(
    '/api/products/:id/translations/:locale',
    {
      schema: {
        tags,
        operationId: 'setProductTranslation',
        summary: 'Set a translation of a product',
        description:
          "Creates or changes the product's translation in one locale (such as de or fr-CA): any of name, description, short_description, seo_title and seo_description, where null clears one. Requires an API key (X-API-KEY) or a console session; 404 if the product does not exist, 400 for an invalid locale or body.",
        params: TranslationParams,
        body: TranslationBody,
        response: pimResponses(200, Translation),
      },
    },
    async (req) => ok(await products.putTranslation(req.pim.organizationId, req.params.id, req.params.locale, req.body, actorOf(req.pim))),
  );

  app.delete(
    '/api/products/:id/translations/:locale',
    {
      schema: {
        tags,
        operationId: 'deleteProductTranslation',
        summary: 'Remove a translation of a product',
        description:
          "Deletes the product's translation in one locale. Requires an API key (X-API-KEY) or a console session; 404 if the product does not exist or has no translation in that locale.",
        params: TranslationParams,
        response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })),
      },
    },
    async (req) => {
      await products.deleteTranslation(req.pim.organizationId, req.params.id, req.params.locale, actorOf(req.pim));
      return ok({ deleted: true });
    },
  );
}
