// Reads a multipart/form-data body made of one image file and a few short text fields: the image search's and the
// media upload's. Every problem is a 400 naming the field; the body is bounded by the multipart limits
// (`imageFormLimits`), so it is read to its end before answering, and the first problem found is the one reported.
import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { type AppError, badRequest } from '../http/errors.js';
import { multipartError, NOT_MULTIPART } from './multipart-errors.js';

export interface ImageForm<F extends string> {
  /** The file field's name (`image`, `file`). */
  fileField: string;
  /** The largest file accepted. */
  maxFileBytes: number;
  /** The text fields allowed beside the file, and what a value that is too long breaks. */
  fields: Record<F, { message: string }>;
  /** The longest text field, in bytes (default 100). */
  maxFieldBytes?: number;
}

export interface ImageFormValues<F extends string> {
  image: Buffer;
  fields: Partial<Record<F, string>>;
}

/**
 * What the multipart framing around the file can add at most (part headers and the small fields): a larger
 * Content-Length is refused before reading anything.
 */
const FRAMING_BYTES = 64 * 1024;

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const tooLarge = (form: ImageForm<string>) => `field '${form.fileField}': the file is larger than ${megabytes(form.maxFileBytes)}`;
const fieldNames = (form: ImageForm<string>) => [form.fileField, ...Object.keys(form.fields)];

/** @fastify/multipart's options for a route reading `form`. */
export function imageFormLimits(form: ImageForm<string>): FastifyMultipartBaseOptions {
  const names = fieldNames(form);
  return {
    limits: {
      files: 1,
      fileSize: form.maxFileBytes,
      fields: names.length,
      parts: names.length + 1,
      fieldNameSize: 100,
      fieldSize: form.maxFieldBytes ?? 100,
      headerPairs: 20,
    },
    // The file field is the upload even without a filename (busboy would otherwise read it as a text field).
    isPartAFile: (fieldName, contentType, fileName) => fieldName === form.fileField || fileName !== undefined || contentType === 'application/octet-stream',
  };
}

function uploadError(err: unknown, form: ImageForm<string>): AppError {
  const known = multipartError(err, {
    tooLarge: tooLarge(form),
    tooManyFiles: `only one file may be sent, in the field '${form.fileField}'`,
    tooManyFields: `too many form fields: the allowed ones are ${fieldNames(form).join(', ')}`,
  });
  return known ?? badRequest(NOT_MULTIPART);
}

export async function readImageForm<F extends string>(req: FastifyRequest, form: ImageForm<F>): Promise<ImageFormValues<F>> {
  const { fileField } = form;
  const required = `field '${fileField}' is required: a JPEG, PNG, WebP or GIF file of at most ${megabytes(form.maxFileBytes)}`;
  if (!req.isMultipart()) throw badRequest(`the request must be multipart/form-data with the image in the file field '${fileField}'`);
  if (Number(req.headers['content-length']) > form.maxFileBytes + FRAMING_BYTES) throw badRequest(tooLarge(form));

  let image: Buffer | undefined;
  const fields: Partial<Record<F, string>> = {};
  let problem: string | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === fileField) {
          image = await part.toBuffer();
        } else {
          for await (const chunk of part.file) void chunk; // read to its end and dropped
          problem ??= `field '${part.fieldname}' is not allowed: send the image in the file field '${fileField}'`;
        }
        continue;
      }
      const name = part.fieldname as F;
      if (!Object.hasOwn(form.fields, name)) problem ??= `field '${part.fieldname}' is not allowed`;
      else if (fields[name] !== undefined) problem ??= `field '${name}' is given more than once`;
      else if (part.valueTruncated) problem ??= `field '${name}' ${form.fields[name].message}`;
      else fields[name] = String(part.value);
    }
  } catch (err) {
    throw uploadError(err, form);
  }
  if (problem) throw badRequest(problem);
  if (!image) throw badRequest(required);
  return { image, fields };
}
