import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { NO_BODY } from '../../http/route-docs.js';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import { actorOf } from './actor.js';
import type { HistoryService } from './history.service.js';
import { ChangeParams, HistoryQuery, ProductHistory } from './history.schemas.js';
import { Product } from '../products/product.schemas.js';

const tags = ['Products'];

/** A product's history and "restore this version" (ours, beyond the spec: docs/pim-api.md, "Product history"). */
export function historyRoutes(app: App, history: HistoryService): void {
  app.get(
    '/api/products/:id/history',
    {
      schema: {
        tags,
        operationId: 'listProductHistory',
        summary: "List a product's changes",
        description:
          "Beyond the spec: the product's changes, newest first, paginated with page and limit (1-100, default 20). Each says when, who (an API key, the console, a catalogue import or a Shopify adoption, with the key's id and name) and each field's old and new value, in the API's field names and values. Requires an API key (X-API-KEY) or a console session; 404 if the product does not exist, 400 for an invalid query parameter.",
        params: IdParams,
        querystring: HistoryQuery,
        response: pimResponses(200, ProductHistory),
      },
    },
    async (req) => ok(await history.list(req.pim.organizationId, req.params.id, req.query)),
  );

  app.post(
    '/api/products/:id/history/:change_id/restore',
    {
      config: { openapi: NO_BODY },
      schema: {
        tags,
        operationId: 'restoreProductVersion',
        summary: 'Restore a version of a product',
        description:
          "Beyond the spec: puts the product's own fields (not its variants, stock per warehouse, translations or images) back as they were right after the change, as one write recorded in the history as a restore by the caller, and answers the product. Nothing is written when they are so already. Requires an API key (X-API-KEY) or a console session; 404 if the product or the change (of that product) does not exist, 400 when a brand, supplier, VAT rate or category of that version no longer exists or its SKU, slug or EAN is another product's now.",
        params: ChangeParams,
        response: pimResponses(200, Type.Ref(Product)),
      },
    },
    async (req) => ok(await history.restore(req.pim.organizationId, req.params.id, req.params.change_id, actorOf(req.pim))),
  );
}
