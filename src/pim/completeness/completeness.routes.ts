// Beyond the spec: a product's completeness per channel and language, alone or for a page of the product list.
import { IdParams, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { Completeness, CompletenessList, CompletenessQuery } from './completeness.schemas.js';
import type { CompletenessService } from './completeness.service.js';

const tags = ['Products'];

export function completenessRoutes(app: App, completeness: CompletenessService): void {
  app.get(
    '/api/products/completeness',
    {
      schema: {
        tags,
        operationId: 'listProductCompleteness',
        summary: 'Get the completeness of several products',
        description:
          "Beyond the spec: for each product of ids (at most 100, comma-separated; another organization's or a missing id is left out), per publishing channel, the required attributes it leaves empty, the translations it lacks in the organization's languages, and a score (percent). One statement for the whole page. Requires an API key (X-API-KEY) or a console session; 400 for a malformed ids list.",
        querystring: CompletenessQuery,
        response: pimResponses(200, CompletenessList),
      },
    },
    async (req) => ok({ products: await completeness.ofIdList(req.pim.organizationId, req.query.ids) }),
  );

  app.get(
    '/api/products/:id/completeness',
    {
      schema: {
        tags,
        operationId: 'getProductCompleteness',
        summary: "Get a product's completeness per channel and language",
        description:
          'Beyond the spec: per publishing channel of the product, the required attributes it leaves empty (is_required attributes on every channel, others on the channels in their required_channels), per language of the organization the translated fields it lacks (name, and description when it has one), and the percent filled; score is over every channel (null on no channel). Requires an API key (X-API-KEY) or a console session; 404 if the product does not exist.',
        params: IdParams,
        response: pimResponses(200, Completeness),
      },
    },
    async (req) => ok(await completeness.ofProduct(req.pim.organizationId, req.params.id)),
  );
}
