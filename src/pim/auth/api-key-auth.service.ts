// X-API-KEY → organization, and the key+secret check behind GET /api/auth/verify.
import type { ApiKeyRepository, StoredCredential } from '../../admin/api-key.repository.js';
import { safeEqual, sha256Hex } from '../../lib/crypto.js';
import { AppError } from '../../http/errors.js';
import type { CredentialCache } from './credential-cache.js';

export interface PimPrincipal {
  organizationId: number;
  keyId: number;
  /** How the key came: in X-API-KEY, or standing behind the console's session (who a product's history names). */
  via: 'api_key' | 'console';
}

export class ApiKeyAuthService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly cache: CredentialCache,
  ) {}

  async authenticate(apiKey: string | undefined): Promise<PimPrincipal> {
    const credential = await this.credential(apiKey);
    return { organizationId: credential.organizationId, keyId: credential.keyId, via: 'api_key' };
  }

  /** For the connector's live validation: the key authenticates, the secret proves possession. */
  async verify(apiKey: string | undefined, apiSecret: string | undefined) {
    const credential = await this.credential(apiKey);
    if (!apiSecret || !safeEqual(sha256Hex(apiSecret), credential.secretHash)) {
      throw new AppError('unauthorized', 'Invalid API secret');
    }
    return {
      organization: { id: credential.organizationId, name: credential.organizationName, active: credential.organizationActive },
      key_id: credential.keyId,
    };
  }

  /**
   * For a console session of key `keyId`: the hashes of the organization's keys while that key is live, else null.
   * Straight from the admin API's keys, past the cache: a revoked key's sessions end at once on every node.
   */
  sessionKeyHashes(organizationId: number, keyId: number): Promise<string[] | null> {
    return this.keys.sessionKeyHashes(organizationId, keyId);
  }

  private async credential(apiKey: string | undefined): Promise<StoredCredential> {
    if (!apiKey) throw new AppError('unauthorized', 'Missing X-API-KEY header');
    const hash = sha256Hex(apiKey);
    let credential = this.cache.get(hash);
    if (!credential) {
      credential = (await this.keys.findLiveByHash(hash)) ?? undefined;
      if (!credential) throw new AppError('unauthorized', 'Invalid API key');
      this.cache.set(hash, credential);
    }
    if (!credential.organizationActive) throw new AppError('forbidden', 'The organization of this API key is inactive');
    return credential;
  }
}
