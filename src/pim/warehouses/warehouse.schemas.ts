import { Type, type Static } from '@sinclair/typebox';
import { ISO_COUNTRY_CODES } from '../../lib/country-codes.js';
import { Nullable, Text } from '../pim.schemas.js';

export const Warehouse = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  country_code: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type WarehouseView = Static<typeof Warehouse>;

export const WarehouseList = Type.Object({ warehouses: Type.Array(Warehouse), total: Type.Integer() });

const warehouseFields = {
  code: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
    description: 'unique per organization, e.g. "BER-1"',
    errorMessage: 'must be 1-64 letters, digits, dots, hyphens or underscores, starting with a letter or digit',
  }),
  name: Text(255, { minLength: 1 }),
  // Nullable() would keep the enum without null: the list carries it itself.
  country_code: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    enum: [...ISO_COUNTRY_CODES, null],
    description: 'ISO 3166-1 alpha-2 country code, or null',
    errorMessage: 'must be an ISO 3166-1 alpha-2 country code in capitals, such as "DE"',
  }),
};

const { code, name, ...optional } = warehouseFields;
export const WarehouseCreate = Type.Object({ code, name, ...Type.Partial(Type.Object(optional)).properties }, { additionalProperties: false });
export type WarehouseCreateInput = Static<typeof WarehouseCreate>;

/** PUT and PATCH take the same body: the fields to change. */
export const WarehouseUpdate = Type.Partial(Type.Object(warehouseFields), {
  additionalProperties: false,
  minProperties: 1,
  errorMessage: { minProperties: 'must name at least one field to change' },
});
export type WarehouseUpdateInput = Static<typeof WarehouseUpdate>;
