import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
import { BarcodeParams, BarcodeProduct, StockLevels, StockPut } from './stock.schemas.js';
import type { StockService } from './stock.service.js';

const tags = ['Stock'];

export function stockRoutes(app: App, stock: StockService): void {
  // A static segment beats a parameter in Fastify's router: /api/products/barcode/… never reaches /api/products/:id.
  app.get(
    '/api/products/barcode/:barcode',
    {
      schema: {
        tags,
        summary: 'Look a product up by barcode (GTIN-8/12/13/14), with its warehouse stock',
        params: BarcodeParams,
        response: pimResponses(200, BarcodeProduct),
      },
    },
    async (req) => ok(await stock.byBarcode(req.pim.organizationId, req.params.barcode)),
  );

  app.get(
    '/api/products/:id/stock',
    { schema: { tags, summary: "A product's stock per warehouse", params: IdParams, response: pimResponses(200, StockLevels) } },
    async (req) => ok(await stock.levels(req.pim.organizationId, req.params.id)),
  );

  app.put(
    '/api/products/:id/stock',
    { schema: { tags, summary: "Set a product's stock in one warehouse", params: IdParams, body: StockPut, response: pimResponses(200, StockLevels) } },
    async (req) => ok(await stock.setLevel(req.pim.organizationId, req.params.id, req.body)),
  );
}
