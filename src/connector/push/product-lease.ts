// One writer at a time per integration and product, across processes. An inline push and a sync.product job of the
// same product (or two jobs, or two pushes) could otherwise send their snapshots in any order, and an older one could
// land last. A lease row on the product's mapping (lease_owner, lease_until), not a PostgreSQL advisory lock: it needs
// no connection held through the storefront call (PGlite has one session; a pool could starve), and it works the same on
// both databases. The holder renews it while it writes; a crashed holder's lease runs out after LEASE_TTL_MS. Under the
// lease the writer compares versions (batch-run.ts): a snapshot older than the one on the storefront is not sent.
import { randomUUID } from 'node:crypto';
import type { MappingRepository, MappingRow } from '../mappings/mapping.repository.js';

export const LEASE_TTL_MS = 30_000;
/** The holder extends its lease this often (a third of its length: two renewals may be late before it runs out). */
const RENEW_MS = LEASE_TTL_MS / 3;
/** A writer waits this long for another's lease: longer than a dead holder's lease can last. */
export const LEASE_WAIT_MS = LEASE_TTL_MS + 15_000;

export class LeaseBusyError extends Error {
  override name = 'LeaseBusyError';
}

export interface ProductLease {
  readonly owner: string;
  /** The mapping as it is under the lease (`inserted`: made by this lease, so nothing of ours can be on the storefront). */
  readonly mapping: MappingRow & { storefrontVersion: Date | null; inserted: boolean };
  /** The lease ended with a write that cleared it (saveSynced): stop renewing, release nothing. */
  ended(): void;
  release(): Promise<void>;
}

export async function takeLease(
  mappings: Pick<MappingRepository, 'acquireLease' | 'renewLease' | 'releaseLease'>,
  integrationId: number,
  pimProductId: number,
  options: { signal?: AbortSignal; waitMs?: number } = {},
): Promise<ProductLease> {
  const owner = randomUUID();
  const deadline = Date.now() + (options.waitMs ?? LEASE_WAIT_MS);
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    options.signal?.throwIfAborted();
    const mapping = await mappings.acquireLease(integrationId, pimProductId, owner, LEASE_TTL_MS);
    if (mapping) {
      const renew = setInterval(() => void mappings.renewLease(integrationId, pimProductId, owner, LEASE_TTL_MS).catch(() => {}), RENEW_MS);
      renew.unref();
      let open = true;
      return {
        owner,
        mapping,
        ended: () => {
          clearInterval(renew);
          open = false;
        },
        release: async () => {
          clearInterval(renew);
          if (open) await mappings.releaseLease(integrationId, pimProductId, owner);
          open = false;
        },
      };
    }
    if (Date.now() + delay > deadline)
      throw new LeaseBusyError(`PIM product ${pimProductId} is being written to the storefront by another sync; try again shortly`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
