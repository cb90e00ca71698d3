// The admin API's schemas: its error answer, the id parameter, an organization, and what every route's schema shares.
import { Type } from '@sinclair/typebox';

export const Organization = Type.Object({ id: Type.Integer(), name: Type.String(), active: Type.Boolean() });
export const AdminError = Type.Object({ error: Type.String() }, { description: 'Error answer of the admin API' });
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) });
export const errors = { '4xx': AdminError, '5xx': AdminError };
export const tags = ['Admin'];
export const security = [{ adminToken: [] }];
