import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
import { Warehouse, WarehouseCreate, WarehouseList, WarehouseUpdate } from './warehouse.schemas.js';
import type { WarehouseService } from './warehouse.service.js';

const tags = ['Warehouses'];
const path = '/api/warehouses';

export function warehouseRoutes(app: App, warehouses: WarehouseService): void {
  app.get(path, { schema: { tags, summary: 'List warehouses (by code)', response: pimResponses(200, WarehouseList) } }, async (req) => {
    const rows = await warehouses.list(req.pim.organizationId);
    return ok({ warehouses: rows, total: rows.length });
  });

  app.get(`${path}/:id`, { schema: { tags, summary: 'Get a warehouse', params: IdParams, response: pimResponses(200, Warehouse) } }, async (req) =>
    ok(await warehouses.get(req.pim.organizationId, req.params.id)),
  );

  app.post(path, { schema: { tags, summary: 'Create a warehouse', body: WarehouseCreate, response: pimResponses(201, Warehouse) } }, async (req, reply) => {
    reply.code(201);
    return ok(await warehouses.create(req.pim.organizationId, req.body));
  });

  for (const method of ['put', 'patch'] as const) {
    app[method](
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: 'Change fields of a warehouse (PUT and PATCH alike)',
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
        summary: 'Delete a warehouse and its stock levels (product stock is recomputed)',
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
