// The health score (DESIGN "Health score"): 100 minus penalties, each one named in `factors`, floored at 0.
// Pure: it sees only numbers the caller read, so the public status endpoint can compute it from stored state.
//
// | factor                              | penalty                                              |
// |-------------------------------------|------------------------------------------------------|
// | integration inactive                | −50                                                  |
// | PIM unreachable (last check)        | −30                                                  |
// | storefront unreachable (last check) | −30                                                  |
// | failed syncs in the last 24 h       | −5 each, at most −20                                 |
// | product mappings in `error`         | −ceil(20 × error / total), at most −20               |
// | failed queue jobs                   | −2 each, at most −10                                 |
// | no sync in 7 days                   | −10 (a never-synced integration after 7 days of life) |
// | storefront needs reauthorization    | −30 (in place of "unreachable": the same cause)      |
// | scopes the shop has not granted     | −10                                                  |
// 90+ excellent, 70+ good, 50+ fair, else poor. A connectivity never checked is no penalty (no evidence either way).

export type CheckState = 'connected' | 'error' | 'unknown';

export interface HealthInput {
  isActive: boolean;
  pim: CheckState;
  storefront: CheckState;
  /** Sync logs with status `error` or `partial` started in the last 24 h. */
  failedSyncs24h: number;
  mappingsTotal: number;
  mappingsInError: number;
  failedJobs: number;
  lastSyncAt: Date | null;
  createdAt: Date;
  now: Date;
  /** How the shop is connected (connector/shop-auth): a renewal refused for good, and the scopes not granted. */
  access?: { reauthorizationRequired: boolean; missingScopes: string[] };
}

export type HealthStatus = 'excellent' | 'good' | 'fair' | 'poor';

export interface HealthScore {
  score: number;
  status: HealthStatus;
  factors: string[];
}

export const HEALTH_WEIGHTS = {
  inactive: 50,
  pimUnreachable: 30,
  storefrontUnreachable: 30,
  failedSyncEach: 5,
  failedSyncsMax: 20,
  errorMappingsMax: 20,
  failedJobEach: 2,
  failedJobsMax: 10,
  staleSync: 10,
  staleSyncDays: 7,
  reauthorization: 30,
  missingScopes: 10,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export function healthStatus(score: number): HealthStatus {
  if (score >= 90) return 'excellent';
  if (score >= 70) return 'good';
  if (score >= 50) return 'fair';
  return 'poor';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function healthScore(input: HealthInput): HealthScore {
  const w = HEALTH_WEIGHTS;
  const penalties: Array<[string, number]> = [];
  if (!input.isActive) penalties.push(['Integration is inactive', w.inactive]);
  if (input.pim === 'error') penalties.push(['PIM is unreachable', w.pimUnreachable]);
  if (input.access?.reauthorizationRequired) penalties.push(['Storefront needs reauthorization', w.reauthorization]);
  else if (input.storefront === 'error') penalties.push(['Storefront is unreachable', w.storefrontUnreachable]);
  if (input.access && input.access.missingScopes.length > 0) {
    penalties.push([`Storefront has not granted ${input.access.missingScopes.join(', ')}`, w.missingScopes]);
  }
  if (input.failedSyncs24h > 0) {
    penalties.push([
      `${plural(input.failedSyncs24h, 'failed sync', 'failed syncs')} in the last 24 hours`,
      Math.min(w.failedSyncsMax, input.failedSyncs24h * w.failedSyncEach),
    ]);
  }
  if (input.mappingsInError > 0 && input.mappingsTotal > 0) {
    const share = Math.min(1, input.mappingsInError / input.mappingsTotal);
    penalties.push([
      `${plural(input.mappingsInError, 'product mapping', 'product mappings')} of ${input.mappingsTotal} in error`,
      Math.min(w.errorMappingsMax, Math.ceil(w.errorMappingsMax * share)),
    ]);
  }
  if (input.failedJobs > 0) {
    penalties.push([`${plural(input.failedJobs, 'failed queue job', 'failed queue jobs')}`, Math.min(w.failedJobsMax, input.failedJobs * w.failedJobEach)]);
  }
  const staleSince = input.now.getTime() - w.staleSyncDays * DAY_MS;
  const lastActivity = input.lastSyncAt ?? input.createdAt;
  if (lastActivity.getTime() < staleSince) {
    penalties.push([input.lastSyncAt ? `No sync in ${w.staleSyncDays} days` : `Never synced (connected over ${w.staleSyncDays} days ago)`, w.staleSync]);
  }
  const score = Math.max(0, 100 - penalties.reduce((sum, [, p]) => sum + p, 0));
  return { score, status: healthStatus(score), factors: penalties.map(([name, p]) => `${name} (-${p})`) };
}
