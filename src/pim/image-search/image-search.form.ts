// Reads the multipart/form-data body of an image search: one file in the field `image`, optional `max_distance` and
// `limit` fields (or the same as query parameters). Every problem is a 400 naming the field (image-form.ts).
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../http/errors.js';
import { type ImageForm, imageFormLimits, readImageForm } from '../image-form.js';
import type { ImageSearchInput } from './image-search.service.js';
import { DEFAULT_LIMIT, DEFAULT_MAX_DISTANCE, IMAGE_FIELD, MAX_IMAGE_BYTES, OPTIONS, type OptionName } from './image-search.schemas.js';

const FORM: ImageForm<OptionName> = { fileField: IMAGE_FIELD, maxFileBytes: MAX_IMAGE_BYTES, fields: OPTIONS };

export const MULTIPART_OPTIONS = imageFormLimits(FORM);

function parseOption(name: OptionName, text: string): number {
  const { min, max, message } = OPTIONS[name];
  const value = /^\d{1,3}$/.test(text.trim()) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw badRequest(`field '${name}' ${message}`);
  return value;
}

export async function readSearchForm(req: FastifyRequest, query: Partial<Record<OptionName, number>>): Promise<ImageSearchInput> {
  const { image, fields } = await readImageForm(req, FORM);
  const option = (name: OptionName, fallback: number): number => {
    const field = fields[name];
    if (field !== undefined && query[name] !== undefined) throw badRequest(`'${name}' is given both as a query parameter and as a form field`);
    return field !== undefined ? parseOption(name, field) : (query[name] ?? fallback);
  };
  return { image, maxDistance: option('max_distance', DEFAULT_MAX_DISTANCE), limit: option('limit', DEFAULT_LIMIT) };
}
