// A bulk query reads whole pages of products with their lists (variants, media, metafields): one statement per list and
// page instead of one per product. The resolvers ask for one product's list; the requests made in the same turn of the
// event loop (graphql-js completes a page's nodes together) are answered by one read. Per-call queries do not use it.
import type { MetafieldRow, SandboxMetafieldRepository } from './sandbox-metafield.repository.js';
import type { MediaRow, SandboxProductRepository, VariantRow } from './sandbox-product.repository.js';

class Batch<R extends { productId: number }> {
  private pending = new Map<number, { resolve: (rows: R[]) => void; reject: (err: unknown) => void }[]>();
  private scheduled = false;

  constructor(private readonly read: (ids: number[]) => Promise<R[]>) {}

  of(productId: number): Promise<R[]> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(productId) ?? [];
      waiting.push({ resolve, reject });
      this.pending.set(productId, waiting);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    try {
      const rows = await this.read([...batch.keys()]);
      const byProduct = new Map<number, R[]>();
      for (const row of rows) {
        const list = byProduct.get(row.productId) ?? [];
        list.push(row);
        byProduct.set(row.productId, list);
      }
      for (const [id, waiting] of batch) for (const w of waiting) w.resolve(byProduct.get(id) ?? []);
    } catch (err) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
    }
  }
}

/** Whole lists of products, read in batches (rows in position order, metafields by id). */
export class ProductListsLoader {
  private readonly variantBatch: Batch<VariantRow>;
  private readonly mediaBatch: Batch<MediaRow>;
  private readonly metafieldBatch: Batch<MetafieldRow>;

  constructor(repo: SandboxProductRepository, metafields: SandboxMetafieldRepository) {
    this.variantBatch = new Batch((ids) => repo.variantsOfProducts(ids));
    this.mediaBatch = new Batch((ids) => repo.mediaOfProducts(ids));
    this.metafieldBatch = new Batch((ids) => metafields.metafieldsOfProducts(ids));
  }

  variants(productId: number): Promise<VariantRow[]> {
    return this.variantBatch.of(productId);
  }

  media(productId: number): Promise<MediaRow[]> {
    return this.mediaBatch.of(productId);
  }

  metafields(productId: number): Promise<MetafieldRow[]> {
    return this.metafieldBatch.of(productId);
  }
}
