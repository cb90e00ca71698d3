import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { actorOf } from '../history/actor.js';
import { Variant, VariantCreate, VariantList, VariantParams, VariantPatch } from './variant.schemas.js';
import type { VariantService } from './variant.service.js';

const tags = ['Variants'];

export function variantRoutes(app: App, variants: VariantService): void {
  readRoutes(app, variants);
  writeRoutes(app, variants);
}

/** Reading a product's variants: the list, one. */
function readRoutes(app: App, variants: VariantService): void {
  app.get(
    '/api/products/:id/variants',
    {
      schema: {
        tags,
        operationId: 'listVariants',
        summary: "List a product's variants",
        description:
          'Returns {product_id, product_name, variants, total}, ordered by position. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product.',
        params: IdParams,
        response: pimResponses(200, VariantList),
      },
    },
    async (req) => ok(await variants.list(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/products/:id/variants/:variantId',
    {
      schema: {
        tags,
        operationId: 'getVariant',
        summary: 'Get a variant',
        description: 'Returns one variant of the product. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or variant.',
        params: VariantParams,
        response: pimResponses(200, Type.Ref(Variant)),
      },
    },
    async (req) => ok(await variants.get(req.pim.organizationId, req.params.id, req.params.variantId)),
  );
}

/** Creating, changing and deleting a product's variants. */
function writeRoutes(app: App, variants: VariantService): void {
  app.post(
    '/api/products/:id/variants',
    {
      schema: {
        tags,
        operationId: 'createVariant',
        summary: 'Add a variant',
        description:
          "Adds a variant to the product and answers 201 with it; its SKU is unique among the organization's variants, stock_status follows stock_quantity when not given, and position defaults to the end. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product, 400 for an invalid field or a duplicate SKU.",
        params: IdParams,
        body: VariantCreate,
        response: pimResponses(201, Type.Ref(Variant)),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await variants.create(req.pim.organizationId, req.params.id, req.body, actorOf(req.pim)));
    },
  );

  app.patch(
    '/api/products/:id/variants/:variantId',
    {
      schema: {
        tags,
        operationId: 'updateVariant',
        summary: 'Change some fields of a variant',
        description:
          'Changes only the fields sent; a new stock_quantity derives stock_status again unless the variant is on backorder. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or variant, 400 for an invalid field or a duplicate SKU.',
        params: VariantParams,
        body: VariantPatch,
        response: pimResponses(200, Type.Ref(Variant)),
      },
    },
    async (req) => ok(await variants.update(req.pim.organizationId, req.params.id, req.params.variantId, req.body, actorOf(req.pim))),
  );

  app.delete(
    '/api/products/:id/variants/:variantId',
    {
      schema: {
        tags,
        operationId: 'deleteVariant',
        summary: 'Delete a variant',
        description: 'Deletes the variant. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or variant.',
        params: VariantParams,
        response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })),
      },
    },
    async (req) => {
      await variants.delete(req.pim.organizationId, req.params.id, req.params.variantId, actorOf(req.pim));
      return ok({ deleted: true });
    },
  );
}
