// Shared TypeBox pieces of the PIM core API: envelope, ids, decimals, pagination.
import { Type, type TSchema } from '@sinclair/typebox';

/** `T | null`, written as a JSON-schema type list so the serializer stays on its fast path. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Unsafe<T['static'] | null>({ ...schema, type: [schema.type as string, 'null'] });

/** The envelope's `status`: 1 on success, 0 on error (an integer in the spec, so `integer` rather than TypeBox's `number` literal). */
const EnvelopeStatus = <S extends 0 | 1>(status: S) => Type.Unsafe<S>({ type: 'integer', enum: [status] });

export const PimErrorEnvelope = Type.Object(
  { status: EnvelopeStatus(0), data: Type.Null(), error: Type.String() },
  { $id: 'PimError', description: 'Error envelope of the PIM core API' },
);

export const pimOk = <T extends TSchema>(data: T) => Type.Object({ status: EnvelopeStatus(1), data, error: Type.Null() });

/** Response schemas of a PIM route: the success envelope plus the shared error envelope for 4xx/5xx. */
export const pimResponses = <T extends TSchema>(code: 200 | 201 | 202, data: T) => ({
  [code]: pimOk(data),
  '4xx': Type.Ref(PimErrorEnvelope),
  '5xx': Type.Ref(PimErrorEnvelope),
});

export const MAX_INT = 2_147_483_647;
export const Id = (description = 'positive integer id') =>
  Type.Integer({ minimum: 1, maximum: MAX_INT, description, errorMessage: 'must be a positive integer id' });
export const IdParams = Type.Object({ id: Id() });

export const DecimalInput = (description: string) =>
  Type.String({
    pattern: '^\\d{1,15}(\\.\\d{1,4})?$',
    description: `${description}; a decimal string such as "19.99"`,
    errorMessage: 'must be a decimal string such as "19.99" (up to 15 digits, at most 4 decimal places, not negative)',
  });

export const Text = (maxLength: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength, minLength: options.minLength, description: options.description });

export const PUBLISHING_CHANNELS = ['web', 'mobile', 'api', 'marketplace', 'social', 'email'] as const;
export type PublishingChannel = (typeof PUBLISHING_CHANNELS)[number];
/** A string from a fixed list (a plain `enum`, so validation messages list the allowed values). */
export const StringEnum = <const V extends readonly string[]>(values: V, description?: string) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], description });

export const Channel = StringEnum(PUBLISHING_CHANNELS, 'publishing channel');

export const Pagination = Type.Object({
  current_page: Type.Integer(),
  total_pages: Type.Integer(),
  total_items: Type.Integer(),
  items_per_page: Type.Integer(),
});

export const Locale = Type.String({
  pattern: '^[a-z]{2,3}(-[A-Z]{2})?$',
  description: 'language code such as "de" or "fr-CA"',
  errorMessage: 'must be a language code such as "de" or "fr-CA"',
});
