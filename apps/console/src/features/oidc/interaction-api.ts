/** The provider's interaction calls (apps/api/src/oidc/oidc-interactions.ts), plain JSON over fetch: the page has no session. */
export interface OidcInteractionDetails {
  uid: string;
  prompt: 'login' | 'consent';
  application: { id: string; title: string; url: string | null; description: string };
  account: { username: string; name: string } | null;
  scopes: Array<{ scope: string; description: string; kind: 'openid' | 'scope' | 'permission' }>;
  login_hint: string | null;
}

/** The API's error body, kept whole so a form can show field messages. */
export class InteractionCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

async function call<T>(uid: string, step: string, body?: unknown): Promise<T> {
  const response = await fetch(`/oidc/interaction/${encodeURIComponent(uid)}/${step}`, {
    method: body === undefined ? 'GET' : 'POST',
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as { error?: { code: string; message: string; fields?: Record<string, string[]> } } | null;
  if (!response.ok) throw new InteractionCallError(response.status, answer?.error?.code ?? 'http', answer?.error?.message ?? `HTTP ${response.status}`, answer?.error?.fields);
  return answer as T;
}

export const interactionDetails = (uid: string) => call<OidcInteractionDetails>(uid, 'details');
/** an account with a second factor answers a challenge instead of a redirect: the code step follows (docs/adr/0025) */
export type LoginAnswer = { redirect_to: string } | { second_factor: { challenge: string; methods: string[]; expires_at: string } };
export const submitLogin = (uid: string, username: string, password: string) => call<LoginAnswer>(uid, 'login', { username, password });
export const submitSecondFactor = (uid: string, challenge: string, code: string) => call<{ redirect_to: string }>(uid, 'second-factor', { challenge, code });
/** the code step with a passkey (docs/adr/0029): options bound to the sign-in's challenge, then the browser's assertion */
export const passkeyStepOptions = (uid: string, challenge: string) => call<{ options: Record<string, unknown> }>(uid, 'passkey-options', { challenge });
export const submitPasskeyStep = (uid: string, challenge: string, passkey: unknown) => call<{ redirect_to: string }>(uid, 'second-factor', { challenge, passkey });
export const submitConsent = (uid: string) => call<{ redirect_to: string }>(uid, 'consent', {});
export const abortInteraction = (uid: string) => call<{ redirect_to: string }>(uid, 'abort', {});
