// The console's way into the connector: a signed-in organization (its session, checked on the root) may act on the
// integrations that use its PIM account, naming one in X-Integration-Id. It acts as the integration's admin would:
// the merchant owns both ends. Machine clients keep their bearer tokens; a request with one never comes here.
import type { ConsoleSession } from '../../http/console-session.js';
import { ConnectorError } from '../connector.errors.js';
import type { ConnectorPrincipal } from '../connector.types.js';
import type { AccessView } from '../shop-auth/shop-access.service.js';
import type { IntegrationService } from '../integrations/integration.service.js';

export class ConsoleAccess {
  constructor(
    private readonly integrations: IntegrationService,
    /** How each integration's shop is connected (connector/shop-auth), shown beside it. */
    private readonly accessOf: (integrationId: number) => Promise<AccessView | null> = async () => null,
  ) {}

  async authenticate(session: ConsoleSession, integrationHeader: string | string[] | undefined): Promise<ConnectorPrincipal> {
    const id = typeof integrationHeader === 'string' && /^[1-9]\d{0,9}$/.test(integrationHeader) ? Number(integrationHeader) : null;
    if (id === null || id > 2_147_483_647) {
      throw new ConnectorError('AUTHENTICATION_FAILED', 'Name the integration in X-Integration-Id (a console session acts on one integration at a time)', 401);
    }
    const access = await this.integrations.accountAccess(id, session.accountKeyHashes);
    // Another account's integration is indistinguishable from one that does not exist; the session itself is fine.
    if (access === 'none') throw new ConnectorError('NOT_FOUND', `Integration ${id} not found among this organization's integrations`);
    if (access === 'inactive') throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token: the integration is disconnected', 401);
    return { integrationId: id, tokenId: 0, scope: 'admin' };
  }

  async list(session: ConsoleSession) {
    const rows = await this.integrations.listForAccount(session.accountKeyHashes);
    return Promise.all(rows.map(async (row) => ({ ...row, access: await this.accessOf(row.id) })));
  }
}
