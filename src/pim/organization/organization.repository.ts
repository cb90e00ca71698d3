import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations } from '../../db/tenancy.js';

export interface OrganizationSettings {
  id: number;
  name: string;
  default_currency: string | null;
  languages: string[];
}

export interface OrganizationChange {
  default_currency?: string | null;
  languages?: string[];
}

const view = {
  id: organizations.id,
  name: organizations.name,
  default_currency: organizations.defaultCurrency,
  languages: organizations.languages,
};

/** The caller's own organization, as the PIM API shows it (the admin API manages organizations themselves). */
export class OrganizationSettingsRepository {
  constructor(private readonly db: Db) {}

  async get(organizationId: number): Promise<OrganizationSettings> {
    const [row] = await this.db.select(view).from(organizations).where(eq(organizations.id, organizationId));
    return row;
  }

  /** Sets the fields given (the default currency, the catalogue's languages); the others stay. */
  async update(organizationId: number, change: OrganizationChange): Promise<OrganizationSettings> {
    const set: Partial<typeof organizations.$inferInsert> = { updatedAt: new Date() };
    if (change.default_currency !== undefined) set.defaultCurrency = change.default_currency;
    if (change.languages !== undefined) set.languages = change.languages;
    const [row] = await this.db.update(organizations).set(set).where(eq(organizations.id, organizationId)).returning(view);
    return row;
  }
}
