// ADMIN_TOKEN, ENCRYPTION_KEY and METRICS_TOKEN: checked against each other, and in embedded mode the missing ones
// generated once into DATA_DIR's secrets file (mode 0600) and read from it on every later start.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Env, str } from './env.js';
import type { metricsSettings } from './server-settings.js';

export function encryptionKey(name: string, raw: string): Buffer {
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) {
    throw new ConfigError(`${name} must be 32 bytes encoded as base64 (try: openssl rand -base64 32)`);
  }
  return key;
}

interface StoredSecrets {
  admin_token: string;
  encryption_key: string;
}

export const SECRETS_FILE = 'secrets.json';

/** Embedded mode: secrets not given in the environment are generated once into DATA_DIR (mode 0600) and reused. */
export function embeddedSecrets(dataDir: string): { secrets: StoredSecrets; generated: boolean } {
  const file = path.join(dataDir, SECRETS_FILE);
  if (existsSync(file)) {
    let parsed: StoredSecrets | null;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as StoredSecrets | null;
    } catch {
      parsed = null;
    }
    if (typeof parsed?.admin_token !== 'string' || typeof parsed.encryption_key !== 'string') {
      throw new ConfigError(`${file} is damaged: it must hold admin_token and encryption_key`);
    }
    return { secrets: parsed, generated: false };
  }
  const secrets: StoredSecrets = {
    admin_token: `adm_${randomBytes(32).toString('base64url')}`,
    encryption_key: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // private to this user, as all of DATA_DIR (lib/private-files.ts)
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { secrets, generated: true };
}

/**
 * ADMIN_TOKEN, ENCRYPTION_KEY and METRICS_TOKEN checked; in embedded mode the missing ones are read from (or generated
 * into) DATA_DIR's secrets file.
 */
export function secrets(
  env: Env,
  embedded: boolean,
  metrics: ReturnType<typeof metricsSettings>,
  dataDir: string,
): { adminToken: string; keyText: string; secretsGenerated: boolean } {
  let adminToken = str(env, 'ADMIN_TOKEN');
  let keyText = str(env, 'ENCRYPTION_KEY');
  let secretsGenerated = false;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
  }
  if (keyText !== undefined) encryptionKey('ENCRYPTION_KEY', keyText);
  if (!embedded && adminToken === undefined) throw new ConfigError('ADMIN_TOKEN is required when DATABASE_URL is set');
  if (!embedded && keyText === undefined) throw new ConfigError('ENCRYPTION_KEY is required when DATABASE_URL is set');
  // With DATABASE_URL (a production setup) /metrics has a token of its own: whoever scrapes it must not hold the admin
  // token. Embedded mode keeps the admin token as its default.
  if (!embedded && metrics.metricsEnabled && metrics.metricsPort === null && metrics.metricsToken === null) {
    throw new ConfigError(
      'METRICS_TOKEN is required when DATABASE_URL is set (/metrics does not share ADMIN_TOKEN): set it (try: openssl rand -base64 32), or METRICS_PORT to serve /metrics on a listener of its own, or METRICS_ENABLED=false',
    );
  }
  if (!embedded && metrics.metricsToken !== null && metrics.metricsToken === adminToken) {
    throw new ConfigError('METRICS_TOKEN must differ from ADMIN_TOKEN: whoever scrapes /metrics must not hold the admin token');
  }
  // Generated last, so a start refused for another bad value leaves no files behind.
  if (adminToken === undefined || keyText === undefined) {
    const stored = embeddedSecrets(dataDir);
    adminToken ??= stored.secrets.admin_token;
    keyText ??= stored.secrets.encryption_key;
    secretsGenerated = stored.generated;
  }
  return { adminToken, keyText, secretsGenerated };
}
