import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { loadFonts } from './board/drawing/fonts.ts';
import { ConfirmHost } from './board/ui/Confirm.tsx';
// The board's text fonts, bundled and served by Tandem itself (docs/api.md §10 `fontFamily`).
import '@fontsource-variable/inter';
import '@fontsource-variable/caveat';
import '@fontsource-variable/jetbrains-mono';
import './styles.css';

// Text is measured on a canvas to wrap and fit notes; a font still loading would be measured as its
// fallback and notes would wrap differently on each screen, so the app starts once they are in.
// The confirmation dialog (board/ui/Confirm.tsx) beside the app, on every route.
void loadFonts().then(() =>
  createRoot(document.getElementById('root')!).render(
    <>
      <App />
      <ConfirmHost />
    </>,
  ),
);

// The service worker keeps the app shell so a board opened before can be reloaded offline and
// still show its IndexedDB edits (docs/api.md §11). Production builds only: it would fight Vite's HMR.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void navigator.serviceWorker.register('/sw.js').catch(() => {});
}
