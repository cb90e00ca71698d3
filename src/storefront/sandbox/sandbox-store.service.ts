// The sandbox's stores: made and removed by the admin API (`POST /admin/shops {platform: "sandbox"}`, DELETE), kept in the
// database so they survive a restart. A store's Admin API token looks like Shopify's (`shpat_` + 32 hex), is shown once
// and stored as a SHA-256 hash.
import { randomBytes } from 'node:crypto';
import { safeEqual, sha256Hex } from '../../lib/crypto.js';
import type { SandboxStore, SandboxStoreRepository } from './sandbox-store.repository.js';

export class SandboxStoreService {
  constructor(private readonly stores: SandboxStoreRepository) {}

  /** Makes the store (or, if one with this domain is left over, issues it a new token) and returns its token, once. */
  async create(domain: string): Promise<{ accessToken: string }> {
    const normalized = normalizeDomain(domain);
    const accessToken = `shpat_${randomBytes(16).toString('hex')}`;
    await this.stores.upsert({ domain: normalized, name: shopNameFromDomain(normalized), accessTokenHash: sha256Hex(accessToken) });
    return { accessToken };
  }

  /** Deletes the store and everything in it; removing an unknown store is a no-op. */
  async remove(domain: string): Promise<void> {
    await this.stores.deleteByDomain(normalizeDomain(domain));
  }

  find(domain: string): Promise<SandboxStore | null> {
    return this.stores.findByDomain(normalizeDomain(domain));
  }

  /** True when `token` is the store's token (compared in constant time). */
  tokenMatches(store: SandboxStore, token: string | undefined): boolean {
    return typeof token === 'string' && token.length > 0 && safeEqual(sha256Hex(token), store.accessTokenHash);
  }

  /** Changes the plan (`Basic`, `Advanced`, `Plus`, …), which sets the cost bucket. Not exposed over HTTP yet. */
  async setPlan(domain: string, planName: string): Promise<boolean> {
    return this.stores.setPlan(normalizeDomain(domain), planName);
  }
}

export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase();
}

/** `acme-outdoor.myshopify.com` → `Acme Outdoor`. */
export function shopNameFromDomain(domain: string): string {
  const label = domain.replace(/\.myshopify\.com$/, '').split('.')[0] || domain;
  const words = label.split(/[-_]+/).filter(Boolean);
  return words.length ? words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') : domain;
}
