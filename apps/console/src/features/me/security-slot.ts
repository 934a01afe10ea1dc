import { createContext, type ReactNode } from 'react';

/**
 * The Security tab's place for the second factors (TOTP, recovery codes). A feature imports no other
 * (docs/adr/0022): the shell (App.tsx) puts the second-factors feature's panel here (an element),
 * and the tab shows whatever it was given.
 */
export const SecuritySlot = createContext<ReactNode>(null);
