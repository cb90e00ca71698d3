// loadConfig with explicit environments: defaults, one-line errors naming the variable, and the embedded secrets file.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadClientConfig, loadConfig, testDatabaseUrl } from '../src/config.js';
import { ConfigError } from '../src/config/env.js';
import { SECRETS_FILE } from '../src/config/secrets.js';

const KEY = randomBytes(32).toString('base64');
const TOKEN = 'an-admin-token-of-some-length';
/** Secrets given, so that no test writes a secrets file unless it means to. */
const base = (env: Record<string, string> = {}) => ({ ADMIN_TOKEN: TOKEN, ENCRYPTION_KEY: KEY, DATA_DIR: '/nonexistent-config-test-dir', ...env });

function assertConfigError(env: Record<string, string | undefined>, variable: string): void {
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
      assert.ok(err.message.includes(variable), `"${err.message}" names ${variable}`);
      assert.ok(!err.message.includes('\n'), 'the message is one line');
      return true;
    },
  );
}

describe('config', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pimbridge-config-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const freshDir = () => path.join(dir, `data-${++n}`);

  describe('defaults', () => {
    it('embedded mode: documented defaults for every variable', () => {
      const c = loadConfig(base());
      assert.equal(c.port, 8080);
      assert.equal(c.host, '127.0.0.1');
      assert.equal(c.dataDir, '/nonexistent-config-test-dir');
      assert.equal(c.databaseUrl, null);
      assert.equal(c.redisUrl, null);
      assert.equal(c.adminToken, TOKEN);
      assert.deepEqual(c.encryptionKey, Buffer.from(KEY, 'base64'));
      assert.equal(c.encryptionKey.length, 32);
      assert.equal(c.secretsGenerated, false);
      assert.equal(c.shopifySandbox, true);
      assert.equal(c.seedDemo, true);
      assert.equal(c.pimRateLimitRead, 600);
      assert.equal(c.pimRateLimitWrite, 120);
      assert.equal(c.authRateLimit, 300);
      assert.equal(c.mediaAllowPrivateNetworks, false);
      assert.equal(c.trustProxy, null);
      assert.equal(c.logLevel, 'info');
    });

    it('DATA_DIR defaults to ./data, resolved to an absolute path', () => {
      const c = loadConfig({ ADMIN_TOKEN: TOKEN, ENCRYPTION_KEY: KEY });
      assert.equal(c.dataDir, path.resolve('data'));
      const rel = loadConfig(base({ DATA_DIR: 'some/rel' }));
      assert.equal(rel.dataDir, path.resolve('some/rel'));
    });

    it('PostgreSQL mode: no sandbox and no demo seed by default', () => {
      const c = loadConfig(base({ DATABASE_URL: 'postgres://u@db.example:5432/pim', METRICS_TOKEN: 'metrics-token-0123456789' }));
      assert.equal(c.databaseUrl, 'postgres://u@db.example:5432/pim');
      assert.equal(c.shopifySandbox, false);
      assert.equal(c.seedDemo, false);
      assert.equal(c.secretsGenerated, false);
      assert.equal(loadConfig(base({ DATABASE_URL: 'postgresql://u@db/pim', SEED_DEMO: 'true', METRICS_TOKEN: 'metrics-token-0123456789' })).seedDemo, true);
    });

    it('reads every variable that is given, trimming whitespace', () => {
      const c = loadConfig(
        base({
          PORT: ' 9090 ',
          HOST: '0.0.0.0',
          REDIS_URL: 'redis://cache:6379/2',
          SHOPIFY_SANDBOX: 'no',
          SEED_DEMO: '0',
          PIM_RATE_LIMIT_READ: '50',
          PIM_RATE_LIMIT_WRITE: '10',
          AUTH_RATE_LIMIT: '7',
          MEDIA_ALLOW_PRIVATE_NETWORKS: 'YES',
          TRUST_PROXY: '1',
          LOG_LEVEL: 'warn',
        }),
      );
      assert.equal(c.port, 9090);
      assert.equal(c.host, '0.0.0.0');
      assert.equal(c.redisUrl, 'redis://cache:6379/2');
      assert.equal(c.shopifySandbox, false);
      assert.equal(c.seedDemo, false);
      assert.equal(c.pimRateLimitRead, 50);
      assert.equal(c.pimRateLimitWrite, 10);
      assert.equal(c.authRateLimit, 7);
      assert.equal(c.mediaAllowPrivateNetworks, true);
      assert.deepEqual(c.trustProxy, { hops: 1 });
      assert.equal(c.logLevel, 'warn');
    });

    it('treats empty and blank values as unset', () => {
      const c = loadConfig(base({ PORT: '', HOST: '   ', REDIS_URL: '', LOG_LEVEL: '' }));
      assert.equal(c.port, 8080);
      assert.equal(c.host, '127.0.0.1');
      assert.equal(c.redisUrl, null);
      assert.equal(c.logLevel, 'info');
    });

    it('accepts PORT=0 (any free port)', () => {
      assert.equal(loadConfig(base({ PORT: '0' })).port, 0);
    });

    it('returns a frozen object', () => {
      const c = loadConfig(base());
      assert.ok(Object.isFrozen(c));
      assert.throws(() => {
        (c as { port: number }).port = 1;
      }, TypeError);
    });
  });

  describe('bad values throw a ConfigError naming the variable', () => {
    it('PORT', () => {
      for (const PORT of ['abc', '-1', '65536', '80.5', '8080x']) assertConfigError(base({ PORT }), 'PORT');
    });

    it('PIM_RATE_LIMIT_READ and PIM_RATE_LIMIT_WRITE', () => {
      assertConfigError(base({ PIM_RATE_LIMIT_READ: 'many' }), 'PIM_RATE_LIMIT_READ');
      assertConfigError(base({ PIM_RATE_LIMIT_READ: '0' }), 'PIM_RATE_LIMIT_READ');
      assertConfigError(base({ PIM_RATE_LIMIT_WRITE: '-5' }), 'PIM_RATE_LIMIT_WRITE');
      // Reads must be allowed more than writes.
      assertConfigError(base({ PIM_RATE_LIMIT_READ: '10', PIM_RATE_LIMIT_WRITE: '10' }), 'PIM_RATE_LIMIT_READ');
      assertConfigError(base({ PIM_RATE_LIMIT_READ: '10', PIM_RATE_LIMIT_WRITE: '20' }), 'PIM_RATE_LIMIT_WRITE');
      assertConfigError(base({ PIM_RATE_LIMIT_WRITE: '600' }), 'PIM_RATE_LIMIT_READ');
    });

    it('AUTH_RATE_LIMIT', () => {
      assertConfigError(base({ AUTH_RATE_LIMIT: '0' }), 'AUTH_RATE_LIMIT');
      assertConfigError(base({ AUTH_RATE_LIMIT: 'lots' }), 'AUTH_RATE_LIMIT');
    });

    it('ENCRYPTION_KEY', () => {
      for (const ENCRYPTION_KEY of [
        'short',
        randomBytes(16).toString('base64'),
        randomBytes(33).toString('base64'),
        randomBytes(32).toString('hex'),
        randomBytes(32).toString('base64url').replace(/^./, '-'),
        `${KEY}!`,
      ]) {
        assertConfigError(base({ ENCRYPTION_KEY }), 'ENCRYPTION_KEY');
      }
    });

    it('ADMIN_TOKEN shorter than 16 characters', () => {
      assertConfigError(base({ ADMIN_TOKEN: 'short' }), 'ADMIN_TOKEN');
    });

    it('DATABASE_URL without ADMIN_TOKEN or ENCRYPTION_KEY', () => {
      const dataDir = freshDir();
      assertConfigError({ DATABASE_URL: 'postgres://db/pim', ENCRYPTION_KEY: KEY, DATA_DIR: dataDir }, 'ADMIN_TOKEN');
      assertConfigError({ DATABASE_URL: 'postgres://db/pim', ADMIN_TOKEN: TOKEN, DATA_DIR: dataDir }, 'ENCRYPTION_KEY');
      assertConfigError({ DATABASE_URL: 'postgres://db/pim', DATA_DIR: dataDir }, 'DATABASE_URL');
      // PostgreSQL mode never generates secrets into DATA_DIR.
      assert.equal(existsSync(path.join(dataDir, SECRETS_FILE)), false);
    });

    it('DATABASE_URL and REDIS_URL that are not URLs or use another scheme', () => {
      assertConfigError(base({ DATABASE_URL: 'not a url' }), 'DATABASE_URL');
      assertConfigError(base({ DATABASE_URL: 'mysql://db/pim' }), 'DATABASE_URL');
      assertConfigError(base({ REDIS_URL: 'localhost:6379' }), 'REDIS_URL');
      assertConfigError(base({ REDIS_URL: 'http://cache:6379' }), 'REDIS_URL');
    });

    it('booleans', () => {
      assertConfigError(base({ SEED_DEMO: 'maybe' }), 'SEED_DEMO');
      assertConfigError(base({ SHOPIFY_SANDBOX: '2' }), 'SHOPIFY_SANDBOX');
      assertConfigError(base({ TRUST_PROXY: 'on' }), 'TRUST_PROXY');
      assertConfigError(base({ MEDIA_ALLOW_PRIVATE_NETWORKS: 'y' }), 'MEDIA_ALLOW_PRIVATE_NETWORKS');
    });

    it('LOG_LEVEL', () => {
      assertConfigError(base({ LOG_LEVEL: 'verbose' }), 'LOG_LEVEL');
    });

    it('TEST_DATABASE_URL', () => {
      assert.equal(testDatabaseUrl({}), null);
      assert.equal(testDatabaseUrl({ TEST_DATABASE_URL: 'postgres://x/y' }), 'postgres://x/y');
      assert.throws(() => testDatabaseUrl({ TEST_DATABASE_URL: 'sqlite://x' }), ConfigError);
    });
  });

  describe('embedded secrets', () => {
    it('generates secrets.json in DATA_DIR with mode 0600 on the first load and reuses it on the next', () => {
      const dataDir = freshDir();
      assert.equal(existsSync(dataDir), false);
      const first = loadConfig({ DATA_DIR: dataDir });
      assert.equal(first.secretsGenerated, true);
      const file = path.join(dataDir, SECRETS_FILE);
      assert.ok(existsSync(file));
      assert.equal(statSync(file).mode & 0o777, 0o600);

      const stored = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(stored.admin_token, first.adminToken);
      assert.ok(first.adminToken.length >= 32);
      assert.deepEqual(Buffer.from(stored.encryption_key, 'base64'), first.encryptionKey);
      assert.equal(first.encryptionKey.length, 32);

      const second = loadConfig({ DATA_DIR: dataDir });
      assert.equal(second.secretsGenerated, false);
      assert.equal(second.adminToken, first.adminToken);
      assert.deepEqual(second.encryptionKey, first.encryptionKey);
      assert.equal(readFileSync(file, 'utf8'), `${JSON.stringify(stored, null, 2)}\n`, 'the file is not rewritten');
    });

    it('generates different secrets for different data directories', () => {
      const a = loadConfig({ DATA_DIR: freshDir() });
      const b = loadConfig({ DATA_DIR: freshDir() });
      assert.notEqual(a.adminToken, b.adminToken);
      assert.notDeepEqual(a.encryptionKey, b.encryptionKey);
    });

    it('variables given in the environment win over the file; given both, no file is written', () => {
      const dataDir = freshDir();
      const generated = loadConfig({ DATA_DIR: dataDir });
      const withToken = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: TOKEN });
      assert.equal(withToken.adminToken, TOKEN);
      assert.deepEqual(withToken.encryptionKey, generated.encryptionKey);
      const withKey = loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: KEY });
      assert.equal(withKey.adminToken, generated.adminToken);
      assert.deepEqual(withKey.encryptionKey, Buffer.from(KEY, 'base64'));

      const untouched = freshDir();
      loadConfig({ DATA_DIR: untouched, ADMIN_TOKEN: TOKEN, ENCRYPTION_KEY: KEY });
      assert.equal(existsSync(path.join(untouched, SECRETS_FILE)), false);
    });

    it('a damaged secrets file is a ConfigError naming the file', () => {
      for (const content of ['{}', '{"admin_token": 5, "encryption_key": "x"}', 'not json at all', 'null']) {
        const dataDir = freshDir();
        const file = path.join(dataDir, SECRETS_FILE);
        loadConfig({ DATA_DIR: dataDir });
        writeFileSync(file, content);
        assert.throws(
          () => loadConfig({ DATA_DIR: dataDir }),
          (err: unknown) => err instanceof ConfigError && err.message.includes(SECRETS_FILE),
          `content ${JSON.stringify(content)}`,
        );
      }
    });
  });

  describe('loadClientConfig (the CLI)', () => {
    it('defaults to http://HOST:PORT and the token in DATA_DIR/secrets.json', () => {
      const dataDir = freshDir();
      const server = loadConfig({ DATA_DIR: dataDir });
      const c = loadClientConfig({ DATA_DIR: dataDir, PORT: '9191' });
      assert.equal(c.baseUrl, 'http://127.0.0.1:9191');
      assert.equal(c.adminToken, server.adminToken);
    });

    it('prefers overrides, then ADMIN_TOKEN and PIMBRIDGE_URL, and trims trailing slashes', () => {
      assert.deepEqual(loadClientConfig({ PIMBRIDGE_URL: 'https://pim.example/', ADMIN_TOKEN: TOKEN }), {
        baseUrl: 'https://pim.example',
        adminToken: TOKEN,
      });
      assert.deepEqual(loadClientConfig({ PIMBRIDGE_URL: 'https://pim.example/', ADMIN_TOKEN: TOKEN }, { url: 'http://other:1//', token: 'tok' }), {
        baseUrl: 'http://other:1',
        adminToken: 'tok',
      });
    });

    it('has no token when none is given and no secrets file exists', () => {
      assert.equal(loadClientConfig({ DATA_DIR: freshDir() }).adminToken, null);
    });
  });
});
