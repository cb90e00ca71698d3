// Query cost, the way the sandbox emulates Shopify's calculated cost. Shopify keeps its exact formula closed; this is the
// best public fit (../shared/notes/shopify.md), computed on the document with the schema's types:
// - scalar and enum fields 0; an object field 1 plus its selection; a plain list of objects is charged like one object;
// - a mutation's root field 10 plus its payload's selection (the payload object itself is not charged again); productSet
//   adds `0.2·variants + 0.6·variant files + 0.4·variant metafields + 0.4·product metafields + 1.9·product files`, rounded up;
// - a connection (a field whose type is `…Connection`) `2 + (cost of one node's selection) × floor(2·ln(max(2, n)))`,
//   n = `first`/`last` (capped at 250); inside it `edges` is free (its `node` counts) and so is `pageInfo`;
// - an interface or union field: 1 plus the maximum over its possible types;
// - a path selected twice (same response key, fragments included) is charged once.
// Check: `product { variants(first: 250) { nodes { inventoryItem { id tracked } } } }` =
// 1 (product) + 2 + (1 variant + 1 inventoryItem) × floor(2·ln 250) = 1 + 2 + 2 × 11 = 25, Shopify's live answer.
// The actual cost walks the returned data with the same rules, n being the number of nodes returned.
import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  valueFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export const MAX_QUERY_COST = 1000;
export const MUTATION_COST = 10;
const MAX_PAGE = 250;

export function connectionMultiplier(n: number): number {
  return Math.floor(2 * Math.log(Math.max(2, Math.min(n, MAX_PAGE))));
}

interface Ctx {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/** Fields of a selection set for one concrete type, grouped by response key (a path selected twice counts once). */
function collectFields(
  ctx: Ctx,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  into = new Map<string, FieldNode[]>(),
  seen = new Set<string>(),
): Map<string, FieldNode[]> {
  for (const sel of selectionSet.selections) {
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      const list = into.get(key);
      if (list) list.push(sel);
      else into.set(key, [sel]);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (sel.typeCondition && !typeApplies(ctx, sel.typeCondition.name.value, type)) continue;
      collectFields(ctx, type, sel.selectionSet, into, seen);
    } else {
      const name = sel.name.value;
      if (seen.has(name)) continue;
      seen.add(name);
      const frag = ctx.fragments.get(name);
      if (!frag || !typeApplies(ctx, frag.typeCondition.name.value, type)) continue;
      collectFields(ctx, type, frag.selectionSet, into, seen);
    }
  }
  return into;
}

function typeApplies(ctx: Ctx, condition: string, type: GraphQLObjectType): boolean {
  if (condition === type.name) return true;
  const cond = ctx.schema.getType(condition);
  return !!cond && isAbstractType(cond) && ctx.schema.isSubType(cond, type);
}

/** Concrete types a field of this composite type can resolve to. */
function concreteTypes(ctx: Ctx, type: GraphQLCompositeType): readonly GraphQLObjectType[] {
  return isObjectType(type) ? [type] : ctx.schema.getPossibleTypes(type);
}

function isConnection(type: GraphQLCompositeType): boolean {
  return type.name.endsWith('Connection');
}

function pageSize(ctx: Ctx, field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  for (const name of ['first', 'last']) {
    const argNode = node.arguments?.find((a) => a.name.value === name);
    const argDef = field.args.find((a) => a.name === name);
    if (!argNode || !argDef) continue;
    const value = valueFromAST(argNode.value, argDef.type, ctx.variables);
    if (typeof value === 'number') return value;
  }
  return 0;
}

/** Cost of one selection set on a composite type (the maximum over the concrete types for an interface or union). */
function selectionCost(ctx: Ctx, type: GraphQLCompositeType, nodes: FieldNode[], data: unknown, measured: boolean): number {
  let best = 0;
  const types =
    measured && data && typeof data === 'object' && typeof (data as { __typename?: unknown }).__typename === 'string'
      ? concreteTypes(ctx, type).filter((t) => t.name === (data as { __typename: string }).__typename)
      : concreteTypes(ctx, type);
  for (const concrete of types) {
    const fields = new Map<string, FieldNode[]>();
    for (const node of nodes) if (node.selectionSet) collectFields(ctx, concrete, node.selectionSet, fields);
    let sum = 0;
    for (const [key, group] of fields) {
      const child = measured ? (data as Record<string, unknown> | null | undefined)?.[key] : undefined;
      sum += fieldCost(ctx, concrete, group, child, measured);
    }
    best = Math.max(best, sum);
  }
  return best;
}

/** Cost of one response key (a field, possibly selected several times) on a concrete parent type. */
function fieldCost(ctx: Ctx, parent: GraphQLObjectType, group: FieldNode[], data: unknown, measured: boolean): number {
  const first = group[0];
  const field = parent.getFields()[first.name.value];
  if (!field) return 0; // __typename and other meta fields
  const named = getNamedType(field.type);
  if (isLeafType(named)) return 0;
  if (measured && (data === null || data === undefined)) return 0;
  const composite = named as GraphQLCompositeType;

  if (isObjectType(composite) && isConnection(composite)) {
    const n = measured ? returnedNodes(data) : pageSize(ctx, field, first);
    return 2 + nodeCost(ctx, composite, group, data, measured) * connectionMultiplier(n);
  }
  if (composite.name === 'PageInfo') return 0;
  const list = isListType(getNullableType(field.type));
  if (measured && list) {
    // A plain list of objects is charged like one object: its most expensive returned item.
    const items = Array.isArray(data) ? data : [];
    if (items.length === 0) return 0;
    return Math.max(...items.map((item) => (item == null ? 0 : 1 + selectionCost(ctx, composite, group, item, true))));
  }
  return 1 + selectionCost(ctx, composite, group, data, measured);
}

/** One node's cost inside a connection: what `nodes` or `edges { node }` select (each node once, the priciest). */
function nodeCost(ctx: Ctx, connection: GraphQLObjectType, group: FieldNode[], data: unknown, measured: boolean): number {
  const fields = new Map<string, FieldNode[]>();
  for (const node of group) if (node.selectionSet) collectFields(ctx, connection, node.selectionSet, fields);
  let cost = 0;
  for (const [key, sub] of fields) {
    const f = connection.getFields()[sub[0].name.value];
    if (!f) continue;
    const value = measured ? (data as Record<string, unknown>)[key] : undefined;
    if (f.name === 'nodes') {
      cost = Math.max(cost, fieldCost(ctx, connection, sub, value, measured));
    } else if (f.name === 'edges') {
      const edgeType = getNamedType(f.type) as GraphQLObjectType;
      const edgeFields = new Map<string, FieldNode[]>();
      for (const e of sub) if (e.selectionSet) collectFields(ctx, edgeType, e.selectionSet, edgeFields);
      for (const [edgeKey, edgeGroup] of edgeFields) {
        if (edgeGroup[0].name.value !== 'node') continue;
        if (!measured) {
          cost = Math.max(cost, fieldCost(ctx, edgeType, edgeGroup, undefined, false));
          continue;
        }
        for (const edge of Array.isArray(value) ? value : []) {
          cost = Math.max(cost, fieldCost(ctx, edgeType, edgeGroup, (edge as Record<string, unknown> | null)?.[edgeKey], true));
        }
      }
    }
  }
  return cost;
}

function returnedNodes(data: unknown): number {
  const d = data as { nodes?: unknown[]; edges?: unknown[] } | null | undefined;
  return Math.max(d?.nodes?.length ?? 0, d?.edges?.length ?? 0);
}

/**
 * What a mutation's input adds to its cost. productSet (since 2025-10): 0.2 per variant, 0.6 per variant file, 0.4 per
 * variant metafield, 0.4 per product metafield, 1.9 per product file, rounded up to whole points.
 */
function inputCost(ctx: Ctx, field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  if (field.name !== 'productSet') return 0;
  const argNode = node.arguments?.find((a) => a.name.value === 'input');
  const argDef = field.args.find((a) => a.name === 'input');
  if (!argNode || !argDef) return 0;
  const input = valueFromAST(argNode.value, argDef.type, ctx.variables) as Record<string, unknown> | undefined;
  return input ? productSetInputCost(input) : 0;
}

export function productSetInputCost(input: { variants?: unknown; files?: unknown; metafields?: unknown }): number {
  const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  const variants = list(input.variants);
  const variantFiles = variants.filter((v) => v?.file != null).length;
  const variantMetafields = variants.reduce((n, v) => n + list(v?.metafields).length, 0);
  // Tenths, in integers, so that 0.2 × 5 is exactly 1.
  const tenths = 2 * variants.length + 6 * variantFiles + 4 * variantMetafields + 4 * list(input.metafields).length + 19 * list(input.files).length;
  return Math.ceil(tenths / 10);
}

function context(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): Ctx {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return { schema, fragments, variables };
}

function rootCost(ctx: Ctx, operation: OperationDefinitionNode, data: unknown, measured: boolean): number {
  const root = operation.operation === 'mutation' ? ctx.schema.getMutationType() : ctx.schema.getQueryType();
  if (!root) return 0;
  const fields = collectFields(ctx, root, operation.selectionSet);
  let sum = 0;
  for (const [key, group] of fields) {
    const value = measured ? (data as Record<string, unknown> | null | undefined)?.[key] : undefined;
    if (operation.operation === 'mutation') {
      const field = root.getFields()[group[0].name.value];
      if (!field) continue;
      if (measured && value == null) continue;
      const payload = getNamedType(field.type);
      sum +=
        MUTATION_COST +
        inputCost(ctx, field, group[0]) +
        (isLeafType(payload) ? 0 : selectionCost(ctx, payload as GraphQLCompositeType, group, value, measured));
    } else {
      sum += fieldCost(ctx, root, group, value, measured);
    }
  }
  return sum;
}

/** The requested cost of a valid operation, before it runs. Variables must already be coerced (or raw JSON values). */
export function requestedQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): number {
  return rootCost(context(schema, document, variables), operation, undefined, false);
}

/** The actual cost: the same rules over what was returned (n = nodes returned; null objects free). */
export function actualQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  data: unknown,
  variables: Record<string, unknown> = {},
): number {
  return rootCost(context(schema, document, variables), operation, data, true);
}
