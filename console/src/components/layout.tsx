// The frame of every signed-in page: the organization, the navigation, sign-out. Without a session it sends the
// merchant to sign-in, remembering the page (`?next=`), and back there after.
import { useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { messageOf } from '../api/errors';
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
  const [signOutError, setSignOutError] = useState<string | null>(null);
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
        <button type="button" className="button secondary" onClick={() => signOut().catch((err) => setSignOutError(messageOf(err)))}>
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
        {signOutError && (
          <p role="alert" className="banner error">
            {signOutError}
          </p>
        )}
        <Outlet />
      </main>
    </div>
  );
}
