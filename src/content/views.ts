import { contentEtagOf, joinEtag } from './etag.js';
import type { ContentData, ContentEntry, Item, LocaleRecord, StoredLocale } from './types.js';

const EMPTY_CONTENT_ETAG = contentEtagOf({});

/** The locale an inherited locale takes its content from (its `inheritance.from`). */
export function sourceOf(item: Item, stored: StoredLocale): StoredLocale | undefined {
  const inheritance = stored.file.inheritance;
  return inheritance?.state === 'inherited' ? item.locales.get(inheritance.from) : undefined;
}

/** The content a locale shows, and that content's etag: its own, or its source's while it inherits. */
export function effectiveContent(item: Item, stored: StoredLocale): { content: ContentData; contentEtag: string } {
  if (stored.file.inheritance?.state !== 'inherited')
    return { content: stored.file.content ?? {}, contentEtag: stored.contentEtag };
  const source = sourceOf(item, stored);
  return source?.file.content
    ? { content: source.file.content, contentEtag: source.contentEtag }
    : { content: {}, contentEtag: EMPTY_CONTENT_ETAG };
}

export function currentEtag(item: Item, stored: StoredLocale): string {
  return joinEtag(stored.metaEtag, effectiveContent(item, stored).contentEtag);
}

/** Staleness is computed, never stored: an inherited locale is stale once its source's content moved on. */
export function isStale(item: Item, stored: StoredLocale): boolean {
  const inheritance = stored.file.inheritance;
  return inheritance?.state === 'inherited' && inheritance.inheritedEtag !== effectiveContent(item, stored).contentEtag;
}

/** A customized locale fell behind once its source's content moved on from the etag it was customized from. */
export function hasSourceChanged(item: Item, stored: StoredLocale): boolean {
  const inheritance = stored.file.inheritance;
  if (inheritance?.state !== 'customized') return false;
  const source = item.locales.get(inheritance.from);
  return source !== undefined && inheritance.inheritedEtag !== source.contentEtag;
}

/** The inheritance as answered: `stale` always, `sourceChanged` only when true (it was added later). */
function inheritanceView(item: Item, stored: StoredLocale) {
  const inheritance = stored.file.inheritance!;
  return {
    ...inheritance,
    stale: isStale(item, stored),
    ...(hasSourceChanged(item, stored) && { sourceChanged: true as const }),
  };
}

export function localeRecord(item: Item, locale: string, stored: StoredLocale, withContent: boolean): LocaleRecord {
  const { file } = stored;
  const { content, contentEtag } = effectiveContent(item, stored);
  const record: LocaleRecord = {
    locale,
    etag: joinEtag(stored.metaEtag, contentEtag),
    created: file.created,
    modified: file.modified,
    ...(file.createdBy !== undefined && { createdBy: file.createdBy }),
    ...(file.modifiedBy !== undefined && { modifiedBy: file.modifiedBy }),
    ...(file.pathname !== undefined && { pathname: file.pathname }),
    ...(file.name !== undefined && { name: file.name }),
    ...(file.publishAt !== undefined && { publishAt: file.publishAt }),
    ...(file.unpublishAt !== undefined && { unpublishAt: file.unpublishAt }),
    ...(file.inheritance && { inheritance: inheritanceView(item, stored) }),
    ...(file.previousPathnames?.length && { previousPathnames: file.previousPathnames }),
    meta: file.meta,
  };
  if (withContent) record.content = content;
  return record;
}

function header(item: Item) {
  return {
    id: item.id,
    type: item.type,
    kind: item.kind,
    ...(item.site !== undefined && { site: item.site }),
    collection: item.collection,
  };
}

/** The ContentEntry (`withContent`) or ContentManifest of an item, optionally reduced to some locales. */
export function entryOf(item: Item, withContent: boolean, only?: ReadonlySet<string>): ContentEntry {
  const locales: Record<string, LocaleRecord> = {};
  for (const locale of [...item.locales.keys()].sort()) {
    if (only && !only.has(locale)) continue;
    locales[locale] = localeRecord(item, locale, item.locales.get(locale)!, withContent);
  }
  return { ...header(item), locales };
}

export function localizedEntryOf(item: Item, locale: string, stored: StoredLocale) {
  return { ...header(item), localized: localeRecord(item, locale, stored, true) };
}
