// "Organization N's catalogue changed": told to every process after each write the PIM API answered successfully (its
// transaction committed by then), so that whoever follows the catalogue (the connector's delta sync, through the app)
// can read it now instead of at its next poll. Only the organization is said, never what changed: the reader asks the
// PIM API as it always does. A lost notification costs only time (the poll comes anyway).
import type { Db } from '../../db/client.js';
import { type Notifications, notify } from '../../db/notifications.js';

export const CATALOGUE_CHANGES_CHANNEL = 'pim_catalogue_changes';

export class CatalogueChanges {
  constructor(
    private readonly db: Db,
    private readonly notifications: Pick<Notifications, 'listen'>,
  ) {}

  async raise(organizationId: number): Promise<void> {
    await notify(this.db, CATALOGUE_CHANGES_CHANNEL, String(organizationId));
  }

  /** Calls `handler` with the organization of every change from now on, made by any process. */
  subscribe(handler: (organizationId: number) => void): Promise<() => Promise<void>> {
    return this.notifications.listen(CATALOGUE_CHANGES_CHANNEL, (payload) => {
      const id = Number(payload);
      if (Number.isSafeInteger(id) && id > 0) handler(id);
    });
  }
}
