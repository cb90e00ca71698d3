// What a sandbox bulk mutation executes: the document is checked once (valid against the 2026-10 schema, one mutation
// whose only root field is productSet or publishablePublish, as far as the sandbox emulates bulk imports), then every JSONL line's variables
// run through graphql-js with the same resolvers as the per-call endpoint — no cost bucket — and become one result line
// in Shopify's format: `{"data": {...as selected...}, "__lineNumber": n}` (0-based), with `errors` for a line that
// failed as a whole (variables that do not fit the document or Shopify's input limits, a resolver failure).
import { execute, getOperationAST, getVariableValues, GraphQLError, Kind, parse, validate, type DocumentNode } from 'graphql';
import { adminSchema } from '../shopify/admin-schema.js';
import type { LineRunner } from './bulk-operation.service.js';
import { inputLimitErrors } from './input-limits.js';
import { mutationRoot } from './resolvers/index.js';
import type { SandboxContext } from './resolvers/types.js';
import { fieldResolver, formatError, MAX_TOKENS } from './sandbox-executor.js';

/**
 * The root fields the sandbox runs in bulk. Shopify runs most Admin mutations in bulk (the bulk import guide,
 * https://shopify.dev/docs/api/usage/bulk-operations/imports, no longer lists a few allowed ones; recursive bulk
 * operations excepted); the sandbox emulates those the bridge sends.
 */
const BULK_FIELDS = new Set(['productSet', 'publishablePublish']);

export type PreparedMutation = { document: DocumentNode; runner: LineRunner } | { error: string };

export function prepareBulkMutation(text: string): PreparedMutation {
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: MAX_TOKENS });
  } catch (err) {
    return { error: `Invalid mutation: ${(err as Error).message}` };
  }
  const errors = validate(adminSchema(), document);
  if (errors.length) return { error: `Invalid mutation: ${errors.map((e) => e.message).join(' ')}` };
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operations.length === 1 ? getOperationAST(document) : null;
  if (!operation || operation.operation !== 'mutation') return { error: 'Invalid mutation: the document must hold exactly one mutation.' };
  const roots = operation.selectionSet.selections;
  if (roots.length !== 1 || roots[0].kind !== Kind.FIELD) return { error: 'Invalid mutation: a bulk mutation runs exactly one root field.' };
  const field = roots[0].name.value;
  if (!BULK_FIELDS.has(field)) return { error: `The Pimbridge sandbox runs bulk mutations of ${[...BULK_FIELDS].join(', ')} only, not ${field}.` };
  return { document, runner: lineRunner(document) };
}

function lineRunner(document: DocumentNode): LineRunner {
  const schema = adminSchema();
  const operation = getOperationAST(document)!;
  return {
    async run(line: string, lineNumber: number, context: SandboxContext): Promise<string> {
      const variables = JSON.parse(line) as Record<string, unknown>; // each line was checked to be a JSON object
      // A line is one execution of the mutation: Shopify's input limits apply to its variables (input-limits.ts); the
      // number of lines is not an input array.
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
      const oversized = coerced.coerced ? inputLimitErrors(schema, document, operation, coerced.coerced) : [];
      if (oversized.length) return JSON.stringify({ errors: oversized, __lineNumber: lineNumber });
      let result: Awaited<ReturnType<typeof execute>>;
      try {
        result = await execute({ schema, document, variableValues: variables, rootValue: mutationRoot, contextValue: context, fieldResolver });
      } catch (err) {
        if (!(err instanceof GraphQLError)) throw err;
        result = { errors: [err] };
      }
      return JSON.stringify({
        ...(result.errors ? { errors: result.errors.map(formatError) } : {}),
        ...('data' in result && result.data !== undefined ? { data: result.data } : {}),
        __lineNumber: lineNumber,
      });
    },
  };
}
