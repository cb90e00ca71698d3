// The sandbox's two OAuth pages, plain HTML with inline CSS and no script: the consent page of the authorization code
// grant (the app, the shop, the scopes asked for, Install and Cancel) and the error page Shopify shows instead of it
// ("Oauth error invalid_request: …"). docs/sandbox/oauth.md.

const escapeMap: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => escapeMap[c]);
}

const STYLE = `
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f1f1f1; color: #303030; margin: 0; }
  main { max-width: 32rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 1.5rem 2rem;
         box-shadow: 0 1px 3px rgba(0,0,0,.15); }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  p { line-height: 1.5; }
  ul { padding-left: 1.25rem; }
  li { margin: .25rem 0; }
  code { font-family: ui-monospace, monospace; background: #f4f4f4; padding: 0 .25rem; border-radius: 4px; }
  .actions { display: flex; gap: .75rem; justify-content: flex-end; margin-top: 1.5rem; }
  button { font: inherit; border-radius: 8px; padding: .5rem 1rem; cursor: pointer; border: 1px solid #8a8a8a; background: #fff; color: #303030; }
  button.primary { background: #303030; color: #fff; border-color: #303030; }
  button:focus-visible { outline: 3px solid #005bd3; outline-offset: 2px; }
  .error { border-left: 4px solid #c70a24; padding-left: 1rem; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface ConsentPageInput {
  appName: string;
  shopName: string;
  domain: string;
  scopes: readonly string[];
  /** Where the form posts (the authorize path). */
  action: string;
  nonce: string;
}

/** "Install {app}": what the merchant grants, and the two buttons; both post the one-time nonce back. */
export function consentPage(input: ConsentPageInput): string {
  const scopes = input.scopes.length
    ? `<ul aria-labelledby="scopes-heading">${input.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`
    : '<p>No access to the store’s data.</p>';
  return page(
    `Install ${input.appName} – ${input.shopName}`,
    `<h1>Install ${escapeHtml(input.appName)}</h1>
<p><strong>${escapeHtml(input.appName)}</strong> asks to connect to <strong>${escapeHtml(input.shopName)}</strong> (<code>${escapeHtml(input.domain)}</code>).</p>
<h2 id="scopes-heading" style="font-size:1rem">It will be able to</h2>
${scopes}
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="nonce" value="${escapeHtml(input.nonce)}">
<div class="actions">
<button type="submit" name="decision" value="cancel" aria-label="Cancel: do not install ${escapeHtml(input.appName)}">Cancel</button>
<button type="submit" name="decision" value="install" class="primary" aria-label="Install ${escapeHtml(input.appName)} on ${escapeHtml(input.shopName)}">Install</button>
</div>
</form>`,
  );
}

/** Shopify's refusal of an authorize request, as a page (HTTP 400): "Oauth error invalid_request: {message}". */
export function oauthErrorPage(message: string): string {
  return page('Oauth error', `<div class="error" role="alert"><h1>Oauth error invalid_request</h1><p>${escapeHtml(message)}</p></div>`);
}
