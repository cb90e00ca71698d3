// A product's history on the API (ours, beyond the spec): GET /api/products/{id}/history and its restore.
import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, Pagination, StringEnum } from '../pim.schemas.js';
import { ACTOR_KINDS } from './history.repository.js';

export const HistoryQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type HistoryQueryInput = Static<typeof HistoryQuery>;

export const ChangeParams = Type.Object({ id: Id(), change_id: Id('the id of a change in the product history') });

const FieldChange = Type.Object({
  field: Type.String({
    description:
      "the field, named as the API names it: a product field (category_ids for its categories; `name@de` for a translation's text; " +
      'images: its media in order as [{id, alt_text}]), a variant field (with variant_id), `stock_level` (a stock level, with warehouse) ' +
      'or `variant` (a variant added, old null, or removed, new null, with all its fields)',
  }),
  old: Type.Unknown({ description: 'its value before the change, as the API shows it (null for a new product)' }),
  new: Type.Unknown({ description: 'its value after the change' }),
  variant_id: Type.Optional(Type.Integer({ description: 'the variant the field is of' })),
  variant_sku: Type.Optional(Type.String({ description: "that variant's SKU (after the change; before it, for a variant removed)" })),
  warehouse: Type.Optional(Type.String({ description: 'the warehouse code of a stock level' })),
});

export const ProductChange = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ description: 'when, ISO 8601 UTC' }),
  action: StringEnum(['created', 'updated', 'restored'] as const),
  who: Type.Object({
    kind: StringEnum(ACTOR_KINDS, 'api_key: a call with X-API-KEY; console: the console; import: a catalogue file; adoption: a Shopify catalogue adopted'),
    key_id: Nullable(Type.Integer({ description: 'the API key the write came with (the console signs in with one)' })),
    key_name: Nullable(Type.String({ description: "that key's name, when it has one" })),
    label: Nullable(Type.String({ description: "a label of the write's source: the catalogue file's name for an import" })),
  }),
  changes: Type.Array(FieldChange),
  restored_from: Nullable(Type.Integer({ description: 'for a restore: the change whose version was put back' })),
});

export const ProductHistory = Type.Object({ changes: Type.Array(ProductChange), pagination: Pagination });
export type ProductHistoryView = Static<typeof ProductHistory>;
