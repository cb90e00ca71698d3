import { Type, type Static } from '@sinclair/typebox';
import { DecimalInput, Id, Nullable, StringEnum, Text } from '../pim.schemas.js';
import { sellingInputFields, sellingViewFields } from '../products/selling-fields.js';
import { MAX_OPTIONS } from './option-matrix.js';

export const STOCK_STATUSES = ['in_stock', 'out_of_stock', 'on_backorder'] as const;

export const Variant = Type.Object(
  {
    id: Type.Integer(),
    product_id: Type.Integer(),
    sku: Type.String(),
    name: Type.String(),
    price: Nullable(Type.String()),
    sale_price: Nullable(Type.String()),
    cost: Nullable(Type.String()),
    weight: Nullable(Type.String()),
    stock_quantity: Type.Integer(),
    stock_status: StringEnum(STOCK_STATUSES),
    is_enabled: Type.Boolean(),
    position: Type.Integer(),
    image: Nullable(Type.String()),
    attributes: Type.Array(Type.Object({ attribute_name: Type.String(), value: Type.String() })),
    ...sellingViewFields,
    warehouse_stock: Type.Array(Type.Object({ warehouse_id: Type.Integer(), code: Type.String(), name: Type.String(), quantity: Type.Integer() }), {
      description: 'beyond the spec: its levels by warehouse code (stock_quantity is their sum); empty: stock_quantity is set directly',
    }),
  },
  { $id: 'Variant' },
);
export type VariantView = Static<typeof Variant>;

export const VariantList = Type.Object({
  product_id: Type.Integer(),
  product_name: Type.String(),
  variants: Type.Array(Type.Ref(Variant)),
  total: Type.Integer(),
});

export const VariantParams = Type.Object({ id: Id(), variantId: Id() });

const VariantAttribute = Type.Object({ attribute_name: Text(100, { minLength: 1 }), value: Text(255) }, { additionalProperties: false });

const variantFields = {
  sku: Type.String({ minLength: 1, maxLength: 64, pattern: '^\\S(.*\\S)?$', errorMessage: 'must be 1-64 characters without leading or trailing spaces' }),
  name: Text(255, { minLength: 1 }),
  price: Nullable(DecimalInput('price')),
  sale_price: Nullable(DecimalInput('sale price')),
  cost: Nullable(DecimalInput('cost')),
  weight: Nullable(DecimalInput('weight, in `weight_unit`')),
  stock_quantity: Type.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 }),
  stock_status: StringEnum(STOCK_STATUSES, 'derived from stock_quantity when not given'),
  is_enabled: Type.Boolean(),
  position: Type.Integer({ minimum: 0, maximum: 100_000 }),
  image: Nullable(Type.String({ maxLength: 2048, pattern: '^https?://\\S+$', errorMessage: 'must be an http(s) URL' })),
  attributes: Type.Array(VariantAttribute, { maxItems: 50 }),
  ...sellingInputFields,
};

const { sku, name, ...optional } = variantFields;
export const VariantCreate = Type.Object({ sku, name, ...Type.Partial(Type.Object(optional)).properties }, { additionalProperties: false });
export type VariantCreateInput = Static<typeof VariantCreate>;
export const VariantPatch = Type.Partial(Type.Object(variantFields), {
  additionalProperties: false,
  minProperties: 1,
  errorMessage: { minProperties: 'must name at least one field to change' },
});
export type VariantPatchInput = Static<typeof VariantPatch>;

/** POST /api/products/{id}/variants/options: every combination of the options' values, made at once. */
export const OptionMatrix = Type.Object(
  {
    options: Type.Array(
      Type.Object(
        {
          name: Text(100, { minLength: 1, description: "the option, e.g. Size (the variants' attribute_name)" }),
          values: Type.Array(Text(255, { minLength: 1 }), { minItems: 1, maxItems: 100, description: 'its values, e.g. S, M, L' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_OPTIONS, description: `at most ${MAX_OPTIONS} options, as Shopify allows` },
    ),
    price: Type.Optional(Nullable(DecimalInput('price'))),
    stock_quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  },
  { additionalProperties: false },
);
export type OptionMatrixInput = Static<typeof OptionMatrix>;

export const OptionMatrixResult = Type.Object({
  product_id: Type.Integer(),
  created: Type.Array(Type.Ref(Variant), { description: 'the variants made, in their order' }),
  total: Type.Integer({ description: "the product's variants now" }),
});
