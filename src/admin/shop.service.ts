// Shops: a storefront where the app is installed, registered for the organization that owns it; only shops listed here
// can connect (SHOP_NOT_FOUND otherwise), and only by their owner (connector/integrations/integration.service.ts).
// A `shopify` shop brings a legacy custom app's Admin API access token, or a Dev Dashboard app's client id and secret
// (the client credentials grant: Pimbridge gets its tokens and renews them itself); both stored sealed with
// ENCRYPTION_KEY. A `sandbox` shop gets a store in the built-in Shopify sandbox, with its own app, whose token and
// credentials are returned once. Deleting a shop uninstalls it: its integration, tokens, mappings and sync logs are
// deleted with it (ON DELETE CASCADE), and a sandbox shop's store. A shop installed through OAuth is registered by the
// install (connector/shop-auth), not here.
import type { SecretBox } from '../lib/secret-box.js';
import { badRequest, notFound } from '../http/errors.js';
import type { SandboxConfigInput, SandboxConfigView } from '../sandbox/sandbox-store.service.js';
import type { ShopRegistryRepository, ShopRow } from '../connector/shop-auth/shop-registry.repository.js';

/** The sandbox's store service (sandbox/sandbox-store.service.ts), as the shop service needs it. */
export interface SandboxStores {
  create(domain: string): Promise<{ accessToken: string; clientId: string; clientSecret: string }>;
  remove(domain: string): Promise<void>;
  find(domain: string): Promise<unknown | null>;
  configure(domain: string, settings: SandboxConfigInput): Promise<SandboxConfigView | null>;
}

/** The sandbox's sales channels (sandbox/sandbox-publication.service.ts), as the shop service needs them. */
export interface SandboxPublications {
  /** null: no such store; 'taken': the store has a publication of that name. */
  addByDomain(domain: string, name: string): Promise<{ id: string; name: string } | 'taken' | null>;
}

export const PLATFORMS = ['shopify', 'sandbox'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface AddShopInput {
  domain: string;
  platform: Platform;
  organization_id: number;
  access_token?: string;
  client_id?: string;
  client_secret?: string;
  api_base_url?: string;
}

export interface UpdateShopInput {
  organization_id?: number;
  access_token?: string;
  client_id?: string;
  client_secret?: string;
}

export interface ShopView {
  id: number;
  domain: string;
  platform: string;
  api_base_url: string | null;
  organization_id: number | null;
  /** access_token, client_credentials or authorization_code. */
  auth_method: string;
  /** ok, or reauthorization_required. */
  auth_status: string;
  token_expires_at: string | null;
  /** How many times Pimbridge renewed the shop's token (an expiring one). */
  token_renewals: number;
  created_at: string;
}

/** A token grant as the storefront's OAuth gives it (storefront/port/authorization.ts AccessGrant). */
export interface Grant {
  accessToken: string;
  scopes: string[];
  expiresAt: Date | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
}

/** The client credentials grant (storefront/shopify/shopify-oauth.ts); throws an error with `kind` refused or unavailable. */
export interface ClientCredentialsGrant {
  clientCredentials(shop: { domain: string; apiBaseUrl: string | null }, app: { clientId: string; clientSecret: string }): Promise<Grant>;
}

/** A conflict (the admin API's plain 409), carried as Fastify-style statusCode so the admin error handler keeps it. */
const conflict = (message: string) => Object.assign(new Error(message), { statusCode: 409 });
const unavailable = (message: string) => Object.assign(new Error(message), { statusCode: 503 });

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Lower-cased host name with at least two labels (e.g. acme.myshopify.com); 400 otherwise. */
export function normaliseShopDomain(raw: string): string {
  const domain = raw.trim().toLowerCase().replace(/\.$/, '');
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => HOST_LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) {
    throw badRequest(`field 'domain' must be a host name such as acme.myshopify.com, got "${raw}"`);
  }
  return domain;
}

function normaliseApiBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest("field 'api_base_url' must be an absolute http(s) URL");
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest("field 'api_base_url' must use http or https");
  if (url.username || url.password || url.search || url.hash) throw badRequest("field 'api_base_url' must not carry credentials, a query or a fragment");
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

const view = (row: ShopRow): ShopView => ({
  id: row.id,
  domain: row.domain,
  platform: row.platform,
  api_base_url: row.apiBaseUrl,
  organization_id: row.organizationId,
  auth_method: row.authMethod,
  auth_status: row.authStatus,
  token_expires_at: row.accessTokenExpiresAt?.toISOString() ?? null,
  token_renewals: row.tokenRenewals,
  created_at: row.createdAt.toISOString(),
});

export interface ShopServiceDeps {
  shops: ShopRegistryRepository;
  /** Whether an organization exists (a shop is registered for one). */
  organizations: { find(id: number): Promise<unknown> };
  box: SecretBox;
  grants: ClientCredentialsGrant;
  /** Absent when the sandbox is not wired in: platform `sandbox` is then refused. */
  sandbox: SandboxStores | null;
  /** The sandbox's publications (POST /admin/shops/{id}/sandbox/publications); absent: that route answers 400. */
  sandboxPublications?: SandboxPublications | null;
}

export class ShopService {
  private readonly shops: ShopRegistryRepository;
  private readonly box: SecretBox;
  private readonly sandbox: SandboxStores | null;
  private readonly sandboxPublications: SandboxPublications | null;

  constructor(
    private readonly deps: ShopServiceDeps,
    private readonly options: { publicUrl: string; sandboxEnabled: boolean },
  ) {
    ({ shops: this.shops, box: this.box, sandbox: this.sandbox } = deps);
    this.sandboxPublications = deps.sandboxPublications ?? null;
  }

  async add(input: AddShopInput): Promise<ShopView & { access_token?: string; client_id?: string; client_secret?: string }> {
    const domain = normaliseShopDomain(input.domain);
    await this.requireOrganization(input.organization_id);
    if (input.platform === 'shopify') {
      const apiBaseUrl = input.api_base_url === undefined ? null : normaliseApiBaseUrl(input.api_base_url);
      if (await this.shops.findByDomain(domain)) throw conflict(`Shop ${domain} already exists`);
      const access = await this.access(input, { domain, apiBaseUrl });
      if (!access)
        throw badRequest("platform shopify needs either 'access_token' (a legacy custom app) or 'client_id' and 'client_secret' (a Dev Dashboard app)");
      const row = await this.shops.create({ domain, platform: 'shopify', apiBaseUrl, organizationId: input.organization_id, ...access });
      if (!row) throw conflict(`Shop ${domain} already exists`);
      return view(row);
    }
    if (input.access_token !== undefined || input.api_base_url !== undefined || input.client_id !== undefined || input.client_secret !== undefined) {
      throw badRequest(
        "fields 'access_token', 'client_id', 'client_secret' and 'api_base_url' are not allowed for platform sandbox: the sandbox makes its own",
      );
    }
    if (!this.options.sandboxEnabled) throw badRequest('platform sandbox is not available: the Shopify sandbox is off (SHOPIFY_SANDBOX=false)');
    if (!this.sandbox) throw badRequest('platform sandbox is not available in this build');
    if (await this.shops.findByDomain(domain)) throw conflict(`Shop ${domain} already exists`);
    const store = await this.sandbox.create(domain);
    let row: ShopRow | null;
    try {
      row = await this.shops.create({
        domain,
        platform: 'sandbox',
        apiBaseUrl: `${this.options.publicUrl}/sandbox/shopify/${domain}`,
        organizationId: input.organization_id,
        ...staticAccess(this.box.seal(store.accessToken)),
        // The store's own app: its secret verifies the store's webhooks, and PATCH can switch to its client credentials.
        clientId: store.clientId,
        clientSecretEncrypted: this.box.seal(store.clientSecret),
      });
    } catch (err) {
      await this.sandbox.remove(domain).catch(() => {});
      throw err;
    }
    if (!row) {
      // Another request added the domain between the check and the insert; this store is not its.
      throw conflict(`Shop ${domain} already exists`);
    }
    return { ...view(row), access_token: store.accessToken, client_id: store.clientId, client_secret: store.clientSecret };
  }

  /** PATCH /admin/shops/{id}: a new owner, a new legacy token, or new app credentials (client credentials grant). */
  async update(id: number, input: UpdateShopInput): Promise<ShopView> {
    const row = await this.shops.find(id);
    if (!row) throw notFound(`Shop ${id} not found`);
    if (input.organization_id !== undefined) await this.requireOrganization(input.organization_id);
    const access = await this.access(input, { domain: row.domain, apiBaseUrl: row.apiBaseUrl });
    if (!access && input.organization_id === undefined) throw badRequest("send 'organization_id', 'access_token', or 'client_id' and 'client_secret'");
    const updated = await this.shops.update(id, { organizationId: input.organization_id, access: access ?? undefined });
    if (!updated) throw notFound(`Shop ${id} not found`);
    return view(updated);
  }

  /** The access a body describes: a static token, or client credentials exchanged for a token now (they must work). */
  private async access(input: Pick<AddShopInput, 'access_token' | 'client_id' | 'client_secret'>, shop: { domain: string; apiBaseUrl: string | null }) {
    const hasCredentials = input.client_id !== undefined || input.client_secret !== undefined;
    if (input.access_token !== undefined && hasCredentials) throw badRequest("send either 'access_token' or 'client_id' and 'client_secret', not both");
    if (input.access_token !== undefined) return staticAccess(this.box.seal(input.access_token));
    if (!hasCredentials) return null;
    if (!input.client_id || !input.client_secret) throw badRequest("fields 'client_id' and 'client_secret' go together");
    const app = { clientId: input.client_id, clientSecret: input.client_secret };
    let grant: Grant;
    try {
      grant = await this.deps.grants.clientCredentials(shop, app);
    } catch (err) {
      const kind = (err as { kind?: unknown }).kind;
      if (kind === 'refused') throw badRequest(`The shop refused the client credentials: ${(err as Error).message}`);
      if (kind === 'unavailable') throw unavailable(`The shop's token endpoint could not be reached: ${(err as Error).message}`);
      throw err;
    }
    return {
      authMethod: 'client_credentials' as const,
      clientId: app.clientId,
      clientSecretEncrypted: this.box.seal(app.clientSecret),
      accessTokenEncrypted: this.box.seal(grant.accessToken),
      accessTokenExpiresAt: grant.expiresAt,
      refreshTokenEncrypted: null,
      refreshTokenExpiresAt: null,
      grantedScopes: grant.scopes.length > 0 ? grant.scopes : null,
    };
  }

  private async requireOrganization(id: number): Promise<void> {
    if (!(await this.deps.organizations.find(id))) throw badRequest(`Organization ${id} not found: a shop is registered for an existing organization`);
  }

  /**
   * A sandbox store alone, not registered as a shop (POST /admin/sandbox/stores): a store "made today" that a merchant
   * then connects the way they would a real one (install, client credentials, or its legacy token).
   */
  async createSandboxStore(
    rawDomain: string,
  ): Promise<{ domain: string; api_base_url: string; access_token: string; client_id: string; client_secret: string }> {
    const domain = normaliseShopDomain(rawDomain);
    const sandbox = this.requireSandbox();
    if ((await sandbox.find(domain)) || (await this.shops.findByDomain(domain))) throw conflict(`Shop ${domain} already exists`);
    const store = await sandbox.create(domain);
    return {
      domain,
      api_base_url: `${this.options.publicUrl}/sandbox/shopify/${domain}`,
      access_token: store.accessToken,
      client_id: store.clientId,
      client_secret: store.clientSecret,
    };
  }

  /** A sandbox store's settings by domain (PATCH /admin/sandbox/stores/{domain}), registered as a shop or not. */
  async configureSandboxStore(rawDomain: string, settings: SandboxConfigInput): Promise<SandboxConfigView> {
    const view = await this.requireSandbox().configure(normaliseShopDomain(rawDomain), settings);
    if (!view) throw notFound(`Sandbox store ${rawDomain} not found`);
    return view;
  }

  private requireSandbox(): SandboxStores {
    if (!this.options.sandboxEnabled || !this.sandbox) throw badRequest('the Shopify sandbox is off (SHOPIFY_SANDBOX=false)');
    return this.sandbox;
  }

  /** Whether platform `sandbox` can be added (the sandbox is on and wired in). */
  get sandboxAvailable(): boolean {
    return this.options.sandboxEnabled && this.sandbox !== null;
  }

  async list(): Promise<ShopView[]> {
    return (await this.shops.list()).map(view);
  }

  /** A sandbox shop's throttle and fault settings (PATCH /admin/shops/{id}/sandbox). */
  async configureSandbox(id: number, settings: SandboxConfigInput): Promise<SandboxConfigView & { id: number }> {
    const row = await this.shops.find(id);
    if (!row) throw notFound(`Shop ${id} not found`);
    if (row.platform !== 'sandbox' || !this.sandbox) throw badRequest(`Shop ${id} is not a sandbox shop`);
    const view = await this.sandbox.configure(row.domain, settings);
    if (!view) throw notFound(`Shop ${id} has no sandbox store`);
    return { id, ...view };
  }

  /** Adds a publication (sales channel) to a sandbox shop's store, beside Online Store, Point of Sale and Shop. */
  async addSandboxPublication(id: number, name: string): Promise<{ id: string; name: string }> {
    const row = await this.shops.find(id);
    if (!row) throw notFound(`Shop ${id} not found`);
    if (row.platform !== 'sandbox' || !this.sandboxPublications) throw badRequest(`Shop ${id} is not a sandbox shop`);
    if (name.trim() === '') throw badRequest("field 'name' must not be blank");
    const added = await this.sandboxPublications.addByDomain(row.domain, name);
    if (!added) throw notFound(`Shop ${id} has no sandbox store`);
    if (added === 'taken') throw conflict(`Shop ${id} already has a publication named ${name.trim()}`);
    return added;
  }

  async remove(id: number): Promise<void> {
    const row = await this.shops.delete(id);
    if (!row) throw notFound(`Shop ${id} not found`);
    if (row.platform === 'sandbox' && this.sandbox) await this.sandbox.remove(row.domain);
  }
}

/** A legacy custom app's token: it does not expire, nothing to renew it with. */
function staticAccess(accessTokenEncrypted: string) {
  return {
    authMethod: 'access_token' as const,
    clientId: null,
    clientSecretEncrypted: null,
    accessTokenEncrypted,
    accessTokenExpiresAt: null,
    refreshTokenEncrypted: null,
    refreshTokenExpiresAt: null,
    grantedScopes: null,
  };
}
