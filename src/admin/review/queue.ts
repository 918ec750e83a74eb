import type { ContentManifest } from '../../client/index.js';
import { client } from '../state/session.js';

/** `stale`: an inherited translation whose source moved on; `behind`: a customized one whose source changed since. */
export type QueueReason = 'stale' | 'behind';

export interface QueueEntry {
  id: string;
  locale: string;
  title: string;
  address: string;
  reason: QueueReason;
  /** The translation's etag as listed: a bulk review sends each its own. */
  etag: string;
  /** When the translation was last written (reviewed, or customized): the longer ago, the longer it has waited. */
  since: string;
}

function entryOf(item: ContentManifest, locale: string): QueueEntry | undefined {
  const record = item.locales[locale];
  if (!record?.inheritance) return undefined;
  const title = typeof record.meta.title === 'string' && record.meta.title ? record.meta.title : item.id;
  return {
    id: item.id,
    locale,
    title,
    address: record.pathname ?? record.name ?? item.id,
    reason: record.inheritance.state === 'customized' ? 'behind' : 'stale',
    etag: record.etag,
    since: record.modified,
  };
}

/**
 * The translations of a site in `locale` that need review (stale inherited and fallen-behind
 * customized), longest waiting first: the time a translation was last written is when it was
 * last reviewed, the closest the API tells of when it went stale.
 */
export async function loadQueue(site: string, locale: string): Promise<QueueEntry[]> {
  const list = await client.content.needsReview(locale, { customized: 'true' });
  return list.items
    .filter((item) => item.site === site)
    .map((item) => entryOf(item, locale))
    .filter((entry): entry is QueueEntry => entry !== undefined)
    .sort((a, b) => a.since.localeCompare(b.since) || a.id.localeCompare(b.id));
}

export interface BulkOutcome {
  entry: QueueEntry;
  /** Undefined when it landed; else why not (a 412 when it changed since it was listed). */
  error?: unknown;
}

/** Marks each reviewed with its own listed etag, one after another; a failure is reported and the rest go on. */
export async function markAllReviewed(
  entries: readonly QueueEntry[],
  write: <T extends { etag: string }>(task: () => Promise<T>) => Promise<T>,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  for (const entry of entries) {
    try {
      await write(() => client.content.markReviewed(entry.id, entry.locale, entry.etag));
      outcomes.push({ entry });
    } catch (error) {
      outcomes.push({ entry, error });
    }
  }
  return outcomes;
}
