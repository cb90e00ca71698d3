import { Type, type Static } from '@sinclair/typebox';
import { Channel, Nullable, StringEnum, Text } from '../pim.schemas.js';

export const ATTRIBUTE_TYPES = ['text', 'textarea', 'number', 'boolean', 'date', 'select', 'multiselect'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
/** The types whose definitions carry `options` (and whose values must come from them). */
export const SELECT_TYPES: readonly AttributeType[] = ['select', 'multiselect'];

export const ATTRIBUTE_CODE_PATTERN = '^[a-z][a-z0-9_]{0,63}$';

export const Attribute = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  type: Type.String(),
  options: Type.Array(Type.String()),
  is_required: Type.Boolean(),
  required_channels: Type.Array(Type.String()),
  metafield: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type AttributeView = Static<typeof Attribute>;

export const AttributeList = Type.Object({ attributes: Type.Array(Attribute), total: Type.Integer() });

const attributeFields = {
  code: Type.String({
    pattern: ATTRIBUTE_CODE_PATTERN,
    description: "the key of the attribute in a product's `attributes` object",
    errorMessage: 'must start with a lower-case letter and hold only lower-case letters, digits and underscores (at most 64)',
  }),
  name: Text(255, { minLength: 1 }),
  type: StringEnum(ATTRIBUTE_TYPES, 'attribute type'),
  options: Type.Array(Text(255, { minLength: 1 }), {
    maxItems: 1000,
    uniqueItems: true,
    description: 'allowed values of a select or multiselect attribute; empty for the other types',
  }),
  is_required: Type.Boolean({ description: 'products must carry a value when they are created' }),
  required_channels: Type.Array(Channel, {
    maxItems: 6,
    uniqueItems: true,
    description:
      'beyond the spec: the publishing channels whose products need a value of this attribute to be complete (GET /api/products/{id}/completeness); not enforced on writes. An is_required attribute is needed on every channel',
  }),
  metafield: Nullable(
    Type.String({
      maxLength: 255,
      pattern: '^[A-Za-z0-9_-]{2,}\\.[A-Za-z0-9_-]{2,}$',
      description:
        "the storefront metafield the attribute is, `namespace.key` (e.g. 'custom.material', 'mm-google-shopping.gender'); a Shopify file's metafield column of that metafield fills it, the Shopify export writes it there, and the push writes it to that metafield. One attribute per metafield",
      errorMessage: 'must be namespace.key: letters, digits, - and _',
    }),
  ),
};

const { code, name, type, ...optional } = attributeFields;
export const AttributeCreate = Type.Object({ code, name, type, ...Type.Partial(Type.Object(optional)).properties }, { additionalProperties: false });
export type AttributeCreateInput = Static<typeof AttributeCreate>;

/** PUT and PATCH take the same body: the fields to change. */
export const AttributeUpdate = Type.Partial(Type.Object(attributeFields), {
  additionalProperties: false,
  minProperties: 1,
  errorMessage: { minProperties: 'must name at least one field to change' },
});
export type AttributeUpdateInput = Static<typeof AttributeUpdate>;
