// The `pimbridge` command: serve (default), migrate, and thin clients of the admin API.
import { Command, type CommanderError, InvalidArgumentError, Option } from 'commander';
import { loadClientConfig, loadConfig, loadSandboxConfig } from '../config.js';
import { ConfigError } from '../config/env.js';
import { openDatabase } from '../db/client.js';
import { DataDirLockedError } from '../db/lock.js';
import { privacyWarning } from '../lib/private-files.js';
import { startServer } from '../main.js';
import { startSandboxServer } from '../server/sandbox-server.js';
import { prepareDatabase } from '../server/prepare-database.js';
import { AdminClientError, adminRequest } from './admin-client.js';
import { pushCommand, type PushCommandOptions } from './push.js';
import { CSV_FORMATS, exportCommand, importCommand, type ExportCommandOptions, type ImportCommandOptions } from './catalogue-files.js';
import { CliError, CliUsageError } from './errors.js';

const positiveInt = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
};

const program = new Command('pimbridge')
  .description('Pimbridge: a PIM with a built-in bridge to Shopify')
  .option('--url <url>', 'admin commands: server base URL (default PIMBRIDGE_URL or http://HOST:PORT)')
  .option('--admin-token <token>', 'admin commands: admin token (default ADMIN_TOKEN or DATA_DIR/secrets.json)');

const client = () => {
  const opts = program.opts<{ url?: string; adminToken?: string }>();
  return loadClientConfig(process.env, { url: opts.url, token: opts.adminToken });
};

/** Prints an admin API answer: JSON with --json, else one readable line per field. */
function show(value: object, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  for (const [k, v] of Object.entries(value)) process.stdout.write(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
}

program
  .command('serve', { isDefault: true })
  .description('start the HTTP server (embedded database in DATA_DIR unless DATABASE_URL is set)')
  .option('--role <role>', 'api (HTTP, sends jobs), worker (runs jobs and the delta poller) or all (default ROLE or all); api and worker need DATABASE_URL')
  .action(async (o: { role?: string }) => {
    await startServer(loadConfig(o.role === undefined ? process.env : { ...process.env, ROLE: o.role }));
  });

program
  .command('sandbox')
  .description('run only the Shopify sandbox (same database as serve; with the embedded database, not while serve runs)')
  .option('--port <port>', 'port (default PORT or 8080; 0 picks a free one)', (v: string) => {
    if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
    return Number(v);
  })
  .option('--host <host>', 'interface to listen on (default HOST or 127.0.0.1)')
  .action(async (o: { port?: number; host?: string }) => {
    await startSandboxServer(loadSandboxConfig(process.env, { port: o.port, host: o.host }));
  });

program
  .command('migrate')
  .description("apply the database migrations (and the Shopify sandbox's, when it is on), create the job queue's schema and queues, and exit")
  .action(async () => {
    const config = loadConfig();
    const database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir });
    const privacy = database.privacy ? privacyWarning(config.dataDir, database.privacy) : null; // lib/private-files.ts
    if (privacy) process.stderr.write(`warning: ${privacy}\n`);
    try {
      await prepareDatabase(database, config, { info: (msg) => process.stdout.write(`${msg}\n`) });
      process.stdout.write(`Migrations applied (${database.kind}); the job queue is ready.\n`);
    } finally {
      await database.close();
    }
  });

const org = program.command('org').description('organizations (tenants)');
org
  .command('create')
  .requiredOption('--name <name>', 'organization name')
  .option('--json', 'print JSON')
  .action(async (o: { name: string; json?: boolean }) => show(await adminRequest(client(), 'POST', '/admin/organizations', { name: o.name }), o.json));
org
  .command('list')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const { organizations } = await adminRequest<{ organizations: object[] }>(client(), 'GET', '/admin/organizations');
    if (o.json) show({ organizations }, true);
    else for (const row of organizations) show(row, false);
  });
for (const [name, active] of [
  ['activate', true],
  ['deactivate', false],
] as const) {
  org
    .command(`${name} <id>`)
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) =>
      show(await adminRequest(client(), 'PATCH', `/admin/organizations/${positiveInt(id)}`, { active }), o.json),
    );
}

org
  .command('delete <id>')
  .description('delete the organization with all its data and media files')
  .action(async (id: string) => {
    await adminRequest(client(), 'DELETE', `/admin/organizations/${positiveInt(id)}`);
    process.stdout.write(`Organization ${id} deleted.\n`);
  });

const key = program.command('key').description('PIM API keys');
key
  .command('create')
  .requiredOption('--org <id>', 'organization id', positiveInt)
  .option('--name <name>', 'a label for the key')
  .option('--json', 'print JSON')
  .action(async (o: { org: number; name?: string; json?: boolean }) =>
    show(await adminRequest(client(), 'POST', `/admin/organizations/${o.org}/api-keys`, o.name ? { name: o.name } : {}), o.json),
  );
key.command('revoke <id>').action(async (id: string) => {
  await adminRequest(client(), 'DELETE', `/admin/api-keys/${positiveInt(id)}`);
  process.stdout.write(`API key ${id} revoked.\n`);
});

const shop = program.command('shop').description('storefront shops where the app is installed (only these can connect)');
type ShopAccessOptions = { accessToken?: string; clientId?: string; clientSecret?: string };
const accessBody = (o: ShopAccessOptions) => ({
  ...(o.accessToken !== undefined && { access_token: o.accessToken }),
  ...(o.clientId !== undefined && { client_id: o.clientId }),
  ...(o.clientSecret !== undefined && { client_secret: o.clientSecret }),
});
shop
  .command('add <domain>')
  .description('register a shop for the organization that owns it (docs/connect-a-store.md)')
  .requiredOption('--platform <platform>', 'shopify or sandbox')
  .requiredOption('--org <id>', 'the owner organization: only its credentials connect the shop', positiveInt)
  .option('--access-token <token>', "shopify: a legacy custom app's Admin API access token")
  .option('--client-id <id>', "shopify: a Dev Dashboard app's client id (client credentials grant)")
  .option('--client-secret <secret>', "shopify: that app's client secret")
  .option('--api-base-url <url>', 'shopify: overrides https://{domain}')
  .option('--json', 'print JSON')
  .action(async (domain: string, o: ShopAccessOptions & { platform: string; org: number; apiBaseUrl?: string; json?: boolean }) => {
    const body = {
      domain,
      platform: o.platform,
      organization_id: o.org,
      ...accessBody(o),
      ...(o.apiBaseUrl !== undefined && { api_base_url: o.apiBaseUrl }),
    };
    show(await adminRequest(client(), 'POST', '/admin/shops', body), o.json);
  });
shop
  .command('update <id>')
  .description("a shop's owner, or its way in: a new legacy token or new client credentials")
  .option('--org <id>', 'the new owner organization', positiveInt)
  .option('--access-token <token>', "a legacy custom app's Admin API access token")
  .option('--client-id <id>', "a Dev Dashboard app's client id")
  .option('--client-secret <secret>', "that app's client secret")
  .option('--json', 'print JSON')
  .action(async (id: string, o: ShopAccessOptions & { org?: number; json?: boolean }) => {
    const body = { ...(o.org !== undefined && { organization_id: o.org }), ...accessBody(o) };
    show(await adminRequest(client(), 'PATCH', `/admin/shops/${positiveInt(id)}`, body), o.json);
  });
shop
  .command('list')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const { shops } = await adminRequest<{ shops: object[] }>(client(), 'GET', '/admin/shops');
    if (o.json) show({ shops }, true);
    else for (const row of shops) show(row, false);
  });
shop
  .command('sandbox-config <id>')
  .description("a sandbox shop's cost bucket and injected faults")
  .option('--bucket-size <n>', 'bucket size in points', positiveInt)
  .option('--restore-rate <n>', 'points restored per second', positiveInt)
  .option('--plan-bucket', "use the plan's bucket again")
  .option('--error-rate <r>', 'share of calls answered 500/502/503 (0–1)', Number)
  .option('--timeout-rate <r>', 'share of calls held until the client gives up (0–1)', Number)
  .option('--fail-after-commit-rate <r>', 'share of calls that run but answer 503 (0–1)', Number)
  .option('--latency-ms <n>', 'added latency per call', Number)
  .option('--fault-seed <n>', 'seed of the fault sequence', Number)
  .option('--variant-throttle-limit <n>', 'answer VARIANT_THROTTLE_EXCEEDED once the store holds this many variants', positiveInt)
  .option('--no-variant-throttle', 'never answer VARIANT_THROTTLE_EXCEEDED')
  .option('--location <name>', 'a location the store must have (repeatable)', (v: string, all: string[] = []) => [...all, v])
  .option('--locations <n>', 'the store has at least the locations "Shop location", "Location 2", … "Location N"', positiveInt)
  .option('--json', 'print JSON')
  .action(
    async (
      id: string,
      o: {
        bucketSize?: number;
        restoreRate?: number;
        planBucket?: boolean;
        errorRate?: number;
        timeoutRate?: number;
        failAfterCommitRate?: number;
        latencyMs?: number;
        faultSeed?: number;
        variantThrottleLimit?: number;
        variantThrottle?: boolean;
        location?: string[];
        locations?: number;
        json?: boolean;
      },
    ) => {
      const locations = [
        ...(o.locations ? ['Shop location', ...Array.from({ length: o.locations - 1 }, (_, i) => `Location ${i + 2}`)] : []),
        ...(o.location ?? []),
      ];
      const body = {
        ...(o.planBucket && { bucket_size: null, restore_rate: null }),
        ...(o.bucketSize !== undefined && { bucket_size: o.bucketSize }),
        ...(o.restoreRate !== undefined && { restore_rate: o.restoreRate }),
        ...(o.errorRate !== undefined && { error_rate: o.errorRate }),
        ...(o.timeoutRate !== undefined && { timeout_rate: o.timeoutRate }),
        ...(o.failAfterCommitRate !== undefined && { fail_after_commit_rate: o.failAfterCommitRate }),
        ...(o.latencyMs !== undefined && { latency_ms: o.latencyMs }),
        ...(o.faultSeed !== undefined && { fault_seed: o.faultSeed }),
        ...(o.variantThrottleLimit !== undefined && { variant_throttle_limit: o.variantThrottleLimit }),
        ...(o.variantThrottle === false && { variant_throttle_limit: null }),
        ...(locations.length > 0 && { locations }),
      };
      show(await adminRequest(client(), 'PATCH', `/admin/shops/${positiveInt(id)}/sandbox`, body), o.json);
    },
  );
shop
  .command('sandbox-publication <id> <name>')
  .description("add a publication (sales channel) to a sandbox shop's store, beside Online Store, Point of Sale and Shop")
  .option('--json', 'print JSON')
  .action(async (id: string, name: string, o: { json?: boolean }) =>
    show(await adminRequest(client(), 'POST', `/admin/shops/${positiveInt(id)}/sandbox/publications`, { name }), o.json),
  );
shop
  .command('remove <id>')
  .description("uninstall: the shop's integration, tokens and mappings are deleted with it")
  .action(async (id: string) => {
    await adminRequest(client(), 'DELETE', `/admin/shops/${positiveInt(id)}`);
    process.stdout.write(`Shop ${id} removed.\n`);
  });

// Catalogue files through the PIM API. Exit codes: 0 done, 1 failed (or rows failed), 2 usage (commander's own errors too).
const usageExit = (err: CommanderError) => process.exit(err.exitCode === 0 ? 0 : 2);
const pimAuthOptions = (command: Command) =>
  command
    .option('--org <id>', 'organization id: a temporary API key is issued with the admin token and revoked at the end', positiveInt)
    .option('--api-key <key>', 'PIM API key (default PIMBRIDGE_API_KEY)');
pimAuthOptions(
  program
    .command('import <file>')
    .description(
      "import products from a CSV file (our format or Shopify's; detected from the header unless --format); exit 0: all rows imported, 1: the import or some rows failed (their reasons in FILE.errors.csv), 2: usage",
    ),
)
  .addOption(new Option('--format <format>', 'the file format (default: detected from the header)').choices(CSV_FORMATS))
  .option('--dry-run', 'check every row and report what would change, writing nothing')
  .exitOverride(usageExit)
  .action(async (file: string, o: ImportCommandOptions) => {
    process.exitCode = await importCommand(client, file, o);
  });
pimAuthOptions(program.command('export').description('export the catalogue as CSV (streamed) to stdout or --output FILE; messages go to stderr'))
  .addOption(new Option('--format <format>', 'the file format (default: ours)').choices(CSV_FORMATS))
  .option('--status <status>', 'only products with this status')
  .option('--search <text>', 'only products whose name, description or SKU matches')
  .option('--brand <id>', 'only products of this brand', positiveInt)
  .option('--channel <channel>', 'only products on this channel')
  .option('--category <id>', 'only products in this category', positiveInt)
  .option('-o, --output <file>', 'write the CSV to this file (default: stdout)')
  .exitOverride(usageExit)
  .action(async (o: ExportCommandOptions) => {
    process.exitCode = await exportCommand(client, o);
  });

// Pushing products through the connector API (a connector token, not the admin token).
program
  .command('push <ids...>')
  .description(
    'push PIM products to the connected storefront; --dry-run lists what would change, writing nothing; exit 0: all succeeded, 1: some failed, 2: usage',
  )
  .option('--token <token>', 'connector API token (default PIMBRIDGE_API_TOKEN)')
  .option('--dry-run', 'list the fields each product would change on the storefront, writing nothing (sync log products.push.dry_run)')
  .option('--json', 'print the whole answer as JSON')
  .exitOverride(usageExit)
  .action(async (ids: string[], o: PushCommandOptions) => {
    process.exitCode = await pushCommand(client().baseUrl, ids, o);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CliUsageError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(2);
  }
  const known =
    err instanceof ConfigError ||
    err instanceof DataDirLockedError ||
    err instanceof AdminClientError ||
    err instanceof InvalidArgumentError ||
    err instanceof CliError;
  process.stderr.write(
    `${err instanceof ConfigError ? 'Configuration error: ' : ''}${known ? (err as Error).message : String((err as Error)?.stack ?? err)}\n`,
  );
  process.exit(1);
});
