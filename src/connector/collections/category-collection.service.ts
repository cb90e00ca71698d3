// Categories → collections: each PIM category that has products pushed becomes a custom collection in the
// shop, made the first time one of its products is pushed and remembered per integration (category_collections). A push
// learns the collections of its products' categories from placementFor (SyncPlacement.categoryCollections), and the
// adapter puts the product in exactly those of ours (productSet `collections`, the merchant's own collections kept).
// A category renamed in the PIM renames its collection at the next push of one of its products, or at the next
// reconcile; a category deleted in the PIM, or left with no product, has its collection deleted by reconcile (run after
// a delta poll that saw changes, at least every RECONCILE_IDLE_MS, and by POST /api/collections/reconcile). Tags stay
// as they are.
import type { StorefrontCollections } from '../../storefront/port/collections.js';
import { StorefrontError, StorefrontValidationError } from '../../storefront/port/errors.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { SyncPlacement } from '../../storefront/port/placement.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { IntegrationService } from '../integrations/integration.service.js';
import { ConnectorError } from '../connector.errors.js';
import type { PimClient } from '../pim/pim-client.js';
import { PimReadError } from '../pim/pim-http.js';
import type { CategoryCollectionRepository, CategoryCollectionRow } from './category-collection.repository.js';

/** Without changes seen by the delta poll, the categories are still compared this often (a category deleted with no products). */
export const RECONCILE_IDLE_MS = 10 * 60_000;

interface Logger {
  warn(obj: object, msg: string): void;
}

type Known = Map<number, { id: string; title: string }>;

export interface ReconcileResult {
  renamed: number;
  deleted: number;
  kept: number;
}

export class CategoryCollectionService {
  /** One writer of an integration's collections at a time in this process, so two products never make one category twice. */
  private readonly locks = new Map<number, Promise<unknown>>();
  /** The collections a placement (one push, one batch) has seen: read once per placement, kept up to date by its products. */
  private readonly perPlacement = new WeakMap<SyncPlacement, Promise<Known>>();
  private readonly reconciledAt = new Map<number, number>();

  constructor(
    private readonly deps: {
      repo: CategoryCollectionRepository;
      storefront: StorefrontCollections;
      integrations: Pick<IntegrationService, 'storefrontShopOf' | 'pimConnectionOf'>;
      pim: Pick<PimClient, 'categories'>;
      log?: Logger;
      now?: () => number;
    },
  ) {}

  /**
   * `placement` with the category collections of the integration, after making those the products' categories lack
   * and renaming those whose category was renamed. A collection the shop refuses to make is logged and left for the
   * next push: the product goes without it rather than failing.
   */
  async placementFor(integrationId: number, shop: StorefrontShop, products: PimProductSnapshot[], placement: SyncPlacement): Promise<SyncPlacement> {
    let loading = this.perPlacement.get(placement);
    if (!loading) {
      loading = this.load(integrationId);
      this.perPlacement.set(placement, loading);
    }
    const known = await loading;
    const wanted = new Map<number, string>();
    for (const p of products) for (const c of p.categories ?? []) if (c.name.trim()) wanted.set(c.id, c.name.trim());
    const due = () => [...wanted].filter(([id, name]) => known.get(id)?.title !== name);
    if (due().length > 0) {
      await this.exclusive(integrationId, async () => {
        // Another push may have made them meanwhile: what the database has now wins.
        for (const [id, row] of await this.load(integrationId)) known.set(id, row);
        for (const [id, name] of due()) await this.bring(integrationId, shop, known, { id, name }, publicationsOf(placement));
      });
    }
    return withKnown(placement, known);
  }

  /** `placement` with the collections the bridge has made so far, read only (a dry run makes and renames none). */
  async knownPlacement(integrationId: number, placement: SyncPlacement): Promise<SyncPlacement> {
    return withKnown(placement, await this.load(integrationId));
  }

  /** The integration's category collections (GET /api/collections). */
  list(integrationId: number): Promise<CategoryCollectionRow[]> {
    return this.deps.repo.list(integrationId);
  }

  /**
   * POST /api/collections/reconcile: reconcile now; a PIM or shop that cannot be reached is CONNECTION_FAILED (503).
   */
  async reconcileNow(integrationId: number): Promise<ReconcileResult> {
    try {
      return await this.reconcile(integrationId);
    } catch (err) {
      if (err instanceof PimReadError) throw new ConnectorError('CONNECTION_FAILED', `The PIM could not be read: ${err.message}`);
      if (err instanceof StorefrontError || err instanceof StorefrontValidationError) {
        throw new ConnectorError('CONNECTION_FAILED', `The storefront could not take the change: ${err.message}`);
      }
      throw err;
    }
  }

  /**
   * Compares the recorded collections with the PIM's categories: the collection of a deleted category, or of one left
   * with no product, is deleted from the shop (made again when one of its products is pushed), a renamed one's
   * renamed. `ifIdle`: only when the last reconcile is older than RECONCILE_IDLE_MS. Throws PimReadError /
   * StorefrontError when either side cannot be read or written (the delta poll's next run tries again).
   */
  async reconcile(integrationId: number, options: { ifIdle?: boolean } = {}): Promise<ReconcileResult> {
    const now = (this.deps.now ?? Date.now)();
    const result: ReconcileResult = { renamed: 0, deleted: 0, kept: 0 };
    if (options.ifIdle && now - (this.reconciledAt.get(integrationId) ?? 0) < RECONCILE_IDLE_MS) return result;
    this.reconciledAt.set(integrationId, now);
    const [conn, shop] = await Promise.all([this.deps.integrations.pimConnectionOf(integrationId), this.deps.integrations.storefrontShopOf(integrationId)]);
    if (!conn || !shop) return result;
    const rows = await this.deps.repo.list(integrationId);
    if (rows.length === 0) return result;
    const categories = new Map((await this.deps.pim.categories(conn)).map((c) => [c.id, c]));
    await this.exclusive(integrationId, async () => {
      for (const row of rows) {
        const category = categories.get(row.pimCategoryId);
        const name = category?.name.trim();
        // Gone, or left without products ("each PIM category that has products becomes a collection"): a PIM that
        // does not count its categories' products keeps the collection until the category is deleted.
        if (!name || category?.productCount === 0) {
          await this.deps.storefront.deleteCollection(shop, row.storefrontCollectionId);
          await this.deps.repo.remove(integrationId, row.pimCategoryId);
          result.deleted++;
        } else if (name !== row.title) {
          const renamed = await this.deps.storefront.renameCollection(shop, row.storefrontCollectionId, name);
          if (renamed)
            await this.deps.repo.save(integrationId, {
              pimCategoryId: row.pimCategoryId,
              storefrontCollectionId: renamed.id,
              title: name,
              handle: renamed.handle,
            });
          // Deleted in the shop meanwhile: forgotten here, made again when one of its products is pushed.
          else await this.deps.repo.remove(integrationId, row.pimCategoryId);
          result.renamed++;
        } else result.kept++;
      }
    });
    return result;
  }

  /** Makes, or renames, the collection of one category; records it. A refusal is logged, not thrown. */
  private async bring(integrationId: number, shop: StorefrontShop, known: Known, category: { id: number; name: string }, publications: string[]) {
    const { storefront, repo } = this.deps;
    try {
      const row = known.get(category.id);
      if (row?.title === category.name) return;
      const collection =
        (row && (await storefront.renameCollection(shop, row.id, category.name))) ?? (await storefront.ensureCategoryCollection(shop, category, publications));
      await repo.save(integrationId, { pimCategoryId: category.id, storefrontCollectionId: collection.id, title: category.name, handle: collection.handle });
      known.set(category.id, { id: collection.id, title: category.name });
    } catch (err) {
      if (!(err instanceof StorefrontError || err instanceof StorefrontValidationError)) throw err;
      this.deps.log?.warn({ err, integrationId, pimCategoryId: category.id }, 'the collection of a PIM category could not be made or renamed');
    }
  }

  private async load(integrationId: number): Promise<Known> {
    return new Map((await this.deps.repo.list(integrationId)).map((r) => [r.pimCategoryId, { id: r.storefrontCollectionId, title: r.title }]));
  }

  private async exclusive<T>(integrationId: number, work: () => Promise<T>): Promise<T> {
    const before = this.locks.get(integrationId) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    this.locks.set(integrationId, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(integrationId) === tail) this.locks.delete(integrationId);
    }
  }
}

function withKnown(placement: SyncPlacement, known: Known): SyncPlacement {
  return { ...placement, categoryCollections: Object.fromEntries([...known].map(([id, r]) => [String(id), r.id])) };
}

/** Where a new collection is published: every publication the integration's channels publish products on. */
function publicationsOf(placement: SyncPlacement): string[] {
  return [...new Set(Object.values(placement.channelPublications).flat())];
}
