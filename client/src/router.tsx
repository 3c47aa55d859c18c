// A tiny history router: the app has a handful of routes (docs/api.md §2), which do not need a library.

import { MAIN_PAGE_ID } from '@tandem/shared';
import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';
import { safeNext } from './nextPath.ts';

const listeners = new Set<() => void>();
const notify = () => {
  for (const fn of listeners) fn();
};

export function navigate(target: string, opts: { replace?: boolean } = {}): void {
  // Only ever a path on this site: history refuses a foreign URL with a SecurityError.
  const to = safeNext(target, '/');
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

const subscribe = (fn: () => void) => {
  // Listened for from the first subscriber on (not at import, so matchRoute runs outside a browser).
  if (listeners.size === 0) window.addEventListener('popstate', notify);
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
};
const snapshot = () => location.pathname + location.search;

export function useLocation(): { path: string; search: URLSearchParams } {
  const full = useSyncExternalStore(subscribe, snapshot);
  const [path = '/', query = ''] = full.split('?');
  return { path, search: new URLSearchParams(query) };
}

export type Route =
  | { name: 'root' }
  | { name: 'signin' }
  | { name: 'signup' }
  | { name: 'boards' }
  | { name: 'board'; boardId: string; pageId: string }
  | { name: 'join'; token: string }
  | { name: 'public'; token: string; embed: boolean }
  | { name: 'not-found' };

export function matchRoute(path: string): Route {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (p === '/') return { name: 'root' };
  if (p === '/signin') return { name: 'signin' };
  if (p === '/signup') return { name: 'signup' };
  if (p === '/boards') return { name: 'boards' };
  // `/b/:boardId` is the board's first page, `/b/:boardId/p/:pageId` another (docs/api.md §17).
  let m = /^\/b\/([^/]+)(?:\/p\/([^/]+))?$/.exec(p);
  if (m)
    return {
      name: 'board',
      boardId: decodeURIComponent(m[1]!),
      pageId: m[2] ? decodeURIComponent(m[2]) : MAIN_PAGE_ID,
    };
  // `/p/:token` is a public view, `/embed/:token` the same for an iframe (docs/api.md §16).
  m = /^\/(p|embed)\/([^/]+)$/.exec(p);
  if (m) return { name: 'public', token: decodeURIComponent(m[2]!), embed: m[1] === 'embed' };
  m = /^\/join\/([^/]+)$/.exec(p);
  if (m) return { name: 'join', token: decodeURIComponent(m[1]!) };
  return { name: 'not-found' };
}

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
