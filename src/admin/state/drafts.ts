import type { Fields } from '../editor/fields.js';

/**
 * Unsaved edits kept in the browser per item and locale, so that a reload or a closed tab
 * loses nothing. The draft remembers what it started from (fields and etag), so a restored draft
 * still saves against that etag and a server change since then becomes a conflict, not an overwrite.
 */
export interface StoredDraft {
  base: Fields;
  etag: string;
  draft: Fields;
  savedAt: string;
}

const key = (id: string, locale: string) => `quire:draft:${id}:${locale}`;

export function readDraft(id: string, locale: string): StoredDraft | undefined {
  try {
    const text = localStorage.getItem(key(id, locale));
    return text ? (JSON.parse(text) as StoredDraft) : undefined;
  } catch {
    return undefined;
  }
}

export function writeDraft(id: string, locale: string, draft: Omit<StoredDraft, 'savedAt'>) {
  try {
    localStorage.setItem(key(id, locale), JSON.stringify({ ...draft, savedAt: new Date().toISOString() }));
  } catch {
    /* storage full or blocked: the draft still lives in the page */
  }
}

export function clearDraft(id: string, locale: string) {
  localStorage.removeItem(key(id, locale));
}
