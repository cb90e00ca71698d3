import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
import { Variant, VariantCreate, VariantList, VariantParams, VariantPatch } from './variant.schemas.js';
import type { VariantService } from './variant.service.js';

const tags = ['Variants'];

export function variantRoutes(app: App, variants: VariantService): void {
  app.get(
    '/api/products/:id/variants',
    { schema: { tags, summary: "List a product's variants", params: IdParams, response: pimResponses(200, VariantList) } },
    async (req) => ok(await variants.list(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/products/:id/variants/:variantId',
    { schema: { tags, summary: 'Get a variant', params: VariantParams, response: pimResponses(200, Type.Ref(Variant)) } },
    async (req) => ok(await variants.get(req.pim.organizationId, req.params.id, req.params.variantId)),
  );

  app.post(
    '/api/products/:id/variants',
    { schema: { tags, summary: 'Add a variant', params: IdParams, body: VariantCreate, response: pimResponses(201, Type.Ref(Variant)) } },
    async (req, reply) => {
      reply.code(201);
      return ok(await variants.create(req.pim.organizationId, req.params.id, req.body));
    },
  );

  app.patch(
    '/api/products/:id/variants/:variantId',
    { schema: { tags, summary: 'Change some fields of a variant', params: VariantParams, body: VariantPatch, response: pimResponses(200, Type.Ref(Variant)) } },
    async (req) => ok(await variants.update(req.pim.organizationId, req.params.id, req.params.variantId, req.body)),
  );

  app.delete(
    '/api/products/:id/variants/:variantId',
    { schema: { tags, summary: 'Delete a variant', params: VariantParams, response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })) } },
    async (req) => {
      await variants.delete(req.pim.organizationId, req.params.id, req.params.variantId);
      return ok({ deleted: true });
    },
  );
}
