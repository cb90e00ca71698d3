// Bulk operations in the sandbox, as Shopify runs them (../shared/notes/shopify.md, "Large syncs"). Mutations:
// - stagedUploadsCreate(BULK_MUTATION_VARIABLES) hands out a POST target served by the sandbox itself, with a signed
//   policy in its form parameters (GCS-style); the upload route stores the posted JSONL (at most 100 MB;
//   staged-uploads.ts);
// - bulkOperationRunMutation(mutation, stagedUploadPath) checks the document (productSet only) and the file, refuses a
//   sixth running bulk mutation on the store (OPERATION_IN_PROGRESS; five may run at once), and runs every line in the
//   background through the same productSet resolver as the per-call endpoint, without charging the cost bucket per line;
// - the result file (one `{"data": …, "__lineNumber": n}` per line) is served at a signed URL once COMPLETED.
// Queries (bulkOperationRunQuery): the document is checked against Shopify's rules (bulk-query-runner.ts), a sixth
// running query on the store is refused (OPERATION_IN_PROGRESS), and the query runs in the background over every page
// of its root connection; its result file has one line per node, nested connections' nodes on lines of their own with
// `__parentId` (https://shopify.dev/docs/api/usage/bulk-operations/queries). Both kinds share the machinery below:
// one owner per operation, the same status, counts, result file and signed URL.
// Liveness: the process running an operation owns it. It holds a lock on the operation for the whole run (taken in
// the transaction that creates it, on a session of its own: the platform's `Locks`, db/advisory-locks.ts, advisory
// locks on PostgreSQL, in memory on PGlite where only one process opens the database), so any process can tell a dead
// owner (the lock is free) and mark the operation FAILED (INTERNAL_SERVER_ERROR) when the store is next used.
import type { LockKey, Locks, LockSession } from '../db/advisory-locks.js';
import type { Db } from '../db/client.js';
import { safeEqual } from '../lib/crypto.js';
import type { BulkOperationRow, BulkOperationType, SandboxBulkRepository } from './bulk-operation.repository.js';
import type { SandboxStore } from './sandbox-store.repository.js';
import { acceptUpload, signFor, type StagedTarget, type StagedUploadInput, stageUploads, type UploadAnswer } from './staged-uploads.js';

/** Shopify's limit for a bulk mutation variables file. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/**
 * "In API versions 2026-01 and higher, you can run up to five bulk mutation operations at a time per shop"
 * (https://shopify.dev/docs/api/usage/bulk-operations/imports; https://shopify.dev/changelog/faster-bulk-operations).
 */
export const MAX_RUNNING_BULK_MUTATIONS = 5;
/**
 * "In API versions 2026-01 and higher, you can run up to five bulk query operations at a time per shop. In API
 * versions prior to 2026-01, you can run only one bulk operation of each type […] at a time per shop"
 * (https://shopify.dev/docs/api/usage/bulk-operations/queries, "Limitations"); the sandbox answers 2026-10 only.
 * Queries and mutations are counted apart: "Bulk query and bulk mutation operations can run at the same time per
 * shop" (schema 2026-10, Mutation.bulkOperationRunQuery).
 */
export const MAX_RUNNING_BULK_QUERIES = 5;
/** Advisory-lock class of the two-key locks an operation's owner holds (the second key is the operation id). */
const OWNER_LOCK_CLASS = 1_651_001;
const ownerKey = (id: number): LockKey => [OWNER_LOCK_CLASS, id];

export interface BulkUserError {
  field: string[] | null;
  message: string;
  code:
    | 'INTERNAL_FILE_SERVER_ERROR'
    | 'INVALID'
    | 'INVALID_MUTATION'
    | 'INVALID_STAGED_UPLOAD_FILE'
    | 'LIMIT_REACHED'
    | 'NO_SUCH_FILE'
    | 'OPERATION_IN_PROGRESS';
}

/**
 * What the service reads of the context an operation starts in: its store. The rest (the resolvers' context,
 * resolvers/types.ts) goes through to the runners untouched, so this file needs no resolver types.
 */
export interface BulkContext {
  store: SandboxStore;
}

/** How one line runs (bulk-runner.ts, loaded with graphql-js only when an operation starts). */
export interface LineRunner<C extends BulkContext = BulkContext> {
  run(line: string, lineNumber: number, context: C): Promise<string>;
}

/** What a running operation's work is given: stop and pause points, and where its running counts go. */
export interface RunControl {
  /** Waits while the test gate is closed; throws once the operation is being stopped (server shutdown). */
  checkpoint(): Promise<void>;
  /** The running counts (objectCount, rootObjectCount), written at most twice a second. */
  progress(objects: number, roots: number): Promise<void>;
}

/** What a finished operation leaves: its counts and its result file (JSONL, '' for none). */
export interface OperationOutcome {
  objectCount: number;
  rootObjectCount: number;
  result: string;
}

/** How a bulk query runs (bulk-query-runner.ts, loaded with graphql-js only when an operation starts). */
export interface QueryRunner<C extends BulkContext = BulkContext> {
  run(context: C, control: RunControl): Promise<OperationOutcome>;
}

type Work = (control: RunControl) => Promise<OperationOutcome>;

interface Running {
  stop(): void;
  done: Promise<void>;
}

/** What the bulk service works with: its repository, and the platform's locks its operations' owners hold. */
export interface SandboxBulkDeps {
  db: Db;
  repo: SandboxBulkRepository;
  locks: Locks<Db>;
  log?: { error(obj: unknown, msg: string): void };
}

export interface SandboxBulkOptions {
  /** Lines a bulk mutation runs at once (sandbox.module.ts: half the pool on PostgreSQL, at most 8; 1 on PGlite). */
  concurrency?: number;
  /** Largest accepted upload (default Shopify's 100 MB). */
  maxUploadBytes?: number;
  /**
   * Asked before each line a run takes: a promise it returns is awaited first (so a test can hold an operation
   * RUNNING and watch it); null goes straight on. Absent: never pauses.
   */
  pause?: () => Promise<void> | null;
}

export class SandboxBulkService {
  /** Largest accepted upload. */
  readonly maxUploadBytes: number;
  /** Lines run at once: PostgreSQL overlaps their round trips and commits; PGlite runs one statement at a time anyway. */
  concurrency: number;
  private readonly pause: () => Promise<void> | null;
  private readonly db: Db;
  private readonly repo: SandboxBulkRepository;
  private readonly locks: Locks<Db>;
  private readonly log: { error(obj: unknown, msg: string): void };
  private readonly running = new Map<number, Running>();
  private closed = false;

  constructor(deps: SandboxBulkDeps, options: SandboxBulkOptions = {}) {
    ({ db: this.db, repo: this.repo, locks: this.locks } = deps);
    this.log = deps.log ?? { error: () => {} };
    this.maxUploadBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;
    this.pause = options.pause ?? (() => null);
    this.concurrency = options.concurrency ?? 1;
  }
  // Staged uploads (staged-uploads.ts)

  stagedUploads(
    store: SandboxStore,
    inputs: StagedUploadInput[],
    baseUrl: string,
  ): Promise<{ stagedTargets: StagedTarget[]; userErrors: { field: string[]; message: string }[] }> {
    return stageUploads(this.repo, this.maxUploadBytes, store, inputs, baseUrl);
  }

  /** A file posted to a staged target, checked against its policy. */
  acceptUpload(store: SandboxStore | null, fields: Record<string, string>, content: Buffer): Promise<UploadAnswer> {
    return acceptUpload(this.repo, this.maxUploadBytes, store, fields, content);
  }

  // Operations

  /**
   * Starts a bulk mutation: the document was checked by the caller (`runner` runs its lines). Refuses a missing or
   * malformed file and a store already running MAX_RUNNING_BULK_MUTATIONS; never charges the lines to the cost bucket.
   */
  async start<C extends BulkContext>(
    context: C,
    stagedUploadPath: string,
    mutation: string,
    runner: LineRunner<C>,
  ): Promise<{ operation: BulkOperationRow | null; userErrors: BulkUserError[] }> {
    const store = context.store;
    const content = await this.repo.uploadContent(store.id, stagedUploadPath);
    if (content === null) {
      return {
        operation: null,
        userErrors: [
          {
            field: ['stagedUploadPath'],
            message: `The JSONL file could not be found. Try uploading the file again, and check that you've entered the URL correctly for the stagedUploadPath mutation argument.`,
            code: 'NO_SUCH_FILE',
          },
        ],
      };
    }
    const lines = content.split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (const line of lines) {
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = null;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return { operation: null, userErrors: [{ field: null, message: 'Unexpected file structure - expected JSONL', code: 'INVALID_STAGED_UPLOAD_FILE' }] };
      }
    }
    const begun = await this.begin(context, 'MUTATION', mutation, stagedUploadPath, (control) => this.runLines(lines, runner, context, control));
    if (begun.busy !== null) {
      // Shopify's live answer to a sixth: field null, the running operations' ids listed.
      const ids = begun.busy.map((id) => `gid://shopify/BulkOperation/${id}`).join(', ');
      return {
        operation: null,
        userErrors: [
          { field: null, message: `A bulk mutation operation for this app and shop is already in progress: ${ids}.`, code: 'OPERATION_IN_PROGRESS' },
        ],
      };
    }
    return { operation: begun.operation, userErrors: [] };
  }

  /**
   * Starts a bulk query: the document was checked by the caller (`runner` runs it, bulk-query-runner.ts). Refuses a
   * store already running MAX_RUNNING_BULK_QUERIES queries; the query's nodes are not charged to the cost bucket.
   */
  async startQuery<C extends BulkContext>(
    context: C,
    query: string,
    runner: QueryRunner<C>,
  ): Promise<{ operation: BulkOperationRow | null; userErrors: BulkUserError[] }> {
    const begun = await this.begin(context, 'QUERY', query, '', (control) => runner.run(context, control));
    if (begun.busy !== null) {
      // The answer Shopify gives an app whose query operations are all running: field null, their ids listed (the
      // message as apps report it, e.g. "A bulk query operation for this app and shop is already in progress: gid://…").
      const ids = begun.busy.map((id) => `gid://shopify/BulkOperation/${id}`).join(', ');
      return {
        operation: null,
        userErrors: [{ field: null, message: `A bulk query operation for this app and shop is already in progress: ${ids}.`, code: 'OPERATION_IN_PROGRESS' }],
      };
    }
    return { operation: begun.operation, userErrors: [] };
  }

  /**
   * Creates an operation of `type` unless the store runs its maximum of that type already (`busy`: their ids), and
   * launches `work` once the row is committed. Unfinished operations of a dead owner are marked FAILED on the way.
   */
  private async begin(
    context: BulkContext,
    type: BulkOperationType,
    document: string,
    stagedUploadPath: string,
    work: Work,
  ): Promise<{ operation: BulkOperationRow | null; busy: number[] | null }> {
    const store = context.store;
    if (this.closed) throw new Error('the sandbox is shutting down');
    const max = type === 'QUERY' ? MAX_RUNNING_BULK_QUERIES : MAX_RUNNING_BULK_MUTATIONS;
    const conn = await this.locks.session();
    const made: { operation: BulkOperationRow | null; busy: number[] | null } = { operation: null, busy: null };
    let committed: (ok: boolean) => void = () => {};
    const ready = new Promise<boolean>((resolve) => (committed = resolve));
    let launched = false; // from then on the runner owns the connection (it releases it when `ready` says false)
    try {
      await conn.db.transaction(async (tx) => {
        const repo = this.repo.with(tx);
        await repo.lockStore(store.id);
        const live: number[] = [];
        for (const id of await repo.activeIds(store.id, type)) {
          if (this.running.has(id) || !(await this.ownerGone(tx, id))) live.push(id);
          else await repo.fail(id, 'INTERNAL_SERVER_ERROR');
        }
        if (live.length >= max) {
          made.busy = live.sort((a, b) => a - b);
          return;
        }
        made.operation = await repo.insertOperation(store.id, type, document, stagedUploadPath);
        await conn.hold(tx, ownerKey(made.operation.id));
        // Registered before the commit, so that a recovery in this process never takes it for a dead one; it starts
        // once the commit is through.
        this.launch(made.operation.id, work, conn, ready);
        launched = true;
      });
    } catch (err) {
      committed(false);
      if (!launched) await conn.close(null);
      throw err;
    }
    committed(true);
    if (made.busy !== null) await conn.close(null);
    return made;
  }

  /** A bulk mutation's work: every line of the file through `runner`, a few at a time, the results in line order. */
  private async runLines<C extends BulkContext>(lines: string[], runner: LineRunner<C>, context: C, control: RunControl): Promise<OperationOutcome> {
    const out: string[] = new Array(lines.length);
    let processed = 0;
    let next = 0;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= lines.length) return;
        await control.checkpoint();
        if (lines[i].trim() === '') continue;
        out[i] = await runner.run(lines[i], i, context);
        processed++;
        await control.progress(processed, processed);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, Math.max(1, lines.length)) }, worker));
    const result = out.filter((l) => l !== undefined).join('\n');
    return { objectCount: processed, rootObjectCount: processed, result: result === '' ? '' : `${result}\n` };
  }

  /** One operation of the store (unfinished ones of a dead owner are marked FAILED first). */
  async operation(store: SandboxStore, id: number): Promise<BulkOperationRow | null> {
    await this.recover(store.id);
    return this.repo.operation(store.id, id);
  }

  async latest(store: SandboxStore, type?: BulkOperationType): Promise<BulkOperationRow | null> {
    await this.recover(store.id);
    return this.repo.latest(store.id, type);
  }

  /** The store's operations, newest first (bulkOperations), optionally of one type. */
  async list(store: SandboxStore, statuses: string[] | null, beforeId: number, limit: number, type?: BulkOperationType): Promise<BulkOperationRow[]> {
    await this.recover(store.id);
    return this.repo.list(store.id, statuses, beforeId, limit, type);
  }

  /** The result file's URL: signed, so that anyone holding it can download it without the token (as Shopify's). */
  resultUrl(store: SandboxStore, id: number, baseUrl: string): string {
    return `${baseUrl}/bulk-operation-results/${id}.jsonl?signature=${signFor(store, `result:${id}`)}`;
  }

  /** The result file behind a signed URL; null for a wrong signature, an unknown operation or one not completed. */
  async resultFile(store: SandboxStore | null, id: number, signature: string): Promise<string | null> {
    if (!store || !safeEqual(signature, signFor(store, `result:${id}`))) return null;
    return this.repo.result(store.id, id);
  }

  /** Marks the store's unfinished operations whose owner is gone FAILED. */
  async recover(storeId: number | null): Promise<void> {
    for (const id of await this.repo.activeIds(storeId)) {
      if (this.running.has(id)) continue;
      await this.db.transaction(async (tx) => {
        if (await this.ownerGone(tx, id)) await this.repo.with(tx).fail(id, 'INTERNAL_SERVER_ERROR');
      });
    }
  }

  /** Stops the running operations (server shutdown): each is marked FAILED, as a killed process's would be later. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    for (const r of all) r.stop();
    await Promise.all(all.map((r) => r.done));
  }

  /** Operations this process is running. */
  get runningCount(): number {
    return this.running.size;
  }

  private ownerGone(tx: Db, id: number): Promise<boolean> {
    return this.locks.isFree(tx, ownerKey(id));
  }

  private launch(id: number, work: Work, conn: LockSession<Db>, ready: Promise<boolean>): void {
    let stopped = false;
    let wake: () => void = () => {};
    const stopping = new Promise<void>((resolve) => (wake = resolve));
    const stop = () => {
      stopped = true;
      wake();
    };
    let reported = Date.now();
    const control: RunControl = {
      checkpoint: async () => {
        const paused = this.pause();
        if (paused) await Promise.race([paused, stopping]);
        if (stopped) throw new Error('stopped');
        // PGlite answers without I/O: without this the run would hold the event loop (and every request) until done.
        await new Promise((r) => setImmediate(r));
      },
      progress: async (objects, roots) => {
        if (Date.now() - reported < 500) return;
        reported = Date.now();
        await this.repo.progress(id, objects, roots);
      },
    };
    const done = (async () => {
      if (!(await ready)) {
        this.running.delete(id);
        await conn.close(null);
        return;
      }
      try {
        await this.repo.setRunning(id);
        const outcome = await work(control);
        await this.repo.complete(id, outcome.objectCount, outcome.rootObjectCount, outcome.result);
      } catch (err) {
        if (!stopped) this.log.error({ err, bulkOperationId: id }, 'sandbox bulk operation failed');
        await this.repo.fail(id, 'INTERNAL_SERVER_ERROR').catch(() => {});
      } finally {
        this.running.delete(id);
        await conn.close(ownerKey(id));
      }
    })();
    this.running.set(id, { stop, done });
  }
}
