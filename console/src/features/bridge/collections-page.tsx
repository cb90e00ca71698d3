// /bridge/:integrationId/collections: the shop's custom collections the bridge made for PIM categories
// (GET /api/collections), and "Check now" (POST /api/collections/reconcile): a renamed category's collection is renamed,
// a deleted one's deleted, without waiting for the delta sync. Also the PIM languages the shop has not enabled
// (GET /api/status → translations.missing_locales): their translations are not sent until the shop adds the language.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bridge } from '../../api/client';
import { messageOf, toApiError } from '../../api/errors';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { type IntegrationSummary, useBridgeStatus, useCollections } from './api';
import { formatWhen } from './bridge-data';
import { BridgeFrame, StartJobCard } from './bridge-shell';
import { bridgeKeys } from './keys';
import './bridge-pages.css';

export default function BridgeCollectionsPage() {
  return <BridgeFrame section="Collections">{(integration) => <Collections integration={integration} />}</BridgeFrame>;
}

/** A language code as its English name where the browser knows it (`de` → German), the code beside it. */
function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

function Collections({ integration }: { integration: IntegrationSummary }) {
  const id = integration.id;
  const queryClient = useQueryClient();
  const collections = useCollections(id);
  const status = useBridgeStatus(id, false);
  const missing = status.data?.translations.missing_locales ?? [];

  // POST /api/collections/reconcile: what it renamed and deleted.
  const check = useMutation({
    mutationFn: async () => {
      const answer = await api.POST('/api/collections/reconcile', { headers: bridge(id) });
      if (!answer.response.ok || !answer.data) throw toApiError(answer.error, answer.response);
      return answer.data.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bridgeKeys.collections(id) }),
  });
  const r = check.data;
  const notice = r
    ? r.renamed + r.deleted === 0
      ? 'Every collection matches its category.'
      : `${r.renamed} renamed and ${r.deleted} deleted to match the PIM's categories.`
    : null;

  return (
    <>
      <StartJobCard
        id="collections-h"
        title="Categories as collections"
        onStart={() => check.mutate()}
        starting={check.isPending}
        running={false}
        labels={{ start: 'Check now', running: 'Check now', starting: 'Checking…' }}
        notice={notice}
        error={check.error ? messageOf(check.error) : null}
      >
        Each category with products on the shop is a collection there, with the same products. A renamed category renames its collection; one that is deleted,
        or left without products, has its collection removed from the shop at the next sync. Check now to do it at once.
      </StartJobCard>
      {collections.isPending && <Loading label="Reading the collections…" />}
      <ErrorBanner error={collections.error} onRetry={() => collections.refetch()} />
      {collections.data && collections.data.total === 0 && (
        <Empty>No collection yet: one is made for a category when the first of its products is pushed.</Empty>
      )}
      {collections.data && collections.data.total > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">The shop's collections of PIM categories</caption>
            <thead>
              <tr>
                <th scope="col">Collection</th>
                <th scope="col">Handle</th>
                <th scope="col" className="bridge-hide-narrow">
                  Category id
                </th>
                <th scope="col" className="bridge-hide-narrow">
                  Updated
                </th>
              </tr>
            </thead>
            <tbody>
              {collections.data.collections.map((c) => (
                <tr key={c.pim_category_id}>
                  <td>{c.title}</td>
                  <td>
                    <code>{c.handle}</code>
                  </td>
                  <td className="bridge-hide-narrow">{c.pim_category_id}</td>
                  <td className="bridge-hide-narrow">{formatWhen(c.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section aria-labelledby="languages-h" className="bridge-languages">
        <h2 id="languages-h">Languages</h2>
        {missing.length === 0 ? (
          <p className="hint">Every language of the catalogue's translations that a push met is enabled on the shop, or there are none.</p>
        ) : (
          <>
            <p>The shop has not enabled these languages of the catalogue's translations, so they are not sent. Add them in the shop's languages settings:</p>
            <ul>
              {missing.map((code) => (
                <li key={code}>{languageName(code)}</li>
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}
