import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { languageReady } from './i18n';
import { App } from './App';
import { reloadOnce } from './lib/lazy-with-reload';

// A chunk that no longer exists (new deployment) cannot load: reload the page (spec).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault();
});

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

// the first screen appears in the admin's language, never in English first
void languageReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
