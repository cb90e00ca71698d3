// A product's images: the list in order (the first is the main image), moved by dragging or by the Earlier / Later
// buttons (the keyboard's way), each with its alternative text editable in place and removable after a confirmation;
// new ones are added by upload or by URL (product-media-add.tsx). Each change is saved at once, as Shopify's admin does.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { useProductMedia } from './api';
import { productKeys } from './keys';
import { ProductMediaAdd } from './product-media-add';

type MediaItem = NonNullable<ReturnType<typeof useProductMedia>['data']>[number];

export function ProductMedia({
  productId,
  productName,
  onChanged,
  confirm,
}: {
  productId: number;
  productName: string;
  onChanged: () => void;
  confirm: (message: string) => Promise<boolean>;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const media = useProductMedia(productId);
  const [problem, setProblem] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);

  const refresh = (message: string) => {
    setNotice(message);
    setProblem(null);
    void queryClient.invalidateQueries({ queryKey: productKeys.media(productId) });
    onChanged();
  };

  const remove = useMutation({
    mutationFn: async (mediaId: number) => unwrap(await api.DELETE('/api/products/{id}/media/{mediaId}', { params: { path: { id: productId, mediaId } } })),
    onSuccess: () => refresh('Image removed.'),
    onError: (err) => setProblem(err),
  });

  const update = useMutation({
    mutationFn: async ({ mediaId, ...body }: { mediaId: number; position?: number; alt_text?: string | null }) =>
      unwrap(await api.PATCH('/api/products/{id}/media/{mediaId}', { params: { path: { id: productId, mediaId } }, body })),
    onSuccess: (_data, { position }) => refresh(position === undefined ? 'Alternative text saved.' : position === 0 ? 'Main image changed.' : 'Image moved.'),
    onError: (err) => setProblem(err),
  });
  const move = (mediaId: number, position: number) => update.mutate({ mediaId, position });

  const list = media.data ?? [];
  return (
    <section className="card product-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Images</h2>
      {notice && <Notice>{notice}</Notice>}
      {problem ? <ErrorBanner error={problem} /> : null}
      <ErrorBanner error={media.error} onRetry={() => media.refetch()} />
      {media.isPending && <Loading label="Loading images…" />}
      {media.data && list.length === 0 && <p className="hint">No images yet.</p>}
      {list.length > 1 && <p className="hint">Drag an image to move it; the first one is the main image.</p>}
      {list.length > 0 && (
        <ol className="product-media">
          {list.map((m, i) => (
            <li
              key={m.id}
              draggable
              className={dragged === m.id ? 'dragging' : undefined}
              onDragStart={(e) => {
                setDragged(m.id);
                e.dataTransfer.effectAllowed = 'move';
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(e) => {
                if (dragged !== null) e.preventDefault();
              }}
              onDrop={(e) => {
                e.preventDefault();
                if (dragged !== null && dragged !== m.id) move(dragged, i);
                setDragged(null);
              }}
            >
              <img src={m.url} alt={m.alt_text || `${productName}, image ${i + 1}`} width={m.width} height={m.height} loading="lazy" />
              <div className="product-media-meta">
                <span>
                  {i === 0 ? 'Main image' : `Image ${i + 1}`} · {m.width}×{m.height}
                </span>
                <AltText item={m} number={i + 1} busy={update.isPending} onSave={(alt_text) => update.mutate({ mediaId: m.id, alt_text })} />
                <div className="product-media-actions">
                  <button type="button" className="button secondary small" disabled={i === 0 || update.isPending} onClick={() => move(m.id, i - 1)}>
                    Earlier<span className="visually-hidden"> (image {i + 1})</span>
                  </button>
                  <button
                    type="button"
                    className="button secondary small"
                    disabled={i === list.length - 1 || update.isPending}
                    onClick={() => move(m.id, i + 1)}
                  >
                    Later<span className="visually-hidden"> (image {i + 1})</span>
                  </button>
                  <button
                    type="button"
                    className="button danger small"
                    disabled={remove.isPending}
                    onClick={async () => {
                      if (await confirm(`Remove image ${i + 1} from “${productName}”?`)) remove.mutate(m.id);
                    }}
                  >
                    Remove<span className="visually-hidden"> image {i + 1}</span>
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ol>
      )}
      <ProductMediaAdd productId={productId} onAdded={refresh} />
    </section>
  );
}

/** The image's alternative text, saved when it changed and the field is left (or Enter is pressed). */
function AltText({ item, number, busy, onSave }: { item: MediaItem; number: number; busy: boolean; onSave: (alt: string | null) => void }) {
  const [text, setText] = useState(item.alt_text ?? '');
  const save = () => {
    const next = text.trim() || null;
    if (next !== item.alt_text) onSave(next);
  };
  return (
    <label className="product-media-alt">
      <span className="visually-hidden">Alternative text of image {number}</span>
      <input
        value={text}
        placeholder="Alternative text"
        maxLength={1000}
        disabled={busy}
        title="What the image shows, for screen readers"
        onChange={(e) => setText(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            save();
          }
        }}
      />
    </label>
  );
}
