import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { Warehouse, WarehouseCreate, WarehouseList, WarehouseUpdate } from './warehouse.schemas.js';
import type { WarehouseService } from './warehouse.service.js';

const tags = ['Warehouses'];
const path = '/api/warehouses';

export function warehouseRoutes(app: App, warehouses: WarehouseService): void {
  readRoutes(app, warehouses);
  writeRoutes(app, warehouses);
}

/** Reading warehouses: the list, one. */
function readRoutes(app: App, warehouses: WarehouseService): void {
  app.get(
    path,
    {
      schema: {
        tags,
        operationId: 'listWarehouses',
        summary: 'List warehouses',
        description: "Lists the organization's warehouses, ordered by code. Requires an API key (X-API-KEY) or a console session.",
        response: pimResponses(200, WarehouseList),
      },
    },
    async (req) => {
      const rows = await warehouses.list(req.pim.organizationId);
      return ok({ warehouses: rows, total: rows.length });
    },
  );

  app.get(
    `${path}/:id`,
    {
      schema: {
        tags,
        operationId: 'getWarehouse',
        summary: 'Get a warehouse',
        description: 'Returns one warehouse. Requires an API key (X-API-KEY) or a console session; 404 for an unknown warehouse.',
        params: IdParams,
        response: pimResponses(200, Warehouse),
      },
    },
    async (req) => ok(await warehouses.get(req.pim.organizationId, req.params.id)),
  );
}

/** Creating, changing and deleting warehouses. */
function writeRoutes(app: App, warehouses: WarehouseService): void {
  app.post(
    path,
    {
      schema: {
        tags,
        operationId: 'createWarehouse',
        summary: 'Create a warehouse',
        description:
          'Creates a warehouse and answers 201 with it; code (1-64 characters of A-Za-z0-9._-) is unique in the organization and country_code is an ISO 3166-1 alpha-2 code or null. Requires an API key (X-API-KEY) or a console session; 400 for an invalid field or a duplicate code.',
        body: WarehouseCreate,
        response: pimResponses(201, Warehouse),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await warehouses.create(req.pim.organizationId, req.body));
    },
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      `${path}/:id`,
      {
        schema: {
          tags,
          operationId: method === 'put' ? 'replaceWarehouse' : 'updateWarehouse',
          summary: 'Change fields of a warehouse',
          description:
            'Changes only the fields sent; PUT and PATCH behave alike. Requires an API key (X-API-KEY) or a console session; 404 for an unknown warehouse, 400 for an invalid field or a duplicate code.',
          params: IdParams,
          body: WarehouseUpdate,
          response: pimResponses(200, Warehouse),
        },
      },
      async (req) => ok(await warehouses.update(req.pim.organizationId, req.params.id, req.body)),
    );
  }

  app.delete(
    `${path}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteWarehouse',
        summary: 'Delete a warehouse and its stock levels',
        description:
          'Deletes the warehouse with its stock levels and, in the same transaction, recomputes the stock of the products that had one (0 when no level is left). Requires an API key (X-API-KEY) or a console session; 404 for an unknown warehouse.',
        params: IdParams,
        response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })),
      },
    },
    async (req) => {
      await warehouses.delete(req.pim.organizationId, req.params.id);
      return ok({ deleted: true });
    },
  );
}
