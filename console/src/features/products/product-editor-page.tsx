// One product: its details and attributes, images, stock, variants, translations and its state in each Shopify store.
// The edits of its details and variants are saved together by the page's save bar; images and stock are kept as they
// are given. /products/new shows the details only; once created the page becomes /products/{id}.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { Page } from '../../components/page';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { useAttributeDefinitions } from '../catalogue/api';
import { useOrganization } from '../organization/api';
import { productChanged, productListsChanged, useProduct, useVariants } from './api';
import { productKeys } from './keys';
import { CompletenessChecklist } from '../completeness/completeness-checklist';
import { ProductFields } from './product-fields';
import { ProductHistory } from './product-history';
import { ProductMedia } from './product-media';
import { ProductOptions } from './product-options';
import { UnsavedChangesScope } from '../../components/unsaved-changes';
import { STATUS_LABEL, statusTone } from './product-model';
import { ProductShopify } from './product-shopify';
import { ProductStock } from './product-stock';
import { ProductTranslations } from './product-translations';
import { ProductVariants } from './product-variants';
import './product-pages.css';

export default function ProductEditorPage() {
  const params = useParams();
  const id = params.id === undefined ? null : Number(params.id);
  if (id !== null && !(Number.isInteger(id) && id > 0)) {
    return (
      <Page title="Product not found">
        <p>
          “{params.id}” is not a product id. <Link to="/products">All products</Link>
        </p>
      </Page>
    );
  }
  return <Editor key={id ?? 'new'} id={id} />;
}

function Editor({ id }: { id: number | null }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { list?: string; created?: boolean } | null;
  const backTo = `/products${state?.list ?? ''}`;
  const { confirm, dialog } = useConfirm();
  const definitions = useAttributeDefinitions();
  // Whether the product sells as itself or as its variants (the details show its selling fields only in the first case).
  const variants = useVariants(id);
  // A new product starts in the organization's default currency.
  const organization = useOrganization();
  const organizationReady = id !== null || !organization.isPending;
  const [archivedNotice, setArchivedNotice] = useState<string | null>(null);
  // The details form starts again from the product when something else than the form changed its fields.
  const [formVersion, setFormVersion] = useState(0);
  /** The completeness checklist's "Translate into": a new object each time, so the same language asked twice opens again. */
  const [translateInto, setTranslateInto] = useState<{ locale: string } | null>(null);

  const product = useProduct(id);

  // A section changed something the product carries (its images, stock, variants, translations).
  const changed = () => {
    if (id !== null) productChanged(queryClient, id);
  };

  const archive = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/products/{id}', { params: { path: { id: id! } } })).data,
    onSuccess: (saved) => {
      queryClient.setQueryData(productKeys.detail(saved.id), saved);
      productListsChanged(queryClient);
      setFormVersion((v) => v + 1);
      setArchivedNotice('The product is archived. It stays in the catalogue with the status Archived.');
    },
  });

  const p = product.data;
  const title = id === null ? 'New product' : (p?.name ?? 'Product');
  const actions = (
    <>
      <Link className="button secondary" to={backTo}>
        All products
      </Link>
      {p && p.status !== 'archived' && (
        <button
          type="button"
          className="button danger"
          disabled={archive.isPending}
          onClick={async () => {
            if (await confirm(`Delete “${p.name}”? It is archived: kept with the status Archived, out of the active catalogue.`)) archive.mutate();
          }}
        >
          {archive.isPending ? 'Deleting…' : 'Delete product'}
        </button>
      )}
    </>
  );

  return (
    <Page title={title} actions={actions}>
      {dialog}
      <UnsavedChangesScope saveBar={id !== null}>
        {p && (
          <p className="product-meta">
            <span className={`badge ${statusTone(p.status)}`}>{STATUS_LABEL[p.status] ?? p.status}</span> <span className="mono">{p.sku}</span>
            <span className="hint">changed {new Date(p.updated_at).toLocaleString()}</span>
          </p>
        )}
        {state?.created && p && <Notice>Product created. Add its images, stock and variants below.</Notice>}
        {archivedNotice && <Notice>{archivedNotice}</Notice>}
        <ErrorBanner error={archive.error} />
        <ErrorBanner error={product.error} onRetry={() => product.refetch()} />
        <ErrorBanner error={definitions.error} onRetry={() => definitions.refetch()} />
        {((id !== null && product.isPending) || definitions.isPending || !organizationReady) && !product.error && <Loading label="Loading the product…" />}

        {definitions.data && organizationReady && (id === null || p) && (
          <div className="product-layout">
            {p && <CompletenessChecklist productId={p.id} onTranslate={(locale) => setTranslateInto({ locale })} />}
            <ProductFields
              key={p ? `${p.id}-${formVersion}` : 'new'}
              product={p ?? null}
              definitions={definitions.data}
              hasVariants={id === null ? false : variants.data ? variants.data.length > 0 : undefined}
              defaultCurrency={organization.data?.default_currency}
              onSaved={(saved, created) => {
                queryClient.setQueryData(productKeys.detail(saved.id), saved);
                productListsChanged(queryClient);
                if (created) navigate(`/products/${saved.id}`, { replace: true, state: { list: state?.list, created: true, saved: true } });
              }}
            />
            {p ? (
              <>
                <ProductMedia productId={p.id} productName={p.name} onChanged={changed} confirm={confirm} />
                <ProductStock productId={p.id} onChanged={changed} />
                <ProductVariants productId={p.id} currency={p.currency} onChanged={changed} confirm={confirm} />
                <ProductOptions productId={p.id} onMade={changed} />
                <ProductTranslations product={p} onChanged={changed} confirm={confirm} open={translateInto} />
                <ProductShopify productId={p.id} />
                <ProductHistory product={p} confirm={confirm} onRestored={() => setFormVersion((v) => v + 1)} />
              </>
            ) : (
              <p className="hint">Images, stock, variants, translations and Shopify come once the product is created.</p>
            )}
          </div>
        )}
      </UnsavedChangesScope>
    </Page>
  );
}
