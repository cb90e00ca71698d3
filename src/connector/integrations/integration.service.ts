// Integrations (a shop linked to a PIM account) and their tokens: connect, update, disconnect, mint/list/revoke.
// Credentials are checked live against the PIM before anything is stored; PIM credentials are sealed with
// ENCRYPTION_KEY (SecretBox), tokens stored as SHA-256 hashes. Every multi-row write is one transaction.
import type { Db } from '../../db/client.js';
import { randomCredential, sha256Hex } from '../../lib/crypto.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { TokenRepository } from '../auth/token.repository.js';
import { ConnectorError } from '../connector.errors.js';
import type { Scope } from '../connector.types.js';
import { normalisePimBaseUrl, PimUrlError, type PimClient } from '../pim/pim-client.js';
import { ymdHis } from '../timestamps.js';
import type { IntegrationRepository, SealedConnection } from './integration.repository.js';

/** Readable prefix of connector tokens ("Pimbridge token"), then 256 random bits. */
export const TOKEN_PREFIX = 'pbt_';

export interface ConnectInput {
  shop_domain: string;
  pim_base_url: string;
  pim_api_key: string;
  pim_api_secret: string;
}

export type UpdateInput = Partial<Pick<ConnectInput, 'pim_base_url' | 'pim_api_key' | 'pim_api_secret'>>;

export interface IntegrationServiceDeps {
  db: Db;
  integrations: IntegrationRepository;
  tokens: TokenRepository;
  /** Checks the credentials against the PIM before anything is stored. */
  pim: PimClient;
  /** Seals the PIM credentials (ENCRYPTION_KEY). */
  box: SecretBox;
  /** Run after a successful connect (the shop's webhook subscriptions); must not throw. */
  afterConnect?: (integrationId: number) => Promise<void>;
  /**
   * The organization a PIM key and secret belong to when they are this server's (the PIM's own check, in process), else
   * null: who is asking to connect, whatever PIM address they give.
   */
  accounts: { organizationOf(apiKey: string, apiSecret: string): Promise<number | null> };
  /** The shop's storefront side with its token source (connector/shop-auth). */
  shops: {
    forIntegration(integrationId: number): Promise<StorefrontShop | null>;
    sessionTokenValid(domain: string, token: string): Promise<boolean>;
  };
}

/**
 * How a connect proves it is the shop's owner's (docs/connect-a-store.md, "Who may connect a shop"): `credentials`,
 * the owner organization's own PIM key and secret; `session_token`, a Shopify session token of the app's embedded page
 * (`Authorization: Bearer <JWT>` on POST /api/connect), checked here; `shop`, control of the shop itself that the caller
 * has checked (the install that just completed, the store's own credentials).
 */
export type ConnectProof = { kind: 'credentials' } | { kind: 'session_token'; token: string } | { kind: 'shop'; organizationId: number };

export class IntegrationService {
  private readonly db: Db;
  private readonly integrations: IntegrationRepository;
  private readonly tokens: TokenRepository;
  private readonly pim: PimClient;
  private readonly box: SecretBox;
  private readonly afterConnect?: (integrationId: number) => Promise<void>;
  private readonly accounts: IntegrationServiceDeps['accounts'];
  private readonly shops: IntegrationServiceDeps['shops'];

  constructor(deps: IntegrationServiceDeps) {
    ({ db: this.db, integrations: this.integrations, tokens: this.tokens, pim: this.pim, box: this.box, afterConnect: this.afterConnect } = deps);
    this.accounts = deps.accounts;
    this.shops = deps.shops;
  }

  /**
   * Links the shop to the PIM account. Only its owner may: with the owner organization's own PIM credentials, or with
   * proof of control of the shop. Anyone else gets the answer of a shop that does not exist (SHOP_NOT_FOUND), never the
   * owner's integration, whether it is active or not.
   */
  async connect(input: ConnectInput, proof: ConnectProof = { kind: 'credentials' }) {
    const pimBaseUrl = this.baseUrl(input.pim_base_url, 400);
    const domain = input.shop_domain.trim().toLowerCase();
    const shop = await this.integrations.findShopByDomain(domain);
    const notFound = () => new ConnectorError('SHOP_NOT_FOUND', `Shop ${domain || '(empty)'} not found: install the app on the shop first`);
    if (!shop || shop.organizationId === null) throw notFound();
    if (!(await this.proves(proof, shop, input))) throw notFound();
    const existing = await this.integrations.findByShop(shop.id);
    if (existing?.isActive) throw integrationExists(domain);
    await this.verify(pimBaseUrl, input.pim_api_key, input.pim_api_secret, 'connect');

    const connection = this.seal(pimBaseUrl, input.pim_api_key, input.pim_api_secret);
    const apiToken = randomCredential(TOKEN_PREFIX);
    const result = await this.db.transaction(async (tx) => {
      const integrations = this.integrations.with(tx);
      const row = existing ? await integrations.reactivate(existing.id, connection) : await integrations.insert(shop.id, connection);
      // Another connect won the race between the check above and this write.
      if (!row) return null;
      await this.tokens.with(tx).create({ integrationId: row.id, tokenHash: sha256Hex(apiToken), scope: 'admin', name: 'connect' });
      return row;
    });
    if (!result) throw integrationExists(domain);
    await this.afterConnect?.(result.id);
    return { integration_id: result.id, shop_domain: shop.domain, api_token: apiToken, created_at: ymdHis(result.createdAt)! };
  }

  private async proves(proof: ConnectProof, shop: { domain: string; organizationId: number | null }, input: ConnectInput): Promise<boolean> {
    if (proof.kind === 'shop') return proof.organizationId === shop.organizationId;
    const caller = await this.accounts.organizationOf(input.pim_api_key, input.pim_api_secret);
    // A session token proves control of the shop for a PIM elsewhere; this server's keys must still be the owner's (or
    // another organization would reactivate the owner's integration, its mappings and its logs).
    if (proof.kind === 'session_token') return (caller === null || caller === shop.organizationId) && this.shops.sessionTokenValid(shop.domain, proof.token);
    return caller === shop.organizationId;
  }

  async update(integrationId: number, input: UpdateInput) {
    const given = (['pim_base_url', 'pim_api_key', 'pim_api_secret'] as const).filter((f) => input[f] !== undefined);
    if (given.length === 0) {
      throw new ConnectorError('NO_UPDATES', 'Nothing to update: send at least one of pim_base_url, pim_api_key, pim_api_secret');
    }
    const current = await this.integrations.find(integrationId);
    if (!current) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
    const merged = {
      baseUrl: input.pim_base_url !== undefined ? this.baseUrl(input.pim_base_url, 400) : current.pimBaseUrl,
      key: input.pim_api_key ?? this.box.open(current.pimApiKeyEncrypted),
      secret: input.pim_api_secret ?? this.box.open(current.pimApiSecretEncrypted),
    };
    // The credentials are checked again whenever any of the three is sent: the merged set must work together.
    await this.verify(merged.baseUrl, merged.key, merged.secret, 'update');
    const updatedAt = await this.integrations.updateConnection(integrationId, this.seal(merged.baseUrl, merged.key, merged.secret));
    return { integration_id: integrationId, updated_at: ymdHis(updatedAt)! };
  }

  async disconnect(integrationId: number) {
    const disconnectedAt = await this.db.transaction(async (tx) => {
      const at = await this.integrations.with(tx).deactivate(integrationId);
      await this.tokens.with(tx).revokeAll(integrationId);
      return at;
    });
    // Only an active integration's token authenticates, so a null here means a concurrent disconnect already ran.
    return { integration_id: integrationId, status: 'inactive' as const, disconnected_at: ymdHis(disconnectedAt ?? new Date())! };
  }

  async mintToken(integrationId: number, scope: Scope, name: string | null) {
    const apiToken = randomCredential(TOKEN_PREFIX);
    const row = await this.tokens.create({ integrationId, tokenHash: sha256Hex(apiToken), scope, name });
    return { id: row.id, api_token: apiToken, scope, name, created_at: ymdHis(row.createdAt)! };
  }

  async listTokens(integrationId: number) {
    const rows = await this.tokens.listLive(integrationId);
    return {
      tokens: rows.map((t) => ({ id: t.id, scope: t.scope, name: t.name, created_at: ymdHis(t.createdAt)!, last_used_at: ymdHis(t.lastUsedAt) })),
    };
  }

  async revokeToken(integrationId: number, tokenId: number) {
    const revokedAt = await this.tokens.revoke(integrationId, tokenId);
    // Another integration's token is indistinguishable from a missing one.
    if (!revokedAt) throw new ConnectorError('NOT_FOUND', `Token ${tokenId} not found`);
    return { id: tokenId, revoked_at: ymdHis(revokedAt)! };
  }

  /** The storefront side of an integration with its access token decrypted (for StorefrontPort calls); null if unknown. */
  storefrontShopOf(integrationId: number): Promise<StorefrontShop | null> {
    return this.shops.forIntegration(integrationId);
  }

  /** The integration's PIM connection with its credentials decrypted (for calls to the PIM); null if unknown. */
  async pimConnectionOf(integrationId: number): Promise<{ baseUrl: string; apiKey: string; apiSecret: string; isActive: boolean } | null> {
    const row = await this.integrations.find(integrationId);
    return row
      ? { baseUrl: row.pimBaseUrl, apiKey: this.box.open(row.pimApiKeyEncrypted), apiSecret: this.box.open(row.pimApiSecretEncrypted), isActive: row.isActive }
      : null;
  }

  private baseUrl(raw: string, status: number): string {
    try {
      return normalisePimBaseUrl(raw);
    } catch (err) {
      if (err instanceof PimUrlError) throw new ConnectorError('VALIDATION_FAILED', err.message, status);
      throw err;
    }
  }

  /** The integrations of one PIM account (its keys' hashes), for the console. */
  async listForAccount(keyHashes: string[]) {
    const rows = await this.integrations.listForPimKeys(keyHashes);
    return rows.map((r) => ({
      id: r.id,
      shop_domain: r.shopDomain,
      platform: r.platform,
      is_active: r.isActive,
      last_sync_at: ymdHis(r.lastSyncAt),
      created_at: ymdHis(r.createdAt)!,
    }));
  }

  /** Whether the integration uses one of these PIM keys, and is active: a console session's access to it. */
  async accountAccess(integrationId: number, keyHashes: string[]): Promise<'ok' | 'inactive' | 'none'> {
    const row = (await this.integrations.listForPimKeys(keyHashes)).find((r) => r.id === integrationId);
    if (!row) return 'none';
    return row.isActive ? 'ok' : 'inactive';
  }

  /** Hashes the PIM key of rows made before pim_key_hash existed (at start; nothing to do after the first). */
  async fillPimKeyHashes(): Promise<number> {
    const rows = await this.integrations.withoutPimKeyHash();
    for (const row of rows) await this.integrations.setPimKeyHash(row.id, sha256Hex(this.box.open(row.pimApiKeyEncrypted)));
    return rows.length;
  }

  /**
   * The live check. Wrong pair → INVALID_CREDENTIALS (401). PIM unreachable, or its address refused by the address rule
   * (private and link-local ranges unless CONNECTOR_ALLOW_PRIVATE_NETWORKS; PUBLIC_URL's origin always allowed): the
   * spec's answer to a PIM that could not be reached, CONNECTION_FAILED (503) on connect, VALIDATION_FAILED (503) on
   * update. A refused address's message names the rule, never what (if anything) answers there.
   */
  private async verify(baseUrl: string, key: string, secret: string, route: 'connect' | 'update'): Promise<void> {
    const result = await this.pim.verifyCredentials(baseUrl, key, secret);
    if (result.ok) return;
    if (result.reason === 'invalid_credentials')
      throw new ConnectorError('INVALID_CREDENTIALS', 'Invalid PIM credentials: the PIM refused the API key or secret');
    if (route === 'connect') throw new ConnectorError('CONNECTION_FAILED', result.message);
    const why = result.reason === 'refused' ? result.message : `The PIM credentials could not be validated: ${result.message}`;
    throw new ConnectorError('VALIDATION_FAILED', why, 503);
  }

  private seal(baseUrl: string, key: string, secret: string): SealedConnection {
    return { pimBaseUrl: baseUrl, pimApiKeyEncrypted: this.box.seal(key), pimApiSecretEncrypted: this.box.seal(secret), pimKeyHash: sha256Hex(key) };
  }
}

const integrationExists = (domain: string) => new ConnectorError('INTEGRATION_EXISTS', `Shop ${domain} already has an active integration: disconnect it first`);
