// The integration's bridge settings (admin scope): which publications each PIM channel is published on, which location
// each warehouse's stock goes to, whether prices are converted elsewhere, where the product type comes from and which
// attributes become metafields. Beyond the spec; same envelope.
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/kernel/app-type.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses, connectorTags as tags } from '../connector.schemas.js';
import type { IntegrationSettingsService } from './integration-settings.service.js';

const Gid = (what: string) => Type.String({ minLength: 1, maxLength: 255, description: `a Shopify ${what} GID` });
const Named = Type.Object({ id: Type.String(), name: Type.String() });

const ChannelsView = Type.Object({
  channels: Type.Array(
    Type.Object({ channel: Type.String(), source: Type.Union([Type.Literal('default'), Type.Literal('custom')]), publications: Type.Array(Named) }),
  ),
  available_publications: Type.Array(Named),
});

const LocationsView = Type.Object({
  default_location: Type.Union([Named, Type.Null()]),
  default_location_source: Type.Union([Type.Literal('default'), Type.Literal('custom')]),
  warehouses: Type.Array(Type.Object({ code: Type.String(), location: Type.Union([Named, Type.Null()]) })),
  available_locations: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), is_active: Type.Boolean() })),
});

const PricingView = Type.Object({ prices_converted_elsewhere: Type.Boolean() });

const ProductTypeSource = Type.Union([Type.Literal('first_category'), Type.Literal('attribute')]);
const ProductTypeView = Type.Object({
  source: ProductTypeSource,
  attribute_code: Type.Union([Type.String(), Type.Null()]),
  is_default: Type.Boolean(),
});

const AttributeCode = Type.String({ minLength: 1, maxLength: 64, description: 'a PIM product attribute code' });
const AttributesView = Type.Object({
  enabled: Type.Boolean(),
  namespace: Type.String(),
  only: Type.Union([Type.Array(Type.String()), Type.Null()]),
  exclude: Type.Array(Type.String()),
  keys: Type.Record(Type.String(), Type.String()),
  is_default: Type.Boolean(),
  attributes: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      type: Type.String(),
      synced: Type.Boolean(),
      metafield: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

export function integrationSettingsRoutes(app: App, settings: IntegrationSettingsService): void {
  const admin = { config: { access: 'admin' as const } };

  app.get(
    '/api/integration/channels',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: "Each PIM channel's publications on the shop (default: web → Online Store, mobile → Shop)",
        response: connectorResponses(ChannelsView),
      },
    },
    async (req) => success('Channel mapping retrieved successfully', await settings.channels(req.connector!.integrationId)),
  );

  app.put(
    '/api/integration/channels',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Map PIM channels to publications (null: back to the default; []: published nowhere)',
        body: Type.Object(
          {
            channels: Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.Array(Gid('Publication'), { maxItems: 50 }), Type.Null()]), {
              maxProperties: 20,
            }),
          },
          { additionalProperties: false },
        ),
        response: connectorResponses(ChannelsView),
      },
    },
    async (req) => success('Channel mapping updated successfully', await settings.setChannels(req.connector!.integrationId, req.body)),
  );

  app.get(
    '/api/integration/locations',
    { ...admin, schema: { tags, security: bearer, summary: "Where each PIM warehouse's stock goes on the shop", response: connectorResponses(LocationsView) } },
    async (req) => success('Location mapping retrieved successfully', await settings.locations(req.connector!.integrationId)),
  );

  app.put(
    '/api/integration/locations',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Map PIM warehouses (by code) to locations (null: not synced), and the default location',
        body: Type.Object(
          {
            warehouses: Type.Optional(
              Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Union([Gid('Location'), Type.Null()]), { maxProperties: 200 }),
            ),
            default_location: Type.Optional(Type.Union([Gid('Location'), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        response: connectorResponses(LocationsView),
      },
    },
    async (req) => success('Location mapping updated successfully', await settings.setLocations(req.connector!.integrationId, req.body)),
  );

  app.get(
    '/api/integration/pricing',
    {
      ...admin,
      schema: { tags, security: bearer, summary: 'Whether prices are converted elsewhere (then no currency check)', response: connectorResponses(PricingView) },
    },
    async (req) => success('Pricing settings retrieved successfully', await settings.pricing(req.connector!.integrationId)),
  );

  app.put(
    '/api/integration/pricing',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Say whether prices are converted elsewhere',
        body: Type.Object({ prices_converted_elsewhere: Type.Boolean() }, { additionalProperties: false }),
        response: connectorResponses(PricingView),
      },
    },
    async (req) => success('Pricing settings updated successfully', await settings.setPricing(req.connector!.integrationId, req.body)),
  );

  app.get(
    '/api/integration/product-type',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: "Where the Shopify product type comes from (default: the product's first category's name)",
        response: connectorResponses(ProductTypeView),
      },
    },
    async (req) => success('Product type settings retrieved successfully', await settings.productType(req.connector!.integrationId)),
  );

  app.put(
    '/api/integration/product-type',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: "Take the product type from the first category's name, or from a PIM attribute",
        body: Type.Object(
          { source: ProductTypeSource, attribute_code: Type.Optional(Type.Union([AttributeCode, Type.Null()])) },
          { additionalProperties: false },
        ),
        response: connectorResponses(ProductTypeView),
      },
    },
    async (req) => success('Product type settings updated successfully', await settings.setProductType(req.connector!.integrationId, req.body)),
  );

  app.get(
    '/api/integration/attributes',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Which PIM attributes are written as product metafields, and where (default: all, namespace pimbridge_attr, key = code)',
        response: connectorResponses(AttributesView),
      },
    },
    async (req) => success('Attribute settings retrieved successfully', await settings.attributes(req.connector!.integrationId)),
  );

  app.put(
    '/api/integration/attributes',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Choose the attributes synced as metafields (only: null = all), their namespace and keys (null: back to the code)',
        body: Type.Object(
          {
            enabled: Type.Optional(Type.Boolean()),
            namespace: Type.Optional(Type.String({ minLength: 3, maxLength: 255 })),
            only: Type.Optional(Type.Union([Type.Array(AttributeCode, { maxItems: 1000 }), Type.Null()])),
            exclude: Type.Optional(Type.Array(AttributeCode, { maxItems: 1000 })),
            keys: Type.Optional(Type.Record(AttributeCode, Type.Union([Type.String({ minLength: 2, maxLength: 64 }), Type.Null()]), { maxProperties: 1000 })),
          },
          { additionalProperties: false },
        ),
        response: connectorResponses(AttributesView),
      },
    },
    async (req) => success('Attribute settings updated successfully', await settings.setAttributes(req.connector!.integrationId, req.body)),
  );
}
