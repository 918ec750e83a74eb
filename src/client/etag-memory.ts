/**
 * The etag of each (item, locale) the client last read or wrote. Content answers are scanned for
 * them: entries, localized entries and lists of manifests.
 */
export function createEtagMemory() {
  const etags = new Map<string, string>();
  const key = (id: string, locale: string) => `${id}\u0000${locale}`;

  function rememberItem(item: unknown): void {
    if (!isRecord(item) || typeof item.id !== 'string') return;
    const { id } = item;
    if (
      isRecord(item.localized) &&
      typeof item.localized.locale === 'string' &&
      typeof item.localized.etag === 'string'
    ) {
      etags.set(key(id, item.localized.locale), item.localized.etag);
    }
    if (isRecord(item.locales)) {
      for (const [locale, record] of Object.entries(item.locales)) {
        if (isRecord(record) && typeof record.etag === 'string') etags.set(key(id, locale), record.etag);
      }
    }
  }

  return {
    get: (id: string, locale: string): string | undefined => etags.get(key(id, locale)),
    set(id: string, locale: string, etag: string): void {
      etags.set(key(id, locale), etag);
    },
    /** Forgets one locale, or every locale of the item. */
    forget(id: string, locale?: string): void {
      if (locale !== undefined) {
        etags.delete(key(id, locale));
        return;
      }
      for (const stored of [...etags.keys()]) if (stored.startsWith(`${id}\u0000`)) etags.delete(stored);
    },
    clear: (): void => etags.clear(),
    /** Takes the etags from a content answer (an entry, a localized entry, or `{ items }`). */
    remember(body: unknown): void {
      if (isRecord(body) && Array.isArray(body.items)) body.items.forEach(rememberItem);
      else rememberItem(body);
    },
  };
}

export type EtagMemory = ReturnType<typeof createEtagMemory>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
