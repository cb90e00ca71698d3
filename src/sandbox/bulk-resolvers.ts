// Bulk operations in the sandbox's GraphQL: stagedUploadsCreate, bulkOperationRunMutation, bulkOperationRunQuery,
// bulkOperation(id), bulkOperations and currentBulkOperation(type). The rules live in bulk-operation.service.ts; the
// line runner (bulk-runner.ts) and the query runner (bulk-query-runner.ts) come with the context (ctx.bulkRunners,
// loaded on the first bulk operation): they run documents through these resolvers, so this file does not import them.
import { GraphQLError } from 'graphql';
import type { BulkOperationRow, BulkOperationType } from './bulk-operation.repository.js';
import type { StagedUploadInput } from './staged-uploads.js';
import { connection, dateTime, page, type PageArgs } from './resolvers/connection.js';
import type { ResolverModule, SandboxContext } from './resolvers/types.js';
import { gidNumber } from './gid.js';

function bulk(ctx: SandboxContext) {
  if (!ctx.bulk || !ctx.bulkRunners || !ctx.baseUrl)
    throw new GraphQLError('The Pimbridge sandbox serves bulk operations over HTTP only', { extensions: { code: 'NOT_IMPLEMENTED' } });
  return { service: ctx.bulk, runners: ctx.bulkRunners, baseUrl: ctx.baseUrl };
}

/** Shopify's BulkOperation; UnsignedInt64 fields are strings in Shopify's JSON. */
function operationObject(row: BulkOperationRow, ctx: SandboxContext): Record<string, unknown> {
  const { service, baseUrl } = bulk(ctx);
  const hasFile = row.status === 'COMPLETED' && (row.fileSize ?? 0) > 0;
  return {
    __typename: 'BulkOperation',
    id: `gid://shopify/BulkOperation/${row.id}`,
    type: row.type,
    status: row.status,
    errorCode: row.errorCode,
    query: row.mutation,
    createdAt: dateTime(row.createdAt),
    completedAt: row.completedAt ? dateTime(row.completedAt) : null,
    objectCount: String(row.objectCount),
    rootObjectCount: String(row.rootObjectCount),
    fileSize: hasFile ? String(row.fileSize) : null,
    url: hasFile ? service.resultUrl(ctx.store, row.id, baseUrl) : null,
    partialDataUrl: null,
  };
}

/** `bulkOperations(query:)` as far as the sandbox understands it: `operation_type:` and `status:` (terms joined by AND). */
function parseFilter(query: string | null | undefined): { type: string | null; statuses: string[] | null } {
  let type: string | null = null;
  let statuses: string[] | null = null;
  for (const m of (query ?? '').matchAll(/(\w+):(?:"([^"]*)"|'([^']*)'|(\S+))/g)) {
    const value = (m[2] ?? m[3] ?? m[4]).toLowerCase();
    if (m[1].toLowerCase() === 'operation_type') type = value;
    else if (m[1].toLowerCase() === 'status') statuses = [...(statuses ?? []), value.toUpperCase()];
  }
  return { type, statuses };
}

export const bulkResolvers: ResolverModule = {
  query: {
    bulkOperation: async (args, ctx) => {
      const id = gidNumber(args.id, 'BulkOperation');
      const row = id === null ? null : await bulk(ctx).service.operation(ctx.store, id);
      return row ? operationObject(row, ctx) : null;
    },
    bulkOperations: async (args, ctx) => {
      const p = page(args as PageArgs);
      if ((args.sortKey != null && args.sortKey !== 'CREATED_AT') || args.reverse === true) {
        throw new GraphQLError('The Pimbridge sandbox lists bulk operations newest first only (sortKey CREATED_AT, no reverse)', {
          extensions: { code: 'NOT_IMPLEMENTED' },
        });
      }
      const filter = parseFilter(args.query as string | null | undefined);
      const type: BulkOperationType | undefined = filter.type === 'query' ? 'QUERY' : filter.type === 'mutation' ? 'MUTATION' : undefined;
      const rows = await bulk(ctx).service.list(ctx.store, filter.statuses, p.afterKey, p.fetch, type);
      return connection(
        p,
        rows,
        (r) => r.id,
        (r) => operationObject(r, ctx),
        p.afterKey > 0,
      );
    },
    // Deprecated in 2026-10 (use bulkOperations), still answered: the app's most recent operation of `type`, QUERY by
    // default (schema 2026-10, QueryRoot.currentBulkOperation).
    currentBulkOperation: async (args, ctx) => {
      const row = await bulk(ctx).service.latest(ctx.store, args.type === 'MUTATION' ? 'MUTATION' : 'QUERY');
      return row ? operationObject(row, ctx) : null;
    },
  },
  mutation: {
    stagedUploadsCreate: async (args, ctx) => {
      const { service, baseUrl } = bulk(ctx);
      return service.stagedUploads(ctx.store, args.input as StagedUploadInput[], baseUrl);
    },
    bulkOperationRunMutation: async (args, ctx) => {
      const { service, runners } = bulk(ctx);
      const mutation = String(args.mutation);
      const prepared = await runners.prepareMutation(mutation);
      if ('error' in prepared) return { bulkOperation: null, userErrors: [{ field: ['mutation'], message: prepared.error, code: 'INVALID_MUTATION' }] };
      const started = await service.start(ctx, String(args.stagedUploadPath), mutation, prepared.runner);
      return { bulkOperation: started.operation ? operationObject(started.operation, ctx) : null, userErrors: started.userErrors };
    },
    bulkOperationRunQuery: async (args, ctx) => {
      const { service, runners } = bulk(ctx);
      const query = String(args.query);
      // groupObjects defaults to false from 2026-01 (schema 2026-10, Mutation.bulkOperationRunQuery).
      const prepared = await runners.prepareQuery(query, args.groupObjects === true);
      if ('errors' in prepared) return { bulkOperation: null, userErrors: prepared.errors.map((message) => ({ field: ['query'], message, code: 'INVALID' })) };
      const started = await service.startQuery(ctx, query, prepared.runner);
      return { bulkOperation: started.operation ? operationObject(started.operation, ctx) : null, userErrors: started.userErrors };
    },
  },
};
