/**
 * The admin's session token, held in memory only (never in localStorage, where any injected script
 * could read it). A page reload forgets it; the HttpOnly `user_session` cookie set by the server at
 * sign-in keeps the session alive across reloads.
 */
let token: string | null = null;

export const authStore = {
  getToken: (): string | null => token,
  setToken: (value: string): void => {
    token = value;
  },
  clear: (): void => {
    token = null;
  },
};

export type AccessLostStatus = 401 | 403;
type AccessLostHandler = (status: AccessLostStatus) => void;

let accessLostHandler: AccessLostHandler | null = null;
/**
 * A loss reported before the app registered its handler: a first screen's queries are asked before
 * the first render (router.tsx preloadScreen), and their 401 can come back first. Handed to the
 * handler when it is registered, so it still ends on the root page with its notice.
 */
let pendingLoss: AccessLostStatus | null = null;

/** The app registers how to leave for the root page; the tRPC link only reports the loss. */
export function setAccessLostHandler(handler: AccessLostHandler | null): void {
  accessLostHandler = handler;
  if (!handler || pendingLoss === null) return;
  const status = pendingLoss;
  pendingLoss = null;
  handler(status);
}

export function reportAccessLost(status: AccessLostStatus): void {
  if (status === 401) authStore.clear();
  if (accessLostHandler) accessLostHandler(status);
  // an ended session outweighs a missing permission
  else if (pendingLoss !== 401) pendingLoss = status;
}
