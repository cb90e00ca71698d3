// Shops: a storefront where the app is installed; only shops listed here can connect (SHOP_NOT_FOUND otherwise).
// A `shopify` shop brings its Admin API access token (stored sealed with ENCRYPTION_KEY); a `sandbox` shop gets a store
// in the built-in Shopify sandbox, whose token is returned once and stored sealed too. Deleting a shop uninstalls it:
// its integration, tokens, mappings and sync logs are deleted with it (ON DELETE CASCADE), and a sandbox shop's store.
import type { SecretBox } from '../lib/secret-box.js';
import { badRequest, notFound } from '../server/kernel/errors.js';
import type { SandboxConfigInput, SandboxConfigView } from '../storefront/sandbox/sandbox-store.service.js';
import type { ShopRepository, ShopRow } from './shop.repository.js';

/** The sandbox's store service (storefront/sandbox/sandbox-store.service.ts), as the shop service needs it. */
export interface SandboxStores {
  create(domain: string): Promise<{ accessToken: string }>;
  remove(domain: string): Promise<void>;
  configure(domain: string, settings: SandboxConfigInput): Promise<SandboxConfigView | null>;
}

/** The sandbox's sales channels (storefront/sandbox/sandbox-publication.service.ts), as the shop service needs them. */
export interface SandboxPublications {
  /** null: no such store; 'taken': the store has a publication of that name. */
  addByDomain(domain: string, name: string): Promise<{ id: string; name: string } | 'taken' | null>;
}

export const PLATFORMS = ['shopify', 'sandbox'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface AddShopInput {
  domain: string;
  platform: Platform;
  access_token?: string;
  api_base_url?: string;
}

export interface ShopView {
  id: number;
  domain: string;
  platform: string;
  api_base_url: string | null;
  created_at: string;
}

/** A conflict (the admin API's plain 409), carried as Fastify-style statusCode so the admin error handler keeps it. */
const conflict = (message: string) => Object.assign(new Error(message), { statusCode: 409 });

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
  created_at: row.createdAt.toISOString(),
});

export interface ShopServiceDeps {
  shops: ShopRepository;
  box: SecretBox;
  /** Absent when the sandbox is not wired in: platform `sandbox` is then refused. */
  sandbox: SandboxStores | null;
  /** The sandbox's publications (POST /admin/shops/{id}/sandbox/publications); absent: that route answers 400. */
  sandboxPublications?: SandboxPublications | null;
}

export class ShopService {
  private readonly shops: ShopRepository;
  private readonly box: SecretBox;
  private readonly sandbox: SandboxStores | null;
  private readonly sandboxPublications: SandboxPublications | null;

  constructor(
    deps: ShopServiceDeps,
    private readonly options: { publicUrl: string; sandboxEnabled: boolean },
  ) {
    ({ shops: this.shops, box: this.box, sandbox: this.sandbox } = deps);
    this.sandboxPublications = deps.sandboxPublications ?? null;
  }

  async add(input: AddShopInput): Promise<ShopView & { access_token?: string }> {
    const domain = normaliseShopDomain(input.domain);
    if (input.platform === 'shopify') {
      if (input.access_token === undefined) throw badRequest("field 'access_token' is required for platform shopify");
      const apiBaseUrl = input.api_base_url === undefined ? null : normaliseApiBaseUrl(input.api_base_url);
      const row = await this.shops.create({ domain, platform: 'shopify', apiBaseUrl, accessTokenEncrypted: this.box.seal(input.access_token) });
      if (!row) throw conflict(`Shop ${domain} already exists`);
      return view(row);
    }
    if (input.access_token !== undefined || input.api_base_url !== undefined) {
      throw badRequest("fields 'access_token' and 'api_base_url' are not allowed for platform sandbox: the sandbox makes its own");
    }
    if (!this.options.sandboxEnabled) throw badRequest('platform sandbox is not available: the Shopify sandbox is off (SHOPIFY_SANDBOX=false)');
    if (!this.sandbox) throw badRequest('platform sandbox is not available in this build');
    if (await this.shops.findByDomain(domain)) throw conflict(`Shop ${domain} already exists`);
    const { accessToken } = await this.sandbox.create(domain);
    let row: ShopRow | null;
    try {
      row = await this.shops.create({
        domain,
        platform: 'sandbox',
        apiBaseUrl: `${this.options.publicUrl}/sandbox/shopify/${domain}`,
        accessTokenEncrypted: this.box.seal(accessToken),
      });
    } catch (err) {
      await this.sandbox.remove(domain).catch(() => {});
      throw err;
    }
    if (!row) {
      // Another request added the domain between the check and the insert; this store is not its.
      throw conflict(`Shop ${domain} already exists`);
    }
    return { ...view(row), access_token: accessToken };
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
    const row = (await this.shops.list()).find((s) => s.id === id);
    if (!row) throw notFound(`Shop ${id} not found`);
    if (row.platform !== 'sandbox' || !this.sandbox) throw badRequest(`Shop ${id} is not a sandbox shop`);
    const view = await this.sandbox.configure(row.domain, settings);
    if (!view) throw notFound(`Shop ${id} has no sandbox store`);
    return { id, ...view };
  }

  /** Adds a publication (sales channel) to a sandbox shop's store, beside Online Store, Point of Sale and Shop. */
  async addSandboxPublication(id: number, name: string): Promise<{ id: string; name: string }> {
    const row = (await this.shops.list()).find((s) => s.id === id);
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
