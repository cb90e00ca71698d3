// The bulk-edit grid's save: every row's changes in one transaction, or none. Every row is checked first and every
// refusal named (row and product), so the merchant fixes them all at once. Each product changed is in its history.
import type { Actor, HistoryRepository } from '../history/history.repository.js';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../http/errors.js';
import type { BatchRepository } from './batch.repository.js';
import type { BatchBodyInput } from './bulk.schemas.js';

/** At most this many refusals are named in the answer. */
const NAMED_ERRORS = 20;

export class BatchService {
  constructor(
    private readonly db: Db,
    private readonly batch: BatchRepository,
    private readonly history: HistoryRepository,
  ) {}

  async save(organizationId: number, body: BatchBodyInput, actor: Actor): Promise<{ updated: number; product_ids: number[] }> {
    const rows = body.products;
    return this.db.transaction(async (tx) => {
      const repo = this.batch.with(tx);
      const found = await repo.lockProducts(organizationId, [...new Set(rows.map((r) => r.id))]);
      const errors: string[] = [];
      const seen = new Set<number>();
      rows.forEach((row, i) => {
        const at = `row ${i + 1} (product ${row.id})`;
        const product = found.get(row.id);
        if (seen.has(row.id)) errors.push(`${at}: the product is in the batch twice`);
        else if (!product) errors.push(`${at}: no such product`);
        else if (row.stock !== undefined && product.hasLevels) errors.push(`${at}: field 'stock': the product has stock per warehouse`);
        else if (row.stock !== undefined && product.hasVariants) errors.push(`${at}: field 'stock': the product's stock is the sum of its variants'`);
        seen.add(row.id);
      });
      if (errors.length > 0) {
        const more = errors.length > NAMED_ERRORS ? ` (and ${errors.length - NAMED_ERRORS} more)` : '';
        throw badRequest(`${errors.length} of ${rows.length} rows cannot be saved, nothing was saved: ${errors.slice(0, NAMED_ERRORS).join('; ')}${more}`);
      }
      const history = this.history.with(tx);
      const before = await history.snapshots(organizationId, [...found.keys()]);
      const ids = await repo.update(organizationId, rows);
      await history.record(
        organizationId,
        ids.map((productId) => ({ productId, before: before.get(productId) ?? null })),
        actor,
      );
      return { updated: ids.length, product_ids: ids };
    });
  }
}
