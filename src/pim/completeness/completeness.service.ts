// Completeness per channel and language (beyond the spec): what a product lacks before a channel can show it whole.
import { badRequest, notFound } from '../../http/errors.js';
import { completenessOf, type ProductCompleteness } from './completeness.js';
import type { CompletenessRepository } from './completeness.repository.js';

export class CompletenessService {
  constructor(private readonly repository: CompletenessRepository) {}

  /** The completeness of the organization's products among `ids` (unknown and foreign ids are left out), by id. */
  async ofProducts(organizationId: number, ids: number[]): Promise<ProductCompleteness[]> {
    const { languages, definitions, products } = await this.repository.facts(organizationId, ids);
    return products.map((product) => completenessOf(product, definitions, languages));
  }

  /** `ids` as the query gives it (digits and commas, checked by its schema); an id past int4 is a 400, not an SQL error. */
  ofIdList(organizationId: number, raw: string): Promise<ProductCompleteness[]> {
    const ids = raw.split(',').map(Number);
    if (ids.some((id) => id < 1 || id > 2_147_483_647)) throw badRequest(`query parameter 'ids' must list product ids from 1 to 2147483647`);
    return this.ofProducts(organizationId, [...new Set(ids)]);
  }

  async ofProduct(organizationId: number, id: number): Promise<ProductCompleteness> {
    const [found] = await this.ofProducts(organizationId, [id]);
    if (!found) throw notFound(`Product ${id} not found`);
    return found;
  }
}
