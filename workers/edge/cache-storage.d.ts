// The app and the edge worker share one TypeScript program with the DOM library, whose
// CacheStorage hides the Workers runtime's `caches.default` (the data centre's cache).
interface CacheStorage {
  readonly default: Cache;
}
