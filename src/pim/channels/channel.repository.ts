import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations } from '../../db/tenancy.js';
import { channels } from '../pim.tables.js';
import type { PublishingChannel } from '../pim.schemas.js';

export interface ChannelRow {
  value: PublishingChannel;
  label: string;
  description: string;
}

export class ChannelRepository {
  constructor(private readonly db: Db) {}

  list(organizationId: number): Promise<ChannelRow[]> {
    // Only replace() writes the table, with values the route's Channel schema took.
    return this.db
      .select({ value: channels.value, label: channels.label, description: channels.description })
      .from(channels)
      .where(eq(channels.organizationId, organizationId))
      .orderBy(asc(channels.position)) as Promise<ChannelRow[]>;
  }

  /** Replaces the organization's configured channels in one transaction. */
  async replace(organizationId: number, rows: ChannelRow[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Concurrent replacements of one organization's list wait for each other (else both insert: duplicate key).
      await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for('no key update');
      await tx.delete(channels).where(eq(channels.organizationId, organizationId));
      if (rows.length > 0) {
        await tx.insert(channels).values(rows.map((row, position) => ({ ...row, organizationId, position })));
      }
    });
  }
}
