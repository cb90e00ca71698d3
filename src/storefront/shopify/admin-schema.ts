// Shopify's real Admin GraphQL schema (2026-10), from the introspection JSON that `@shopify/dev-mcp` publishes. The file
// is committed (schema/admin_2026-10.json.gz, see schema/source.json and scripts/update-shopify-schema.mjs) so the
// sandbox needs no extra package at run time. Building it costs about 0.4 s and 40-90 MB, so it is loaded lazily, once,
// on the first sandbox request or validation — never at server start (idle memory is a benchmarked target).
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { projectRoot } from '../../paths.js';
import { ADMIN_API_VERSION } from './api-version.js';

export { ADMIN_API_VERSION };

export const adminSchemaFile = path.join(projectRoot, 'src', 'storefront', 'shopify', 'schema', `admin_${ADMIN_API_VERSION}.json.gz`);

let cached: GraphQLSchema | null = null;

/** The Admin API schema, built on first use and cached for the life of the process. */
export function adminSchema(): GraphQLSchema {
  if (cached) return cached;
  const parsed = JSON.parse(gunzipSync(readFileSync(adminSchemaFile)).toString('utf8')) as { data?: IntrospectionQuery } & IntrospectionQuery;
  cached = buildClientSchema(parsed.data ?? parsed, { assumeValid: true });
  return cached;
}

/** True once the schema has been built (tests check that a server start does not build it). */
export function adminSchemaLoaded(): boolean {
  return cached !== null;
}
