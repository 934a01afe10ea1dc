import { lazy, type ComponentType } from 'react';

const RELOAD_FLAG = 'rollcall.chunk-reload';

/**
 * The spec: a failed load of a page part reloads the browser page (typically a chunk removed by a
 * new deployment). Once per session, so a real outage ends in the error page, not a reload loop.
 * Returns false when the reload was already tried.
 */
export function reloadOnce(): boolean {
  try {
    if (window.sessionStorage.getItem(RELOAD_FLAG)) return false;
    window.sessionStorage.setItem(RELOAD_FLAG, '1');
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

function loaded(): void {
  try {
    window.sessionStorage.removeItem(RELOAD_FLAG);
  } catch {
    // nothing to forget
  }
}

/** Route-level code splitting with the reload above. */
// React.lazy's own constraint; props stay typed through T.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyWithReload<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(async () => {
    try {
      const module = await load();
      loaded();
      return module;
    } catch (error) {
      if (reloadOnce()) return new Promise<{ default: T }>(() => undefined);
      throw error;
    }
  });
}
