import type { TWebAuthnResponse } from '@rollcall/contracts';

/**
 * The browser's side of passkeys (WebAuthn, docs/adr/0029) through @simplewebauthn/browser: the
 * server's options in, the browser's response JSON out, ready for the API. Shared by the sign-in
 * (auth), the own page's passkeys (second-factors) and the OpenID Connect login page. The library
 * loads when a ceremony starts, not with the sign-in page that offers one (docs/benchmarks.md,
 * console-first-screen).
 */
const library = () => import('@simplewebauthn/browser');

/** @simplewebauthn/browser's browserSupportsWebAuthn, without loading the library */
export const passkeysSupported = (): boolean => typeof globalThis.PublicKeyCredential === 'function';

type Options = { options: Record<string, unknown> };

/** `navigator.credentials.create` with the server's registration options */
export const createPasskey = async ({ options }: Options): Promise<TWebAuthnResponse> =>
  (await (await library()).startRegistration({ optionsJSON: options as never })) as unknown as TWebAuthnResponse;

/** `navigator.credentials.get` with the server's authentication options */
export const getPasskeyAssertion = async ({ options }: Options): Promise<TWebAuthnResponse> =>
  (await (await library()).startAuthentication({ optionsJSON: options as never })) as unknown as TWebAuthnResponse;

/** the person closed the browser's passkey dialog, or it timed out: no error to show, just nothing done */
export const passkeyCancelled = (error: unknown): boolean => error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
