// The fields a bulk query selects, collected through its fragments, and a connection's parts: what both the check of a
// bulk query and its run (bulk-query-runner.ts) walk.
import {
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

/** A type named `…Connection` (an object or interface). */
export const isConnection = (type: GraphQLNamedType | undefined) => !!type && type.name.endsWith('Connection') && (isObjectType(type) || isInterfaceType(type));

export interface Collected {
  field: FieldNode;
  /** Every node of this response key (fragments may select it more than once). */
  nodes: FieldNode[];
  type: GraphQLNamedType | undefined;
  /** Whether the field's type is a list (below non-null). */
  list: boolean;
}

/**
 * The fields a selection selects, by response key, through fragments and inline fragments whatever their type
 * condition (the document is valid: a key names one field). `parent` is the type the selections apply to.
 */
export function collectFields(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  sets: readonly SelectionSetNode[],
  parent: GraphQLNamedType,
): Map<string, Collected> {
  const out = new Map<string, Collected>();
  const walk = (set: SelectionSetNode, on: GraphQLNamedType | undefined) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const seen = out.get(key);
        if (seen) {
          seen.nodes.push(sel);
          continue;
        }
        const def = on && (isObjectType(on) || isInterfaceType(on)) ? on.getFields()[sel.name.value] : undefined;
        out.set(key, { field: sel, nodes: [sel], type: def ? getNamedType(def.type) : undefined, list: def ? isListOutput(def.type) : false });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet, sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) ?? on) : on);
      } else {
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? on);
      }
    }
  };
  for (const set of sets) walk(set, parent);
  return out;
}

function isListOutput(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

export const selectionsOf = (nodes: FieldNode[]) => nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));

/** A connection's node type and the selections of its `edges { node }`; `viaNodes` when it selects `nodes`. */
export function connectionParts(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  conn: Collected,
): { nodeType: GraphQLNamedType | undefined; nodeSets: SelectionSetNode[]; viaNodes: boolean } {
  const inner = collectFields(schema, fragments, selectionsOf(conn.nodes), conn.type!);
  const edges = inner.get('edges');
  const nodes = [...inner.values()].find((c) => c.field.name.value === 'nodes');
  let nodeType: GraphQLNamedType | undefined;
  let nodeSets: SelectionSetNode[] = [];
  if (edges?.type) {
    const edgeFields = collectFields(schema, fragments, selectionsOf(edges.nodes), edges.type);
    const node = [...edgeFields.values()].find((c) => c.field.name.value === 'node');
    if (node) {
      nodeType = node.type;
      nodeSets = selectionsOf(node.nodes);
    }
  }
  return { nodeType, nodeSets, viaNodes: !!nodes };
}
