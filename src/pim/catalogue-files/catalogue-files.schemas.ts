import { Type } from '@sinclair/typebox';
import { FORMATS } from '../../catalogue-csv/draft.js';
import { Channel, Id, Nullable, StringEnum, Text } from '../pim.schemas.js';
import { PRODUCT_STATUSES } from '../products/product.schemas.js';

export const ImportView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    state: StringEnum(['queued', 'running', 'completed', 'failed'] as const),
    format: StringEnum(FORMATS),
    dry_run: Type.Boolean(),
    file_name: Type.String(),
    size_bytes: Type.Integer(),
    rows_total: Type.Integer({ description: 'data rows in the file' }),
    rows_done: Type.Integer({ description: 'rows processed: created + updated + unchanged + failed' }),
    created: Type.Integer({ description: 'rows whose product or variant was created (a dry run: would be)' }),
    updated: Type.Integer(),
    unchanged: Type.Integer(),
    failed: Type.Integer({ description: 'rows refused; GET /api/imports/{id}/errors.csv says why' }),
    products: Type.Object(
      { created: Type.Integer(), updated: Type.Integer(), unchanged: Type.Integer() },
      { description: 'the rows imported so far, counted by product: created, updated (itself or any of its variants) or unchanged' },
    ),
    variants: Type.Object(
      { created: Type.Integer(), updated: Type.Integer(), unchanged: Type.Integer() },
      { description: 'the variant rows imported so far, counted by variant' },
    ),
    images_failed: Type.Integer({
      description:
        'images of imported rows that could not be downloaded (not counted in failed: their products are imported); errors.csv says why. Their URLs are kept and tried again at the next import of their products',
    }),
    error: Nullable(Type.String({ description: 'why the whole import failed' })),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Import' },
);

export const ImportQuery = Type.Object({
  format: Type.Optional(StringEnum(FORMATS, 'the file format; detected from the header when not given')),
  dry_run: Type.Boolean({ default: false, description: 'check the whole file and report, writing nothing' }),
});

export const ImportParams = Type.Object({ id: Type.String({ format: 'uuid', errorMessage: 'must be an import id (a UUID)' }) });

export const ExportQuery = Type.Object({
  format: Type.Optional(StringEnum(FORMATS, 'ours (default) or shopify (Shopify product CSV)')),
  search: Type.Optional(Text(200, { description: 'matches name, description and SKU' })),
  status: Type.Optional(StringEnum(PRODUCT_STATUSES, 'product status')),
  brand: Type.Optional(Id('brand id')),
  channel: Type.Optional(Channel),
  category: Type.Optional(Id('category id')),
});

export const ImportErrorsQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'rows per page, 1-200 (default 50)' }),
  after: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: "the page's start: the previous page's next_after (0: the first page)" }),
});

export const ImportErrorsPage = Type.Object({
  errors: Type.Array(
    Type.Object({
      line: Type.Integer({ description: "the row's line in the file (1 is the header)" }),
      sku: Nullable(Type.String()),
      reason: Type.String({ description: 'why the row was refused, naming the column' }),
    }),
  ),
  next_after: Nullable(Type.Integer({ description: "the next page's `after`; null: this is the last page" })),
});
