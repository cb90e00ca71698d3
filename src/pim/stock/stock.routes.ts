import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
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
        operationId: 'getProductByBarcode',
        summary: 'Look a product up by barcode, with its warehouse stock',
        description:
          'Finds the product whose EAN is the same GTIN (GTIN-8, -12, -13 or -14, compared in their zero-padded form, so a UPC-A scan finds the EAN-13) and returns it with its warehouse_stock. Requires an API key (X-API-KEY) or a console session; 400 for a code that is not 8 to 14 digits, 404 when no product has it.',
        params: BarcodeParams,
        response: pimResponses(200, BarcodeProduct),
      },
    },
    async (req) => ok(await stock.byBarcode(req.pim.organizationId, req.params.barcode)),
  );

  app.get(
    '/api/products/:id/stock',
    {
      schema: {
        tags,
        operationId: 'getProductStock',
        summary: "Get a product's stock per warehouse",
        description:
          "Returns the product's total stock, in_stock and its level in each warehouse (by warehouse code). Requires an API key (X-API-KEY) or a console session; 404 for an unknown product.",
        params: IdParams,
        response: pimResponses(200, StockLevels),
      },
    },
    async (req) => ok(await stock.levels(req.pim.organizationId, req.params.id)),
  );

  app.put(
    '/api/products/:id/stock',
    {
      schema: {
        tags,
        operationId: 'setProductStock',
        summary: "Set a product's stock in one warehouse",
        description:
          "Body {warehouse_id, quantity} sets one level (quantity >= 0); in the same transaction the product's stock becomes the sum of its levels, and the answer is as for GET. Once a product has levels, its stock can no longer be set with PATCH /api/products/{id}. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product, 400 for an unknown warehouse or a total over 2147483647.",
        params: IdParams,
        body: StockPut,
        response: pimResponses(200, StockLevels),
      },
    },
    async (req) => ok(await stock.setLevel(req.pim.organizationId, req.params.id, req.body)),
  );
}
