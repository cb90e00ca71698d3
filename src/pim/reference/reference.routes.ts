import { Type } from '@sinclair/typebox';
import { IdParams, pimResponses, Text } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
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
  app.get(path, { schema: { tags: [tag], summary: `List ${key}`, response: pimResponses(200, List) } }, async (req) => {
    const rows = await service.list(req.pim.organizationId);
    return ok({ [key]: rows, total: rows.length });
  });
  app.post(path, { schema: { tags: [tag], summary: `Create one of the ${key}`, body: NamedInput, response: pimResponses(201, Named) } }, async (req, reply) => {
    reply.code(201);
    return ok(await service.create(req.pim.organizationId, req.body.name));
  });
  app.put(
    `${path}/:id`,
    { schema: { tags: [tag], summary: `Rename one of the ${key}`, params: IdParams, body: NamedInput, response: pimResponses(200, Named) } },
    async (req) => ok(await service.rename(req.pim.organizationId, req.params.id, req.body.name)),
  );
}

export function referenceRoutes(app: App, services: { brands: NamedListService; suppliers: NamedListService; vatRates: VatRateService }): void {
  namedListRoutes(app, '/api/brands', 'brands', services.brands, 'Brands');
  namedListRoutes(app, '/api/suppliers', 'suppliers', services.suppliers, 'Suppliers');

  const tags = ['VAT rates'];
  app.get(
    '/api/vat-rates',
    { schema: { tags, summary: 'List VAT rates', response: pimResponses(200, Type.Object({ vat_rates: Type.Array(VatRate), total: Type.Integer() })) } },
    async (req) => {
      const rows = await services.vatRates.list(req.pim.organizationId);
      return ok({ vat_rates: rows, total: rows.length });
    },
  );
  app.post(
    '/api/vat-rates',
    { schema: { tags, summary: 'Create a VAT rate', body: VatRateInput, response: pimResponses(201, VatRate) } },
    async (req, reply) => {
      reply.code(201);
      return ok(await services.vatRates.create(req.pim.organizationId, req.body));
    },
  );
  app.put(
    '/api/vat-rates/:id',
    { schema: { tags, summary: 'Change a VAT rate', params: IdParams, body: VatRateInput, response: pimResponses(200, VatRate) } },
    async (req) => ok(await services.vatRates.update(req.pim.organizationId, req.params.id, req.body)),
  );
}
