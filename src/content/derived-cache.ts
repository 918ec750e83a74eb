import type { ItemIndex } from './item-index.js';

/** The default budget of everything derived from all items: answers beyond it are recomputed when asked again. */
export const DEFAULT_DERIVED_CACHE_BYTES = 64 * 1024 * 1024;

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

// What V8 spends on a value, roughly: object and array headers, a pointer per slot, strings one
// byte per character when they are Latin-1 (two otherwise). An estimate that errs high is enough
// for a budget; it is taken once per computed value, which already cost a pass over all items.
const HEADER_BYTES = 24;
const SLOT_BYTES = 8;
const TWO_BYTE = /[^\u0000-\u00ff]/;

/** The approximate heap bytes of a value, counting each object once however often it is referenced. */
export function approximateBytes(value: unknown, seen = new Set<object>()): number {
  if (typeof value === 'string') return HEADER_BYTES + value.length * (TWO_BYTE.test(value) ? 2 : 1);
  if (typeof value !== 'object' || value === null) return SLOT_BYTES;
  if (seen.has(value)) return 0;
  seen.add(value);
  let bytes = HEADER_BYTES;
  if (value instanceof Map) {
    for (const [key, entry] of value)
      bytes += 3 * SLOT_BYTES + approximateBytes(key, seen) + approximateBytes(entry, seen);
  } else if (value instanceof Set) {
    for (const entry of value) bytes += 2 * SLOT_BYTES + approximateBytes(entry, seen);
  } else if (Array.isArray(value)) {
    for (const entry of value) bytes += SLOT_BYTES + approximateBytes(entry, seen);
  } else {
    for (const [key, entry] of Object.entries(value))
      bytes += SLOT_BYTES + approximateBytes(key, seen) + approximateBytes(entry, seen);
  }
  return bytes;
}

interface Entry {
  validUntil: number;
  value: unknown;
  bytes: number;
}

/**
 * Values computed from all items (list answers, redirects, asset usage), each kept until the
 * index changes or a publication date passes, within a byte budget: past it the least recently
 * used are dropped, so any number of distinct queries costs bounded memory. Every value goes as
 * soon as the index changes, not when it is next asked for.
 */
export function createDerivedCache(index: ItemIndex, budgetBytes = DEFAULT_DERIVED_CACHE_BYTES) {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let boundary = { version: -1, from: 0, at: Infinity };

  const clear = () => {
    entries.clear();
    bytes = 0;
  };
  index.onChange(() => {
    if (entries.size > 0) clear();
  });

  function drop(key: string, entry: Entry) {
    entries.delete(key);
    bytes -= entry.bytes;
  }

  function validUntil(now: number): number {
    if (boundary.version !== index.version || now >= boundary.at || now < boundary.from) {
      // A publication date passed (or the clock went back): no answer kept so far still holds.
      if (boundary.version === index.version) clear();
      boundary = { version: index.version, from: now, at: nextPublicationChange(index, now) };
    }
    return boundary.at;
  }

  function get<T>(key: string, compute: () => T): T {
    const now = Date.now();
    const until = validUntil(now);
    const cached = entries.get(key);
    if (cached) {
      entries.delete(key);
      if (now < cached.validUntil) {
        entries.set(key, cached);
        return cached.value as T;
      }
      bytes -= cached.bytes;
    }
    const value = compute();
    const size = approximateBytes(key) + approximateBytes(value);
    // A value larger than the whole budget is answered but not kept: it would push out everything else.
    if (size > budgetBytes) return value;
    entries.set(key, { validUntil: until, value, bytes: size });
    bytes += size;
    for (const [oldest, entry] of entries) {
      if (bytes <= budgetBytes) break;
      drop(oldest, entry);
    }
    return value;
  }

  return {
    get,
    /** The estimated bytes of the values kept now. */
    get bytes() {
      return bytes;
    },
    /** How many values are kept now. */
    get size() {
      return entries.size;
    },
  };
}

export type DerivedCache = ReturnType<typeof createDerivedCache>;
