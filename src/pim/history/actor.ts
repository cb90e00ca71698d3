// Who a request's write is, for the product's history: the API key it authenticated with, directly or behind the
// console's session.
import type { PimPrincipal } from '../auth/api-key-auth.service.js';
import type { Actor } from './history.repository.js';

export const actorOf = (principal: PimPrincipal): Actor => ({ kind: principal.via, keyId: principal.keyId, label: null });
