// Request validation: bodies are checked strictly (no type coercion, unknown fields rejected),
// query strings and path parameters are coerced from text. Messages name the field.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { badRequest } from './errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  // verbose: the failing schema travels with the error, so a schema's own `errorMessage` can be shown.
  const ajv = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false, verbose: true });
  addFormats(ajv);
  return ajv;
}

const strictAjv = makeAjv(false);
const coercingAjv = makeAjv('array');

const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema as object) as never;

const PART_NAMES: Record<string, string> = { body: 'field', querystring: 'query parameter', params: 'path parameter', headers: 'header' };

function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

export function describeValidationError(error: ErrorObject, httpPart: string): string {
  const what = PART_NAMES[httpPart] ?? httpPart;
  // A schema may carry its own wording: `errorMessage` as one text, or as texts per failing keyword.
  const own = (error.parentSchema as { errorMessage?: string | Record<string, string> } | undefined)?.errorMessage;
  const custom = typeof own === 'object' ? own[error.keyword] : own;
  switch (error.keyword) {
    case 'required':
      return `${what} '${fieldPath(error.instancePath, String(error.params.missingProperty))}' is required`;
    case 'additionalProperties':
      return `${what} '${fieldPath(error.instancePath, String(error.params.additionalProperty))}' is not allowed`;
    default: {
      const name = fieldPath(error.instancePath);
      const subject = name ? `${what} '${name}'` : httpPart === 'body' ? 'the request body' : what;
      if (custom) return `${subject} ${custom}`;
      if (error.keyword === 'enum') return `${subject} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
      if (error.keyword === 'const') return `${subject} must be ${JSON.stringify(error.params.allowedValue)}`;
      return `${subject} ${error.message ?? 'is invalid'}`;
    }
  }
}

/** JSON path of the first string (or key) holding U+0000, which PostgreSQL text cannot store; null when none does. */
function nulCharacterPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return path;
    const found = nulCharacterPath(item, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(compiler);
  app.setSchemaErrorFormatter((errors, dataVar) => new Error(describeValidationError(errors[0], dataVar)));
  // A NUL character is refused as a 400 naming the field, before it can fail in the database as a 500.
  app.addHook('preValidation', async (req) => {
    for (const [httpPart, value] of [['body', req.body], ['querystring', req.query], ['params', req.params]] as const) {
      const at = nulCharacterPath(value);
      if (at === null) continue;
      const name = fieldPath(at);
      const subject = name ? `${PART_NAMES[httpPart]} '${name}'` : httpPart === 'body' ? 'the request body' : PART_NAMES[httpPart];
      throw badRequest(`${subject} must not contain NUL (\\u0000) characters`);
    }
  });
}
