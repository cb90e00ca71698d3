// Adding images to a product: files dropped on the zone or picked (uploaded one after the other, each answered on its
// own, so one bad file does not stop the others), or one image named by its URL (the server downloads it).
import { useMutation } from '@tanstack/react-query';
import { type DragEvent, type FormEvent, useId, useRef, useState } from 'react';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { ErrorBanner } from '../../components/status';

const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const MAX_BYTES = 20 * 1024 * 1024;
const looksLikeUrl = (text: string) => /^https?:\/\/\S+\.\S+/.test(text.trim());

/** The server names the field first (`file: …`); a merchant reads the file's own name there. */
const fileProblem = (file: File, err: unknown) => `${file.name}: ${messageOf(err).replace(/^(field '\w+'|file): ?/, '')}`;

/** The server's download refusal (`file_url: the host is not a public address (loopback)`) in a merchant's words. */
function downloadProblem(message: string): string {
  if (/not a public address|non-public address/.test(message)) {
    return "This address is on this computer or a private network, which Pimbridge does not download from: use the image's public address, or upload the file.";
  }
  return message.replace(/^file_url: /, 'The image could not be fetched: ');
}

/** What the browser can tell before sending: the type it gives and the size (the server checks the bytes themselves). */
function refusedBefore(file: File): string | null {
  if (file.type && !ACCEPTED.includes(file.type)) return `${file.name}: not a JPEG, PNG, WebP or GIF image`;
  if (file.size > MAX_BYTES) return `${file.name}: larger than 20 MB`;
  return null;
}

export function ProductMediaAdd({ productId, onAdded }: { productId: number; onAdded: (message: string) => void }) {
  const ids = useId();
  const picker = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      const failed: string[] = [];
      let added = 0;
      setProgress({ done: 0, total: files.length });
      for (const [i, file] of files.entries()) {
        const refused = refusedBefore(file);
        if (refused) failed.push(refused);
        else {
          const body = new FormData();
          body.append('file', file, file.name);
          try {
            unwrap(
              await api.POST('/api/products/{id}/media/upload', {
                params: { path: { id: productId } },
                body: body as never,
                bodySerializer: (b: unknown) => b as FormData,
              }),
            );
            added++;
          } catch (err) {
            failed.push(fileProblem(file, err));
          }
        }
        setProgress({ done: i + 1, total: files.length });
      }
      return { added, failed };
    },
    onSettled: () => setProgress(null),
    onSuccess: ({ added, failed }) => {
      setProblems(failed);
      if (added) onAdded(added === 1 ? 'Image added.' : `${added} images added.`);
    },
    onError: (err) => setProblems([messageOf(err)]),
  });

  const send = (list: FileList | null) => {
    const files = [...(list ?? [])];
    if (files.length && !upload.isPending) upload.mutate(files);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    send(event.dataTransfer.files);
  };

  return (
    <div className="product-media-add">
      <h3 id={`${ids}-h`}>Add images</h3>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target serves the pointer; the keyboard's way is the Choose files button inside */}
      <div
        className={`drop-zone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>
          {progress
            ? `Uploading ${Math.min(progress.done + 1, progress.total)} of ${progress.total}…`
            : 'Drop JPEG, PNG, WebP or GIF images here (up to 20 MB each), or'}
        </p>
        <button type="button" className="button secondary" disabled={upload.isPending} onClick={() => picker.current?.click()}>
          Choose files
        </button>
        <input
          ref={picker}
          type="file"
          accept={ACCEPTED.join(',')}
          multiple
          hidden
          aria-labelledby={`${ids}-h`}
          onChange={(e) => {
            send(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
      {problems.length > 0 && (
        <div role="alert" className="banner error">
          <span>{problems.length === 1 ? 'This image was not added:' : 'These images were not added:'}</span>
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <AddByUrl productId={productId} onAdded={onAdded} />
    </div>
  );
}

function AddByUrl({ productId, onAdded }: { productId: number; onAdded: (message: string) => void }) {
  const [url, setUrl] = useState('');
  const [alt, setAlt] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<unknown>(null);

  const add = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/products/{id}/media', {
          params: { path: { id: productId } },
          body: { file_url: url.trim(), ...(alt.trim() && { alt_text: alt.trim() }) },
        }),
      ),
    onSuccess: () => {
      setUrl('');
      setAlt('');
      setErrors({});
      setProblem(null);
      onAdded('Image added.');
    },
    onError: (err) => {
      const named = fieldErrors(err);
      // A download problem names the field as `file_url: …`.
      const field = named.alt_text ? 'alt_text' : Object.keys(named).length || /^file_url\b/.test(messageOf(err)) ? 'file_url' : null;
      setErrors(field ? { [field]: downloadProblem(messageOf(err)) } : {});
      setProblem(field ? null : err);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!looksLikeUrl(url)) {
      setErrors({ file_url: 'must be an http(s) address of a JPEG, PNG, WebP or GIF image' });
      return;
    }
    add.mutate();
  };

  return (
    <details className="product-media-url">
      <summary className="media-url-summary">Add an image from a web address</summary>
      <form onSubmit={submit} noValidate>
        {problem ? <ErrorBanner error={problem} /> : null}
        <div className="product-grid">
          <Field label="Image URL" error={errors.file_url} hint="JPEG, PNG, WebP or GIF, at most 20 MB">
            <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" autoComplete="off" spellCheck={false} />
          </Field>
          <Field label="Alternative text" error={errors.alt_text} hint="What the image shows, for screen readers">
            <input value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={1000} />
          </Field>
        </div>
        <button type="submit" className="button primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add image'}
        </button>
        {add.isPending && <span className="hint"> The server is downloading the image…</span>}
      </form>
    </details>
  );
}
