import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { organizations } from '../db/schema/index.js';

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
    const [row] = await this.db
      .update(organizations)
      .set({ active, updatedAt: sql`now()` })
      .where(eq(organizations.id, id))
      .returning(columns);
    return row ?? null;
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    return row.n;
  }
}
