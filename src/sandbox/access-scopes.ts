// Which access scopes each field of the Admin API needs, read from Shopify's own 2026-10 schema: its introspection
// JSON carries, beside each field, Shopify's `requiredAccess` text ("`read_products` access scope.", "`read_locales`
// access scope or `read_markets_home` access scope.", "Any of `read_orders`, `read_marketplace_orders` access scopes.",
// "`write_products` access scope. Also: The user must have a permission to create products.") — the same text
// shopify.dev prints as "Requires …" on each query, mutation and field. graphql-js's buildClientSchema drops it, so the
// file is read once more, lazily, and only the table below is kept (docs/sandbox/oauth.md, "Access scopes").
//
// Rules imitated, with their sources:
// - a field the token's scopes do not cover is refused in the answer, the rest of the document runs: an `errors` entry
//   "Access denied for {field} field. Required access: {requiredAccess}" with `extensions: {code: "ACCESS_DENIED",
//   documentation, requiredAccess}`, the field null (https://shopify.dev/changelog/new-error-messages-for-graphql-operations-without-necessary-access-scopes,
//   https://shopify.dev/changelog/authorization-errors-in-mutations-are-refined, https://shopify.dev/docs/api/usage/access-scopes);
// - "Any scope that writes a resource also grants read access to it" (https://shopify.dev/docs/api/usage/access-scopes,
//   "How it works");
// - the "Also:" parts about the user's permissions do not apply: the sandbox's tokens are offline tokens, with no user.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { GraphQLError, parse, TypeInfo, visit, visitWithTypeInfo, getNamedType } from 'graphql';
import { adminSchema, adminSchemaFile } from '../storefront/shopify/admin-schema.js';

export const ACCESS_SCOPES_DOCS = 'https://shopify.dev/api/usage/access-scopes';

/** One field's requirement: Shopify's text, and its scopes as clauses (every clause needs one of its scopes). */
export interface FieldAccess {
  text: string;
  clauses: string[][];
}

interface AccessTable {
  /** `{TypeName}.{fieldName}` → its requirement (only fields that name a scope). */
  fields: Map<string, FieldAccess>;
  /** Every scope the schema names, sorted: what "every scope" means for the legacy token and an app's default. */
  scopes: string[];
}

const SCOPE = /`((?:unauthenticated_)?(?:read|write)_[a-z0-9_]+)`/g;

/**
 * Shopify's `requiredAccess` text as clauses. "A or B" and "Any of A, B" are one clause of alternatives, "A as well as
 * any of B, C" two clauses, "A for queries and both B as well as C for mutations" depends on the root; "Also: Requires
 * `A` scope." adds a clause; the rest of "Also:" (user permissions, plans) is not about the token's scopes.
 */
export function parseRequiredAccess(text: string, onMutation: boolean): string[][] {
  const [main, ...also] = text.split(/\.\s*Also:/);
  const clauses: string[][] = [];
  const scopesOf = (part: string) => [...part.matchAll(SCOPE)].map((m) => m[1]);
  const split = /^\s*`([a-z0-9_]+)` for queries and both `([a-z0-9_]+)` as well as `([a-z0-9_]+)` for mutations/.exec(main);
  if (split) {
    if (onMutation) clauses.push([split[2]], [split[3]]);
    else clauses.push([split[1]]);
  } else {
    for (const part of main.split(/\bas well as\b/)) {
      const scopes = scopesOf(part);
      if (scopes.length === 0) continue;
      if (/\bor\b|\bany of\b/i.test(part)) clauses.push(scopes);
      else for (const s of scopes) clauses.push([s]);
    }
  }
  for (const part of also) {
    const m = /Requires `([a-z0-9_]+)` scope/.exec(part);
    if (m) clauses.push([m[1]]);
  }
  return clauses;
}

let table: AccessTable | null = null;

interface RawField {
  name: string;
  requiredAccess?: string | null;
}
interface RawType {
  name: string;
  fields?: RawField[] | null;
}

/** Built on first use from the schema file (about 0.5 s), then kept; the introspection JSON itself is let go. */
function accessTable(): AccessTable {
  if (table) return table;
  const raw = JSON.parse(gunzipSync(readFileSync(adminSchemaFile)).toString('utf8')) as {
    data?: { __schema: { types: RawType[]; mutationType?: { name: string } } };
    __schema?: { types: RawType[]; mutationType?: { name: string } };
  };
  const schema = raw.data?.__schema ?? raw.__schema;
  if (!schema) throw new Error('the Admin API schema file has no __schema');
  const mutationType = schema.mutationType?.name ?? 'Mutation';
  const fields = new Map<string, FieldAccess>();
  const scopes = new Set<string>();
  for (const type of schema.types) {
    for (const field of type.fields ?? []) {
      if (typeof field.requiredAccess !== 'string') continue;
      const text = field.requiredAccess.trim();
      for (const m of text.matchAll(SCOPE)) scopes.add(m[1]);
      const clauses = parseRequiredAccess(text, type.name === mutationType);
      if (clauses.length) fields.set(`${type.name}.${field.name}`, { text, clauses });
    }
  }
  table = { fields, scopes: [...scopes].sort() };
  return table;
}

/** The requirement of `{typeName}.{fieldName}`, or null when it needs no scope. */
export function fieldAccess(typeName: string, fieldName: string): FieldAccess | null {
  return accessTable().fields.get(`${typeName}.${fieldName}`) ?? null;
}

/** Every Admin API scope the schema names (Admin GraphQL scopes only: the Storefront API's are not in it). */
export function everyScope(): string[] {
  return accessTable().scopes;
}

/** The scopes a grant covers: each scope, and each `write_X`'s `read_X` ("any scope that writes a resource also grants read access to it"). */
export function impliedScopes(granted: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const s of granted) {
    out.add(s);
    const m = /^(unauthenticated_)?write_(.+)$/.exec(s);
    if (m) out.add(`${m[1] ?? ''}read_${m[2]}`);
  }
  return out;
}

/**
 * A grant minus the revoked scopes. Revoking `read_X` takes `write_X` too: a write scope grants read, so it cannot stay
 * without it.
 */
export function withoutRevoked(granted: readonly string[], revoked: readonly string[]): string[] {
  if (revoked.length === 0) return [...granted];
  const gone = new Set(revoked);
  return granted.filter((s) => {
    if (gone.has(s)) return false;
    const m = /^(unauthenticated_)?write_(.+)$/.exec(s);
    return !(m && gone.has(`${m[1] ?? ''}read_${m[2]}`));
  });
}

/** Whether `covered` (impliedScopes of a grant) meets every clause. */
export function satisfies(access: FieldAccess, covered: ReadonlySet<string>): boolean {
  return access.clauses.every((clause) => clause.some((s) => covered.has(s)));
}

/** Shopify's refusal of one field (the changelog pages above): the field is null, the rest runs. */
export function accessDeniedError(fieldName: string, access: FieldAccess): GraphQLError {
  return new GraphQLError(`Access denied for ${fieldName} field. Required access: ${access.text}`, {
    extensions: { code: 'ACCESS_DENIED', documentation: ACCESS_SCOPES_DOCS, requiredAccess: access.text },
  });
}

/** A field of a document whose requirement a grant does not meet. */
export interface DeniedField {
  /** `{TypeName}.{fieldName}`. */
  field: string;
  requiredAccess: string;
}

/** Every field the documents select (fragments included) that needs a scope, with its requirement. */
function requirementsOf(documents: readonly string[]): { field: string; access: FieldAccess }[] {
  const schema = adminSchema();
  const out: { field: string; access: FieldAccess }[] = [];
  for (const text of documents) {
    const typeInfo = new TypeInfo(schema);
    visit(
      parse(text),
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const parent = typeInfo.getParentType();
          if (!parent) return;
          // An interface's field: the requirement is on the concrete types; take the interface's own where it has one.
          const access = fieldAccess(getNamedType(parent).name, node.name.value);
          if (access) out.push({ field: `${parent.name}.${node.name.value}`, access });
        },
      }),
    );
  }
  return out;
}

/**
 * The scopes the documents need, for a test to compare with an app's declared list: every scope a field names, and of
 * a clause of alternatives ("A or B") the first, unless another of them is needed anyway. A `write_X` in the list
 * covers `read_X` (compare with impliedScopes of the declared list).
 */
export function requiredScopes(documents: readonly string[]): Set<string> {
  const reqs = requirementsOf(documents);
  const out = new Set<string>();
  for (const { access } of reqs) for (const clause of access.clauses) if (clause.length === 1) out.add(clause[0]);
  for (const { access } of reqs) {
    for (const clause of access.clauses) if (clause.length > 1 && !clause.some((s) => out.has(s))) out.add(clause[0]);
  }
  return out;
}

/** The fields of the documents a grant (its scopes as given, write implying read) would be refused, each once. */
export function deniedFields(documents: readonly string[], granted: readonly string[]): DeniedField[] {
  const covered = impliedScopes(granted);
  const seen = new Set<string>();
  const out: DeniedField[] = [];
  for (const { field, access } of requirementsOf(documents)) {
    if (seen.has(field) || satisfies(access, covered)) continue;
    seen.add(field);
    out.push({ field, requiredAccess: access.text });
  }
  return out;
}
