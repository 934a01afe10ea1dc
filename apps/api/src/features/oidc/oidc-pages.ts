/**
 * The few HTML pages the provider renders itself (sign-out question, signed out, errors), in the
 * console's look: its font stack, primary blue and a card. Sign-in and consent are the console's
 * React pages (apps/console/src/features/oidc). The CSP allows inline styles; these pages run no
 * script of their own.
 */
const escapeHtml = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{margin:0;background:#f5f5f5;font-family:Roboto,"Helvetica Neue",Arial,sans-serif;color:rgba(0,0,0,.87)}
main{max-width:420px;margin:64px auto;padding:32px;background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.12)}
h1{font-size:1.5rem;font-weight:500;margin:0 0 16px}p{line-height:1.5}.brand{color:#1976d2;font-weight:500;letter-spacing:.02em;margin-bottom:24px}
button{font:inherit;font-weight:500;text-transform:uppercase;letter-spacing:.03em;border-radius:4px;padding:8px 22px;cursor:pointer;margin-right:8px}
.primary{background:#1976d2;color:#fff;border:0}.secondary{background:#fff;color:#1976d2;border:1px solid rgba(25,118,210,.5)}
dl{font-size:.875rem;color:rgba(0,0,0,.6)}dt{font-weight:500}dd{margin:0 0 8px}`;

export function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Rollcall</title><style>${STYLE}</style></head><body><main><div class="brand">Rollcall</div><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export const logoutPage = (form: string, application: string | null) =>
  page(
    'Sign out',
    `<p>Sign out of Rollcall${application ? ` and ${escapeHtml(application)}` : ''}?</p>${form}<button class="primary" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button><button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button>`,
  );

export const signedOutPage = (application: string | null) => page('Signed out', `<p>You are signed out${application ? ` of ${escapeHtml(application)}` : ''}.</p>`);

export const errorPage = (out: Record<string, unknown>) =>
  page(
    'Sign-in failed',
    `<p>The application sent a request Rollcall cannot answer. Go back to it and try again.</p><dl>${Object.entries(out)
      .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
      .join('')}</dl>`,
  );
