import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { actorOf } from '../history/actor.js';
import { BarcodeParams, BarcodeProduct, StockLevels, StockPut, VariantStockLevels, VariantStockParams } from './stock.schemas.js';
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
          "Returns the product's total stock, in_stock, its level in each warehouse (by warehouse code; a product with variants: its variants' levels summed per warehouse) and each variant's stock_quantity, stock_status and levels. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product.",
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
          "Body {warehouse_id, quantity} sets one level (quantity >= 0); in the same transaction the product's stock becomes the sum of its levels, and the answer is as for GET. Once a product has levels, its stock can no longer be set with PATCH /api/products/{id}. A product with variants has stock per variant only (PUT /api/products/{id}/variants/{variant_id}/stock): a 400. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product, 400 for an unknown warehouse, a product with variants or a total over 2147483647.",
        params: IdParams,
        body: StockPut,
        response: pimResponses(200, StockLevels),
      },
    },
    async (req) => ok(await stock.setLevel(req.pim.organizationId, req.params.id, req.body, actorOf(req.pim))),
  );

  variantStockRoutes(app, stock);
}

function variantStockRoutes(app: App, stock: StockService): void {
  app.get(
    '/api/products/:id/variants/:variantId/stock',
    {
      schema: {
        tags,
        operationId: 'getVariantStock',
        summary: "Get a variant's stock per warehouse",
        description:
          "Returns the variant's stock_quantity, stock_status and its level in each warehouse (by warehouse code; none: its stock_quantity is set directly). Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or variant.",
        params: VariantStockParams,
        response: pimResponses(200, VariantStockLevels),
      },
    },
    async (req) => ok(await stock.variantLevels(req.pim.organizationId, req.params.id, req.params.variantId)),
  );

  app.put(
    '/api/products/:id/variants/:variantId/stock',
    {
      schema: {
        tags,
        operationId: 'setVariantStock',
        summary: "Set a variant's stock in one warehouse",
        description:
          "Body {warehouse_id, quantity} sets one level (quantity >= 0); in the same transaction the variant's stock_quantity becomes the sum of its levels (stock_status re-derived unless on backorder) and the product's stock the sum of its variants'; the answer is as for GET. Once a variant has levels, its stock_quantity can no longer be set with PATCH. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or variant, 400 for an unknown warehouse or a total over 2147483647.",
        params: VariantStockParams,
        body: StockPut,
        response: pimResponses(200, VariantStockLevels),
      },
    },
    async (req) => ok(await stock.setVariantLevel(req.pim.organizationId, req.params.id, req.params.variantId, req.body, actorOf(req.pim))),
  );
}
