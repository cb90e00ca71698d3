// How a shop is connected (the `access` of GET /api/integrations, the `storefront_access` of GET /api/status): the
// way in, the token's expiry when it expires, the access the store has not granted, and, when the store refused a
// renewal for good, what to do: install again (a server page, so a plain link) or connect with new credentials.
import { formatWhen } from './bridge-data';
import { accessMethodWord, installHref, type StoreAccess, scopeList } from './connect-model';

/** A scope's name that a narrow column may break after its underscores only (`write_` / `publications`). */
const breakable = (text: string) => text.split('_').flatMap((part, i, parts) => (i < parts.length - 1 ? [part, '_', <wbr key={`${text}-${i}`} />] : [part]));

/** Missing scopes as a warning badge naming them; nothing when the store granted everything. */
export function MissingScopes({ access }: { access: StoreAccess }) {
  if (access.missing_scopes.length === 0) return null;
  return <span className="badge warn bridge-scopes">Missing access: {breakable(scopeList(access.missing_scopes))}</span>;
}

/** When the token expires, for the ways whose tokens do (Pimbridge renews them by itself); null otherwise. */
export const tokenExpiry = (access: StoreAccess) =>
  access.token_expires_at && access.status === 'ok' ? formatWhen(access.token_expires_at, 'soon', true) : null;

const needsReauthorization = (access: StoreAccess) => access.status === 'reauthorization_required';

/** What to do about it: install again, or connect again with new credentials. */
function ReauthorizeAction({ access, domain }: { access: StoreAccess; domain: string }) {
  if (access.method === 'authorization_code')
    return (
      <a className="button primary small" href={installHref(domain)}>
        Reauthorize<span className="visually-hidden"> {domain}</span>
      </a>
    );
  return (
    <span className="hint">
      {access.method === 'client_credentials'
        ? 'Connect the store again under "Your own store" on the Shopify bridge page, with its current client ID and secret.'
        : 'Connect the store again under "Legacy custom app token" on the Shopify bridge page, with a new access token.'}
    </span>
  );
}

/** The overview's banner when the store refused a renewal for good: the store's words and what to do. */
export function ReauthorizeBanner({ access, domain }: { access: StoreAccess | null; domain: string }) {
  if (!access || !needsReauthorization(access)) return null;
  return (
    <div className="banner error bridge-reauth-banner">
      <div>
        <p>
          <strong>{domain} needs to be reauthorized.</strong>{' '}
          {access.method === 'authorization_code'
            ? 'Shopify no longer accepts the app’s access: nothing reaches the store until you approve it again.'
            : 'The store no longer accepts these credentials: nothing reaches it until you connect it again.'}
        </p>
        {access.error && <p className="bridge-reauth-detail">{access.error}</p>}
        {access.method !== 'authorization_code' && (
          <p>
            <ReauthorizeAction access={access} domain={domain} />
          </p>
        )}
      </div>
      {access.method === 'authorization_code' && <ReauthorizeAction access={access} domain={domain} />}
    </div>
  );
}

/** The integrations list's cell: the way in, the expiry, the missing access, reauthorization. */
export function AccessSummary({ access, domain }: { access: StoreAccess | null; domain: string }) {
  if (!access) return null;
  const expires = tokenExpiry(access);
  return (
    <div className="bridge-access">
      <div>{accessMethodWord(access.method)}</div>
      {expires && <div className="hint">Token expires {expires}, renewed automatically</div>}
      <MissingScopes access={access} />
      {needsReauthorization(access) && (
        <>
          <span className="badge error">Needs reauthorization</span>
          {access.method !== 'authorization_code' && access.error && <div className="bridge-error-text">{access.error}</div>}
          <ReauthorizeAction access={access} domain={domain} />
        </>
      )}
    </div>
  );
}

/** The overview's facts (in its Connections list): the way in, the token, the access granted. */
export function AccessFacts({ access }: { access: StoreAccess }) {
  const expires = tokenExpiry(access);
  return (
    <>
      <dt>Connected by</dt>
      <dd>
        {accessMethodWord(access.method)}
        {needsReauthorization(access) && (
          <>
            {' '}
            <span className="badge error">Needs reauthorization</span>
          </>
        )}
      </dd>
      {expires && (
        <>
          <dt>Token expires</dt>
          <dd>
            {expires}
            <div className="hint">Renewed automatically</div>
          </dd>
        </>
      )}
      <dt>Access</dt>
      <dd>
        {access.missing_scopes.length > 0 ? (
          <>
            <MissingScopes access={access} />
            <div className="hint">
              {access.method === 'authorization_code'
                ? 'What needs it fails until the store grants it: install the app again to grant it.'
                : "What needs it fails until the store grants it: add it to the app's access in Shopify."}
            </div>
          </>
        ) : access.granted_scopes ? (
          <span className="badge ok">All granted</span>
        ) : (
          <span className="hint">Not read yet</span>
        )}
      </dd>
    </>
  );
}
