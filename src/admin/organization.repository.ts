import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { organizations } from '../db/tenancy.js';

export interface Organization {
  id: number;
  name: string;
  active: boolean;
}

const columns = { id: organizations.id, name: organizations.name, active: organizations.active };

export class OrganizationRepository {
  constructor(private readonly db: Db) {}

  async create(name: string): Promise<Organization> {
    const [row] = await this.db.insert(organizations).values({ name }).returning(columns);
    return row;
  }

  async find(id: number): Promise<Organization | null> {
    const [row] = await this.db.select(columns).from(organizations).where(eq(organizations.id, id));
    return row ?? null;
  }

  list(): Promise<Organization[]> {
    return this.db.select(columns).from(organizations).orderBy(asc(organizations.id));
  }

  async setActive(id: number, active: boolean): Promise<Organization | null> {
    const [row] = await this.db.update(organizations).set({ active, updatedAt: sql`now()` }).where(eq(organizations.id, id)).returning(columns);
    return row ?? null;
  }

  /**
   * Deletes the organization and, by cascade, every row it owns; what `collect` read in the same transaction just
   * before (the storage keys its media referred to, from the PIM), or null when there is no such organization. The
   * organization's row is locked first and `collect` runs under that lock: media writes lock it too
   * (MediaRepository.lockProduct), so none slips in between what `collect` reads and the delete.
   */
  async delete<T>(id: number, collect: (tx: Db) => Promise<T>): Promise<T | null> {
    return this.db.transaction(async (tx) => {
      const [found] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id)).for('update');
      if (!found) return null;
      const collected = await collect(tx);
      await tx.delete(organizations).where(eq(organizations.id, id));
      return collected;
    });
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    return row.n;
  }
}
