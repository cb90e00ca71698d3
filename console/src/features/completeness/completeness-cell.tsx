// The product list's completeness column: each product's score over the channels it is on (GET
// /api/products/completeness for the page's ids: one call, shared by every row's cell). A product on no channel shows a
// dash. Hover, or a screen reader, says what is missing where.
import { useChannels } from '../catalogue/api';
import { useCompleteness } from './api';
import { scoreSummary, scoreTone } from './completeness-model';
import './completeness.css';

export function CompletenessScore({ productId, pageIds }: { productId: number; pageIds: readonly number[] }) {
  const completeness = useCompleteness(pageIds);
  const channels = useChannels();
  const labelOf = (value: string) => channels.data?.find((c) => c.value === value)?.label ?? value;
  const result = completeness.data?.find((r) => r.product_id === productId);
  let content: React.ReactNode;
  if (completeness.isPending) content = <span className="hint">…</span>;
  else if (!result || result.score === null)
    content = (
      <span className="hint">
        —<span className="visually-hidden">{completeness.isError ? ' completeness not known' : ' on no channel'}</span>
      </span>
    );
  else {
    const summary = scoreSummary(result, labelOf);
    content = (
      <span className={`badge ${scoreTone(result.score)} completeness-score`} title={summary} data-score={result.score}>
        {result.score} %<span className="visually-hidden"> complete. {summary}</span>
      </span>
    );
  }
  return content;
}
