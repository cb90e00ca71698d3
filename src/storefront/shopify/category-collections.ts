// The shop side of category collections (StorefrontCollections): a PIM category becomes a custom collection, made with
// collectionCreate's current `collection` argument and no condition sources ("Define membership with `sources` … through
// `conditions` … and through manual `selections`", schema 2026-10, Mutation.collectionCreate): with no conditions the
// collection is manual and its products are the ones productSet puts in it (ProductSetInput.collections). "The created
// collection is unpublished by default. To make it available to customers, use the publishablePublish mutation" (same
// description): it is published on the integration's publications.
import type { StorefrontCollection } from '../port/collections.js';
import { StorefrontValidationError } from '../port/errors.js';
import type { Call } from './inventory-sync.js';
import {
  CategoryCollectionLookup,
  CollectionCreate,
  CollectionDelete,
  CollectionRename,
  PublishablePublish,
  type CategoryCollectionLookupData,
  type CollectionCreateData,
  type CollectionDeleteData,
  type CollectionRenameData,
  type PublishableData,
} from './operations.js';
import { METAFIELD_NAMESPACE } from './tags-metafields-collections.js';
import { userErrorLines } from './preflight.js';

/** Our metafield on a collection: the PIM category it was made for. */
export const CATEGORY_ID_KEY = 'pim_category_id';

/** A Shopify search term matching the title as a phrase (quotes and backslashes escaped, shopify.dev/api/usage/search-syntax). */
export function titleQuery(title: string): string {
  return `title:"${title.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export async function ensureCategoryCollection(call: Call, category: { id: number; name: string }, publications: string[]): Promise<StorefrontCollection> {
  const title = category.name.trim();
  // A create whose answer was lost made a collection we do not know: find it by our metafield, never make a second.
  const found = await call<CategoryCollectionLookupData>(CategoryCollectionLookup, { query: titleQuery(title) }, 2 + 25 * 2);
  const ours = found.collections.nodes.find((c) => c.metafield?.value === String(category.id));
  if (ours) return { id: ours.id, handle: ours.handle, title: ours.title };

  const data = await call<CollectionCreateData>(
    CollectionCreate,
    {
      collection: {
        title,
        metafields: [{ namespace: METAFIELD_NAMESPACE, key: CATEGORY_ID_KEY, type: 'single_line_text_field', value: String(category.id) }],
      },
    },
    10,
  );
  const payload = data.collectionCreate;
  if (!payload?.collection) throw new StorefrontValidationError(refusal('create the collection', payload?.userErrors));
  const made = payload.collection;
  if (publications.length > 0) {
    // A publish the shop refuses leaves an unpublished collection: its products are still grouped, so not an error.
    await call<PublishableData>(PublishablePublish, { id: made.id, input: publications.map((publicationId) => ({ publicationId })) }, 11);
  }
  return { id: made.id, handle: made.handle, title: made.title };
}

export async function renameCollection(call: Call, id: string, title: string): Promise<StorefrontCollection | null> {
  const data = await call<CollectionRenameData>(CollectionRename, { collection: { id, title: title.trim() } }, 10);
  const payload = data.collectionUpdate;
  if (payload?.collection) return payload.collection;
  if (payload?.userErrors.some((e) => /not exist|not found/i.test(e.message))) return null;
  throw new StorefrontValidationError(refusal('rename the collection', payload?.userErrors));
}

export async function deleteCollection(call: Call, id: string): Promise<void> {
  const data = await call<CollectionDeleteData>(CollectionDelete, { input: { id } }, 10);
  const errors = data.collectionDelete?.userErrors ?? [];
  // "Returns `null` if the collection doesn't exist" (schema 2026-10, CollectionDeletePayload.deletedCollectionId): gone is done.
  if (errors.length > 0 && !errors.some((e) => /not exist|not found/i.test(e.message))) {
    throw new StorefrontValidationError(refusal('delete the collection', errors));
  }
}

function refusal(what: string, errors: { field: string[] | null; message: string }[] | undefined): string[] {
  const lines = userErrorLines((errors ?? []).map((e) => ({ ...e, code: null })));
  return lines.length > 0 ? lines.map((l) => `The shop refused to ${what}: ${l}`) : [`The shop did not ${what} (no collection in its answer)`];
}
