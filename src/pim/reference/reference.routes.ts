import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses, Text } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import type { NamedListService, VatRateService } from './reference.service.js';

const Named = Type.Object({ id: Type.Integer(), name: Type.String() });
const NamedInput = Type.Object({ name: Text(255, { minLength: 1 }) }, { additionalProperties: false });
const VatRate = Type.Object({ id: Type.Integer(), name: Type.String(), rate: Type.String(), country_code: Type.String() });
const VatRateInput = Type.Object(
  {
    name: Text(100, { minLength: 1 }),
    rate: Type.String({ pattern: '^\\d{1,3}(\\.\\d{1,4})?$', errorMessage: 'must be a percentage as a decimal string such as "21.00"' }),
    country_code: Type.String({ pattern: '^[A-Z]{2}$', errorMessage: 'must be a two-letter ISO 3166 country code such as "DE"' }),
  },
  { additionalProperties: false },
);

/** GET, POST and PUT of a named list (brands, suppliers): `{items: [...], total}`, 201 with the new row, 200 with the renamed one. */
function namedListRoutes(app: App, path: string, key: 'brands' | 'suppliers', service: NamedListService, tag: string): void {
  const List = Type.Object({ [key]: Type.Array(Named), total: Type.Integer() });
  app.get(
    path,
    {
      schema: {
        tags: [tag],
        operationId: `list${tag}`,
        summary: `List ${key}`,
        description: `Lists the organization's ${key} as {${key}, total}. Requires an API key (X-API-KEY) or a console session.`,
        response: pimResponses(200, List),
      },
    },
    async (req) => {
      const rows = await service.list(req.pim.organizationId);
      return ok({ [key]: rows, total: rows.length });
    },
  );
  app.post(
    path,
    {
      schema: {
        tags: [tag],
        operationId: `create${tag.slice(0, -1)}`,
        summary: `Create one of the ${key}`,
        description: `Creates one of the ${key} by name and answers 201 with it. Requires an API key (X-API-KEY) or a console session; 400 for a blank name or one that already exists.`,
        body: NamedInput,
        response: pimResponses(201, Named),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await service.create(req.pim.organizationId, req.body.name));
    },
  );
  app.put(
    `${path}/:id`,
    {
      schema: {
        tags: [tag],
        operationId: `update${tag.slice(0, -1)}`,
        summary: `Rename one of the ${key}`,
        description: `Renames one of the ${key}; the products that show it count as changed, so the next sync sends the new name. Requires an API key (X-API-KEY) or a console session; 404 when it does not exist, 400 for a name that already exists.`,
        params: IdParams,
        body: NamedInput,
        response: pimResponses(200, Named),
      },
    },
    async (req) => ok(await service.rename(req.pim.organizationId, req.params.id, req.body.name)),
  );
}

export function referenceRoutes(app: App, services: { brands: NamedListService; suppliers: NamedListService; vatRates: VatRateService }): void {
  namedListRoutes(app, '/api/brands', 'brands', services.brands, 'Brands');
  namedListRoutes(app, '/api/suppliers', 'suppliers', services.suppliers, 'Suppliers');

  const tags = ['VAT rates'];
  app.get(
    '/api/vat-rates',
    {
      schema: {
        tags,
        operationId: 'listVatRates',
        summary: 'List VAT rates',
        description:
          "Lists the organization's VAT rates (name, rate as a percentage decimal string, country code). Requires an API key (X-API-KEY) or a console session.",
        response: pimResponses(200, Type.Object({ vat_rates: Type.Array(VatRate), total: Type.Integer() })),
      },
    },
    async (req) => {
      const rows = await services.vatRates.list(req.pim.organizationId);
      return ok({ vat_rates: rows, total: rows.length });
    },
  );
  app.post(
    '/api/vat-rates',
    {
      schema: {
        tags,
        operationId: 'createVatRate',
        summary: 'Create a VAT rate',
        description:
          'Creates a VAT rate {name, rate (a percentage such as "21.00"), country_code (ISO 3166, two letters)} and answers 201 with it; a name is unique per country. Requires an API key (X-API-KEY) or a console session; 400 for an invalid field or a duplicate.',
        body: VatRateInput,
        response: pimResponses(201, VatRate),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await services.vatRates.create(req.pim.organizationId, req.body));
    },
  );
  app.put(
    '/api/vat-rates/:id',
    {
      schema: {
        tags,
        operationId: 'updateVatRate',
        summary: 'Change a VAT rate',
        description:
          "Sets a VAT rate's name, rate and country code; the products that use it count as changed, so the next sync sends the new tax. Requires an API key (X-API-KEY) or a console session; 404 for an unknown VAT rate, 400 for an invalid field or a duplicate.",
        params: IdParams,
        body: VatRateInput,
        response: pimResponses(200, VatRate),
      },
    },
    async (req) => ok(await services.vatRates.update(req.pim.organizationId, req.params.id, req.body)),
  );
}
