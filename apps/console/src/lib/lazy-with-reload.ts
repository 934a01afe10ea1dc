import { createElement, lazy, useState, type ComponentProps, type ComponentType } from 'react';

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

let laterScreensNeed: () => Promise<void> = async () => undefined;

/** what the code of every screen but the first ones loads beside it: the rest of the texts, registered by i18n/index.ts */
export function loadWithLaterScreens(load: () => Promise<void>): void {
  laterScreensNeed = load;
}

/**
 * Route-level code splitting with the reload above. `preload()` starts loading before the first
 * render; a screen mounted after its code arrived renders it at once instead of suspending: a
 * suspended lazy component shows its content again only after React's reveal throttle (about 300
 * ms a level), which on the first screen was most of the wait for the accounts list (docs/benchmarks.md, console-first-screen).
 *
 * The code arrives with the texts beyond the first screens' (i18n/catalogue-parts.ts), loaded
 * beside it; only the first screens (`firstScreen`: 'sign-in', and 'accounts' for the admin shell
 * and the accounts list), whose texts ship with the console, load their code alone
 * (catalogue-parts.unit.spec.ts checks that their code names no other text; vite.config.ts puts
 * the libraries each of the two needs in one chunk).
 */
// React.lazy's own constraint; props stay typed through T.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyWithReload<T extends ComponentType<any>>(load: () => Promise<{ default: T }>, { firstScreen }: { firstScreen?: 'sign-in' | 'accounts' } = {}) {
  let loading: Promise<{ default: T }> | undefined;
  let loadedModule: { default: T } | undefined;
  const loadWithTexts = firstScreen ? load : () => Promise.all([load(), laterScreensNeed()]).then(([module]) => module);
  // one import for the preload and the render (a loaded chunk clears the reload flag, whichever
  // asked for it); a failed one is tried again by the render
  const loadOnce = () =>
    (loading ??= loadWithTexts().then(
      (module) => {
        loaded();
        return (loadedModule = module);
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => {
    try {
      return await loadOnce();
    } catch (error) {
      if (reloadOnce()) return new Promise<{ default: T }>(() => undefined);
      throw error;
    }
  });
  function Preloadable(props: ComponentProps<T>) {
    // decided once per mounted screen: switching from Lazy to the loaded component would remount it
    const [Loaded] = useState(() => loadedModule?.default);
    return createElement((Loaded ?? Lazy) as ComponentType<ComponentProps<T>>, props);
  }
  return Object.assign(Preloadable, { preload: (): Promise<void> => loadOnce().then(() => undefined, () => undefined) });
}

/** whether a component is one of lazyWithReload's (and can start loading early) */
export function isPreloadable(component: unknown): component is { preload: () => Promise<void> } {
  return typeof component === 'function' && typeof (component as { preload?: unknown }).preload === 'function';
}
