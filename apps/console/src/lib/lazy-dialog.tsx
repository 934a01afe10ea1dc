import { Suspense, useState, type ComponentType } from 'react';
import { lazyWithReload } from './lazy-with-reload';

/**
 * A dialog whose code loads the first time it opens, so a page ships without what only its dialogs
 * need (the organization picker's Autocomplete, CSV parsing): the first screen's budget (docs/benchmarks.md). Once
 * opened it stays mounted, so it closes with its transition and opens again at once.
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazyWithReload(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
