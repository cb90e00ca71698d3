// Reads the multipart/form-data body of an image search: one file in the field `image`, optional `max_distance` and
// `limit` fields (or the same as query parameters). Every problem is a 400 naming the field; the body is bounded by
// the multipart limits below, so it is read to its end before answering.
import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { type AppError, badRequest } from '../../http/errors.js';
import { multipartError, NOT_MULTIPART } from '../multipart-errors.js';
import type { ImageSearchInput } from './image-search.service.js';
import { DEFAULT_LIMIT, DEFAULT_MAX_DISTANCE, IMAGE_FIELD, MAX_IMAGE_BYTES, OPTIONS, type OptionName } from './image-search.schemas.js';

const FIELD_NAMES = [IMAGE_FIELD, ...Object.keys(OPTIONS)];

export const MULTIPART_OPTIONS: FastifyMultipartBaseOptions = {
  limits: {
    files: 1,
    fileSize: MAX_IMAGE_BYTES,
    fields: FIELD_NAMES.length,
    parts: FIELD_NAMES.length + 1,
    fieldNameSize: 100,
    fieldSize: 100,
    headerPairs: 20,
  },
  // A part named `image` is the upload even without a filename (busboy would otherwise read it as a text field).
  isPartAFile: (fieldName, contentType, fileName) => fieldName === IMAGE_FIELD || fileName !== undefined || contentType === 'application/octet-stream',
};

/**
 * What the multipart framing around a 10 MB file can add at most (part headers and the small fields): a larger
 * Content-Length is refused before reading anything.
 */
const FRAMING_BYTES = 64 * 1024;

const TOO_LARGE = `field '${IMAGE_FIELD}': the file is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`;

function uploadError(err: unknown): AppError {
  const known = multipartError(err, {
    tooLarge: TOO_LARGE,
    tooManyFiles: `only one file may be sent, in the field '${IMAGE_FIELD}'`,
    tooManyFields: `too many form fields: the allowed ones are ${FIELD_NAMES.join(', ')}`,
  });
  return known ?? badRequest(NOT_MULTIPART);
}

function parseOption(name: OptionName, text: string): number {
  const { min, max, message } = OPTIONS[name];
  const value = /^\d{1,3}$/.test(text.trim()) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw badRequest(`field '${name}' ${message}`);
  return value;
}

export async function readSearchForm(req: FastifyRequest, query: Partial<Record<OptionName, number>>): Promise<ImageSearchInput> {
  if (!req.isMultipart()) {
    throw badRequest(`the request must be multipart/form-data with the image in the file field '${IMAGE_FIELD}'`);
  }
  if (Number(req.headers['content-length']) > MAX_IMAGE_BYTES + FRAMING_BYTES) throw badRequest(TOO_LARGE);

  let image: Buffer | undefined;
  const fields: Partial<Record<OptionName, string>> = {};
  let problem: string | undefined; // the first one; the rest of the (bounded) body is still read
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === IMAGE_FIELD) {
          image = await part.toBuffer();
        } else {
          for await (const chunk of part.file) void chunk; // read to its end and dropped
          problem ??= `field '${part.fieldname}' is not allowed: send the image in the file field '${IMAGE_FIELD}'`;
        }
        continue;
      }
      const name = part.fieldname as OptionName;
      if (!Object.hasOwn(OPTIONS, name)) problem ??= `field '${part.fieldname}' is not allowed`;
      else if (fields[name] !== undefined) problem ??= `field '${name}' is given more than once`;
      else if (part.valueTruncated) problem ??= `field '${name}' ${OPTIONS[name].message}`;
      else fields[name] = String(part.value);
    }
  } catch (err) {
    throw uploadError(err);
  }
  if (problem) throw badRequest(problem);
  if (!image) throw badRequest(`field '${IMAGE_FIELD}' is required: a JPEG, PNG, WebP or GIF file of at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);

  const option = (name: OptionName, fallback: number): number => {
    const field = fields[name];
    if (field !== undefined && query[name] !== undefined) throw badRequest(`'${name}' is given both as a query parameter and as a form field`);
    return field !== undefined ? parseOption(name, field) : (query[name] ?? fallback);
  };
  return { image, maxDistance: option('max_distance', DEFAULT_MAX_DISTANCE), limit: option('limit', DEFAULT_LIMIT) };
}
