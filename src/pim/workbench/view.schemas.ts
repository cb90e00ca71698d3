// Saved views of the product list (beyond the spec): filters, columns and sort, by name, per API key (console user).
import { Type, type Static } from '@sinclair/typebox';
import { Id, Text } from '../pim.schemas.js';
import { SORT_KEYS, SORT_PATTERN } from '../products/product-sort.js';
import { BulkFilter } from './bulk.schemas.js';

/** At most this many views per user. */
export const MAX_VIEWS = 50;

export const ViewBody = Type.Object(
  {
    name: Text(80, { minLength: 1, description: 'the view, as the menu shows it; saving under a name already there replaces that view' }),
    filters: BulkFilter,
    columns: Type.Array(Type.String({ pattern: '^[a-z_]{1,40}$' }), { maxItems: 40, uniqueItems: true, description: "the list's columns shown, in order" }),
    sort: Type.Optional(
      Type.Union([Type.String({ pattern: SORT_PATTERN, errorMessage: `must be one of ${SORT_KEYS.join(', ')}, optionally after -` }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);
export type ViewBodyInput = Static<typeof ViewBody>;

export const View = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  filters: BulkFilter,
  columns: Type.Array(Type.String()),
  sort: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.String({ format: 'date-time' }),
});
export type ViewView = Static<typeof View>;

export const ViewList = Type.Object({ views: Type.Array(View) });
export const ViewParams = Type.Object({ id: Id() });
