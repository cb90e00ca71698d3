// The PIM's request decoration and envelope. The `App` type every module registers on is the kernel's
// (http/app-type.ts).
import type { PimPrincipal } from './auth/api-key-auth.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated PIM caller; set by the PIM auth hook on every PIM route. */
    pim: PimPrincipal;
  }
}

/** The PIM success envelope. */
export const ok = <T>(data: T) => ({ status: 1 as const, data, error: null });
