// The only place with SQL for product mappings (PIM product ↔ storefront product, per integration). Every write that
// changes a product's sync state also tells the other processes (live/sync-events.ts: a NOTIFY in the same transaction).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notifyMany } from '../../db/notifications.js';
import { encodeSyncEvents, type LiveSyncState, SYNC_EVENTS_CHANNEL } from '../live/sync-events.js';
import { rowsOf } from '../../db/rows.js';
import { productMappings } from '../mapping.tables.js';
import type { AdoptedMapping, SyncedMapping } from './mapping-writes.js';

export const MAPPING_STATUSES = ['pending', 'synced', 'error'] as const;
export type MappingStatus = (typeof MAPPING_STATUSES)[number];

export interface MappingRow {
  id: number;
  pimProductId: number;
  storefrontProductId: number | null;
  storefrontVariantId: number | null;
  syncStatus: string;
  syncError: string | null;
  metadata: unknown;
  storefrontState: unknown;
  lastSyncedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: productMappings.id,
  pimProductId: productMappings.pimProductId,
  storefrontProductId: productMappings.storefrontProductId,
  storefrontVariantId: productMappings.storefrontVariantId,
  syncStatus: productMappings.syncStatus,
  syncError: productMappings.syncError,
  metadata: productMappings.metadata,
  storefrontState: productMappings.storefrontState,
  lastSyncedAt: productMappings.lastSyncedAt,
  createdAt: productMappings.createdAt,
  updatedAt: productMappings.updatedAt,
};

const target = [productMappings.integrationId, productMappings.pimProductId];

export class MappingRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): MappingRepository {
    return new MappingRepository(tx);
  }

  /** Tells the console's event streams of every process (delivered when this handle's transaction commits). */
  private async announce(integrationId: number, pimProductIds: number[], state: LiveSyncState, detail?: { error?: string | null; at?: Date | null }) {
    await notifyMany(this.db, SYNC_EVENTS_CHANNEL, encodeSyncEvents(integrationId, pimProductIds, state, detail));
  }

  /**
   * The live state of these products in one integration (GET /api/sync/states): `syncing` while a writer's lease runs,
   * else the mapping's status; products without a mapping are left out.
   */
  async liveStates(
    integrationId: number,
    pimProductIds: number[],
  ): Promise<{ pimProductId: number; state: LiveSyncState; error: string | null; lastSyncedAt: Date | null }[]> {
    if (pimProductIds.length === 0) return [];
    const rows = await this.db
      .select({
        pimProductId: productMappings.pimProductId,
        status: productMappings.syncStatus,
        leased: sql<boolean>`(${productMappings.leaseUntil} is not null and ${productMappings.leaseUntil} > now())`,
        error: productMappings.syncError,
        lastSyncedAt: productMappings.lastSyncedAt,
      })
      .from(productMappings)
      .where(and(eq(productMappings.integrationId, integrationId), inArray(productMappings.pimProductId, pimProductIds)))
      .orderBy(asc(productMappings.pimProductId));
    return rows.map((r) => ({
      pimProductId: r.pimProductId,
      state: r.leased ? 'syncing' : (r.status as LiveSyncState),
      error: r.status === 'error' ? r.error : null,
      lastSyncedAt: r.lastSyncedAt,
    }));
  }

  async find(integrationId: number, pimProductId: number): Promise<MappingRow | null> {
    const [row] = await this.db
      .select(columns)
      .from(productMappings)
      .where(and(eq(productMappings.integrationId, integrationId), eq(productMappings.pimProductId, pimProductId)));
    return row ?? null;
  }

  async findMany(integrationId: number, pimProductIds: number[]): Promise<MappingRow[]> {
    if (pimProductIds.length === 0) return [];
    return this.db
      .select(columns)
      .from(productMappings)
      .where(and(eq(productMappings.integrationId, integrationId), inArray(productMappings.pimProductId, pimProductIds)));
  }

  /** The PIM version (updated_at) last synced of each of these products that has a mapping (null: not known). */
  async syncedVersions(integrationId: number, pimProductIds: number[]): Promise<Map<number, Date | null>> {
    if (pimProductIds.length === 0) return new Map();
    const rows = await this.db
      .select({ pimProductId: productMappings.pimProductId, pimUpdatedAt: productMappings.pimUpdatedAt })
      .from(productMappings)
      .where(and(eq(productMappings.integrationId, integrationId), inArray(productMappings.pimProductId, pimProductIds)));
    return new Map(rows.map((r) => [r.pimProductId, r.pimUpdatedAt]));
  }

  /**
   * The products whose newest change the delta sync has just queued: a `synced` mapping says `pending` again until
   * its job writes it (an `error` one keeps its error, which says more).
   */
  async markPending(integrationId: number, pimProductIds: number[]): Promise<void> {
    if (pimProductIds.length === 0) return;
    const marked = await this.db
      .update(productMappings)
      .set({ syncStatus: 'pending' })
      .where(
        and(eq(productMappings.integrationId, integrationId), inArray(productMappings.pimProductId, pimProductIds), eq(productMappings.syncStatus, 'synced')),
      )
      .returning({ pimProductId: productMappings.pimProductId });
    // Pending too: the products the queued jobs will create (no mapping yet).
    const mapped = new Set(
      (
        await this.db
          .select({ pimProductId: productMappings.pimProductId })
          .from(productMappings)
          .where(and(eq(productMappings.integrationId, integrationId), inArray(productMappings.pimProductId, pimProductIds)))
      ).map((r) => r.pimProductId),
    );
    const pending = [...marked.map((r) => r.pimProductId), ...pimProductIds.filter((id) => !mapped.has(id))];
    await this.announce(integrationId, pending, 'pending');
  }

  /** A page ordered by id, and the total under the same filter. */
  async page(integrationId: number, status: MappingStatus | undefined, limit: number, offset: number): Promise<{ rows: MappingRow[]; total: number }> {
    const where = and(eq(productMappings.integrationId, integrationId), status ? eq(productMappings.syncStatus, status) : undefined);
    const rows = await this.db.select(columns).from(productMappings).where(where).orderBy(asc(productMappings.id)).limit(limit).offset(offset);
    const [count] = await this.db.select({ n: sql<number>`count(*)::int` }).from(productMappings).where(where);
    return { rows, total: Number(count.n) };
  }

  /** A `pending` mapping for a product pushed for the first time; an existing mapping is left as it is. */
  async insertPending(integrationId: number, pimProductId: number): Promise<void> {
    const made = await this.db
      .insert(productMappings)
      .values({ integrationId, pimProductId, syncStatus: 'pending' })
      .onConflictDoNothing({ target })
      .returning({ id: productMappings.id });
    if (made.length > 0) await this.announce(integrationId, [pimProductId], 'pending');
  }

  /**
   * Takes the product's write lease for `ttlMs` (a `pending` mapping is made for a product pushed for the first time);
   * null while another owner's lease runs. Returns the mapping as it is now and the newest version on the storefront.
   */
  async acquireLease(
    integrationId: number,
    pimProductId: number,
    owner: string,
    ttlMs: number,
  ): Promise<(MappingRow & { storefrontVersion: Date | null; inserted: boolean }) | null> {
    const until = sql`now() + ${ttlMs} * interval '1 millisecond'`;
    const [row] = await this.db
      .insert(productMappings)
      .values({ integrationId, pimProductId, syncStatus: 'pending', leaseOwner: owner, leaseUntil: until })
      .onConflictDoUpdate({
        target,
        set: { leaseOwner: owner, leaseUntil: until },
        setWhere: sql`${productMappings.leaseUntil} is null or ${productMappings.leaseUntil} < now() or ${productMappings.leaseOwner} = ${owner}`,
      })
      // xmax is 0 on a row this statement inserted (PostgreSQL's own marker; PGlite is PostgreSQL too).
      .returning({ ...columns, storefrontVersion: productMappings.storefrontVersion, inserted: sql<boolean>`(xmax = 0)` });
    if (row) await this.announce(integrationId, [pimProductId], 'syncing');
    return row ?? null;
  }

  /** Extends a lease still held by `owner`; false when it was lost (expired and taken by another writer). */
  async renewLease(integrationId: number, pimProductId: number, owner: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db
      .update(productMappings)
      .set({ leaseUntil: sql`now() + ${ttlMs} * interval '1 millisecond'` })
      .where(and(eq(productMappings.integrationId, integrationId), eq(productMappings.pimProductId, pimProductId), eq(productMappings.leaseOwner, owner)))
      .returning({ id: productMappings.id });
    return rows.length > 0;
  }

  async releaseLease(integrationId: number, pimProductId: number, owner: string): Promise<void> {
    const [row] = await this.db
      .update(productMappings)
      .set({ leaseOwner: null, leaseUntil: null })
      .where(and(eq(productMappings.integrationId, integrationId), eq(productMappings.pimProductId, pimProductId), eq(productMappings.leaseOwner, owner)))
      .returning({ status: productMappings.syncStatus, error: productMappings.syncError, at: productMappings.lastSyncedAt });
    // Released without a write (nothing to send, or a failure that left the mapping as it was): it is what it says again.
    if (row) await this.announce(integrationId, [pimProductId], row.status as LiveSyncState, { error: row.status === 'error' ? row.error : null, at: row.at });
  }

  /**
   * A bulk batch's claim on the products it is about to send (full-sync.service.ts, `token` names the batch): each mapping
   * is marked with the token and the PIM version sent (`storefront_state.bulkWrite`; any write of another writer
   * replaces the state, and so the mark) and its storefront_version raised to that version, so a writer holding an older
   * snapshot leaves the product alone from now on. A product whose lease another writer holds now, or whose storefront
   * has a newer version already, is not claimed. Returns the PIM ids claimed.
   */
  async claimForBulk(integrationId: number, lines: { pimProductId: number; version: Date | null }[], token: string): Promise<Set<number>> {
    if (lines.length === 0) return new Set();
    const payload = JSON.stringify(lines.map((l) => ({ id: l.pimProductId, version: l.version?.toISOString() ?? null })));
    const rows = rowsOf<{ pim_product_id: number }>(
      await this.db.execute(sql`
        UPDATE product_mappings m SET
          storefront_state = m.storefront_state || jsonb_build_object('bulkWrite', jsonb_build_object('token', ${token}::text, 'version', u.version)),
          storefront_version = greatest(m.storefront_version, u.version::timestamptz)
        FROM jsonb_to_recordset(${payload}::jsonb) AS u(id int, version text)
        WHERE m.integration_id = ${integrationId} AND m.pim_product_id = u.id
          AND (m.lease_until IS NULL OR m.lease_until < now())
          AND (u.version IS NULL OR m.storefront_version IS NULL OR m.storefront_product_id IS NULL OR m.storefront_version <= u.version::timestamptz)
        RETURNING m.pim_product_id`),
    );
    const claimed = rows.map((r) => Number(r.pim_product_id));
    // Being written: the bulk operation carries them now.
    await this.announce(integrationId, claimed, 'syncing');
    return new Set(claimed);
  }

  /**
   * The products of a bulk batch whose mapping is still as the batch's claim left it (claimForBulk: its mark, and no
   * other writer's lease now), with the PIM version each was sent at. Their rows stay locked for the rest of the
   * transaction: a writer taking the lease meanwhile waits for it, and then writes after the batch. The others were
   * written by another writer while the operation ran (or are being written): the batch leaves their mappings alone.
   */
  async bulkClaims(integrationId: number, pimProductIds: number[], token: string): Promise<Map<number, Date | null>> {
    if (pimProductIds.length === 0) return new Map();
    const rows = await this.db
      .select({ pimProductId: productMappings.pimProductId, version: sql<string | null>`${productMappings.storefrontState}->'bulkWrite'->>'version'` })
      .from(productMappings)
      .where(
        and(
          eq(productMappings.integrationId, integrationId),
          inArray(productMappings.pimProductId, pimProductIds),
          sql`${productMappings.storefrontState}->'bulkWrite'->>'token' = ${token}`,
          sql`(${productMappings.leaseUntil} is null or ${productMappings.leaseUntil} < now())`,
        ),
      )
      .for('update');
    return new Map(rows.map((r) => [r.pimProductId, r.version ? new Date(r.version) : null]));
  }

  async saveSynced(integrationId: number, pimProductId: number, m: SyncedMapping): Promise<void> {
    const values = {
      storefrontProductId: m.storefrontProductId,
      storefrontVariantId: m.storefrontVariantId,
      // On the storefront, with the ids kept; `error` when a step after the upsert was refused (the reason).
      syncStatus: m.error ? 'error' : 'synced',
      syncError: m.error ?? null,
      metadata: m.metadata,
      storefrontState: m.state,
      lastSyncedAt: m.at,
      updatedAt: m.at,
      pimUpdatedAt: m.pimUpdatedAt ?? null,
    };
    // The write is done: the writer's lease ends with it (another owner's, should this one have lost it, stays).
    const lease = m.leaseOwner
      ? {
          leaseOwner: sql`case when ${productMappings.leaseOwner} = ${m.leaseOwner} then null else ${productMappings.leaseOwner} end`,
          leaseUntil: sql`case when ${productMappings.leaseOwner} = ${m.leaseOwner} then null else ${productMappings.leaseUntil} end`,
        }
      : {};
    // The storefront now holds this version; an unknown one (a snapshot sent in the push body) keeps the newest known.
    const version = m.storefrontVersion ?? null;
    await this.db
      .insert(productMappings)
      .values({ integrationId, pimProductId, ...values, storefrontVersion: version })
      .onConflictDoUpdate({ target, set: { ...values, ...lease, storefrontVersion: version ?? sql`${productMappings.storefrontVersion}` } });
    await this.announce(integrationId, [pimProductId], m.error ? 'error' : 'synced', { error: m.error, at: m.at });
  }

  /** Every mapping of the integration: PIM product, storefront product, and the adoption that linked it (if one did). */
  async links(
    integrationId: number,
  ): Promise<{ pimProductId: number; storefrontProductId: number | null; adoptionId: string | null; matchedBy: string | null }[]> {
    return this.db
      .select({
        pimProductId: productMappings.pimProductId,
        storefrontProductId: productMappings.storefrontProductId,
        adoptionId: sql<string | null>`${productMappings.metadata}->>'adopted_by'`,
        matchedBy: sql<string | null>`${productMappings.metadata}->>'matched_by'`,
      })
      .from(productMappings)
      .where(eq(productMappings.integrationId, integrationId));
  }

  /**
   * Links storefront products an adoption found to their PIM products, in one statement: `pending` (nothing pushed
   * yet), with the storefront ids the next push updates. A PIM product mapped already is left as it is; one whose
   * mapping never reached the shop (no storefront product: a refused push) takes the link. Returns the PIM ids linked now.
   */
  async insertAdopted(integrationId: number, rows: AdoptedMapping[], at: Date): Promise<number[]> {
    if (rows.length === 0) return [];
    const written = await this.db
      .insert(productMappings)
      .values(
        rows.map((r) => ({
          integrationId,
          pimProductId: r.pimProductId,
          storefrontProductId: r.storefrontProductId,
          storefrontVariantId: r.storefrontVariantId,
          syncStatus: 'pending',
          metadata: r.metadata,
          storefrontState: r.state,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoUpdate({
        target,
        set: {
          storefrontProductId: sql`excluded.storefront_product_id`,
          storefrontVariantId: sql`excluded.storefront_variant_id`,
          syncStatus: 'pending',
          syncError: null,
          metadata: sql`excluded.metadata`,
          storefrontState: sql`excluded.storefront_state`,
          updatedAt: at,
        },
        // Not while a push holds the product's lease: its outcome decides.
        setWhere: sql`${productMappings.storefrontProductId} is null and (${productMappings.leaseUntil} is null or ${productMappings.leaseUntil} < now())`,
      })
      .returning({ pimProductId: productMappings.pimProductId });
    const linked = written.map((w) => w.pimProductId);
    await this.announce(integrationId, linked, 'pending');
    return linked;
  }

  /** `error` with its reason; storefront ids and state already known are kept (the next push updates, never duplicates). */
  async saveError(integrationId: number, pimProductId: number, error: string, at: Date): Promise<void> {
    await this.db
      .insert(productMappings)
      .values({ integrationId, pimProductId, syncStatus: 'error', syncError: error, updatedAt: at })
      .onConflictDoUpdate({ target, set: { syncStatus: 'error', syncError: error, updatedAt: at } });
    await this.announce(integrationId, [pimProductId], 'error', { error });
  }

  /**
   * The storefront product was deleted in the shop (a products/delete webhook): every mapping to it becomes `error`
   * with the reason, its storefront ids and state are cleared (the next push creates the product again, unless the
   * integration's recreate_deleted_products is false) and `metadata.deleted_in_shop` records when and by which
   * delivery. Returns the PIM products it concerned.
   */
  async markDeletedInShop(integrationId: number, storefrontProductId: number, at: Date, webhookId: string): Promise<number[]> {
    const reason = `Deleted in the shop (products/delete webhook, ${at.toISOString()}): the next sync creates it again unless recreate_deleted_products is off`;
    const marker = JSON.stringify({ deleted_in_shop: { at: at.toISOString(), webhook_id: webhookId, storefront_product_id: storefrontProductId } });
    const rows = await this.db
      .update(productMappings)
      .set({
        syncStatus: 'error',
        syncError: reason,
        storefrontProductId: null,
        storefrontVariantId: null,
        storefrontState: {},
        pimUpdatedAt: null,
        storefrontVersion: null,
        metadata: sql`${productMappings.metadata} || ${marker}::jsonb`,
        updatedAt: at,
      })
      .where(and(eq(productMappings.integrationId, integrationId), eq(productMappings.storefrontProductId, storefrontProductId)))
      .returning({ pimProductId: productMappings.pimProductId });
    const marked = rows.map((r) => r.pimProductId);
    await this.announce(integrationId, marked, 'error', { error: reason });
    return marked;
  }

  /** The mapping of a storefront product (webhooks), or null. */
  async findByStorefrontProduct(integrationId: number, storefrontProductId: number): Promise<MappingRow | null> {
    const [row] = await this.db
      .select(columns)
      .from(productMappings)
      .where(and(eq(productMappings.integrationId, integrationId), eq(productMappings.storefrontProductId, storefrontProductId)));
    return row ?? null;
  }
}
