// Request validation: bodies are checked strictly (no type coercion, unknown fields rejected),
// query strings and path parameters are coerced from text. Messages name the field.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { NO_BODY } from '../http/route-docs.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  // verbose: the failing schema travels with the error, so a schema's own `errorMessage` can be shown.
  const ajv = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false, verbose: true });
  addFormats(ajv);
  return ajv;
}

const strictAjv = makeAjv(false);
const coercingAjv = makeAjv('array');

const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema as object) as never;

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

/** JSON nested deeper than this is refused: no field of ours nests beyond a few levels, and deep input costs stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * The first problem of a parsed value that the schemas cannot see: a string (or key) holding U+0000, which PostgreSQL
 * text cannot store, or nesting past MAX_JSON_DEPTH. Walked with a stack of its own, not recursion, so that no input
 * can overflow the call stack.
 */
function unstorable(value: unknown): { problem: 'nul' | 'depth'; path: string } | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return { problem: 'nul', path: item.path };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_JSON_DEPTH) return { problem: 'depth', path: item.path };
    const entries = Object.entries(item.value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      if (key.includes('\u0000')) return { problem: 'nul', path: item.path };
      stack.push({ value: child, path: `${item.path}/${key}`, depth: item.depth + 1 });
    }
  }
  return null;
}

/**
 * A request that fails a check of this module, in the shape of Fastify's own schema failures (`validation`,
 * `validationContext`, 400): every scope's error handler already turns those into its own envelope, so shared code
 * never needs to know which API it guards.
 */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  readonly statusCode = 400;
  readonly validation: { keyword: string; instancePath: string; message: string }[];

  constructor(
    message: string,
    readonly validationContext: string,
    keyword: string,
  ) {
    super(message);
    this.validation = [{ keyword, instancePath: '', message }];
  }
}

export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(compiler);
  app.setSchemaErrorFormatter((errors, dataVar) => new Error(describeValidationError(errors[0], dataVar)));
  // A NUL character or a value nested too deep is refused as a 400 naming the field, before it can fail in the
  // database (or on the stack) as a 500.
  app.addHook('preValidation', async (req) => {
    for (const [httpPart, value] of [
      ['body', req.body],
      ['querystring', req.query],
      ['params', req.params],
    ] as const) {
      const found = unstorable(value);
      if (found === null) continue;
      const name = fieldPath(found.path);
      const subject = name ? `${PART_NAMES[httpPart]} '${name}'` : httpPart === 'body' ? 'the request body' : PART_NAMES[httpPart];
      const message =
        found.problem === 'nul' ? `${subject} must not contain NUL (\\u0000) characters` : `${subject} is nested deeper than ${MAX_JSON_DEPTH} levels`;
      throw new RequestValidationError(message, httpPart, found.problem);
    }
    // An operation documented as taking no body (route-docs.ts NO_BODY: absent or `{}`) refuses one with fields, as the
    // document says, rather than ignoring it.
    if (req.routeOptions.config.openapi === NO_BODY && req.body !== undefined) {
      if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
        throw new RequestValidationError('the request body must be {} or left out', 'body', 'type');
      }
      const [field] = Object.keys(req.body);
      if (field !== undefined)
        throw new RequestValidationError(`field '${field}' is not allowed: this operation takes no body`, 'body', 'additionalProperties');
    }
  });
}
