// SQL for the sandbox's bulk operations: staged uploads (the JSONL posted to a stagedUploadsCreate target) and bulk
// operations (mutations and queries) with their result files. Every query names the store.
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxBulkOperations, sandboxStagedUploads } from './bulk.tables.js';

export type BulkOperationRow = Omit<typeof sandboxBulkOperations.$inferSelect, 'result'> & { fileSize: number | null };

/** Shopify's BulkOperationType. */
export type BulkOperationType = 'MUTATION' | 'QUERY';

/** Statuses of an operation that is not finished. */
export const ACTIVE_STATUSES = ['CREATED', 'RUNNING', 'CANCELING'] as const;

const operationColumns = {
  id: sandboxBulkOperations.id,
  storeId: sandboxBulkOperations.storeId,
  status: sandboxBulkOperations.status,
  errorCode: sandboxBulkOperations.errorCode,
  type: sandboxBulkOperations.type,
  mutation: sandboxBulkOperations.mutation,
  stagedUploadPath: sandboxBulkOperations.stagedUploadPath,
  objectCount: sandboxBulkOperations.objectCount,
  rootObjectCount: sandboxBulkOperations.rootObjectCount,
  createdAt: sandboxBulkOperations.createdAt,
  completedAt: sandboxBulkOperations.completedAt,
  fileSize: sql<number | null>`octet_length(${sandboxBulkOperations.result})`.mapWith((v) => (v === null ? null : Number(v))),
};

export class SandboxBulkRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxBulkRepository {
    return new SandboxBulkRepository(tx);
  }

  /** Serialises starts of bulk operations on one store for the rest of the transaction. */
  async lockStore(storeId: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox-bulk:${storeId}`}))`);
  }

  // Staged uploads

  async createUpload(storeId: number, path: string): Promise<void> {
    await this.db.insert(sandboxStagedUploads).values({ storeId, path });
  }

  /** Stores the posted file under its key; false when the store issued no such target. */
  async saveUpload(storeId: number, path: string, content: string): Promise<boolean> {
    const rows = await this.db
      .update(sandboxStagedUploads)
      .set({ content })
      .where(and(eq(sandboxStagedUploads.storeId, storeId), eq(sandboxStagedUploads.path, path)))
      .returning({ id: sandboxStagedUploads.id });
    return rows.length > 0;
  }

  /** The posted file; null when there is no such upload or nothing was posted to it. */
  async uploadContent(storeId: number, path: string): Promise<string | null> {
    const [row] = await this.db
      .select({ content: sandboxStagedUploads.content })
      .from(sandboxStagedUploads)
      .where(and(eq(sandboxStagedUploads.storeId, storeId), eq(sandboxStagedUploads.path, path)));
    return row?.content ?? null;
  }

  // Operations

  /** A new operation: `document` is the mutation (with its staged file) or the query (no file: ''). */
  async insertOperation(storeId: number, type: BulkOperationType, document: string, stagedUploadPath: string): Promise<BulkOperationRow> {
    const [row] = await this.db
      .insert(sandboxBulkOperations)
      .values({ storeId, type, mutation: document, stagedUploadPath, status: 'CREATED' })
      .returning({ id: sandboxBulkOperations.id });
    return (await this.operation(storeId, row.id))!;
  }

  async operation(storeId: number, id: number): Promise<BulkOperationRow | null> {
    const [row] = await this.db
      .select(operationColumns)
      .from(sandboxBulkOperations)
      .where(and(eq(sandboxBulkOperations.storeId, storeId), eq(sandboxBulkOperations.id, id)));
    return row ?? null;
  }

  /** The store's most recent operation (of one type, when given). */
  async latest(storeId: number, type?: BulkOperationType): Promise<BulkOperationRow | null> {
    const [row] = await this.db
      .select(operationColumns)
      .from(sandboxBulkOperations)
      .where(and(eq(sandboxBulkOperations.storeId, storeId), type ? eq(sandboxBulkOperations.type, type) : undefined))
      .orderBy(desc(sandboxBulkOperations.id))
      .limit(1);
    return row ?? null;
  }

  /** The store's operations, newest first, before `beforeId` (0: from the newest), optionally of some statuses and a type. */
  async list(storeId: number, statuses: string[] | null, beforeId: number, limit: number, type?: BulkOperationType): Promise<BulkOperationRow[]> {
    return this.db
      .select(operationColumns)
      .from(sandboxBulkOperations)
      .where(
        and(
          eq(sandboxBulkOperations.storeId, storeId),
          statuses ? inArray(sandboxBulkOperations.status, statuses) : undefined,
          type ? eq(sandboxBulkOperations.type, type) : undefined,
          beforeId > 0 ? lt(sandboxBulkOperations.id, beforeId) : undefined,
        ),
      )
      .orderBy(desc(sandboxBulkOperations.id))
      .limit(limit);
  }

  /** Ids of the store's unfinished operations (every store's with `storeId` null; of one type, when given). */
  async activeIds(storeId: number | null, type?: BulkOperationType): Promise<number[]> {
    const rows = await this.db
      .select({ id: sandboxBulkOperations.id })
      .from(sandboxBulkOperations)
      .where(
        and(
          storeId === null ? undefined : eq(sandboxBulkOperations.storeId, storeId),
          type ? eq(sandboxBulkOperations.type, type) : undefined,
          inArray(sandboxBulkOperations.status, [...ACTIVE_STATUSES]),
        ),
      );
    return rows.map((r) => r.id);
  }

  async setRunning(id: number): Promise<void> {
    await this.db.update(sandboxBulkOperations).set({ status: 'RUNNING' }).where(eq(sandboxBulkOperations.id, id));
  }

  /** The running counts: every object (a query's nested nodes too) and the root ones (a mutation's lines). */
  async progress(id: number, count: number, rootCount: number): Promise<void> {
    await this.db.update(sandboxBulkOperations).set({ objectCount: count, rootObjectCount: rootCount }).where(eq(sandboxBulkOperations.id, id));
  }

  async complete(id: number, count: number, rootCount: number, result: string): Promise<void> {
    await this.db
      .update(sandboxBulkOperations)
      .set({ status: 'COMPLETED', objectCount: count, rootObjectCount: rootCount, result, completedAt: sql`now()` })
      .where(eq(sandboxBulkOperations.id, id));
  }

  /** Marks an unfinished operation FAILED; false when it had finished meanwhile. */
  async fail(id: number, errorCode: string): Promise<boolean> {
    const rows = await this.db
      .update(sandboxBulkOperations)
      .set({ status: 'FAILED', errorCode })
      .where(and(eq(sandboxBulkOperations.id, id), inArray(sandboxBulkOperations.status, [...ACTIVE_STATUSES])))
      .returning({ id: sandboxBulkOperations.id });
    return rows.length > 0;
  }

  /** The result file of a completed operation. */
  async result(storeId: number, id: number): Promise<string | null> {
    const [row] = await this.db
      .select({ result: sandboxBulkOperations.result })
      .from(sandboxBulkOperations)
      .where(and(eq(sandboxBulkOperations.storeId, storeId), eq(sandboxBulkOperations.id, id), eq(sandboxBulkOperations.status, 'COMPLETED')));
    return row?.result ?? null;
  }
}
