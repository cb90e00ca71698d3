// collectionCreate's and collectionUpdate's input as the sandbox takes it, and its checks that need no database (the
// title, the metafields); a userError is thrown as Rejected, which rolls the write back.
import { knownType, metafieldValueProblem } from './metafield-types.js';
import type { CollectionMetafieldRow, CollectionRow, MetafieldValues } from './sandbox-collection.repository.js';
import { gidNumber } from './gid.js';
import type { PlainUserError } from './sandbox-publication.service.js';

export const MAX_TITLE = 255;
/** A metafield's namespace when none is given (the app's own). */
export const DEFAULT_NAMESPACE = '$app';

export interface MetafieldInput {
  id?: string | null;
  namespace?: string | null;
  key?: string | null;
  type?: string | null;
  value?: string | null;
}

export interface SelectionInput {
  productId: string;
  variantIds?: string[] | null;
}

interface ConditionsSourceInput {
  title?: string | null;
  targetType?: string | null;
  inclusion?: { conditions?: unknown[] | null; selections?: SelectionInput[] | null; matchType?: string | null } | null;
  exclusion?: { conditions?: unknown[] | null; selections?: unknown[] | null } | null;
}

export interface SourceTargetInput {
  shareableSource?: unknown;
  source?: ConditionsSourceInput | null;
  subCollections?: unknown;
}

interface SourceUpdateInput {
  condition?: {
    id: string;
    inclusion?: {
      conditionsToCreate?: unknown[] | null;
      conditionsToUpdate?: unknown[] | null;
      conditionsToDelete?: unknown[] | null;
      selectionsToAdd?: SelectionInput[] | null;
      selectionsToRemove?: SelectionInput[] | null;
    } | null;
    exclusion?: unknown;
  } | null;
  subCollections?: unknown;
}

export interface CollectionInput {
  id?: string | null;
  title?: string | null;
  handle?: string | null;
  descriptionHtml?: string | null;
  seo?: { title?: string | null; description?: string | null } | null;
  sortOrder?: string | null;
  templateSuffix?: string | null;
  image?: unknown;
  metafields?: MetafieldInput[] | null;
  redirectNewHandle?: boolean | null;
  sources?: SourceTargetInput[] | null;
  sourcesToCreate?: SourceTargetInput[] | null;
  sourcesToUpdate?: SourceUpdateInput[] | null;
  sourcesToDelete?: string[] | null;
}

export type CollectionResult = { collection: CollectionRow; userErrors: [] } | { collection: null; userErrors: PlainUserError[] };

/** Thrown inside a transaction to roll it back with userErrors. */
export class Rejected extends Error {
  constructor(readonly errors: PlainUserError[]) {
    super('rejected');
  }
}

export const fail = (field: string[], message: string) => new Rejected([{ field, message }]);
export const SMART_REFUSED =
  'The Pimbridge sandbox keeps custom collections only: sources with conditions (smart collections) are not emulated. Add products with manual selections, or productSet collections.';

/** A title is required on create and never blank (CollectionCreateInput.title: String!), at most 255 characters. */
export function checkTitle(title: string | null | undefined, field: string[], required: boolean): string | null {
  if (title == null) {
    if (required) throw fail(field, "Title can't be blank");
    return null;
  }
  const t = title.trim();
  // CollectionDuplicateUserErrorCode (schema 2026-10): BLANK "The collection title must not be blank", TOO_LONG "The
  // collection title or URL handle is too long"; the limit: "Limit of 255 characters" (Storefront API, Collection.title).
  if (!t) throw fail(field, "Title can't be blank");
  if (t.length > MAX_TITLE) throw fail(field, `Title is too long (maximum is ${MAX_TITLE} characters)`);
  return t;
}

/**
 * Metafields of a create or update, by namespace and key (an omitted namespace is the app's: "If omitted, the
 * app-reserved namespace will be used", schema 2026-10 Collection.metafield). MetafieldInput (schema 2026-10): key "Must
 * be 2-64 characters long and can contain alphanumeric, hyphen, and underscore characters", namespace 3-255 of the same;
 * namespace and key "Required when creating a metafield"; type "Required when creating or updating a metafield without a
 * definition" (the sandbox keeps no COLLECTION definitions, so a new metafield needs one; an existing one keeps its
 * type). Values are checked against their type as productSet's are (metafield-types.ts).
 */
export function checkMetafields(input: MetafieldInput[], existing: CollectionMetafieldRow[], path: string[]): MetafieldValues[] {
  return input.map((m, i) => {
    const at = (name: string) => [...path, String(i), name];
    let byId: CollectionMetafieldRow | undefined;
    if (m.id != null) {
      const id = gidNumber(m.id, 'Metafield');
      byId = existing.find((e) => e.id === id);
      if (!byId) throw fail(at('id'), 'Metafield does not exist');
    }
    const namespace = m.namespace ?? byId?.namespace ?? DEFAULT_NAMESPACE;
    const key = m.key ?? byId?.key;
    if (!key) throw fail(at('key'), "Key can't be blank");
    if (key.length < 2 || key.length > 64 || !/^[A-Za-z0-9_-]+$/.test(key))
      throw fail(at('key'), 'Key must be 2-64 characters long and only contain alphanumeric, hyphen, and underscore characters.');
    if (m.namespace != null && (namespace.length < 3 || namespace.length > 255 || !/^[A-Za-z0-9_-]+$/.test(namespace)))
      throw fail(at('namespace'), 'Namespace must be 3-255 characters long and only contain alphanumeric, hyphen, and underscore characters.');
    const before = byId ?? existing.find((e) => e.namespace === namespace && e.key === key);
    const type = m.type ?? before?.type;
    if (!type) throw fail(at('type'), "Type can't be blank");
    if (!knownType(type)) throw fail(at('type'), `Type name ${type} is not a valid type.`);
    if (m.value == null) throw fail(at('value'), "Value can't be blank");
    const problem = metafieldValueProblem(type, m.value);
    if (problem) throw fail(at('value'), `${namespace}.${key}: ${problem}`);
    return { namespace, key, type, value: m.value };
  });
}
