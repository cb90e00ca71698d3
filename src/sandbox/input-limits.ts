// Shopify's size limits on one operation, checked on the coerced arguments before anything runs (sandbox-executor.ts,
// and every line of a bulk mutation in bulk-runner.ts):
// - input arrays: "Input arguments that accept an array have a maximum size of 250 for all APIs. Requests return an
//   error if an input array exceeds 250 items." (https://shopify.dev/docs/api/usage/limits#input-limits). Every list
//   of an argument counts, nested ones too (a variant's inventoryQuantities), save the documented exceptions below;
// - a connection's `first`/`last`: "You can retrieve up to a maximum of 250 resources"
//   (https://shopify.dev/docs/api/usage/pagination-graphql), save a single product's variants at the root.
// Shopify answers a top-level error without `data` (live answers, e.g. 251 tags to productUpdate):
//   {"message": "The input array size of 251 is greater than the maximum allowed of 250.", "locations": [the root
//    field's], "path": ["productUpdate", "product", "tags"], "extensions": {"code": "MAX_INPUT_SIZE_EXCEEDED"}}
// (response keys down to the field, then argument and input field names, no list indexes). Shopify publishes no
// wording for `first`/`last` past the maximum: the sandbox keeps its own (code BAD_REQUEST), also top-level.
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  GraphQLError,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLFormattedError,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export const MAX_INPUT_ARRAY = 250;
export const MAX_PAGE_SIZE = 250;

/** Input arrays documented to take more than 250 items: `InputType.field`, or `Type.field(argument)` for an argument. */
const ARRAY_MAXIMA: Readonly<Record<string, number>> = {
  // productSet: "create or update a maximum of 2,048 product variants in a single operation"
  // (https://shopify.dev/docs/api/admin-graphql/latest/mutations/productSet); the same note on productVariantsBulkCreate
  // and productVariantsBulkUpdate (schema 2026-10: "By default, stores have a limit of 2048 product variants for each
  // product"). Live: 2049 variants to productSet answer "…greater than the maximum allowed of 2048."
  'ProductSetInput.variants': 2048,
  // A product's option values follow its variants: "By default, stores have a limit of 2048 product variants for each
  // product" (schema 2026-10, productSet; https://shopify.dev/changelog/the-product-variant-limit-is-now-2048-for-all-merchants),
  // and a product of 2,048 one-option variants has 2,048 values in one OptionSetInput. Shopify documents no lower cap
  // for them, so the sandbox takes as many values as variants (a sandbox decision, docs/sandbox/limits.md).
  'OptionSetInput.values': 2048,
  'Mutation.productVariantsBulkCreate(variants)': 2048,
  'Mutation.productVariantsBulkUpdate(variants)': 2048,
  // schema 2026-10, DraftOrderInput.lineItems: "Accepts a maximum of 499 line items."
  'DraftOrderInput.lineItems': 499,
  // schema 2026-10, FulfillmentOrderLineItemsInput.fulfillmentOrderLineItems: "Accepts a maximum of 512 line items."
  'FulfillmentOrderLineItemsInput.fulfillmentOrderLineItems': 512,
};

/**
 * Connections documented to page past 250. Product.variants: "If querying a single product at the root, you can fetch
 * up to 2048 variants" (schema 2026-10); "This enhanced limit does not apply if you make multiple queries in one
 * request" (https://shopify.dev/changelog/enhanced-variant-query-limits-for-single-product-queries).
 */
const SINGLE_PRODUCT_VARIANTS = 2048;
/** schema 2026-10, OnlineStoreTheme.files(first): "At most 2500 can be fetched at once." */
const PAGE_MAXIMA: Readonly<Record<string, number>> = { 'OnlineStoreTheme.files': 2500 };

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** The operation has one root field (the single-product exception). */
  singleRoot: boolean;
  errors: GraphQLFormattedError[];
  seen: Set<string>;
}

/**
 * The operation's size errors in Shopify's shape, empty when it is within every limit. `variables` are the coerced
 * values (getVariableValues), so that a list given in a variable counts like a literal one.
 */
export function inputLimitErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): GraphQLFormattedError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return [];
  const walk: Walk = { schema, fragments, variables, singleRoot: rootKeys(operation.selectionSet, fragments).size === 1, errors: [], seen: new Set() };
  selections(walk, root, operation.selectionSet, [], null);
  return walk.errors;
}

/** Response keys of the root selection, through fragments. */
function rootKeys(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, keys = new Set<string>(), spread = new Set<string>()): Set<string> {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) keys.add(sel.alias?.value ?? sel.name.value);
    else if (sel.kind === Kind.INLINE_FRAGMENT) rootKeys(sel.selectionSet, fragments, keys, spread);
    else if (!spread.has(sel.name.value)) {
      spread.add(sel.name.value);
      const frag = fragments.get(sel.name.value);
      if (frag) rootKeys(frag.selectionSet, fragments, keys, spread);
    }
  }
  return keys;
}

/** `parentField`: the field whose selection this is (null at the root), to recognise a root product's variants. */
function selections(
  walk: Walk,
  type: GraphQLNamedType,
  set: SelectionSetNode,
  path: string[],
  parentField: { root: boolean; field: GraphQLField<unknown, unknown> } | null,
  spread = new Set<string>(),
): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition ? walk.schema.getType(sel.typeCondition.name.value) : type;
      if (on) selections(walk, on, sel.selectionSet, path, parentField, spread);
    } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
      const frag = walk.fragments.get(sel.name.value);
      if (!frag || spread.has(sel.name.value)) continue;
      const on = walk.schema.getType(frag.typeCondition.name.value);
      if (on) selections(walk, on, frag.selectionSet, path, parentField, new Set([...spread, sel.name.value]));
    } else {
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      const def = type.getFields()[sel.name.value];
      if (!def) continue; // __typename and the like
      const fieldPath = [...path, sel.alias?.value ?? sel.name.value];
      checkField(walk, type.name, def, sel, fieldPath, parentField);
      if (sel.selectionSet) selections(walk, getNamedType(def.type), sel.selectionSet, fieldPath, { root: parentField === null, field: def });
    }
  }
}

function checkField(
  walk: Walk,
  typeName: string,
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  path: string[],
  parent: { root: boolean; field: GraphQLField<unknown, unknown> } | null,
): void {
  if (!def.args.length) return;
  let args: Record<string, unknown>;
  try {
    args = getArgumentValues(def, node, walk.variables);
  } catch {
    return; // not coercible: validation and execution report it
  }
  for (const arg of def.args) {
    if (!(arg.name in args)) continue;
    arrays(walk, node, args[arg.name], arg.type, `${typeName}.${def.name}(${arg.name})`, [...path, arg.name]);
  }
  if (!getNamedType(def.type).name.endsWith('Connection')) return;
  const singleProduct =
    typeName === 'Product' &&
    def.name === 'variants' &&
    walk.singleRoot &&
    parent?.root === true &&
    getNullableType(parent.field.type) === walk.schema.getType('Product');
  const max = singleProduct ? SINGLE_PRODUCT_VARIANTS : (PAGE_MAXIMA[`${typeName}.${def.name}`] ?? MAX_PAGE_SIZE);
  for (const name of ['first', 'last']) {
    const n = args[name];
    if (typeof n === 'number' && n > max) report(walk, node, path, `The ${name} argument must be between 0 and ${max}`, 'BAD_REQUEST');
  }
}

/** Walks a coerced argument value by its type; `key` names the list's position for ARRAY_MAXIMA. */
function arrays(walk: Walk, node: FieldNode, value: unknown, type: GraphQLInputType, key: string | null, path: string[]): void {
  if (value === null || value === undefined) return;
  const t = getNullableType(type);
  if (isListType(t)) {
    if (!Array.isArray(value)) return;
    const max = (key !== null ? ARRAY_MAXIMA[key] : undefined) ?? MAX_INPUT_ARRAY;
    if (value.length > max)
      report(walk, node, path, `The input array size of ${value.length} is greater than the maximum allowed of ${max}.`, 'MAX_INPUT_SIZE_EXCEEDED');
    for (const item of value) arrays(walk, node, item, t.ofType as GraphQLInputType, null, path);
  } else if (isInputObjectType(t) && typeof value === 'object') {
    const fields = t.getFields();
    for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
      const f = fields[name];
      if (f) arrays(walk, node, v, f.type, `${t.name}.${name}`, [...path, name]);
    }
  }
}

/** One error per path (a nested list too long in several items is reported once), located at the field. */
function report(walk: Walk, node: FieldNode, path: string[], message: string, code: string): void {
  const id = `${path.join('\u0000')}\u0001${code}`;
  if (walk.seen.has(id)) return;
  walk.seen.add(id);
  walk.errors.push(new GraphQLError(message, { nodes: [node], path, extensions: { code } }).toJSON());
}
