// What a sandbox bulk query executes (bulkOperationRunQuery; loaded with graphql-js only when one starts). The
// document is checked once against Shopify's rules for bulk queries, each cited below; then it runs over every page of
// its root connection through the same resolvers as the per-call endpoint (no cost bucket, no page-size limit: a bulk
// query reads whole connections), and every node becomes a line of the JSONL result as Shopify writes it: "Each line in
// the file is a node object returned in a connection. If a node has a nested connection, then each child node is
// extracted into a new object on the next line" with a `__parentId` field naming its parent's id
// (https://shopify.dev/docs/api/usage/bulk-operations/queries, "Download result data"). A parent's line always comes
// before its children's; with `groupObjects: true` the children follow their parent directly, without it (the default
// from 2026-01, https://shopify.dev/changelog/bulk-operations-group-objects-default-changed-to-false) a page's parents
// come first and their children after them.
import { append } from '../lib/arrays.js';
import {
  execute,
  type GraphQLError,
  isCompositeType,
  Kind,
  parse,
  validate,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { adminSchema } from '../storefront/shopify/admin-schema.js';
import type { OperationOutcome, QueryRunner, RunControl } from './bulk-operation.service.js';
import { ProductListsLoader } from './product-lists.loader.js';
import { queryRoot } from './resolvers/index.js';
import type { SandboxContext } from './resolvers/types.js';
import { fieldResolver, formatError, MAX_TOKENS } from './sandbox-executor.js';
import { type Collected, collectFields, connectionParts, isConnection, selectionsOf } from './bulk-query-fields.js';

/** Root nodes read per page of the root connection. */
const PAGE_SIZE = 250;
/** Nested connections are read whole (a product has at most 2,048 variants; media and metafields fewer). */
const WHOLE = 100_000;
/** The alias under which the runner reads the root connection's pageInfo (to page it; never written to the file). */
const PAGE_INFO = '__pimbridgePageInfo';

export type PreparedQuery = { runner: QueryRunner<SandboxContext> } | { errors: string[] };

/** A connection field of the query: where it is, and how deep it nests (1 = not inside another connection). */
interface ConnectionUse {
  field: FieldNode;
  depth: number;
  /** The field selected directly under the root (the root connection itself, for depth 1 at the root). */
  path: string[];
}

/**
 * Checks a bulk query as Shopify does and, if it passes, returns its runner. The messages are Shopify's own answers
 * (userErrors with field ["query"] and code INVALID).
 */
export function prepareBulkQuery(text: string, groupObjects: boolean): PreparedQuery {
  const schema = adminSchema();
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: MAX_TOKENS });
  } catch (err) {
    return { errors: [`Invalid bulk query: ${(err as GraphQLError).message}`] };
  }
  const invalid = validate(schema, document);
  if (invalid.length) return { errors: invalid.map((e) => `Invalid bulk query: ${e.message}`) };
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) return { errors: ['Invalid bulk query: the document must hold exactly one operation.'] };
  const operation = operations[0];
  // bulkOperationRunQuery takes the document and groupObjects, nothing else (schema 2026-10): a variable could never
  // be given a value.
  if (operation.operation !== 'query') return { errors: ['Invalid operation type. Only `query` operations are supported.'] };
  if (operation.variableDefinitions?.length)
    return { errors: ['Invalid bulk query: bulk queries take no variables (bulkOperationRunQuery has no variables argument).'] };

  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const roots = collectFields(schema, fragments, [operation.selectionSet], schema.getQueryType()!);
  const errors: string[] = [];
  // "The GraphQL Admin API supports querying a single top-level field" (the guide, introduction).
  if (roots.size > 1) errors.push('Bulk queries cannot contain more than one top level field.');
  // "The top-level node and nodes fields can't be used" (the guide, "Operation restrictions").
  for (const { field } of roots.values()) {
    if (field.name.value === 'node' || field.name.value === 'nodes') errors.push(`Bulk queries cannot contain a top level \`${field.name.value}\` field.`);
  }

  const analysis = analyse(schema, fragments, operation);
  // "The query must include at least one connection field and supports up to five connections with a maximum nesting
  // depth of two levels" (schema 2026-10, Mutation.bulkOperationRunQuery; the guide, "Operation restrictions").
  if (analysis.connections.length > 5) errors.push('Bulk queries cannot contain more than 5 connections.');
  if (analysis.connections.some((c) => c.depth > 2)) errors.push('Bulk queries cannot contain connections with a nesting depth greater than 2.');
  // Every example of the guide selects a connection's contents as `edges { node { … } }`; Shopify refuses `nodes` there.
  if (analysis.viaNodes.length) {
    errors.push(
      `All connection fields in a bulk query must select their contents using 'edges' > 'node', e.g: 'products { edges { node {'. Selecting via 'nodes' is not supported. Invalid connection fields: '${analysis.viaNodes.join("', '")}'.`,
    );
  }
  // Children name their parent by id on their own lines (`__parentId`, the guide, "Download result data"): a node with
  // a nested connection must select its id, unaliased.
  if (analysis.parentsWithoutId.length) {
    errors.push(
      `The parent 'node' field for a nested connection must select the 'id' field without an alias and must be of 'ID' return type. Connection fields without 'id': ${analysis.parentsWithoutId.join(', ')}.`,
    );
  }
  if (analysis.inList) errors.push('Queries that contain a connection field within a list field are not currently supported.');
  if (analysis.connections.length === 0) errors.push('Bulk queries must contain at least one connection.');
  if (errors.length) return { errors };

  // What the sandbox emulates: a root connection it has a resolver for (the products, at present).
  const [root] = [...roots.values()];
  const rootType = root.type;
  if (!isConnection(rootType)) return { errors: [`The Pimbridge sandbox runs bulk queries over a root connection only, not ${root.field.name.value}.`] };
  if (!(root.field.name.value in queryRoot)) return { errors: [`The Pimbridge sandbox does not run bulk queries of ${root.field.name.value} yet.`] };
  return { runner: queryRunner(schema, document, operation, fragments, root.field, groupObjects) };
}

/** The connections of the operation with their nesting depth, and what breaks the bulk query rules. */
function analyse(schema: GraphQLSchema, fragments: Map<string, FragmentDefinitionNode>, operation: OperationDefinitionNode) {
  const connections: ConnectionUse[] = [];
  const viaNodes: string[] = [];
  const parentsWithoutId: string[] = [];
  let inList = false;
  const walk = (sets: SelectionSetNode[], type: GraphQLNamedType, depth: number, path: string[], underList: boolean, nodeOf: string | null) => {
    const fields = collectFields(schema, fragments, sets, type);
    let nested = false;
    for (const [key, c] of fields) {
      if (!c.type || !c.field.selectionSet) continue;
      if (isConnection(c.type)) {
        nested = true;
        connections.push({ field: c.field, depth: depth + 1, path: [...path, key] });
        if (underList) inList = true;
        const parts = connectionParts(schema, fragments, c);
        if (parts.viaNodes) viaNodes.push(c.field.name.value);
        if (parts.nodeType) walk(parts.nodeSets, parts.nodeType, depth + 1, [...path, key], false, c.field.name.value);
      } else {
        walk(selectionsOf(c.nodes), c.type, depth, [...path, key], underList || c.list, nodeOf);
      }
    }
    // A node (of a connection) holding a nested connection selects its `id`, unaliased.
    if (nested && nodeOf !== null && depth > 0) {
      const id = fields.get('id');
      if (id?.field.name.value !== 'id' || id.field.alias) parentsWithoutId.push(nodeOf);
    }
  };
  walk([operation.selectionSet], schema.getQueryType()!, 0, [], false, null);
  // Nested connections are reported once per parent connection.
  return { connections, viaNodes: [...new Set(viaNodes)], parentsWithoutId: [...new Set(parentsWithoutId)], inList };
}

/**
 * The document as the runner executes it: the root connection pages by `first`/`after` with its pageInfo read under
 * an alias, every nested connection is read whole.
 */
function pagedDocument(document: DocumentNode, root: FieldNode, after: string | null): DocumentNode {
  const intArg = (name: string, value: number) =>
    ({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value: { kind: Kind.INT, value: String(value) } }) as const;
  const strArg = (name: string, value: string) =>
    ({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value: { kind: Kind.STRING, value } }) as const;
  const paging = new Set(['first', 'last', 'after', 'before']);
  const pageInfo: FieldNode = {
    kind: Kind.FIELD,
    alias: { kind: Kind.NAME, value: PAGE_INFO },
    name: { kind: Kind.NAME, value: 'pageInfo' },
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: [
        { kind: Kind.FIELD, name: { kind: Kind.NAME, value: 'hasNextPage' } },
        { kind: Kind.FIELD, name: { kind: Kind.NAME, value: 'endCursor' } },
      ],
    },
  };
  // Which fields are connections: their selections name `edges` (the rules above made every connection select it).
  const selectsEdges = (node: FieldNode) => node.selectionSet?.selections.some((s) => s.kind === Kind.FIELD && s.name.value === 'edges') ?? false;
  return visit(document, {
    Field(node) {
      if (node === root) {
        const args = (node.arguments ?? []).filter((a) => !paging.has(a.name.value));
        return {
          ...node,
          arguments: [...args, intArg('first', PAGE_SIZE), ...(after ? [strArg('after', after)] : [])],
          selectionSet: { ...node.selectionSet!, selections: [...node.selectionSet!.selections, pageInfo] },
        };
      }
      if (selectsEdges(node)) {
        const args = (node.arguments ?? []).filter((a) => !paging.has(a.name.value));
        return { ...node, arguments: [...args, intArg('first', WHOLE)] };
      }
      return undefined;
    },
  });
}

function queryRunner(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  fragments: Map<string, FragmentDefinitionNode>,
  root: FieldNode,
  groupObjects: boolean,
): QueryRunner<SandboxContext> {
  const rootKey = root.alias?.value ?? root.name.value;
  const rootFields = collectFields(schema, fragments, [operation.selectionSet], schema.getQueryType()!);
  const rootConnection = rootFields.get(rootKey)!;
  const plan = new Plan(schema, fragments);
  return {
    async run(context: SandboxContext, control: RunControl): Promise<OperationOutcome> {
      const lines: string[] = [];
      let objects = 0;
      let roots = 0;
      let after: string | null = null;
      for (;;) {
        await control.checkpoint();
        const paged = pagedDocument(document, root, after);
        const result = await execute({
          schema,
          document: paged,
          rootValue: queryRoot,
          contextValue: { ...context, lists: new ProductListsLoader(context.productRepo, context.metafieldRepo) },
          fieldResolver,
        });
        if (result.errors?.length) {
          const first = formatError(result.errors[0]);
          throw new Error(`bulk query failed: ${first.message}`);
        }
        const connection = (result.data as Record<string, unknown> | null | undefined)?.[rootKey] as {
          edges?: { node: unknown }[];
          [PAGE_INFO]?: { hasNextPage: boolean; endCursor: string | null };
        } | null;
        const later: string[] = [];
        for (const edge of connection?.edges ?? []) {
          const out = { now: lines, later: groupObjects ? lines : later };
          objects += emitNode(plan, edge.node as Record<string, unknown>, rootConnection, null, out);
          roots++;
        }
        append(lines, later);
        await control.progress(objects, roots);
        const info = connection?.[PAGE_INFO];
        if (!info?.hasNextPage || !info.endCursor) break;
        after = info.endCursor;
      }
      return { objectCount: objects, rootObjectCount: roots, result: lines.length ? `${lines.join('\n')}\n` : '' };
    },
  };
}

/** A connection's parts and a field's own fields, computed once per field of the document. */
class Plan {
  private readonly parts = new WeakMap<Collected, ReturnType<typeof connectionParts>>();
  private readonly fields = new WeakMap<Collected, Map<string, Collected>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
  ) {}

  /** The fields selected on a connection's nodes, or on a plain object field's value; null: none known. */
  childFields(c: Collected): Map<string, Collected> | null {
    let fields = this.fields.get(c);
    if (!fields) {
      if (isConnection(c.type)) {
        let parts = this.parts.get(c);
        if (!parts) this.parts.set(c, (parts = connectionParts(this.schema, this.fragments, c)));
        if (!parts.nodeType) return null;
        fields = collectFields(this.schema, this.fragments, parts.nodeSets, parts.nodeType);
      } else {
        if (!c.type) return null;
        fields = collectFields(this.schema, this.fragments, selectionsOf(c.nodes), c.type);
      }
      this.fields.set(c, fields);
    }
    return fields;
  }
}

/**
 * One node's line (its nested connections taken out) and its children's lines with `__parentId`; returns how many
 * lines it wrote. `out.now` takes the node's own line, `out.later` its children's (the same list when grouped).
 */
function emitNode(
  plan: Plan,
  node: Record<string, unknown> | null,
  connection: Collected,
  parentId: string | null,
  out: { now: string[]; later: string[] },
): number {
  const fields = node ? plan.childFields(connection) : null;
  if (!node || !fields) return 0;
  const children: { conn: Collected; value: unknown }[] = [];
  const line = strip(plan, node, fields, children);
  if (parentId !== null) line.__parentId = parentId;
  out.now.push(JSON.stringify(line));
  let written = 1;
  const id = typeof node.id === 'string' ? node.id : null;
  for (const child of children) {
    const edges = (child.value as { edges?: { node: unknown }[] } | null)?.edges ?? [];
    for (const edge of edges) written += emitNode(plan, edge.node as Record<string, unknown>, child.conn, id, { now: out.later, later: out.later });
  }
  return written;
}

/** The node's value without its connections (collected into `children`), nested plain objects included. */
function strip(
  plan: Plan,
  value: Record<string, unknown>,
  fields: Map<string, Collected>,
  children: { conn: Collected; value: unknown }[],
): Record<string, unknown> {
  const line: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const c = fields.get(key);
    if (c && isConnection(c.type)) {
      children.push({ conn: c, value: v });
      continue;
    }
    if (c?.type && isCompositeType(c.type) && v && typeof v === 'object' && !Array.isArray(v)) {
      const inner = plan.childFields(c);
      if (inner) {
        line[key] = strip(plan, v as Record<string, unknown>, inner, children);
        continue;
      }
    }
    line[key] = v;
  }
  return line;
}
