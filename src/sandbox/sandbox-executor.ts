// The GraphQL half of the sandbox (loaded lazily by sandbox-graphql.service.ts): parse and validate against Shopify's
// real 2026-10 schema (graphql-js messages, Shopify-style codes), price the operation (cost.ts), charge the store's
// bucket, refuse input arrays and page sizes past Shopify's limits (input-limits.ts), execute with the database-backed
// resolvers, refund to the actual cost. Always HTTP 200, as Shopify answers.
import {
  defaultFieldResolver,
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLFormattedError,
  type ValidationRule,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { adminSchema } from '../storefront/shopify/admin-schema.js';
import { accessDeniedError, fieldAccess, satisfies } from './access-scopes.js';
import { actualQueryCost, MAX_QUERY_COST, requestedQueryCost } from './cost.js';
import { inputLimitErrors } from './input-limits.js';
import type { BucketLimits, LeakyBuckets, ThrottleSnapshot } from './leaky-bucket.js';
import { mutationRoot, queryRoot } from './resolvers/index.js';
import type { SandboxContext } from './resolvers/types.js';

const RATE_LIMIT_DOCS = 'https://shopify.dev/api/usage/rate-limits';

/** Shopify's error codes for graphql-js's validation rules (GraphQL Ruby's names where Shopify has one). */
const RULE_CODES: Record<string, string> = {
  ExecutableDefinitionsRule: 'definitionNotExecutable',
  UniqueOperationNamesRule: 'operationNotUnique',
  LoneAnonymousOperationRule: 'anonymousOperationNotAlone',
  SingleFieldSubscriptionsRule: 'subscriptionNotSupported',
  KnownTypeNamesRule: 'undefinedType',
  FragmentsOnCompositeTypesRule: 'fragmentOnNonCompositeType',
  VariablesAreInputTypesRule: 'variableRequiresValidType',
  ScalarLeafsRule: 'selectionMismatch',
  FieldsOnCorrectTypeRule: 'undefinedField',
  UniqueFragmentNamesRule: 'fragmentNotUnique',
  KnownFragmentNamesRule: 'undefinedFragment',
  NoUnusedFragmentsRule: 'useAndDefineFragment',
  PossibleFragmentSpreadsRule: 'cannotSpreadFragment',
  NoFragmentCyclesRule: 'infiniteLoop',
  UniqueVariableNamesRule: 'variableNotUnique',
  NoUndefinedVariablesRule: 'variableNotDefined',
  NoUnusedVariablesRule: 'variableNotUsed',
  KnownDirectivesRule: 'undefinedDirective',
  UniqueDirectivesPerLocationRule: 'directiveNotUniqueForLocation',
  KnownArgumentNamesRule: 'argumentNotAccepted',
  UniqueArgumentNamesRule: 'argumentNotUnique',
  ValuesOfCorrectTypeRule: 'argumentLiteralsIncompatible',
  ProvidedRequiredArgumentsRule: 'missingRequiredArguments',
  VariablesInAllowedPositionRule: 'variableMismatch',
  OverlappingFieldsCanBeMergedRule: 'fieldConflict',
  UniqueInputFieldNamesRule: 'inputFieldNotUnique',
};

/** graphql-js's rules, each tagging the errors it reports with its code. */
const TAGGED_RULES: ValidationRule[] = specifiedRules.map((rule) => {
  const code = RULE_CODES[rule.name] ?? rule.name.replace(/Rule$/, '').replace(/^./, (c) => c.toLowerCase());
  const tagged: ValidationRule = (context) =>
    rule(
      new Proxy(context, {
        get(target, prop) {
          if (prop === 'reportError') {
            return (error: GraphQLError) =>
              target.reportError(
                new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code } }),
              );
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }),
    );
  return tagged;
});

type Prepared = { document: DocumentNode } | { errors: GraphQLFormattedError[] };

/**
 * A field the token's scopes do not cover is refused as Shopify refuses it, before it runs: ACCESS_DENIED, the field
 * null, the rest of the document answered (access-scopes.ts has the rule and its sources). Below the root, a field the
 * sandbox's objects do not carry is reported as not emulated, never silently null.
 */
export const fieldResolver: GraphQLFieldResolver<unknown, SandboxContext> = (source, args, context, info) => {
  const covered = context.access?.covered;
  if (covered) {
    const access = fieldAccess(info.parentType.name, info.fieldName);
    if (access && !satisfies(access, covered)) throw accessDeniedError(info.fieldName, access);
  }
  if (source !== null && typeof source === 'object' && info.fieldName in source) return defaultFieldResolver(source, args, context, info);
  throw new GraphQLError(`The Pimbridge sandbox does not emulate ${info.parentType.name}.${info.fieldName} yet`, { extensions: { code: 'NOT_IMPLEMENTED' } });
};

/** Parsed documents by text: at most 256, and about 1 MB of query text in all (a larger document is not kept). */
const documents = new LRUCache<string, Prepared>({ max: 256, maxSize: 1_000_000, sizeCalculation: (_value, key) => Math.max(1, key.length) });

/** Parsing stops past this many tokens (a 1 MB body of tokens would otherwise cost seconds to validate). */
export const MAX_TOKENS = 20_000;

export interface OperationInput {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
  context: SandboxContext;
  buckets: LeakyBuckets;
  /** The store's bucket (its own settings or its plan's) and the key it is kept under. */
  limits: BucketLimits;
  bucketKey: string;
}

/** Runs one operation for an authenticated store; the answer is the JSON body (HTTP 200). */
export async function runOperation(input: OperationInput): Promise<unknown> {
  const schema = adminSchema();
  const prepared = prepare(input.query);
  if ('errors' in prepared) return { errors: prepared.errors };
  const { document } = prepared;

  const operation = getOperationAST(document, input.operationName);
  if (!operation) {
    const message = input.operationName
      ? `Unknown operation named "${input.operationName}".`
      : 'Must provide operation name if query contains multiple operations.';
    return { errors: [{ message, extensions: { code: 'OPERATION_NAME_REQUIRED' } }] };
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], input.variables);
  if (coerced.errors) {
    return { errors: coerced.errors.map((e) => ({ ...e.toJSON(), extensions: { code: 'INVALID_VARIABLE' } })) };
  }

  const { limits, bucketKey: key } = input;
  const requested = requestedQueryCost(schema, document, operation, coerced.coerced);
  if (requested > MAX_QUERY_COST) {
    return {
      errors: [
        {
          message: `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\nSee ${RATE_LIMIT_DOCS} for more information on how the cost of a query is calculated.\n\nTo query larger amounts of data with fewer limits, bulk operations should be used instead.`,
          extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: MAX_QUERY_COST, documentation: RATE_LIMIT_DOCS },
        },
      ],
      extensions: costExtension(requested, null, input.buckets.status(key, limits)),
    };
  }
  const charged = input.buckets.take(key, limits, requested);
  if (!charged.ok) {
    return {
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: RATE_LIMIT_DOCS } }],
      extensions: costExtension(requested, null, charged.status),
    };
  }
  // Input arrays past 250 and first/last past 250 (input-limits.ts): refused before anything runs, the requested cost
  // kept (Shopify's live answers to such calls report actualQueryCost null and the bucket charged the requested cost).
  const oversized = inputLimitErrors(schema, document, operation, coerced.coerced);
  if (oversized.length) return { errors: oversized, extensions: costExtension(requested, null, charged.status) };

  let result: Awaited<ReturnType<typeof execute>>;
  try {
    result = await execute({
      schema,
      document,
      operationName: input.operationName,
      variableValues: input.variables,
      rootValue: operation.operation === 'mutation' ? mutationRoot : queryRoot,
      contextValue: input.context,
      fieldResolver,
    });
  } catch (err) {
    input.buckets.refund(key, limits, requested); // nothing ran
    throw err;
  }
  const actual = result.data ? actualQueryCost(schema, document, operation, result.data, coerced.coerced) : 0;
  const status = input.buckets.refund(key, limits, requested - actual);
  return {
    ...(result.errors ? { errors: result.errors.map(formatError) } : {}),
    ...('data' in result ? { data: result.data } : {}),
    extensions: costExtension(requested, actual, status),
  };
}

/** Parsed and validated once per distinct document text. */
function prepare(query: string): Prepared {
  const hit = documents.get(query);
  if (hit) return hit;
  let prepared: Prepared;
  try {
    const document = parse(query, { maxTokens: MAX_TOKENS });
    const errors = validate(adminSchema(), document, TAGGED_RULES);
    prepared = errors.length ? { errors: errors.map((e) => e.toJSON()) } : { document };
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    prepared = { errors: [{ ...err.toJSON(), extensions: { code: 'parseError' } }] };
  }
  documents.set(query, prepared);
  return prepared;
}

function costExtension(requested: number, actual: number | null, throttleStatus: ThrottleSnapshot) {
  return { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus } };
}

/** Execution errors keep graphql-js's message, locations and path, with a code (INTERNAL_SERVER_ERROR when a resolver failed unexpectedly). */
export function formatError(error: GraphQLError): GraphQLFormattedError {
  const json = error.toJSON();
  const known = error.originalError === undefined || error.originalError instanceof GraphQLError || error.extensions?.code !== undefined;
  if (!known) return { message: 'Internal error', locations: json.locations, path: json.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  return { ...json, extensions: { code: 'INVALID_FIELD', ...json.extensions } };
}
