// Loading, empty and error states, the same on every page. Errors are always shown, in the server's words.
import type { ReactNode } from 'react';
import { messageOf } from '../api/errors';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <div role="alert" className="banner error">
      <span>{messageOf(error)}</span>
      {onRetry && (
        <button type="button" className="button secondary small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="banner success">
      {children}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
