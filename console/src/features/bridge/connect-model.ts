// "Connect a Shopify store" and how a shop is connected, without React: the store address a merchant types made into
// a shop domain, where an install starts, the ways in as a merchant names them, and which field a refusal belongs to.
// console/test/connect-model.test.ts runs them.

/** The three ways in (docs/connect-a-store.md), as GET /api/integrations and GET /api/status name them. */
export type AccessMethod = 'authorization_code' | 'client_credentials' | 'access_token';

export interface StoreAccess {
  method: AccessMethod;
  status: 'ok' | 'reauthorization_required';
  error: string | null;
  token_expires_at: string | null;
  granted_scopes: string[] | null;
  missing_scopes: string[];
}

export const ACCESS_METHOD_WORDS: Record<AccessMethod, string> = {
  authorization_code: 'Installed app',
  client_credentials: 'Own store app',
  access_token: 'Legacy token',
};

export const accessMethodWord = (method: string) => ACCESS_METHOD_WORDS[method as AccessMethod] ?? method;

/**
 * What a merchant types as the store's address, as a shop domain: `https://Acme.myshopify.com/admin` and
 * `admin.shopify.com/store/acme` are both `acme.myshopify.com`; a bare name (`acme`) is a myshopify.com store. Empty
 * for nothing typed; anything else is left for the server to judge (it names what is wrong).
 */
export function storeDomain(input: string): string {
  let text = input.trim().toLowerCase();
  if (!text) return '';
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const admin = /^admin\.shopify\.com\/store\/([a-z0-9][a-z0-9-]*)/.exec(text);
  if (admin) return `${admin[1]}.myshopify.com`;
  text = text.replace(/[/?#].*$/, '').replace(/\.$/, '');
  if (/^[a-z0-9][a-z0-9-]*$/.test(text)) return `${text}.myshopify.com`;
  return text;
}

/** Where an install (or a reauthorization, which is an install again) starts: a server page, not the console's. */
export const installHref = (domain: string) => `/shopify/install?shop=${encodeURIComponent(domain)}`;

/** Server paths a console page must reach with a full navigation (react-router knows none of them). */
export const isServerPath = (path: string) => path.startsWith('/shopify/');

/**
 * Where sign-in returns to (`?next=`): only a path of this site (`//host` and `/\host` are other sites to a
 * browser); else the products.
 */
export const safeNext = (next: string | null) => (next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/products');

export type ConnectField = 'domain' | 'client_id' | 'client_secret' | 'access_token';

/**
 * The field a refusal of POST /api/shops is about, to show it beside that field; null for a message about the whole
 * form (shown above the button). The server's messages: a store address that is not one, a shop of another account,
 * credentials the store did not accept, a token it refused.
 */
export function connectErrorField(message: string, way: 'own' | 'legacy'): ConnectField | null {
  if (/store address|is connected to another|\bdomain\b/i.test(message)) return 'domain';
  if (way === 'own' && /client[ _]id/i.test(message) && !/secret/i.test(message)) return 'client_id';
  if (way === 'own' && /credentials|secret|client/i.test(message)) return 'client_secret';
  if (way === 'legacy' && /token|unauthori[sz]ed|401|access/i.test(message)) return 'access_token';
  return null;
}

/** Missing scopes in a sentence: "write_files and read_locales". */
export function scopeList(scopes: string[]): string {
  if (scopes.length <= 1) return scopes.join('');
  return `${scopes.slice(0, -1).join(', ')} and ${scopes[scopes.length - 1]}`;
}
