// A product's images: the list in order, one added by URL (the server downloads and stores it) at the first or last
// place, and one removed after a confirmation.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { useProductMedia } from './api';
import { productKeys } from './keys';

const looksLikeUrl = (text: string) => /^https?:\/\/\S+\.\S+/.test(text.trim());

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
  const [url, setUrl] = useState('');
  const [alt, setAlt] = useState('');
  const [place, setPlace] = useState<'last' | 'first'>('last');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: productKeys.media(productId) });
    onChanged();
  };

  const add = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/products/{id}/media', {
          params: { path: { id: productId } },
          body: { file_url: url.trim(), ...(alt.trim() && { alt_text: alt.trim() }), ...(place === 'first' && { position: 0 }) },
        }),
      ),
    onSuccess: (answer) => {
      setUrl('');
      setAlt('');
      setErrors({});
      setProblem(null);
      setNotice(answer.data ? 'Image added.' : null);
      refresh();
    },
    onError: (err) => {
      const named = fieldErrors(err);
      const mapped: Record<string, string> = {};
      for (const [k, v] of Object.entries(named)) mapped[k === 'alt_text' ? 'alt_text' : 'file_url'] = v;
      // A download problem names the field as `file_url: …`.
      if (!Object.keys(mapped).length && /^file_url\b/.test(messageOf(err))) mapped.file_url = messageOf(err);
      setErrors(mapped);
      setProblem(Object.keys(mapped).length ? null : err);
    },
  });

  const remove = useMutation({
    mutationFn: async (mediaId: number) => unwrap(await api.DELETE('/api/products/{id}/media/{mediaId}', { params: { path: { id: productId, mediaId } } })),
    onSuccess: () => {
      setNotice('Image removed.');
      refresh();
    },
    onError: (err) => setProblem(err),
  });

  const move = useMutation({
    mutationFn: async ({ mediaId, position }: { mediaId: number; position: number }) =>
      unwrap(await api.PATCH('/api/products/{id}/media/{mediaId}', { params: { path: { id: productId, mediaId } }, body: { position } })),
    onSuccess: (_data, { position }) => {
      setNotice(position === 0 ? 'Main image changed.' : 'Image moved.');
      refresh();
    },
    onError: (err) => setProblem(err),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    if (!looksLikeUrl(url)) {
      setErrors({ file_url: 'must be an http(s) address of a JPEG, PNG, WebP or GIF image' });
      return;
    }
    add.mutate();
  };

  const list = media.data ?? [];
  return (
    <section className="card product-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Images</h2>
      {notice && <Notice>{notice}</Notice>}
      {problem ? <ErrorBanner error={problem} /> : null}
      <ErrorBanner error={media.error} onRetry={() => media.refetch()} />
      {media.isPending && <Loading label="Loading images…" />}
      {media.data && list.length === 0 && <p className="hint">No images yet.</p>}
      {list.length > 0 && (
        <ol className="product-media">
          {list.map((m, i) => (
            <li key={m.id}>
              <img src={m.url} alt={m.alt_text || `${productName}, image ${i + 1}`} width={m.width} height={m.height} loading="lazy" />
              <div className="product-media-meta">
                <span>
                  {i === 0 ? 'Main image' : `Image ${i + 1}`} · {m.width}×{m.height}
                </span>
                <button
                  type="button"
                  className="button secondary small"
                  disabled={i === 0 || move.isPending}
                  onClick={() => move.mutate({ mediaId: m.id, position: i - 1 })}
                >
                  Earlier<span className="visually-hidden"> (image {i + 1})</span>
                </button>
                <button
                  type="button"
                  className="button secondary small"
                  disabled={i === list.length - 1 || move.isPending}
                  onClick={() => move.mutate({ mediaId: m.id, position: i + 1 })}
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
            </li>
          ))}
        </ol>
      )}

      <form className="product-media-add" onSubmit={submit} noValidate>
        <h3>Add an image</h3>
        <div className="product-grid">
          <Field label="Image URL" error={errors.file_url} hint="JPEG, PNG, WebP or GIF, at most 20 MB">
            <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" autoComplete="off" spellCheck={false} />
          </Field>
          <Field label="Alternative text" error={errors.alt_text} hint="What the image shows, for screen readers">
            <input value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={500} />
          </Field>
          <Field label="Place">
            <select value={place} onChange={(e) => setPlace(e.target.value as 'last' | 'first')}>
              <option value="last">After the others</option>
              <option value="first">First (main image)</option>
            </select>
          </Field>
        </div>
        {looksLikeUrl(url) && (
          <figure className="product-preview">
            <img src={url.trim()} alt={alt.trim() || 'Preview of the image to add'} />
            <figcaption className="hint">Preview</figcaption>
          </figure>
        )}
        <button type="submit" className="button primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add image'}
        </button>
        {add.isPending && <span className="hint"> The server is downloading the image…</span>}
      </form>
    </section>
  );
}
