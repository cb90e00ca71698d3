// The dependency rule of src/ (docs/architecture.md), checked by `npm run lint:deps` and first thing in `npm test`.
//
//   app       src/main.ts, src/config.ts (and its sections, src/config/), src/cli/, src/server/ (start-up, buildApp,
//             the composition root, the standalone sandbox server, the embedded template, request logs, /metrics,
//             shutdown, the demo seed): may import anything below it, each module only through its module file
//             (`*.module.ts`).
//   kernel    src/http/: what every HTTP module shares (the `App` type, the error base, path patterns).
//   modules   src/pim/, src/admin/, src/connector/, src/storefront/ (the storefront port and its types in port/,
//             shopify/), src/sandbox/ (the built-in fake Shopify behind HTTP, which the Shopify adapter talks to like a
//             real shop; it does not implement the storefront port).
//   platform  src/jobs/ → src/db/ → src/lib/, src/catalogue-csv/ (pure file formats) → src/lib/, src/paths.ts.
//
// Imports go down, never up; a module reaches another only through the public files declared below; no circles,
// type-only imports included. Each module declares its own tables (TABLES) and no one else imports them: another module
// reads its data through its public files, and a tables file may import another module's tables files only for
// foreign keys (`references()`).

/** Where each module lives. */
const MODULES = {
  pim: '^src/pim/',
  admin: '^src/admin/',
  connector: '^src/connector/',
  // The port (storefront.port.ts) and the types it speaks in, by topic (port/).
  port: '^src/storefront/(storefront[.]port[.]ts$|port/)',
  shopify: '^src/storefront/shopify/',
  sandbox: '^src/sandbox/',
};

/**
 * The files a module offers other modules, and which modules may use each (`typeOnly`: for its types only). Anything
 * else of a module is private to it. docs/architecture.md lists them with their reasons: keep the two in step.
 */
const PUBLIC = [
  // The storefront port: the connector drives storefronts through it, the Shopify adapter implements it.
  { name: 'storefront-port', file: '^src/storefront/(storefront[.]port[.]ts$|port/)', users: ['connector', 'shopify'] },
  // The PIM authenticates API keys that the admin API issues (its API key check, the console sessions' live key).
  { name: 'admin-api-keys', file: '^src/admin/api-key[.]repository[.]ts$', users: ['pim'], typeOnly: true },
  // The admin API registers, lists, re-owns and removes shops, whose table is the connector's.
  { name: 'connector-shop-registry', file: '^src/connector/shop-auth/shop-registry[.]repository[.]ts$', users: ['admin'], typeOnly: true },
  // The admin API adds sandbox shops and sets their throttle and faults (the shapes of those settings).
  { name: 'sandbox-stores', file: '^src/sandbox/sandbox-store[.]service[.]ts$', users: ['admin'], typeOnly: true },
  // The sandbox answers the same Admin API as Shopify: its schema and version.
  { name: 'shopify-schema', file: '^src/storefront/shopify/(admin-schema|api-version)[.]ts$', users: ['sandbox'] },
];

/**
 * Each module's tables files, `*.tables.ts` at its root, one per group of tables: the tables it owns, which only it
 * reads and writes (docs/architecture.md, "Tables and their owners"; drizzle.config.ts lists them, the sandbox's are
 * drizzle.sandbox.config.ts). The tenant table, `organizations`, is the platform's (src/db/tenancy.ts), open to every
 * module. The storefront port has no tables.
 */
const TABLES = {
  pim: '^src/pim/[^/]+[.]tables[.]ts$',
  admin: '^src/admin/[^/]+[.]tables[.]ts$',
  connector: '^src/connector/[^/]+[.]tables[.]ts$',
  shopify: '^src/storefront/shopify/[^/]+[.]tables[.]ts$',
  sandbox: '^src/sandbox/[^/]+[.]tables[.]ts$',
};

const APP = '^src/(main[.]ts|config[.]ts|config/|cli/|server/)';
const KERNEL = '^src/http/';
const ANY_MODULE = Object.values(MODULES);
/** Each module's one face to the app: its composition, its routes, its job handlers. */
const MODULE_FILES = '^src/(pim/pim|admin/admin|connector/connector|storefront/shopify/shopify|sandbox/sandbox)[.]module[.]ts$';
const ANY_TABLES = Object.values(TABLES);

const crossModuleRules = Object.entries(MODULES).map(([name, path]) => ({
  name: `${name}-through-public-files`,
  comment: `${name} reaches another module only through a public file declared for it in .dependency-cruiser.cjs`,
  severity: 'error',
  // Its tables file has a rule of its own (below).
  from: { path, pathNot: TABLES[name] ?? [] },
  to: {
    path: ANY_MODULE.filter((other) => other !== path),
    pathNot: PUBLIC.filter((p) => p.users.includes(name)).map((p) => p.file),
  },
}));

const tablesRules = Object.entries(TABLES).flatMap(([name, tables]) => [
  {
    name: `${name}-tables-are-its-own`,
    comment: `${tables} are ${name}'s: no other module and no other layer imports them (another module asks ${name} through a public file), except another module's tables file for a foreign key`,
    severity: 'error',
    from: { pathNot: [MODULES[name], ...ANY_TABLES.filter((other) => other !== tables)] },
    to: { path: tables },
  },
  {
    name: `${name}-tables-refer-only-to-tables`,
    comment: `${tables} reach another module only at its tables files (for references()), nothing else of it`,
    severity: 'error',
    from: { path: tables },
    to: { path: ANY_MODULE.filter((other) => other !== MODULES[name]), pathNot: ANY_TABLES },
  },
]);

const typeOnlyRules = PUBLIC.filter((p) => p.typeOnly).flatMap((p) =>
  p.users.map((user) => ({
    name: `${user}-takes-only-types-from-${p.name}`,
    comment: `${p.file} is public to ${user} for its types only`,
    severity: 'error',
    from: { path: MODULES[user] },
    to: { path: p.file, dependencyTypesNot: ['type-only'] },
  })),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type-only imports and dynamic import() included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import resolves (an import the cruiser cannot follow would escape the other rules).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'lib-imports-nothing-of-ours',
      comment: 'src/lib/ is the floor: it imports no other part of src/.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'db-imports-only-lib',
      comment: 'src/db/ imports src/lib/ and src/paths.ts only (not the job queue: the template takes its step as a function).',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: ['^src/(db|lib)/', '^src/paths[.]ts$'] },
    },
    {
      name: 'jobs-imports-only-db-lib',
      comment: 'src/jobs/ (the queue, its contract and runner) imports src/db/ and src/lib/ only; handlers live with their modules.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/', pathNot: ['^src/(jobs|db|lib)/', '^src/paths[.]ts$'] },
    },
    {
      name: 'catalogue-csv-is-pure',
      comment: 'src/catalogue-csv/ (CSV formats shared by the PIM and the connector) imports src/lib/ only: no database, no HTTP.',
      severity: 'error',
      from: { path: '^src/catalogue-csv/' },
      to: { path: '^src/', pathNot: '^src/(catalogue-csv|lib)/' },
    },
    {
      name: 'paths-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^src/paths[.]ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'kernel-imports-only-platform',
      comment: 'The HTTP kernel imports the platform only, never a module or the rest of the app.',
      severity: 'error',
      from: { path: KERNEL },
      to: { path: [APP, ...ANY_MODULE] },
    },
    {
      name: 'modules-do-not-import-app',
      comment:
        'Modules get what they need from the kernel and the platform, or by injection from the app: never from src/server/, src/cli/, main.ts, config.ts or config/.',
      severity: 'error',
      from: { path: ANY_MODULE },
      to: { path: APP },
    },
    {
      name: 'app-composes-modules-through-their-module-files',
      comment:
        'The app composes each module only through its module file (pim/pim.module.ts, admin/admin.module.ts, connector/connector.module.ts, storefront/shopify/shopify.module.ts, sandbox/sandbox.module.ts): the rest of a module is private to it.',
      severity: 'error',
      from: { path: APP },
      to: { path: ANY_MODULE, pathNot: MODULE_FILES },
    },
    {
      name: 'sandbox-opens-no-database',
      comment:
        'The sandbox receives its database and locks from the platform (db/client.ts, db/advisory-locks.ts): it opens no client or connection of its own and holds no session locks itself (transaction-scoped locks in its repositories, like row locks, are its own business).',
      severity: 'error',
      from: { path: MODULES.sandbox },
      to: { path: ['^node_modules/(pg|pg-pool|@electric-sql/pglite)/', '^node_modules/drizzle-orm/(node-postgres|pglite)/'] },
    },
    ...crossModuleRules,
    ...tablesRules,
    ...typeOnlyRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a circle of types is a circle all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// The layout itself, for test/architecture.test.ts, which checks docs/architecture.md against it and against the graph
// dependency-cruiser builds (not an option of dependency-cruiser's: it is defined as not enumerable, and so ignored).
Object.defineProperty(module.exports, 'layout', { value: { MODULES, PUBLIC, MODULE_FILES, TABLES, APP, KERNEL }, enumerable: false });
