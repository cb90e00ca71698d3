// Sales channels as the sandbox emulates them. Every store has the publications "Online Store", "Point of Sale" and "Shop"
// (made on first use, as locations are), plus those a test adds through the admin API
// (POST /admin/shops/{id}/sandbox/publications). Rules, with their sources:
// - ACTIVE publishes nothing: a product reaches a channel only through publishablePublish on that channel's publication
//   (schema 2026-10: ProductStatus.ACTIVE "Products with an active status aren't automatically published to sales
//   channels, such as the online store, or apps"; https://shopify.dev/docs/api/admin-graphql/latest/mutations/publishablePublish).
// - Only the online store supports future publishing: a publishDate ahead schedules the product there and is refused
//   elsewhere (schema 2026-10: PublicationInput.publishDate "Only online store channels support future publishing").
// - publishableUnpublish ignores publishDate (schema 2026-10: PublicationInput.publishDate "This field has no effect if
//   you include it in the publishableUnpublish mutation").
// - One call is all or nothing: an unknown publication or product is a userError and nothing is written (the payload's
//   userErrors are plain UserError {field, message}: schema 2026-10 PublishablePublishPayload.userErrors, no code).
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import { isForeignKeyViolation } from '../db/errors.js';
import type { ProductRow, SandboxProductRepository } from './sandbox-product.repository.js';
import type { ProductPublicationRow, PublicationRow, SandboxPublicationRepository } from './sandbox-publication.repository.js';
import { gidNumber } from './gid.js';
import type { SandboxStoreRepository } from './sandbox-store.repository.js';
import { normalizeDomain } from './sandbox-store.service.js';

export const ONLINE_STORE = 'Online Store';
/** The sales channels every Shopify store starts with, in the order their ids are made. */
export const DEFAULT_PUBLICATIONS = [ONLINE_STORE, 'Point of Sale', 'Shop'] as const;

/** Shopify's plain UserError (no code). */
export interface PlainUserError {
  field: string[] | null;
  message: string;
}

export interface PublicationInput {
  publicationId?: string | null;
  publishDate?: string | null;
  channelId?: string | null;
}

export type PublishResult = { product: ProductRow; userErrors: [] } | { product: null; userErrors: PlainUserError[] };

export const publicationGid = (id: number) => `gid://shopify/Publication/${id}`;

export interface SandboxPublicationDeps {
  db: Db;
  repo: SandboxPublicationRepository;
  products: SandboxProductRepository;
  /** Only the admin API's side needs it (a publication added by shop domain). */
  stores?: Pick<SandboxStoreRepository, 'findByDomain'> | null;
}

export class SandboxPublicationService {
  /** Stores whose default publications are known to exist (publications are never removed but with their store). */
  private readonly ensured = new Set<number>();

  private readonly db: Db;
  private readonly repo: SandboxPublicationRepository;
  private readonly products: SandboxProductRepository;
  private readonly stores: Pick<SandboxStoreRepository, 'findByDomain'> | null;

  constructor(deps: SandboxPublicationDeps) {
    ({ db: this.db, repo: this.repo, products: this.products } = deps);
    this.stores = deps.stores ?? null;
  }

  /** The store's default publications exist (Online Store, Point of Sale, Shop). */
  async ensureDefaults(storeId: number): Promise<void> {
    if (this.ensured.has(storeId)) return;
    await this.repo.ensure(storeId, DEFAULT_PUBLICATIONS);
    this.ensured.add(storeId);
  }

  /** Only the online store schedules (schema 2026-10: PublicationInput.publishDate). */
  supportsFuturePublishing(row: PublicationRow): boolean {
    return row.name === ONLINE_STORE;
  }

  isOnlineStore(row: PublicationRow): boolean {
    return row.name === ONLINE_STORE;
  }

  async list(storeId: number, afterId: number, limit: number): Promise<PublicationRow[]> {
    await this.ensureDefaults(storeId);
    return this.repo.publications(storeId, afterId, limit);
  }

  async find(storeId: number, gid: unknown): Promise<PublicationRow | null> {
    const id = gidNumber(gid, 'Publication');
    if (id === null) return null;
    await this.ensureDefaults(storeId);
    const [row] = await this.byIds(storeId, [id]);
    return row ?? null;
  }

  /**
   * Publications by id. A publication row never changes once made (nothing in the sandbox renames one) and ids are never
   * reused, so the rows seen are kept by store; an id not seen yet is read (another process may have added it).
   */
  private readonly seen = new LRUCache<number, Map<number, PublicationRow>>({ max: 1_000 });

  private async byIds(storeId: number, ids: number[]): Promise<PublicationRow[]> {
    const known = this.seen.get(storeId) ?? new Map<number, PublicationRow>();
    if (ids.every((id) => known.has(id))) return [...new Set(ids)].map((id) => known.get(id)!);
    const rows = await this.repo.byIds(storeId, ids);
    for (const row of rows) known.set(row.id, row);
    this.seen.set(storeId, known);
    return rows;
  }

  ofProduct(productId: number): Promise<ProductPublicationRow[]> {
    return this.repo.ofProduct(productId);
  }

  productsOn(storeId: number, publicationId: number, afterId: number, limit: number): Promise<ProductRow[]> {
    return this.repo.products(storeId, publicationId, afterId, limit);
  }

  /**
   * A publication added to a sandbox store by the admin API (after its defaults, so those keep the first ids);
   * null when the store does not exist, 'taken' when it has a publication of that name.
   */
  async addByDomain(domain: string, name: string): Promise<{ id: string; name: string } | 'taken' | null> {
    const store = await this.stores?.findByDomain(normalizeDomain(domain));
    if (!store) return null;
    await this.ensureDefaults(store.id);
    const row = await this.repo.insert(store.id, name.trim());
    return row ? { id: publicationGid(row.id), name: row.name } : 'taken';
  }

  publish(storeId: number, productGid: string, input: PublicationInput[]): Promise<PublishResult> {
    return this.change(storeId, productGid, input, 'publish');
  }

  unpublish(storeId: number, productGid: string, input: PublicationInput[]): Promise<PublishResult> {
    return this.change(storeId, productGid, input, 'unpublish');
  }

  /**
   * The publications an input names and their dates, or its userErrors (shared by products and collections: the same
   * checks whatever is published).
   */
  async checkEntries(
    storeId: number,
    input: PublicationInput[],
    action: 'publish' | 'unpublish',
  ): Promise<{ errors: PlainUserError[]; entries: Map<number, Date | null> }> {
    await this.ensureDefaults(storeId);
    const ids = input.map((p) => gidNumber(p.publicationId, 'Publication'));
    const known = new Map(
      (
        await this.byIds(
          storeId,
          ids.filter((id): id is number => id !== null),
        )
      ).map((r) => [r.id, r]),
    );
    const errors: PlainUserError[] = [];
    const entries = new Map<number, Date | null>(); // by publication: a publication sent twice takes its last entry
    for (const [i, p] of input.entries()) {
      const at = (name: string) => ['input', String(i), name];
      const publication = ids[i] === null ? undefined : known.get(ids[i]!);
      if (p.publicationId == null) {
        errors.push({ field: at('publicationId'), message: "Publication can't be blank" });
        continue;
      }
      if (!publication) {
        errors.push({ field: at('publicationId'), message: 'Publication does not exist' });
        continue;
      }
      let date: Date | null = null;
      if (action === 'publish' && p.publishDate != null) {
        date = new Date(p.publishDate);
        if (Number.isNaN(date.getTime())) {
          errors.push({ field: at('publishDate'), message: 'Publish date is invalid' });
          continue;
        }
        // schema 2026-10: PublicationInput.publishDate "Only online store channels support future publishing."
        if (date.getTime() > Date.now() && !this.supportsFuturePublishing(publication)) {
          errors.push({ field: at('publishDate'), message: `${publication.name} does not support future publishing` });
          continue;
        }
      }
      entries.set(publication.id, date);
    }
    return { errors, entries };
  }

  private async change(storeId: number, productGid: string, input: PublicationInput[], action: 'publish' | 'unpublish'): Promise<PublishResult> {
    const productId = gidNumber(productGid, 'Product');
    const missing: PublishResult = { product: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
    if (productId === null) return missing;
    const { errors, entries } = await this.checkEntries(storeId, input, action);
    if (errors.length) {
      // An unknown product outranks the inputs' errors (nothing can be published on it anyway).
      return (await this.products.product(storeId, productId)) ? { product: null, userErrors: errors } : missing;
    }
    // No lock: a product deleted meanwhile fails the insert's foreign key, and productSet writes no publication row.
    const product = await this.products.product(storeId, productId);
    if (!product) return missing;
    const write = (repo: SandboxPublicationRepository) =>
      action === 'publish'
        ? repo.publish(
            product.id,
            [...entries].map(([publicationId, publishDate]) => ({ publicationId, publishDate })),
          )
        : repo.unpublish(product.id, [...entries.keys()]);
    try {
      // One statement, but for a publish with dated and undated entries (two, in one transaction).
      const dates = new Set([...entries.values()].map((d) => d === null));
      if (action === 'publish' && dates.size > 1) await this.db.transaction((tx) => write(this.repo.with(tx)));
      else await write(this.repo);
    } catch (e) {
      if (isForeignKeyViolation(e)) return missing;
      throw e;
    }
    return { product, userErrors: [] };
  }
}
