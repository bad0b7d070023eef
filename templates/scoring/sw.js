// The captain page's service worker (scoring/views/worker.py). Pages under {{ scope }}:
// network first, the cached copy when the network is away. Static files: cache first; their
// cache's name changes with their (hashed) names. Posts are never touched.
const STATIC_CACHE = {{ static_cache|safe|stringformat:"r" }};
const PAGES_CACHE = {{ pages_cache|safe|stringformat:"r" }};
const STATIC_PREFIX = {{ static_prefix|safe|stringformat:"r" }};
const FILES = [{% for f in files %}{{ f|safe|stringformat:"r" }}{% if not forloop.last %}, {% endif %}{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((n) => n.startsWith("doko-static-") && n !== STATIC_CACHE).map((n) => caches.delete(n)),
      ))
      .then(() => self.clients.claim()),
  );
});

const fromNetworkFirst = async (request) => {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(new URL(request.url).pathname, response.clone());
    if (response.status < 500) return response;
    const copy = await cache.match(new URL(request.url).pathname);
    return copy || response; // a server in trouble: the last good copy, if there is one
  } catch (error) {
    const copy = await cache.match(new URL(request.url).pathname);
    if (copy) return copy;
    throw error;
  }
};

const fromCacheFirst = async (request) => {
  const cache = await caches.open(STATIC_CACHE);
  const copy = await cache.match(request, { ignoreSearch: true });
  if (copy) return copy;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate" && url.pathname.startsWith({{ scope|safe|stringformat:"r" }})) {
    event.respondWith(fromNetworkFirst(request));
  }
});
