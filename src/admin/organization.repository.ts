import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { organizations, productMedia } from '../db/schema/index.js';

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
   * Deletes the organization and, by cascade, every row it owns; the storage keys its media referred to (for the
   * caller to remove the files no one else uses), or null when there is no such organization. The organization's row is
   * locked first: media writes lock it too (MediaRepository.lockProduct), so none slips in between the keys and the delete.
   */
  async delete(id: number): Promise<string[] | null> {
    return this.db.transaction(async (tx) => {
      const [found] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id)).for('update');
      if (!found) return null;
      const keys = await tx.selectDistinct({ key: productMedia.storageKey }).from(productMedia).where(eq(productMedia.organizationId, id));
      await tx.delete(organizations).where(eq(organizations.id, id));
      return keys.map((k) => k.key);
    });
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    return row.n;
  }
}
