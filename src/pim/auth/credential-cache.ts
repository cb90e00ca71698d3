// Authenticating an X-API-KEY must not cost a database round trip per request: live credentials are cached
// briefly by key hash. Revoking a key or deactivating an organization invalidates at once on this node and,
// through Redis pub/sub when REDIS_URL is set, on every other node; the TTL bounds staleness if a message is lost.
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { StoredCredential } from '../../admin/api-key.repository.js';

const CHANNEL = 'pimbridge:credential-invalidations';

export class CredentialCache {
  private readonly cache = new LRUCache<string, StoredCredential>({ max: 50_000, ttl: 30_000 });
  private subscriber: Redis | null = null;

  constructor(private readonly publisher: Redis | null = null) {}

  /** Listens for invalidations published by other nodes. */
  async listen(): Promise<void> {
    if (!this.publisher) return;
    // Connect explicitly before subscribing: the duplicate inherits the publisher's options, and with
    // lazyConnect and no offline queue (as main.ts sets them) a SUBSCRIBE sent while connecting is refused.
    this.subscriber = this.publisher.duplicate({ lazyConnect: true });
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (_channel: string, message: string) => this.apply(message));
    await this.subscriber.connect();
    await this.subscriber.subscribe(CHANNEL);
  }

  get(keyHash: string): StoredCredential | undefined {
    return this.cache.get(keyHash);
  }

  set(keyHash: string, credential: StoredCredential): void {
    this.cache.set(keyHash, credential);
  }

  invalidateKey(keyHash: string): void {
    this.broadcast(`key:${keyHash}`);
  }

  invalidateOrganization(organizationId: number): void {
    this.broadcast(`org:${organizationId}`);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => {});
  }

  private broadcast(message: string): void {
    this.apply(message);
    this.publisher?.publish(CHANNEL, message).catch(() => {});
  }

  private apply(message: string): void {
    const [kind, value] = message.split(':', 2);
    if (kind === 'key') this.cache.delete(value);
    if (kind === 'org') {
      const id = Number(value);
      for (const [hash, cred] of this.cache.entries()) if (cred.organizationId === id) this.cache.delete(hash);
    }
  }
}
