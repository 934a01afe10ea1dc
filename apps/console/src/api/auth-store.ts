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

/** The app registers how to leave for the root page; the tRPC link only reports the loss. */
export function setAccessLostHandler(handler: AccessLostHandler | null): void {
  accessLostHandler = handler;
}

export function reportAccessLost(status: AccessLostStatus): void {
  if (status === 401) authStore.clear();
  if (accessLostHandler) accessLostHandler(status);
  else if (window.location.pathname !== '/') window.location.assign('/');
}
