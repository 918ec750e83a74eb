import type { ItemIndex } from './item-index.js';

const MAX_ENTRIES = 256;

/** The earliest publishAt/unpublishAt after `now` (Infinity if none): until then, every "published" answer holds. */
export function nextPublicationChange(index: ItemIndex, now: number): number {
  let next = Infinity;
  for (const item of index.items.values()) {
    for (const { file } of item.locales.values()) {
      for (const date of [file.publishAt, file.unpublishAt]) {
        const at = date ? Date.parse(date) : NaN;
        if (at > now && at < next) next = at;
      }
    }
  }
  return next;
}

/**
 * Values computed from all items (list answers, redirects, asset usage), each kept until the
 * index changes or a publication date passes; the oldest are dropped past a bound, so any number
 * of distinct queries costs bounded memory.
 */
export function createDerivedCache(index: ItemIndex) {
  const entries = new Map<string, { version: number; validUntil: number; value: unknown }>();
  let boundary = { version: -1, from: 0, at: Infinity };

  function validUntil(now: number): number {
    if (boundary.version !== index.version || now >= boundary.at || now < boundary.from) {
      boundary = { version: index.version, from: now, at: nextPublicationChange(index, now) };
    }
    return boundary.at;
  }

  return <T>(key: string, compute: () => T): T => {
    const now = Date.now();
    const cached = entries.get(key);
    if (cached && cached.version === index.version && now < cached.validUntil) return cached.value as T;
    const value = compute();
    entries.delete(key);
    entries.set(key, { version: index.version, validUntil: validUntil(now), value });
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return value;
  };
}
