// What a sandbox bulk mutation executes: the document is checked once (valid against the 2026-10 schema, one mutation
// whose only root field is productSet or publishablePublish, as far as the sandbox emulates bulk imports), then every JSONL line's variables
// run through graphql-js with the same resolvers as the per-call endpoint — no cost bucket — and become one result line
// in Shopify's format: `{"data": {...as selected...}, "__lineNumber": n}` (0-based), with `errors` for a line that
// failed as a whole (variables that do not fit the document or Shopify's input limits, a resolver failure).
import {
  execute,
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type OperationDefinitionNode,
  type SelectionNode,
} from 'graphql';
import { adminSchema } from '../storefront/shopify/admin-schema.js';
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

export type PreparedMutation = { document: DocumentNode; runner: LineRunner<SandboxContext> } | { error: string };

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
  if (operation?.operation !== 'mutation') return { error: 'Invalid mutation: the document must hold exactly one mutation.' };
  const roots = operation.selectionSet.selections;
  if (roots.length !== 1 || roots[0].kind !== Kind.FIELD) return { error: 'Invalid mutation: a bulk mutation runs exactly one root field.' };
  const field = roots[0].name.value;
  if (!BULK_FIELDS.has(field)) return { error: `The Pimbridge sandbox runs bulk mutations of ${[...BULK_FIELDS].join(', ')} only, not ${field}.` };
  // "The mutation that's passed into bulkOperationRunMutation is limited to one connection field, which is defined by
  // the GraphQL Admin API schema" (https://shopify.dev/docs/api/usage/bulk-operations/imports, "Limitations"; Shopify
  // staff's example of a refused productCreate selecting variants and metafields:
  // https://community.shopify.com/c/graphql-basics-and/quot-bulkoperationrunmutation-is-limited-to-one-connection-field/td-p/2006334).
  // The wording is Shopify's answer as reported at
  // https://community.shopify.com/t/unable-to-get-metafields-and-variants-information-after-uploading-the-product-using-bulk-mutation/186439.
  if (connectionCount(document, operation) > 1) return { error: 'Bulk mutations cannot contain more than 1 connection.' };
  return { document, runner: lineRunner(document) };
}

/** The connection fields (their type is a `…Connection`) the operation selects, through fragments too. */
export function connectionCount(document: DocumentNode, operation: OperationDefinitionNode): number {
  const schema = adminSchema();
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  let count = 0;
  const walk = (selections: readonly SelectionNode[], parent: GraphQLNamedType | undefined) => {
    for (const sel of selections) {
      if (sel.kind === Kind.FIELD) {
        const fieldDef = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[sel.name.value] : undefined;
        const type = fieldDef ? getNamedType(fieldDef.type) : undefined;
        if (type?.name.endsWith('Connection')) count++;
        if (sel.selectionSet) walk(sel.selectionSet.selections, type);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet.selections, sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) ?? parent) : parent);
      } else {
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet.selections, schema.getType(fragment.typeCondition.name.value) ?? undefined);
      }
    }
  };
  walk(operation.selectionSet.selections, schema.getMutationType() ?? undefined);
  return count;
}

function lineRunner(document: DocumentNode): LineRunner<SandboxContext> {
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
