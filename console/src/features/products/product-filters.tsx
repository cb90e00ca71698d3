// The product list's filters: search (typed, the URL follows 250 ms later), status, brand, channel, category, per page.
import { Field } from '../../components/field';
import { NamedOptions } from '../../components/named-options';
import { useBrands, useCategories, useChannels } from '../catalogue/api';
import { CHANNELS, type ListFilters, PER_PAGE, STATUS_LABEL, STATUSES } from './product-model';

export function ProductFilters({
  filters,
  text,
  onText,
  onSubmit,
  update,
}: {
  filters: ListFilters;
  text: string;
  onText: (text: string) => void;
  onSubmit: () => void;
  update: (change: Partial<ListFilters>) => void;
}) {
  const brands = useBrands();
  const channels = useChannels();
  const categories = useCategories();
  const channelOptions = channels.data ?? CHANNELS.map((value) => ({ value, label: value, description: '' }));
  return (
    <search aria-label="Find products">
      <form
        className="product-filters"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Field label="Search">
          <input type="search" value={text} onChange={(e) => onText(e.target.value)} placeholder="Name, SKU or description" maxLength={200} />
        </Field>
        <Field label="Status">
          <select value={filters.status} onChange={(e) => update({ status: e.target.value as ListFilters['status'] })}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Brand" error={brands.error ? 'Brands could not be loaded' : null}>
          <select value={filters.brand ?? ''} onChange={(e) => update({ brand: e.target.value ? Number(e.target.value) : null })}>
            <NamedOptions none="Any brand" items={brands.data} />
          </select>
        </Field>
        <Field label="Channel">
          <select value={filters.channel} onChange={(e) => update({ channel: e.target.value as ListFilters['channel'] })}>
            <option value="">Any channel</option>
            {channelOptions.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Category" error={categories.error ? 'Categories could not be loaded' : null}>
          <select value={filters.category ?? ''} onChange={(e) => update({ category: e.target.value ? Number(e.target.value) : null })}>
            <option value="">Any category</option>
            {categories.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {'\u00a0\u00a0'.repeat(c.level)}
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Per page">
          <select value={filters.perPage} onChange={(e) => update({ perPage: Number(e.target.value) as ListFilters['perPage'] })}>
            {PER_PAGE.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </Field>
      </form>
    </search>
  );
}
