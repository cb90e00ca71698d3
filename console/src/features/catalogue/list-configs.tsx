// What each reference list reads (its query of api.ts: the key every page reads the list by) and sends. Brands and suppliers: a name (GET, POST, PUT /api/brands|suppliers/{id}).
// VAT rates: name, rate, country (GET, POST, PUT /api/vat-rates/{id}). None of these three can be deleted through the
// API. Warehouses: code, name, country (GET, POST, PUT, DELETE /api/warehouses/{id}). Channels: the organization's
// whole list is replaced at once (GET, PUT /api/channels; six known values at most; an empty list restores the
// defaults), so adding, changing and removing one each send the list as it should become.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import {
  type Brand,
  brandsQuery,
  type Channel,
  channelsQuery,
  type Supplier,
  suppliersQuery,
  type VatRate,
  vatRatesQuery,
  type Warehouse,
  warehousesQuery,
} from './api';
import type { ListConfig } from './list-editor';
import { CHANNEL_NAMES, CHANNEL_VALUES, type ChannelValue, countryOrNull, formatRate, normalizeRate, type Values } from './list-model';

type Named = Brand | Supplier;
type WarehouseCountry = paths['/api/warehouses']['post']['requestBody']['content']['application/json']['country_code'];

const nameField = { key: 'name', label: 'Name', required: true, maxLength: 255 };

const brands: ListConfig<Named> = {
  kind: 'brands',
  title: 'Brands',
  singular: 'brand',
  fields: [nameField],
  columns: [{ label: 'Name', cell: (b) => b.name }],
  keyOf: (b) => b.id,
  nameOf: (b) => b.name,
  valuesOf: (b) => ({ name: b.name }),
  query: brandsQuery,
  create: async (v) => unwrap(await api.POST('/api/brands', { body: { name: v.name!.trim() } })).data,
  update: async (b, v) => unwrap(await api.PUT('/api/brands/{id}', { params: { path: { id: b.id } }, body: { name: v.name!.trim() } })).data,
};

const suppliers: ListConfig<Named> = {
  kind: 'suppliers',
  title: 'Suppliers',
  singular: 'supplier',
  fields: [nameField],
  columns: [{ label: 'Name', cell: (s) => s.name }],
  keyOf: (s) => s.id,
  nameOf: (s) => s.name,
  valuesOf: (s) => ({ name: s.name }),
  query: suppliersQuery,
  create: async (v) => unwrap(await api.POST('/api/suppliers', { body: { name: v.name!.trim() } })).data,
  update: async (s, v) => unwrap(await api.PUT('/api/suppliers/{id}', { params: { path: { id: s.id } }, body: { name: v.name!.trim() } })).data,
};

const vatBody = (v: Values) => ({ name: v.name!.trim(), rate: normalizeRate(v.rate), country_code: countryOrNull(v.country_code) ?? '' });

const vatRates: ListConfig<VatRate> = {
  kind: 'vat-rates',
  title: 'VAT rates',
  singular: 'VAT rate',
  fields: [
    { key: 'name', label: 'Name', required: true, maxLength: 100, hint: 'For example “Standard” or “Reduced”' },
    { key: 'rate', label: 'Rate (%)', required: true, inputMode: 'decimal', hint: 'A percentage such as 19 or 7.5', mono: true },
    {
      key: 'country_code',
      label: 'Country',
      required: true,
      maxLength: 2,
      autoCapitalize: 'characters',
      hint: 'Two letters (ISO 3166), such as DE',
      mono: true,
    },
  ],
  columns: [
    { label: 'Name', cell: (r) => r.name },
    { label: 'Rate', cell: (r) => `${formatRate(r.rate)} %` },
    { label: 'Country', cell: (r) => r.country_code },
  ],
  keyOf: (r) => r.id,
  nameOf: (r) => r.name,
  valuesOf: (r) => ({ name: r.name, rate: formatRate(r.rate), country_code: r.country_code }),
  query: vatRatesQuery,
  create: async (v) => unwrap(await api.POST('/api/vat-rates', { body: vatBody(v) })).data,
  update: async (r, v) => unwrap(await api.PUT('/api/vat-rates/{id}', { params: { path: { id: r.id } }, body: vatBody(v) })).data,
};

const warehouseBody = (v: Values) => ({ code: v.code!.trim(), name: v.name!.trim(), country_code: countryOrNull(v.country_code) as WarehouseCountry });

const warehouses: ListConfig<Warehouse> = {
  kind: 'warehouses',
  title: 'Warehouses',
  singular: 'warehouse',
  intro: 'Stock is kept per warehouse; a product’s stock is the sum over them. The code names the warehouse in CSV files.',
  fields: [
    { key: 'code', label: 'Code', required: true, maxLength: 64, hint: 'Unique, such as BER-1', mono: true },
    nameField,
    { key: 'country_code', label: 'Country', maxLength: 2, autoCapitalize: 'characters', hint: 'Optional: two letters (ISO 3166), such as DE', mono: true },
  ],
  columns: [
    { label: 'Code', cell: (w) => <code>{w.code}</code> },
    { label: 'Name', cell: (w) => w.name },
    { label: 'Country', cell: (w) => w.country_code ?? '—' },
  ],
  keyOf: (w) => w.id,
  nameOf: (w) => w.name,
  valuesOf: (w) => ({ code: w.code, name: w.name, country_code: w.country_code ?? '' }),
  query: warehousesQuery,
  create: async (v) => unwrap(await api.POST('/api/warehouses', { body: warehouseBody(v) })).data,
  update: async (w, v) => unwrap(await api.PUT('/api/warehouses/{id}', { params: { path: { id: w.id } }, body: warehouseBody(v) })).data,
  remove: {
    run: async (w) => void unwrap(await api.DELETE('/api/warehouses/{id}', { params: { path: { id: w.id } } })),
    warning: (w) => `Delete the warehouse ${w.name} (${w.code})? Its stock levels are deleted with it and product stock is recomputed.`,
  },
};

/** One channel as PUT /api/channels takes it: an empty label or description falls back to the channel's default. */
const channelInput = (c: { value: string; label?: string; description?: string }) => ({
  value: c.value as ChannelValue,
  ...(c.label?.trim() ? { label: c.label.trim() } : {}),
  ...(c.description?.trim() ? { description: c.description.trim() } : {}),
});

async function putChannels(list: { value: string; label?: string; description?: string }[], pick?: string): Promise<Channel | undefined> {
  const answer = unwrap(await api.PUT('/api/channels', { body: { channels: list.map(channelInput) } })).data;
  return answer.channels.find((c) => c.value === pick);
}

const channels: ListConfig<Channel> = {
  kind: 'channels',
  title: 'Channels',
  singular: 'channel',
  intro:
    'The places products are published to. Six channels are known; a product lists the ones it is published on. Without any configured, Web and Mobile apply.',
  fields: [
    {
      key: 'value',
      label: 'Channel',
      createOnly: true,
      options: (rows) => CHANNEL_VALUES.filter((v) => !rows.some((r) => r.value === v)).map((v) => ({ value: v, label: `${CHANNEL_NAMES[v]} (${v})` })),
    },
    { key: 'label', label: 'Label', maxLength: 100, hint: 'Leave empty for the default' },
    { key: 'description', label: 'Description', maxLength: 500, hint: 'Leave empty for the default' },
  ],
  columns: [
    { label: 'Label', cell: (c) => c.label },
    { label: 'Channel', cell: (c) => <code>{c.value}</code> },
    { label: 'Description', cell: (c) => c.description },
  ],
  keyOf: (c) => c.value,
  nameOf: (c) => c.label,
  valuesOf: (c) => ({ value: c.value, label: c.label, description: c.description }),
  query: channelsQuery,
  create: (v, rows) => putChannels([...rows, { value: v.value!, label: v.label, description: v.description }], v.value),
  update: (c, v, rows) =>
    putChannels(
      rows.map((r) => (r.value === c.value ? { value: c.value, label: v.label, description: v.description } : r)),
      c.value,
    ),
  remove: {
    run: async (c, rows) => void (await putChannels(rows.filter((r) => r.value !== c.value))),
    warning: (c) => `Remove the channel ${c.label}? Removing the last one restores the defaults (Web and Mobile).`,
  },
  canAdd: (rows) => rows.length < CHANNEL_VALUES.length,
  fullMessage: 'All six channels are configured. Edit one to change its label or description.',
  reset: { label: 'Restore the defaults', warning: 'Replace the channels with the defaults (Web and Mobile)?', run: async () => void (await putChannels([])) },
};

export const LIST_CONFIGS = { brands, suppliers, 'vat-rates': vatRates, warehouses, channels } as const;
export type ListKind = keyof typeof LIST_CONFIGS;
export const isListKind = (kind: string | undefined): kind is ListKind => !!kind && Object.hasOwn(LIST_CONFIGS, kind);
