import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { Attribute, AttributeCreate, AttributeList, AttributeUpdate } from './attribute.schemas.js';
import type { AttributeService } from './attribute.service.js';

const tags = ['Product attributes'];
const path = '/api/product-attributes';

export function attributeRoutes(app: App, attributes: AttributeService): void {
  readRoutes(app, attributes);
  writeRoutes(app, attributes);
}

/** Reading product attribute definitions: the list, one. */
function readRoutes(app: App, attributes: AttributeService): void {
  app.get(
    path,
    {
      schema: {
        tags,
        operationId: 'listProductAttributes',
        summary: 'List product attributes',
        description: "Lists the organization's product attribute definitions, ordered by code. Requires an API key (X-API-KEY) or a console session.",
        response: pimResponses(200, AttributeList),
      },
    },
    async (req) => {
      const rows = await attributes.list(req.pim.organizationId);
      return ok({ attributes: rows, total: rows.length });
    },
  );

  app.get(
    `${path}/:id`,
    {
      schema: {
        tags,
        operationId: 'getProductAttribute',
        summary: 'Get a product attribute',
        description: 'Returns one product attribute definition. Requires an API key (X-API-KEY) or a console session; 404 for an unknown attribute.',
        params: IdParams,
        response: pimResponses(200, Attribute),
      },
    },
    async (req) => ok(await attributes.get(req.pim.organizationId, req.params.id)),
  );
}

/** Creating, changing and deleting product attribute definitions. */
function writeRoutes(app: App, attributes: AttributeService): void {
  app.post(
    path,
    {
      schema: {
        tags,
        operationId: 'createProductAttribute',
        summary: 'Create a product attribute',
        description:
          'Creates an attribute definition and answers 201 with it: code (^[a-z][a-z0-9_]{0,63}$, unique in the organization), name and type; options are required for select and multiselect and refused for other types, and metafield may name the storefront metafield the attribute is (namespace.key). Requires an API key (X-API-KEY) or a console session; 400 for an invalid field or a duplicate code or metafield.',
        body: AttributeCreate,
        response: pimResponses(201, Attribute),
      },
    },
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
          operationId: method === 'put' ? 'replaceProductAttribute' : 'updateProductAttribute',
          summary: 'Change fields of a product attribute',
          description:
            'Changes only the fields sent; PUT and PATCH behave alike. While products use the attribute, a new code renames the key in those products, the type may only become text or textarea, and options they use cannot be dropped. Requires an API key (X-API-KEY) or a console session; 404 for an unknown attribute, 400 for an invalid or refused change.',
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
        operationId: 'deleteProductAttribute',
        summary: 'Delete a product attribute that no product uses',
        description:
          'Deletes the definition; while any product (archived ones too) has a value for it, the answer is a 400 with their count. Requires an API key (X-API-KEY) or a console session; 404 for an unknown attribute.',
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
