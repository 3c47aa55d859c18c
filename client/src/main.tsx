import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(<App />);

// The service worker keeps the app shell so a board opened before can be reloaded offline and
// still show its IndexedDB edits (docs/api.md §11). Production builds only: it would fight Vite's HMR.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void navigator.serviceWorker.register('/sw.js').catch(() => {});
}
