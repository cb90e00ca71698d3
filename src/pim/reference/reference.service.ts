// Names are unique per organization (per country for VAT rates); a duplicate is a 400 naming it.
import { badRequest } from '../../server/kernel/errors.js';
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
    private readonly repo: NamedListRepository,
    private readonly noun: string,
  ) {}

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
  constructor(private readonly repo: VatRateRepository) {}

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
