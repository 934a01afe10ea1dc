import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { languageReady } from './i18n';
import { App, createConsoleClients } from './App';
import { reloadOnce } from './lib/lazy-with-reload';
import { preloadScreen } from './router';

// A chunk that no longer exists (new deployment) cannot load: reload the page (spec).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault();
});

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

// the first screen's code, and on an admin screen who is signed in, load while the language does
const firstScreen = preloadScreen(window.location.pathname);
const clients = createConsoleClients({ askWhoAmI: firstScreen.admin, prefetch: firstScreen.prefetch });

// the first screen appears in the admin's language, never in English first, and renders its code
// without suspending (lib/lazy-with-reload.ts); a chunk that failed to load is tried again by the render
void Promise.all([languageReady, firstScreen.loaded]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App clients={clients} />
    </StrictMode>,
  ),
);
