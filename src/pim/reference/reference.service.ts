// Names are unique per organization (per country for VAT rates); a duplicate is a 400 naming it. An edit moves the
// updated_at of the products that show the row, in the same transaction, so that the bridge's delta sync sends them.
import type { Db } from '../../db/client.js';
import { AppError, badRequest } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { NamedListRepository, NamedRow, VatRateRepository, VatRateRow } from './reference.repository.js';

async function uniquely<T>(what: string, check: () => Promise<unknown>, insert: () => Promise<T>): Promise<T> {
  if (await check()) throw badRequest(`${what} already exists`);
  try {
    return await insert();
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(`${what} already exists`);
    throw err;
  }
}

export class NamedListService {
  constructor(
    private readonly db: Db,
    private readonly repo: NamedListRepository,
    private readonly noun: string,
  ) {}

  rename(organizationId: number, id: number, name: string): Promise<NamedRow> {
    return this.db.transaction(async (tx) => {
      const repo = this.repo.with(tx);
      return uniquely(
        `${this.noun} '${name}'`,
        () => repo.findOtherByName(organizationId, name, id),
        async () => {
          const row = await repo.rename(organizationId, id, name);
          if (!row) throw new AppError('not_found', `${capitalised(this.noun)} ${id} not found`);
          await repo.touchProducts(organizationId, id);
          return row;
        },
      );
    });
  }

  list(organizationId: number): Promise<NamedRow[]> {
    return this.repo.list(organizationId);
  }

  create(organizationId: number, name: string): Promise<NamedRow> {
    return uniquely(
      `${this.noun} '${name}'`,
      () => this.repo.findByName(organizationId, name),
      () => this.repo.insert(organizationId, name),
    );
  }
}

export class VatRateService {
  constructor(
    private readonly db: Db,
    private readonly repo: VatRateRepository,
  ) {}

  update(organizationId: number, id: number, input: { name: string; rate: string; country_code: string }): Promise<VatRateRow> {
    return this.db.transaction(async (tx) => {
      const repo = this.repo.with(tx);
      return uniquely(
        `VAT rate '${input.name}' for ${input.country_code}`,
        () => repo.findOther(organizationId, input.name, input.country_code, id),
        async () => {
          const row = await repo.update(organizationId, id, input);
          if (!row) throw new AppError('not_found', `VAT rate ${id} not found`);
          await repo.touchProducts(organizationId, id);
          return row;
        },
      );
    });
  }

  list(organizationId: number): Promise<VatRateRow[]> {
    return this.repo.list(organizationId);
  }

  create(organizationId: number, input: { name: string; rate: string; country_code: string }): Promise<VatRateRow> {
    return uniquely(
      `VAT rate '${input.name}' for ${input.country_code}`,
      () => this.repo.find(organizationId, input.name, input.country_code),
      () => this.repo.insert(organizationId, input),
    );
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
