// Saved views of the product list: each API key's own (a console user is the key it signed in with).
import { badRequest, notFound } from '../../http/errors.js';
import type { ViewRepository } from './view.repository.js';
import { MAX_VIEWS, type ViewBodyInput, type ViewView } from './view.schemas.js';

export class ViewService {
  constructor(private readonly views: ViewRepository) {}

  list(organizationId: number, keyId: number): Promise<ViewView[]> {
    return this.views.list(organizationId, keyId);
  }

  async save(organizationId: number, keyId: number, body: ViewBodyInput): Promise<ViewView> {
    const name = body.name.trim();
    if (name === '') throw badRequest(`field 'name' must not be blank`);
    const existing = await this.views.list(organizationId, keyId);
    if (!existing.some((v) => v.name === name) && existing.length >= MAX_VIEWS) {
      throw badRequest(`at most ${MAX_VIEWS} saved views; delete one first`);
    }
    return this.views.save(organizationId, keyId, { ...body, name });
  }

  async delete(organizationId: number, keyId: number, id: number): Promise<void> {
    if (!(await this.views.delete(organizationId, keyId, id))) throw notFound(`View ${id} not found`);
  }
}
