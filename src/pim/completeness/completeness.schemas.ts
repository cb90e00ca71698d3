import { Type } from '@sinclair/typebox';

const MissingAttribute = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });
const MissingTranslation = Type.Object({
  locale: Type.String(),
  fields: Type.Array(Type.String({ description: 'name, or description (counted when the product has one)' })),
});

const ChannelCompleteness = Type.Object({
  channel: Type.String(),
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'the percent of required items filled, rounded down' }),
  required: Type.Integer({ description: "the items the channel requires: its attributes, and per language the product's translated fields" }),
  filled: Type.Integer(),
  missing_attributes: Type.Array(MissingAttribute),
  missing_translations: Type.Array(MissingTranslation, { description: 'per language of the organization, the translated fields the product lacks' }),
});

export const Completeness = Type.Object({
  product_id: Type.Integer(),
  score: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: "over all the product's channels; null when the product is on no channel",
  }),
  languages: Type.Array(Type.String(), { description: "the organization's languages (PATCH /api/organization)" }),
  channels: Type.Array(ChannelCompleteness, { description: 'one per publishing channel of the product' }),
});

export const CompletenessList = Type.Object({ products: Type.Array(Completeness) });

export const CompletenessQuery = Type.Object({
  ids: Type.String({
    pattern: '^[0-9]{1,10}(,[0-9]{1,10}){0,99}$',
    description: 'the product ids, comma-separated, at most 100 (a page of the product list)',
    errorMessage: 'must be up to 100 product ids, comma-separated',
  }),
});
