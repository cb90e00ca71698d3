import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { PimPrincipal } from './auth/api-key-auth.service.js';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated PIM caller; set by the PIM auth hook on every PIM route. */
    pim: PimPrincipal;
  }
}

/** The PIM success envelope. */
export const ok = <T>(data: T) => ({ status: 1 as const, data, error: null });
