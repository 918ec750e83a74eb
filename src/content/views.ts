import { contentEtagOf, joinEtag } from './etag.js';
import type { ContentData, ContentEntry, Item, LocaleRecord, StoredLocale } from './types.js';

const EMPTY_CONTENT_ETAG = contentEtagOf({});

/** The content of the locales being answered, read from their files beforehand (see `readContents`). */
export type ContentOf = (stored: StoredLocale) => ContentData | undefined;

/** The locale an inherited locale takes its content from (its `inheritance.from`). */
export function sourceOf(item: Item, stored: StoredLocale): StoredLocale | undefined {
  const inheritance = stored.file.inheritance;
  return inheritance?.state === 'inherited' ? item.locales.get(inheritance.from) : undefined;
}

/** The locale whose content a locale shows: itself, or its source while it inherits (none when the source has no content). */
export function contentHolder(item: Item, stored: StoredLocale): StoredLocale | undefined {
  if (stored.file.inheritance?.state !== 'inherited') return stored;
  const source = sourceOf(item, stored);
  return source && source.contentEtag !== '' ? source : undefined;
}

/** The etag of the content a locale shows: its own, or its source's while it inherits. */
export function effectiveContentEtag(item: Item, stored: StoredLocale): string {
  if (stored.file.inheritance?.state !== 'inherited') return stored.contentEtag;
  return contentHolder(item, stored)?.contentEtag ?? EMPTY_CONTENT_ETAG;
}

/** The content a locale shows (its own, or its source's while it inherits), from what was read. */
export function effectiveContent(item: Item, stored: StoredLocale, contentOf: ContentOf): ContentData {
  const holder = contentHolder(item, stored);
  return (holder && contentOf(holder)) ?? {};
}

export function currentEtag(item: Item, stored: StoredLocale): string {
  return joinEtag(stored.metaEtag, effectiveContentEtag(item, stored));
}

/** Staleness is computed, never stored: an inherited locale is stale once its source's content moved on. */
export function isStale(item: Item, stored: StoredLocale): boolean {
  const inheritance = stored.file.inheritance;
  return inheritance?.state === 'inherited' && inheritance.inheritedEtag !== effectiveContentEtag(item, stored);
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

/** A locale's record; with `contentOf`, its content too (a ContentEntry's), else its manifest. */
export function localeRecord(item: Item, locale: string, stored: StoredLocale, contentOf?: ContentOf): LocaleRecord {
  const { file } = stored;
  const record: LocaleRecord = {
    locale,
    etag: currentEtag(item, stored),
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
  if (contentOf) record.content = effectiveContent(item, stored, contentOf);
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

/** The ContentEntry (with `contentOf`) or ContentManifest of an item, optionally reduced to some locales. */
export function entryOf(item: Item, contentOf?: ContentOf, only?: ReadonlySet<string>): ContentEntry {
  const locales: Record<string, LocaleRecord> = {};
  for (const locale of [...item.locales.keys()].sort()) {
    if (only && !only.has(locale)) continue;
    locales[locale] = localeRecord(item, locale, item.locales.get(locale)!, contentOf);
  }
  return { ...header(item), locales };
}

export function localizedEntryOf(item: Item, locale: string, stored: StoredLocale, contentOf: ContentOf) {
  return { ...header(item), localized: localeRecord(item, locale, stored, contentOf) };
}
