import { Type } from '@sinclair/typebox';
import { Product } from '../products/product.schemas.js';

export const IMAGE_FIELD = 'image';
/** Largest accepted upload. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_DISTANCE = 10;
export const MAX_DISTANCE = 32;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The search's options, allowed as query parameters or as form fields beside the file (not both). */
export const OPTIONS = {
  max_distance: { min: 0, max: MAX_DISTANCE, message: `must be an integer from 0 to ${MAX_DISTANCE}` },
  limit: { min: 1, max: MAX_LIMIT, message: `must be an integer from 1 to ${MAX_LIMIT}` },
} as const;
export type OptionName = keyof typeof OPTIONS;

const option = (name: OptionName, description: string) =>
  Type.Optional(Type.Integer({ minimum: OPTIONS[name].min, maximum: OPTIONS[name].max, description, errorMessage: OPTIONS[name].message }));

export const ImageSearchQuery = Type.Object({
  max_distance: option('max_distance', `largest Hamming distance (of 64 bits) between the perceptual hashes; default ${DEFAULT_MAX_DISTANCE}`),
  limit: option('limit', `most products returned; default ${DEFAULT_LIMIT}`),
});

/**
 * The form, for the OpenAPI document only: the body is read as a stream by image-search.form.ts (which applies these
 * rules), so Fastify validates an absent body against it, and the schema deliberately has no `type` (keywords such as
 * `required` and `properties` pass a non-object).
 */
export const ImageSearchForm = {
  type: 'object',
  properties: {
    [IMAGE_FIELD]: { type: 'string', format: 'binary', description: `a JPEG, PNG, WebP or GIF file of at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB` },
    max_distance: { type: 'integer', minimum: 0, maximum: MAX_DISTANCE, default: DEFAULT_MAX_DISTANCE },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  required: [IMAGE_FIELD],
};

export const ImageMatch = Type.Object({
  media_id: Type.Integer({ description: 'the closest image of the product' }),
  distance: Type.Integer({ description: 'Hamming distance between the perceptual hashes, 0–64' }),
  similarity: Type.Number({ description: '1 − distance / 64, rounded to 4 decimal places' }),
});

export const ImageSearchResult = Type.Object({
  products: Type.Array(Type.Object({ ...Product.properties, match: ImageMatch })),
  total: Type.Integer({ description: 'matching products in all (the list stops at limit)' }),
});
