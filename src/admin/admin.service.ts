// Operator actions: organizations and their PIM API keys.
import { randomCredential, sha256Hex } from '../lib/crypto.js';
import type { Db } from '../db/client.js';
import { notFound } from '../http/errors.js';
import type { ApiKeyRepository } from './api-key.repository.js';
import type { Organization, OrganizationRepository } from './organization.repository.js';

export interface IssuedApiKey {
  id: number;
  api_key: string;
  api_secret: string;
}

/** What revoking a key or deactivating an organization needs of the PIM's credential cache (pim/auth/credential-cache.ts). */
export interface CredentialInvalidation {
  invalidateKey(keyHash: string): void;
  invalidateOrganization(organizationId: number): void;
}

/**
 * What deleting an organization needs of the PIM's media (pim/media/media.service.ts): the storage keys of the
 * organization's media, read in the deleting transaction (`tx`), and then removing the files no one refers to any more.
 */
export interface MediaFiles {
  storageKeysOf(tx: Db, organizationId: number): Promise<string[]>;
  releaseFiles(storageKeys: string[]): Promise<void>;
}

export interface AdminServiceDeps {
  organizations: OrganizationRepository;
  keys: ApiKeyRepository;
  credentials: CredentialInvalidation;
  mediaFiles: MediaFiles;
}

export class AdminService {
  private readonly organizations: OrganizationRepository;
  private readonly keys: ApiKeyRepository;
  private readonly credentials: CredentialInvalidation;
  private readonly mediaFiles: MediaFiles;

  constructor(deps: AdminServiceDeps) {
    ({ organizations: this.organizations, keys: this.keys, credentials: this.credentials, mediaFiles: this.mediaFiles } = deps);
  }

  createOrganization(name: string): Promise<Organization> {
    return this.organizations.create(name);
  }

  listOrganizations(): Promise<Organization[]> {
    return this.organizations.list();
  }

  async setOrganizationActive(id: number, active: boolean): Promise<Organization> {
    const org = await this.organizations.setActive(id, active);
    if (!org) throw notFound(`Organization ${id} not found`);
    this.credentials.invalidateOrganization(id);
    return org;
  }

  /**
   * Deletes the organization with everything it owns (products, media, keys, …) and then its media files, except those
   * another organization's media still use (files are content-addressed and shared).
   */
  async deleteOrganization(id: number): Promise<void> {
    const storageKeys = await this.organizations.delete(id, (tx) => this.mediaFiles.storageKeysOf(tx, id));
    if (storageKeys === null) throw notFound(`Organization ${id} not found`);
    this.credentials.invalidateOrganization(id);
    await this.mediaFiles.releaseFiles(storageKeys);
  }

  /** Issues a key pair; the plain values are returned once and only their hashes are kept. */
  async createApiKey(organizationId: number, name: string | null): Promise<IssuedApiKey> {
    if (!(await this.organizations.find(organizationId))) throw notFound(`Organization ${organizationId} not found`);
    const apiKey = randomCredential('pk_');
    const apiSecret = randomCredential('sk_');
    const id = await this.keys.create({ organizationId, name, keyHash: sha256Hex(apiKey), secretHash: sha256Hex(apiSecret) });
    return { id, api_key: apiKey, api_secret: apiSecret };
  }

  async revokeApiKey(id: number): Promise<void> {
    const hash = await this.keys.revoke(id);
    if (hash === null) throw notFound(`API key ${id} not found`);
    this.credentials.invalidateKey(hash);
  }
}
