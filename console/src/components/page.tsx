import { type ReactNode, useEffect } from 'react';

/** A page's heading and actions; the document title follows it. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Pimbridge`;
  }, [title]);
  return (
    <section className="page">
      <div className="page-head">
        <h1>{title}</h1>
        {actions && <div className="actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
