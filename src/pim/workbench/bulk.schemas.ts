// The workbench's bulk writes: one change to many products (POST /api/products/bulk, with its undo) and many changes to
// many products (PATCH /api/products/batch, the bulk-edit grid). Beyond the spec.
import { Type, type Static } from '@sinclair/typebox';
import { Channel, DecimalInput, Id, Nullable, StringEnum, Text } from '../pim.schemas.js';
import { PRODUCT_STATUSES } from '../products/product.schemas.js';

/** At most this many products in one bulk change, named by id or matched by the filter. */
export const MAX_BULK_PRODUCTS = 10_000;
/** At most this many ids named in one bulk change's body. */
export const MAX_BULK_IDS = 1_000;
/** At most this many rows in one batch. */
export const MAX_BATCH_ROWS = 1_000;

export const BULK_ACTIONS = ['set_status', 'add_channel', 'remove_channel', 'add_category', 'remove_category', 'set_brand', 'archive'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BulkFilter = Type.Object(
  {
    search: Type.Optional(Text(200, { description: 'matches name, description and SKU' })),
    status: Type.Optional(StringEnum(PRODUCT_STATUSES, 'product status')),
    brand: Type.Optional(Id('brand id')),
    channel: Type.Optional(Channel),
    category: Type.Optional(Id('category id')),
  },
  { additionalProperties: false, description: "the list's filters (GET /api/products): every product they match" },
);
export type BulkFilterInput = Static<typeof BulkFilter>;

export const BulkBody = Type.Object(
  {
    ids: Type.Optional(Type.Array(Id(), { minItems: 1, maxItems: MAX_BULK_IDS, uniqueItems: true, description: `the products, at most ${MAX_BULK_IDS}` })),
    filter: Type.Optional(BulkFilter),
    action: StringEnum(BULK_ACTIONS, 'what to do to each product'),
    value: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
        description:
          'set_status: a status; add_channel, remove_channel: a channel; add_category, remove_category: a category id; set_brand: a brand id or null; archive: none',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BulkBodyInput = Static<typeof BulkBody>;

export const BulkResult = Type.Object({
  id: Type.Integer({ description: 'the bulk change, for its undo' }),
  action: Type.String(),
  matched: Type.Integer({ description: 'the products named or matched' }),
  changed: Type.Integer({ description: 'the products whose value changed (the others had it already)' }),
  product_ids: Type.Array(Type.Integer(), { description: 'the products changed' }),
  undone: Type.Boolean(),
});
export type BulkResultView = Static<typeof BulkResult>;

export const BatchRow = Type.Object(
  {
    id: Id('product id'),
    name: Type.Optional(Text(255, { minLength: 1 })),
    price: Type.Optional(Nullable(DecimalInput('regular price'))),
    sale_price: Type.Optional(Nullable(DecimalInput('sale price'))),
    compare_at_price: Type.Optional(Nullable(DecimalInput('compare-at price'))),
    stock: Type.Optional(Type.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 })),
    status: Type.Optional(StringEnum(PRODUCT_STATUSES, 'product status')),
  },
  { additionalProperties: false, minProperties: 2, errorMessage: { minProperties: 'must name at least one field to change besides id' } },
);
export type BatchRowInput = Static<typeof BatchRow>;

export const BatchBody = Type.Object(
  { products: Type.Array(BatchRow, { minItems: 1, maxItems: MAX_BATCH_ROWS, description: `one row per product, at most ${MAX_BATCH_ROWS}` }) },
  { additionalProperties: false },
);
export type BatchBodyInput = Static<typeof BatchBody>;

export const BatchResult = Type.Object({ updated: Type.Integer(), product_ids: Type.Array(Type.Integer()) });
