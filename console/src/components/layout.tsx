// The frame of every signed-in page: the organization, the navigation, sign-out. Without a session it sends the
// merchant to sign-in, remembering the page (`?next=`), and back there after. While signed in it holds the console's one
// stream of sync states (useLiveSync), whichever page is open.
import { useMutation } from '@tanstack/react-query';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { messageOf } from '../api/errors';
import { useLiveSync } from '../features/bridge/live';
import { useSession } from '../features/session/session';
import { Loading } from './status';

const NAV = [
  ['/products', 'Products'],
  ['/categories', 'Categories'],
  ['/attributes', 'Attributes'],
  ['/lists/brands', 'Brands'],
  ['/lists/suppliers', 'Suppliers'],
  ['/lists/vat-rates', 'VAT rates'],
  ['/lists/channels', 'Channels'],
  ['/lists/warehouses', 'Warehouses'],
  ['/lists/organization', 'Organization'],
  ['/files', 'Import & export'],
  ['/bridge', 'Shopify bridge'],
] as const;

export function Layout() {
  const { session, ended, signOut } = useSession();
  const location = useLocation();
  const leave = useMutation({ mutationFn: signOut });
  // The bridge's sync states, pushed by the server while signed in (features/bridge/live.ts).
  useLiveSync(!!session);
  if (session === undefined) return <Loading label="Opening the console…" />;
  if (session === null) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/sign-in?next=${next}${ended ? '&ended=1' : ''}`} replace />;
  }
  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Pimbridge</span>
        <span className="org" title="Signed-in organization">
          {session.organization.name}
        </span>
        <button type="button" className="button secondary" onClick={() => leave.mutate()}>
          Sign out
        </button>
      </header>
      <nav className="sidenav" aria-label="Main">
        <ul>
          {NAV.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to}>{label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {leave.error && (
          <p role="alert" className="banner error">
            {messageOf(leave.error)}
          </p>
        )}
        <Outlet />
      </main>
    </div>
  );
}
