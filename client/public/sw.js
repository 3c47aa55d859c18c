// App-shell cache: network first, cache as a fallback, so a board page reloads offline. API,
// document and workspace traffic is never cached (it must be live or fail).
const CACHE = 'tandem-shell-v1';

self.addEventListener('install', (event) => {
  // The shell and the assets index.html names, so the very first visit is enough to work offline.
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const res = await fetch('/', { cache: 'no-store' });
      const html = await res.clone().text();
      await cache.put('/', res);
      const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]);
      await cache.addAll([...new Set(assets)]);
      await self.skipWaiting();
    })(),
  );
});
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const live = (url) =>
  url.pathname.startsWith('/api/') ||
  url.pathname.startsWith('/yjs') ||
  url.pathname.startsWith('/socket.io');

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || live(url)) return;
  event.respondWith(
    fetch(req)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          // Every client route is the same index.html: store navigations under '/'.
          void caches.open(CACHE).then((c) => c.put(req.mode === 'navigate' ? '/' : req, copy));
        }
        return res;
      })
      .catch(() => caches.match(req.mode === 'navigate' ? '/' : req).then((hit) => hit ?? Response.error())),
  );
});
