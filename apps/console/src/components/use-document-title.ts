import { useEffect } from 'react';

/** the browser tab says which screen it shows ('<screen> — Rollcall'), so several tabs can be told apart */
export function useDocumentTitle(screen: string | null | undefined): void {
  useEffect(() => {
    if (!screen) return;
    document.title = `${screen} — Rollcall`;
  }, [screen]);
}
