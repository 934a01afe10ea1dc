/**
 * The provider's sign-in and consent page (outside the admin shell). The API's OpenID Connect
 * provider sends the browser here (its interaction URL) and answers the page's JSON calls under the
 * same path, where its interaction cookie is sent (apps/api/src/oidc/oidc-interactions.ts).
 */
export const oidcInteractionRoute = '/oidc/interaction/:uid';
export const toOidcInteraction = (uid: string): string => `/oidc/interaction/${encodeURIComponent(uid)}`;
