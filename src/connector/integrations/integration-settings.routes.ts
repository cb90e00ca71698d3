// The integration's bridge settings (admin scope): which publications each PIM channel is published on, which location
// each warehouse's stock goes to, whether prices are converted elsewhere, where the product type comes from and which
// attributes become metafields. Beyond the spec; same envelope.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses } from '../connector.schemas.js';
import { PIM_CHANNELS } from './integration-settings.js';
import type { IntegrationSettingsService } from './integration-settings.service.js';

const Gid = (what: string) => Type.String({ minLength: 1, maxLength: 255, description: `a Shopify ${what} GID` });
const Named = Type.Object({ id: Type.String(), name: Type.String() });

/** The answer always lists the PIM's channels (PIM_CHANNELS), each once; a PUT's keys stay plain strings, checked by the service. */
const PimChannel = Type.Unsafe<(typeof PIM_CHANNELS)[number]>({ type: 'string', enum: [...PIM_CHANNELS] });

const ChannelsView = Type.Object({
  channels: Type.Array(
    Type.Object({ channel: PimChannel, source: Type.Union([Type.Literal('default'), Type.Literal('custom')]), publications: Type.Array(Named) }),
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

/** Every settings route needs a connector token with the admin scope (or a console session). */
const admin = { config: { access: 'admin' as const } };

export function integrationSettingsRoutes(app: App, settings: IntegrationSettingsService): void {
  channelRoutes(app, settings);
  locationRoutes(app, settings);
  pricingRoutes(app, settings);
  productTypeRoutes(app, settings);
  attributeRoutes(app, settings);
}

/** Which shop publications each PIM channel's products are published on. */
function channelRoutes(app: App, settings: IntegrationSettingsService): void {
  app.get(
    '/api/integration/channels',
    {
      ...admin,
      schema: {
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'getChannelPublications',
        summary: "Each PIM channel's publications on the shop",
        description:
          "Shows, for each PIM publishing channel, the shop publications (sales channels) its products are published on, and the shop's publications to choose from, read live. By default web goes to Online Store and mobile to Shop. Needs a connector token with the admin scope (or a console session); CONNECTION_FAILED (503) when the shop cannot be read.",
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
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'setChannelPublications',
        summary: 'Map PIM channels to shop publications',
        description:
          'Body `{channels: {<channel>: [publication GIDs] | null}}`: null puts a channel back to its default, [] publishes its products nowhere, and channels not named keep their mapping; answers the resulting mapping. Needs a connector token with the admin scope (or a console session). Errors: VALIDATION_FAILED (400) for an unknown channel or publication, CONNECTION_FAILED (503) when the shop cannot be read.',
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
}

/** Which shop location each warehouse's stock goes to, and the default location. */
function locationRoutes(app: App, settings: IntegrationSettingsService): void {
  app.get(
    '/api/integration/locations',
    {
      ...admin,
      schema: {
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'getWarehouseLocations',
        summary: "Where each PIM warehouse's stock goes on the shop",
        description:
          "Shows the default location (for variant stock and warehouses without a mapping), the warehouses mapped explicitly, and the shop's locations, read live; a warehouse without a mapping goes to the location of the same name or code. Needs a connector token with the admin scope (or a console session); CONNECTION_FAILED (503) when the shop cannot be read.",
        response: connectorResponses(LocationsView),
      },
    },
    async (req) => success('Location mapping retrieved successfully', await settings.locations(req.connector!.integrationId)),
  );

  app.put(
    '/api/integration/locations',
    {
      ...admin,
      schema: {
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'setWarehouseLocations',
        summary: 'Map PIM warehouses to shop locations, and set the default location',
        description:
          "Maps warehouses by code to location GIDs (null: that warehouse is not synced) and sets the default location; only the shop's active locations are taken, and warehouses not named keep their mapping. Needs a connector token with the admin scope (or a console session). Errors: VALIDATION_FAILED (400) for an unknown or inactive location, CONNECTION_FAILED (503) when the shop cannot be read.",
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
}

/** Whether prices are converted elsewhere (no currency check before a push). */
function pricingRoutes(app: App, settings: IntegrationSettingsService): void {
  app.get(
    '/api/integration/pricing',
    {
      ...admin,
      schema: {
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'getPricingSettings',
        summary: 'Whether prices are converted elsewhere',
        description:
          "prices_converted_elsewhere true: prices are converted outside the bridge, so a push does not check currencies; false (the default): a product whose currency is not the shop's currency fails the push's pre-flight. Needs a connector token with the admin scope (or a console session).",
        response: connectorResponses(PricingView),
      },
    },
    async (req) => success('Pricing settings retrieved successfully', await settings.pricing(req.connector!.integrationId)),
  );

  app.put(
    '/api/integration/pricing',
    {
      ...admin,
      schema: {
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'setPricingSettings',
        summary: 'Set whether prices are converted elsewhere',
        description:
          "Body {prices_converted_elsewhere: boolean}; true turns off the push's check that a product's currency is the shop's currency. Needs a connector token with the admin scope (or a console session). Errors: MISSING_FIELD, VALIDATION_FAILED (400).",
        body: Type.Object({ prices_converted_elsewhere: Type.Boolean() }, { additionalProperties: false }),
        response: connectorResponses(PricingView),
      },
    },
    async (req) => success('Pricing settings updated successfully', await settings.setPricing(req.connector!.integrationId, req.body)),
  );
}

/** Where the Shopify product type comes from. */
function productTypeRoutes(app: App, settings: IntegrationSettingsService): void {
  app.get(
    '/api/integration/product-type',
    {
      ...admin,
      schema: {
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'getProductTypeSource',
        summary: 'Where the Shopify product type comes from',
        description:
          "source first_category (the default: the name of the product's first category) or attribute (the value of attribute_code; a multiselect's values joined by commas), and is_default while it was never set. Needs a connector token with the admin scope (or a console session).",
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
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'setProductTypeSource',
        summary: 'Choose where the Shopify product type comes from',
        description:
          'Body {source: "first_category"} (the first category\'s name) or {source: "attribute", attribute_code} (a PIM attribute, which must exist; the PIM is read live). Needs a connector token with the admin scope (or a console session). Errors: VALIDATION_FAILED (400) for a bad body or an unknown attribute, CONNECTION_FAILED (503) when the PIM cannot be read.',
        body: Type.Object(
          { source: ProductTypeSource, attribute_code: Type.Optional(Type.Union([AttributeCode, Type.Null()])) },
          { additionalProperties: false },
        ),
        response: connectorResponses(ProductTypeView),
      },
    },
    async (req) => success('Product type settings updated successfully', await settings.setProductType(req.connector!.integrationId, req.body)),
  );
}

/** Which PIM attributes are written as product metafields, and under which keys. */
function attributeRoutes(app: App, settings: IntegrationSettingsService): void {
  app.get(
    '/api/integration/attributes',
    {
      ...admin,
      schema: {
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'getAttributeMetafields',
        summary: 'Which PIM attributes are written as product metafields, and where',
        description:
          "Shows whether attributes are synced, their namespace (default pimbridge_attr), the only and exclude lists, the key overrides (default: the attribute code), and each PIM attribute with whether it is synced and under which metafield; by default all are synced. Needs a connector token with the admin scope (or a console session); CONNECTION_FAILED (503) when the PIM's attributes cannot be read.",
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
        tags: ['Integration settings'],
        security: bearer,
        operationId: 'setAttributeMetafields',
        summary: 'Choose the attributes synced as metafields, their namespace and keys',
        description:
          "Any of enabled (false: none synced), namespace (pimbridge, custom, shopify and $app refused), only (codes, or null for all), exclude (codes) and keys ({code: key}, null puts the code back); two attributes may not share a key, and seo_title and seo_description are never synced as metafields. The codes are checked against the PIM's attributes, read live. Needs a connector token with the admin scope (or a console session). Errors: VALIDATION_FAILED (400), CONNECTION_FAILED (503) when the PIM cannot be read.",
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
