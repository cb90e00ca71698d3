// Adopting a connected shop's existing catalogue (POST /api/adopt): the shop's products are read with one bulk query,
// the PIM's in keyset pages of 100 (with their variants), matched (matching.ts: our metafield, SKU, barcode, handle),
// and the matches linked as `pending` mappings that carry the storefront ids — the next push or full sync updates those
// products instead of creating new ones. Nothing is written to the shop. With `import_unmatched`, the shop's unmatched
// products become PIM products through the PIM's catalogue import (one file, shop-drafts.ts) and are linked the same
// way. `start` records the adoption and its catalogue.adopt job in one transaction; `run` (the job) records the bulk
// query and the import before waiting on them, so a restarted job follows them instead of starting new ones, and the
// mappings it wrote on an earlier try count as its matches again.
import { randomUUID } from 'node:crypto';
import { JOB, type CatalogueAdoptJob } from '../../jobs/job-types.js';
import { ConnectorError } from '../connector.errors.js';
import { clip } from '../push/push-results.js';
import { AdoptionFailure, AdoptionRun, type UnmatchedPimItem, type UnmatchedShopItem } from './adoption-run.js';
import { type AdoptionDeps, type AdoptionOptions, DEFAULT_ADOPTION_OPTIONS } from './adoption.deps.js';
import type { AdoptionPhase, AdoptionRow } from './adoption.repository.js';
import type { MatchRule } from './matching.js';

// The composition root builds the service with these options and imports their type from here.
export type { AdoptionOptions };

/** A full adoption id (anything else is NOT_FOUND). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What GET /api/adopt/{id} answers. */
export interface AdoptionView {
  id: string;
  state: AdoptionRow['state'];
  import_unmatched: boolean;
  progress: { phase: AdoptionPhase | null; done: number; total: number | null; percent: number | null };
  counts: {
    shop_products: number | null;
    pim_products: number | null;
    matched: number | null;
    matched_by: Record<MatchRule | 'imported', number> | null;
    already_mapped: number | null;
    unmatched_shop: number | null;
    unmatched_pim: number | null;
    imported: number | null;
  };
  unmatched: { shop: UnmatchedShopItem[]; pim: UnmatchedPimItem[] };
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export type StartResult = { started: true; adoption: AdoptionView } | { started: false; adoption: AdoptionView | null; fullSyncId?: string };

/**
 * POST /api/adopt's body: none, `{}`, or `{import_unmatched: boolean}`; anything else is VALIDATION_FAILED naming the
 * field (strict bodies, as every connector route).
 */
export function parseStartBody(body: unknown): { import_unmatched: boolean } {
  if (body === undefined) return { import_unmatched: false };
  // JSON `null` is a body, and not the object the OpenAPI document declares.
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ConnectorError('VALIDATION_FAILED', 'The request body must be a JSON object, e.g. {"import_unmatched": true}');
  const unknown = Object.keys(body).filter((k) => k !== 'import_unmatched');
  if (unknown.length) throw new ConnectorError('VALIDATION_FAILED', `field '${unknown[0]}' is not allowed (the body takes only import_unmatched)`);
  const value = (body as { import_unmatched?: unknown }).import_unmatched;
  if (value !== undefined && typeof value !== 'boolean') throw new ConnectorError('VALIDATION_FAILED', "field 'import_unmatched' must be a boolean");
  return { import_unmatched: value === true };
}

export class AdoptionService {
  readonly options: Readonly<AdoptionOptions>;
  private readonly now: () => Date;

  constructor(
    private readonly deps: AdoptionDeps,
    options: Partial<AdoptionOptions> = {},
  ) {
    this.options = { ...DEFAULT_ADOPTION_OPTIONS, ...options };
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Starts an adoption unless one is queued or running for the integration (that one is answered) or a full sync is
   * (it would create the products the adoption is about to link).
   */
  async start(integrationId: number, body: { import_unmatched?: boolean }): Promise<StartResult> {
    const { db, repo, queue, txExecutor, liveJobs } = this.deps;
    const importUnmatched = body.import_unmatched === true;
    if (importUnmatched && !this.deps.importer) {
      throw new ConnectorError('VALIDATION_FAILED', 'import_unmatched is not available: this server cannot write catalogue files for the PIM import yet');
    }
    const stale = await repo.findOpen(integrationId);
    if (stale && liveJobs && (await liveJobs(integrationId)) === 0) await this.failAdoption(stale.id, 'Interrupted: no job was left to finish it');
    const result = await db.transaction(async (tx) => {
      const r = repo.with(tx);
      // The lock makes check-then-insert safe against a concurrent start on another node.
      const integration = await r.lockIntegration(integrationId);
      if (!integration?.active) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
      const open = await r.findOpen(integrationId);
      if (open) return { started: false as const, adoption: view(open) };
      const fullSyncId = await r.openFullSync(integrationId);
      if (fullSyncId) return { started: false as const, adoption: null, fullSyncId };
      const id = randomUUID();
      const row = await r.create(id, integrationId, importUnmatched, this.now());
      await queue.send(JOB.catalogueAdopt, { integrationId, adoptionId: id }, { id, db: txExecutor(tx) });
      return { started: true as const, adoption: view(row) };
    });
    // Committed: this process's workers take the job now rather than at their next poll.
    if (result.started) queue.wake?.(JOB.catalogueAdopt);
    return result;
  }

  /** One adoption of the integration; anything else (another integration's, not an id) is NOT_FOUND. */
  async progress(integrationId: number, id: string): Promise<AdoptionView> {
    const row = UUID.test(id) ? await this.deps.repo.find(id.toLowerCase(), integrationId) : null;
    if (!row) throw new ConnectorError('NOT_FOUND', `Adoption ${id} not found`);
    return view(row);
  }

  /** The catalogue.adopt handler: reads both sides, matches, links, imports; a throw lets the queue retry. */
  async run(job: CatalogueAdoptJob, signal?: AbortSignal): Promise<void> {
    const { repo } = this.deps;
    const found = await repo.find(job.adoptionId, job.integrationId);
    if (!found || (found.state !== 'queued' && found.state !== 'running')) return;
    const [conn, shop] = await Promise.all([
      this.deps.integrations.pimConnectionOf(found.integrationId),
      this.deps.integrations.storefrontShopOf(found.integrationId),
    ]);
    if (!conn || !shop || conn.isActive === false) return this.failAdoption(found.id, 'The integration was disconnected');
    const row = await repo.markRunning(found.id, this.now());
    if (!row) return;
    try {
      await new AdoptionRun(this, this.deps, row, { baseUrl: conn.baseUrl, apiKey: conn.apiKey }, shop, signal).run();
    } catch (err) {
      if (err instanceof AdoptionFailure) return this.failAdoption(row.id, err.message);
      throw err;
    }
  }

  /** The last try of the job failed (or the job was given up): the adoption fails with the reason. */
  async runFailed(job: CatalogueAdoptJob, reason: string): Promise<void> {
    await this.failAdoption(job.adoptionId, reason);
  }

  async failAdoption(id: string, error: string): Promise<void> {
    await this.deps.repo.fail(id, clip(error), this.now());
  }

  /** The service's clock. */
  get clock(): () => Date {
    return this.now;
  }
}

function view(row: AdoptionRow): AdoptionView {
  const done = row.state === 'completed' ? (row.progressTotal ?? row.progressDone) : row.progressDone;
  const total = row.progressTotal;
  return {
    id: row.id,
    state: row.state,
    import_unmatched: row.importUnmatched,
    progress: {
      phase: row.phase,
      done,
      total,
      percent: row.state === 'completed' ? 100 : total ? Math.floor((Math.min(done, total) / total) * 1000) / 10 : null,
    },
    counts: {
      shop_products: row.shopProducts,
      pim_products: row.pimProducts,
      matched: row.matched,
      matched_by: row.matchedBy as AdoptionView['counts']['matched_by'],
      already_mapped: row.alreadyMapped,
      unmatched_shop: row.unmatchedShop,
      unmatched_pim: row.unmatchedPim,
      imported: row.imported,
    },
    unmatched: { shop: (row.unmatchedShopList ?? []) as UnmatchedShopItem[], pim: (row.unmatchedPimList ?? []) as UnmatchedPimItem[] },
    error: row.error,
    created_at: row.createdAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
  };
}
