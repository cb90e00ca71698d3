// The publishing step of a push. Shopify's ProductStatus.ACTIVE publishes nothing by itself ("ACTIVE: The product is
// ready to sell and can be published to sales channels and apps", schema 2026-10): an active product reaches a sales
// channel only through publishablePublish on that channel's publication. The product is published on exactly the
// publications its PIM channels map to, and unpublished from those the bridge published it on before and it left;
// a draft or archived product is published nowhere by us. Publications the merchant chose by hand are left alone.
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { SyncPlacement } from '../port/placement.js';
import type { Call } from './inventory-sync.js';
import { PublishablePublish, PublishableUnpublish, type PublishableData } from './operations.js';

/** The publications an upsert should leave the product on. */
export function targetPublications(
  product: Pick<PimProductSnapshot, 'publishing_channels'>,
  status: string,
  placement: Pick<SyncPlacement, 'channelPublications'>,
): string[] {
  if (status !== 'ACTIVE') return [];
  const out = new Set<string>();
  for (const channel of product.publishing_channels ?? []) for (const id of placement.channelPublications[channel] ?? []) out.add(id);
  return [...out];
}

/**
 * Publishes and unpublishes as needed (no call when nothing changed); returns the publications the product is now on
 * by us, and a problem line for a call the shop refused (that part is tried again by the next push). `deferPublish`:
 * the publications to add are returned in `toPublish` instead (a bulk sync publishes them in one bulk mutation).
 */
export async function syncPublications(
  call: Call,
  productId: string,
  target: string[],
  previous: string[],
  options: { deferPublish?: boolean } = {},
): Promise<{ publications: string[]; problems: string[]; toPublish: string[] }> {
  const now = new Set(previous);
  const problems: string[] = [];
  const publish = target.filter((id) => !now.has(id));
  const unpublish = previous.filter((id) => !target.includes(id));
  const toPublish = options.deferPublish ? publish : [];
  if (publish.length > 0 && !options.deferPublish) {
    const data = await call<PublishableData>(PublishablePublish, { id: productId, input: publish.map((publicationId) => ({ publicationId })) }, 11);
    const errors = data.publishablePublish?.userErrors ?? [];
    if (errors.length > 0) problems.push(`publish: the shop refused to publish the product: ${errors.map((e) => e.message).join('; ')}`);
    else for (const id of publish) now.add(id);
  }
  if (unpublish.length > 0) {
    const data = await call<PublishableData>(PublishableUnpublish, { id: productId, input: unpublish.map((publicationId) => ({ publicationId })) }, 11);
    const errors = data.publishableUnpublish?.userErrors ?? [];
    if (errors.length > 0) problems.push(`unpublish: the shop refused to unpublish the product: ${errors.map((e) => e.message).join('; ')}`);
    else for (const id of unpublish) now.delete(id);
  }
  return { publications: [...now], problems, toPublish };
}
