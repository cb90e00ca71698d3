import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations } from '../../db/tenancy.js';

export interface OrganizationSettings {
  id: number;
  name: string;
  default_currency: string | null;
}

const view = { id: organizations.id, name: organizations.name, default_currency: organizations.defaultCurrency };

/** The caller's own organization, as the PIM API shows it (the admin API manages organizations themselves). */
export class OrganizationSettingsRepository {
  constructor(private readonly db: Db) {}

  async get(organizationId: number): Promise<OrganizationSettings> {
    const [row] = await this.db.select(view).from(organizations).where(eq(organizations.id, organizationId));
    return row;
  }

  async setDefaultCurrency(organizationId: number, currency: string | null): Promise<OrganizationSettings> {
    const [row] = await this.db
      .update(organizations)
      .set({ defaultCurrency: currency, updatedAt: new Date() })
      .where(eq(organizations.id, organizationId))
      .returning(view);
    return row;
  }
}
