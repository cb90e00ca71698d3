// Beyond the spec: the caller's organization and its catalogue defaults. The default currency is the currency of
// products created without one and of file rows that name none (Shopify's product CSV never does): the merchant sets
// it once; nothing guesses it from prices or from a shop. The catalogue's languages are those its products must be
// translated into on every channel (completeness, completeness/): none by default, the base text alone.
import { Type } from '@sinclair/typebox';
import { Locale, Nullable, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import type { OrganizationSettingsRepository } from './organization.repository.js';

const OrganizationView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  default_currency: Nullable(Type.String({ description: 'ISO 4217; null: not set (products then default to EUR)' })),
  languages: Type.Array(Type.String(), { description: 'the languages the catalogue is translated into beyond its base text, on every channel' }),
});
const OrganizationPatch = Type.Object(
  {
    default_currency: Type.Optional(
      Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', errorMessage: 'must be a three-letter ISO 4217 code such as "EUR"' })),
    ),
    languages: Type.Optional(
      Type.Array(Locale, {
        maxItems: 50,
        uniqueItems: true,
        description: 'the languages every product must be translated into (name, and description when it has one) to be complete; [] for none',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, errorMessage: { minProperties: 'must name at least one field to change' } },
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
          "Returns the organization's id, name, default currency (null: not set, products then default to EUR) and the languages its catalogue is translated into. The default currency is that of products created without one and of catalogue file rows that name none. Requires an API key (X-API-KEY) or a console session.",
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
        summary: "Set the organization's default currency or its catalogue's languages",
        description:
          'Body {default_currency?, languages?}: a three-letter ISO 4217 code, or null to unset it; the language codes (such as de or fr-CA, distinct, at most 50) every product must be translated into to be complete. Requires an API key (X-API-KEY) or a console session; 400 for an invalid code or language.',
        body: OrganizationPatch,
        response: pimResponses(200, OrganizationView),
      },
    },
    async (req) => ok(await organizations.update(req.pim.organizationId, req.body)),
  );
}
