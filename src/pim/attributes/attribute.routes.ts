import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
import { Attribute, AttributeCreate, AttributeList, AttributeUpdate } from './attribute.schemas.js';
import type { AttributeService } from './attribute.service.js';

const tags = ['Product attributes'];
const path = '/api/product-attributes';

export function attributeRoutes(app: App, attributes: AttributeService): void {
  app.get(path, { schema: { tags, summary: 'List product attributes (by code)', response: pimResponses(200, AttributeList) } }, async (req) => {
    const rows = await attributes.list(req.pim.organizationId);
    return ok({ attributes: rows, total: rows.length });
  });

  app.get(`${path}/:id`, { schema: { tags, summary: 'Get a product attribute', params: IdParams, response: pimResponses(200, Attribute) } }, async (req) =>
    ok(await attributes.get(req.pim.organizationId, req.params.id)),
  );

  app.post(
    path,
    { schema: { tags, summary: 'Create a product attribute', body: AttributeCreate, response: pimResponses(201, Attribute) } },
    async (req, reply) => {
      reply.code(201);
      return ok(await attributes.create(req.pim.organizationId, req.body));
    },
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: 'Change fields of a product attribute (PUT and PATCH alike)',
          params: IdParams,
          body: AttributeUpdate,
          response: pimResponses(200, Attribute),
        },
      },
      async (req) => ok(await attributes.update(req.pim.organizationId, req.params.id, req.body)),
    );
  }

  app.delete(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a product attribute that no product uses',
        params: IdParams,
        response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })),
      },
    },
    async (req) => {
      await attributes.delete(req.pim.organizationId, req.params.id);
      return ok({ deleted: true });
    },
  );
}
