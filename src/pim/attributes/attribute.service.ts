// Product attribute definitions, and the rules a product's `attributes` object must follow: keyed by attribute code,
// each value of its attribute's type. A definition cannot change in a way that would leave products with invalid values.
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AttributeColumns, AttributeDefinition, AttributeRepository } from './attribute.repository.js';
import { SELECT_TYPES, type AttributeCreateInput, type AttributeType, type AttributeUpdateInput, type AttributeView } from './attribute.schemas.js';

/** A product's attribute values as sent: code → value; in a PATCH, null removes the key. */
export type AttributeValues = Record<string, unknown>;

const TEXT_MAX = { text: 255, textarea: 65_535 } as const;
/** While products use an attribute, its type may change only where every existing value stays valid. */
const STRING_VALUED: readonly AttributeType[] = ['text', 'textarea', 'select', 'date'];
const canChangeInUse = (from: AttributeType, to: AttributeType) => (to === 'text' || to === 'textarea') && STRING_VALUED.includes(from);

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const isSelect = (type: AttributeType) => SELECT_TYPES.includes(type);

export class AttributeService {
  constructor(
    private readonly db: Db,
    private readonly attributes: AttributeRepository,
  ) {}

  list(organizationId: number): Promise<AttributeView[]> {
    return this.attributes.list(organizationId);
  }

  async get(organizationId: number, id: number): Promise<AttributeView> {
    const attribute = await this.attributes.find(organizationId, id);
    if (!attribute) throw notFound(`Product attribute ${id} not found`);
    return attribute;
  }

  async create(organizationId: number, input: AttributeCreateInput): Promise<AttributeView> {
    const options = input.options ?? [];
    checkDefinition(input.type, options);
    if ((await this.attributes.codeHolder(organizationId, input.code)) !== null) throw duplicateCode(input.code);
    const id = await uniqueCode(input.code, () =>
      this.attributes.insert(organizationId, {
        code: input.code,
        name: input.name,
        type: input.type,
        options,
        isRequired: input.is_required ?? false,
        requiredChannels: input.required_channels ?? [],
        metafield: input.metafield ?? null,
      }),
    );
    return this.get(organizationId, id);
  }

  /**
   * PUT and PATCH: changes the fields given. On an attribute that products use, a new code renames the key in those
   * products (same transaction), a type change must keep their values valid, and removed options must be unused.
   */
  async update(organizationId: number, id: number, input: AttributeUpdateInput): Promise<AttributeView> {
    await uniqueCode(input.code ?? '', () =>
      this.db.transaction(async (tx) => {
        const repo = this.attributes.with(tx);
        const current = await repo.lock(organizationId, id);
        if (!current) throw notFound(`Product attribute ${id} not found`);
        const type = input.type ?? current.type;
        // Options belong to select types only: leaving a select type drops them unless the body sends some (then a 400).
        const options = input.options ?? (isSelect(type) ? current.options : []);
        checkDefinition(type, options);
        const code = input.code ?? current.code;
        if (code !== current.code && (await repo.codeHolder(organizationId, code)) !== null) throw duplicateCode(code);

        const removed = isSelect(type) ? current.options.filter((o) => !options.includes(o)) : [];
        if (type !== current.type || removed.length > 0 || code !== current.code) {
          const using = await repo.productsUsing(organizationId, current.code);
          if (using > 0) {
            if (type !== current.type && !canChangeInUse(current.type, type)) {
              throw badRequest(
                `field 'type': attribute '${current.code}' is used by ${plural(using, 'product')}, whose ${current.type} values would not be valid ${type} values ` +
                  `(while in use, only text, textarea, select and date attributes can change, and only to text or textarea)`,
              );
            }
            const stillUsed = await repo.optionsInUse(organizationId, current.code, removed);
            if (stillUsed.length > 0) {
              const list = stillUsed.map((o) => `'${o.option}' (${plural(o.products, 'product')})`).join(', ');
              throw badRequest(`field 'options': attribute '${current.code}' cannot drop options that products still use: ${list}`);
            }
            if (code !== current.code) await repo.renameInProducts(organizationId, current.code, code);
          }
        }

        const columns: AttributeColumns = { options };
        if (input.code !== undefined) columns.code = input.code;
        if (input.name !== undefined) columns.name = input.name;
        if (input.type !== undefined) columns.type = input.type;
        if (input.is_required !== undefined) columns.isRequired = input.is_required;
        if (input.required_channels !== undefined) columns.requiredChannels = input.required_channels;
        if (input.metafield !== undefined) columns.metafield = input.metafield;
        await repo.update(organizationId, id, columns);
      }),
    );
    return this.get(organizationId, id);
  }

  /** Deletes an attribute that no product uses; one in use is a 400 saying how many products use it. */
  async delete(organizationId: number, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const repo = this.attributes.with(tx);
      const current = await repo.lock(organizationId, id);
      if (!current) throw notFound(`Product attribute ${id} not found`);
      const using = await repo.productsUsing(organizationId, current.code);
      if (using > 0) {
        throw badRequest(
          `Product attribute '${current.code}' is used by ${plural(using, 'product')}; remove it from them first ` +
            `(PATCH a product with {"attributes": {"${current.code}": null}})`,
        );
      }
      await repo.delete(organizationId, id);
    });
  }

  /**
   * Checks a product's attribute values against the organization's definitions (before its write). On create every
   * required attribute must have a value; in a PATCH a null value removes the key, except from a required attribute.
   */
  async checkProductValues(organizationId: number, values: AttributeValues, creating: boolean): Promise<void> {
    const definitions = await this.attributes.definitions(organizationId, Object.keys(values), { required: creating });
    checkValues(definitions, values, creating);
  }

  /**
   * The same check inside the product's write transaction, with the definitions it relies on locked FOR SHARE until
   * the commit: an attribute cannot be deleted, renamed or narrowed between the check and the write. Call it before
   * the product row is written (definitions first, then products: the order the attribute changes lock in).
   */
  async confirmProductValues(tx: Db, organizationId: number, values: AttributeValues): Promise<void> {
    const set = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
    if (Object.keys(set).length === 0) return;
    const definitions = await this.attributes.with(tx).definitions(organizationId, Object.keys(set), { share: true });
    checkValues(definitions, set, false);
  }
}

function duplicateCode(code: string) {
  return badRequest(`field 'code': an attribute with code '${code}' already exists`);
}

/** A write; the unique index on code, when a concurrent writer won, becomes the same 400 as the pre-check's. */
async function uniqueCode<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, 'product_attributes_org_code_uq')) throw duplicateCode(code);
    if (isUniqueViolation(err, 'product_attributes_org_metafield_uq')) throw badRequest(`field 'metafield': another attribute is that metafield already`);
    throw err;
  }
}

function checkDefinition(type: AttributeType, options: string[]): void {
  if (isSelect(type) && options.length === 0) {
    throw badRequest(`field 'options' must list at least one option for a ${type} attribute`);
  }
  if (!isSelect(type) && options.length > 0) {
    throw badRequest(`field 'options' is only for select and multiselect attributes, not ${type}`);
  }
}

export function checkValues(definitions: AttributeDefinition[], values: AttributeValues, creating: boolean): void {
  const byCode = new Map(definitions.map((d) => [d.code, d]));
  for (const [code, value] of Object.entries(values)) {
    const field = `field 'attributes.${code.length > 64 ? `${code.slice(0, 64)}…` : code}'`;
    const def = byCode.get(code);
    if (!def) throw badRequest(`${field}: no product attribute has this code`);
    if (value === null) {
      if (def.isRequired && !creating) throw badRequest(`${field}: attribute '${code}' is required and cannot be removed`);
      continue;
    }
    const problem = valueProblem(def, value);
    if (problem) throw badRequest(`${field} ${problem} (attribute '${code}' is of type ${def.type})`);
  }
  if (creating) {
    for (const def of definitions) {
      if (def.isRequired && (values[def.code] === undefined || values[def.code] === null)) {
        throw badRequest(`field 'attributes.${def.code}' is required (attribute '${def.code}' is required)`);
      }
    }
  }
}

/** Why a value does not fit its definition; null when it does. */
function valueProblem(def: AttributeDefinition, value: unknown): string | null {
  switch (def.type) {
    case 'text':
    case 'textarea':
      if (typeof value !== 'string' || value.length > TEXT_MAX[def.type]) return `must be a string of at most ${TEXT_MAX[def.type]} characters`;
      if (def.isRequired && value.trim() === '') return 'must not be empty: the attribute is required';
      return null;
    case 'number':
      // JSON.parse turns 1e400 into Infinity, which JSON cannot store: refused rather than silently nulled.
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a finite number (a JSON number, not a string)';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'must be a date written YYYY-MM-DD';
    case 'select':
      return typeof value === 'string' && def.options.includes(value) ? null : `must be one of: ${listOptions(def.options)}`;
    case 'multiselect': {
      const valid = Array.isArray(value) && value.every((v) => typeof v === 'string' && def.options.includes(v)) && new Set(value).size === value.length;
      if (!valid) return `must be an array of distinct values from: ${listOptions(def.options)}`;
      if (def.isRequired && value.length === 0) return 'must hold at least one value: the attribute is required';
      return null;
    }
  }
}

function listOptions(options: string[]): string {
  const shown = options.slice(0, 20).join(', ');
  return options.length > 20 ? `${shown}, … (${options.length} in all)` : shown;
}

function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}
