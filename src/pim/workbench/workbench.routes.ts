// The product list as a workbench (beyond the spec): bulk actions with their undo, the bulk-edit grid's batch, and
// the saved views of the list. Routes only parse and answer; the rules are in the services.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { NO_BODY } from '../../http/route-docs.js';
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import { actorOf } from '../history/actor.js';
import type { BatchService } from './batch.service.js';
import { BatchBody, BatchResult, BulkBody, BulkResult, MAX_BATCH_ROWS, MAX_BULK_IDS, MAX_BULK_PRODUCTS } from './bulk.schemas.js';
import { type BulkService, UNDO_DAYS } from './bulk.service.js';
import type { ViewService } from './view.service.js';
import { View, ViewBody, ViewList, ViewParams } from './view.schemas.js';

export interface WorkbenchServices {
  bulk: BulkService;
  batch: BatchService;
  views: ViewService;
}

const tags = ['Products'];
const AUTH = 'Requires an API key (X-API-KEY) or a console session';

export function workbenchRoutes(app: App, services: WorkbenchServices): void {
  bulkRoutes(app, services);
  viewRoutes(app, services.views);
}

/** One action over many products, its undo, and the grid's batch. */
function bulkRoutes(app: App, { bulk, batch }: WorkbenchServices): void {
  app.post(
    '/api/products/bulk',
    {
      schema: {
        tags,
        operationId: 'bulkChangeProducts',
        summary: 'Change many products at once',
        description: `Applies one action (set_status, add_channel, remove_channel, add_category, remove_category, set_brand, archive) to the products named in ids (at most ${MAX_BULK_IDS}) or matched by filter (the list's filters; at most ${MAX_BULK_PRODUCTS} products), in one transaction, and answers the change's id for its undo with the products whose value changed. ${AUTH}; 400 for an invalid body, an unknown category or brand, or a filter matching too many products (nothing is changed then).`,
        body: BulkBody,
        response: pimResponses(200, BulkResult),
      },
    },
    async (req) => ok(await bulk.apply(req.pim.organizationId, req.body, actorOf(req.pim))),
  );

  app.post(
    '/api/products/bulk/:id/undo',
    {
      config: { openapi: NO_BODY },
      schema: {
        tags,
        operationId: 'undoBulkChange',
        summary: 'Undo a bulk change',
        description: `Puts back, in one transaction, the values a bulk change replaced on each product it changed (a later edit of the same field is overwritten); once only, within ${UNDO_DAYS} days. ${AUTH}; 404 for an unknown change (or one older than that), 400 when it was undone already.`,
        params: IdParams,
        response: pimResponses(200, BulkResult),
      },
    },
    async (req) => ok(await bulk.undo(req.pim.organizationId, req.params.id, actorOf(req.pim))),
  );

  app.patch(
    '/api/products/batch',
    {
      schema: {
        tags,
        operationId: 'batchUpdateProducts',
        summary: 'Change many products, each its own way',
        description: `Saves up to ${MAX_BATCH_ROWS} rows, each a product id with the fields to change (name, price, sale_price, compare_at_price, stock, status), in one transaction: every row or none. ${AUTH}; 400 naming each refused row (an unknown product, a product twice, stock of a product with stock per warehouse) and nothing saved.`,
        body: BatchBody,
        response: pimResponses(200, BatchResult),
      },
    },
    async (req) => ok(await batch.save(req.pim.organizationId, req.body, actorOf(req.pim))),
  );
}

/** The caller's saved views of the product list. */
function viewRoutes(app: App, views: ViewService): void {
  app.get(
    '/api/product-views',
    {
      schema: {
        tags,
        operationId: 'listProductViews',
        summary: 'List my saved views of the product list',
        description: `The saved views (filters, columns, sort) of the calling API key, or of the key the console session signed in with, by name. ${AUTH}.`,
        response: pimResponses(200, ViewList),
      },
    },
    async (req) => ok({ views: await views.list(req.pim.organizationId, req.pim.keyId) }),
  );

  app.post(
    '/api/product-views',
    {
      schema: {
        tags,
        operationId: 'saveProductView',
        summary: 'Save a view of the product list',
        description: `Saves filters, columns and sort under a name for the calling key (a name already there is replaced) and answers the view. ${AUTH}; 400 for an invalid body or over 50 views.`,
        body: ViewBody,
        response: pimResponses(200, View),
      },
    },
    async (req) => ok(await views.save(req.pim.organizationId, req.pim.keyId, req.body)),
  );

  app.delete(
    '/api/product-views/:id',
    {
      schema: {
        tags,
        operationId: 'deleteProductView',
        summary: 'Delete a saved view',
        description: `Deletes one of the calling key's saved views. ${AUTH}; 404 for an unknown view or another user's.`,
        params: ViewParams,
        response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })),
      },
    },
    async (req) => {
      await views.delete(req.pim.organizationId, req.pim.keyId, req.params.id);
      return ok({ deleted: true });
    },
  );
}
