import type { App } from '../../http/app-type.js';
import { actorOf } from '../history/actor.js';
import { IdParams, pimOk, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import { MAX_VARIANTS } from './option-matrix.js';
import { OptionMatrix, OptionMatrixResult } from './variant.schemas.js';
import type { VariantService } from './variant.service.js';

/** The console's option matrix (Size × Colour → every variant), beside the variant routes. */
export function optionMatrixRoutes(app: App, variants: VariantService): void {
  app.post(
    '/api/products/:id/variants/options',
    {
      schema: {
        tags: ['Variants'],
        operationId: 'createVariantsFromOptions',
        summary: 'Make a variant for every combination of options',
        description:
          'Body {options: [{name, values}], price?, stock_quantity?}: a variant for each combination of the values (the first option varies slowest) ' +
          "that the product does not have yet (an existing variant with the same values, case ignored, counts), appended in one transaction. Each is named `Product / value / value`, with the SKU `PRODUCTSKU-VALUE-VALUE` (`-2`, `-3`… when taken), the given price (else the product's) and stock. " +
          `Answers 201 with {product_id, created, total}, or 200 with created empty when every combination exists. At most 3 options and ${MAX_VARIANTS} variants a product. ` +
          'Requires an API key (X-API-KEY) or a console session; 400 for an option named twice, a value given twice or too many variants, 404 for an unknown product.',
        params: IdParams,
        body: OptionMatrix,
        response: { ...pimResponses(201, OptionMatrixResult), 200: pimOk(OptionMatrixResult) },
      },
    },
    async (req, reply) => {
      const result = await variants.createCombinations(req.pim.organizationId, req.params.id, req.body, actorOf(req.pim));
      reply.code(result.created.length ? 201 : 200);
      return ok(result);
    },
  );
}
