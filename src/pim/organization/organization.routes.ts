// Beyond the spec: the caller's organization and its catalogue defaults. The default currency is the currency of
// products created without one and of file rows that name none (Shopify's product CSV never does): the merchant sets
// it once; nothing guesses it from prices or from a shop.
import { Type } from '@sinclair/typebox';
import { Nullable, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import type { OrganizationSettingsRepository } from './organization.repository.js';

const OrganizationView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  default_currency: Nullable(Type.String({ description: 'ISO 4217; null: not set (products then default to EUR)' })),
});
const OrganizationPatch = Type.Object(
  {
    default_currency: Nullable(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', errorMessage: 'must be a three-letter ISO 4217 code such as "EUR"' }),
    ),
  },
  { additionalProperties: false },
);

const tags = ['Organization'];

export function organizationRoutes(app: App, organizations: OrganizationSettingsRepository): void {
  app.get(
    '/api/organization',
    {
      schema: {
        tags,
        operationId: 'getOrganization',
        summary: "Get the caller's organization and its catalogue defaults",
        description:
          "Returns the organization's id, name and default currency (null: not set, products then default to EUR). The default currency is that of products created without one and of catalogue file rows that name none. Requires an API key (X-API-KEY) or a console session.",
        response: pimResponses(200, OrganizationView),
      },
    },
    async (req) => ok(await organizations.get(req.pim.organizationId)),
  );

  app.patch(
    '/api/organization',
    {
      schema: {
        tags,
        operationId: 'updateOrganization',
        summary: "Set the organization's default currency",
        description:
          'Body {default_currency}: a three-letter ISO 4217 code, or null to unset it. Requires an API key (X-API-KEY) or a console session; 400 for an invalid code.',
        body: OrganizationPatch,
        response: pimResponses(200, OrganizationView),
      },
    },
    async (req) => ok(await organizations.setDefaultCurrency(req.pim.organizationId, req.body.default_currency)),
  );
}
