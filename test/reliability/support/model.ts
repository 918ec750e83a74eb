/**
 * A reference model of the content rules (docs/interface.md: "Etags and writes", "Inheritance", "Publication and filters"), small enough to trust: what the
 * server must show after a sequence of acknowledged operations, applied one after another.
 * Only the fields an editor sees are modelled (no etags, times or authors): meta merges key by key
 * (null removes), content replaces, inheritance and staleness follow the default locale.
 */

export type Kind = 'page' | 'fragment' | 'data';
export type ContentType = 'visual' | 'mdx' | 'json';
export type Content = Record<string, unknown>;
export type Meta = Record<string, unknown>;

export interface ModelLocale {
  pathname?: string;
  name?: string;
  publishAt?: string;
  meta: Meta;
  /** Own content; absent while inherited. */
  content?: Content;
  /** Absent on the default locale. `reviewed` is the default locale's content (canonical JSON) when last taken. */
  inheritance?: { state: 'inherited' | 'customized'; reviewed: string };
  previousPathnames?: string[];
}

export interface ModelItem {
  id: string;
  kind: Kind;
  type: ContentType;
  site?: string;
  collection: string;
  locales: Map<string, ModelLocale>;
}

export const DEFAULT_LOCALE = 'en';

/** JSON with sorted keys, as the server hashes it: equal data, equal text. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(',')}}`;
}

export interface LocaleUpdate {
  pathname?: string;
  name?: string;
  publishAt?: string | null;
  meta?: Meta;
  content?: Content;
  inherit?: boolean;
}

export interface CreateLocale {
  pathname?: string;
  meta?: Meta;
  content?: Content;
  inherit?: boolean;
}

function mergeMeta(base: Meta, patch: Meta | undefined): Meta {
  const merged: Meta = { ...base };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

const defaultContent = (item: ModelItem) => canonical(item.locales.get(DEFAULT_LOCALE)?.content ?? {});

export function applyCreate(
  item: Omit<ModelItem, 'locales'>,
  locales: Record<string, CreateLocale>,
  name?: string,
): ModelItem {
  const created: ModelItem = { ...item, locales: new Map() };
  const ordered = [DEFAULT_LOCALE, ...Object.keys(locales).filter((locale) => locale !== DEFAULT_LOCALE)];
  for (const locale of ordered) {
    const input = locales[locale]!;
    applyUpdate(created, locale, { ...input, ...(name !== undefined && { name }) });
  }
  return created;
}

/** PUT/PATCH of one locale (also how a locale is added, and how a page moves). */
export function applyUpdate(item: ModelItem, locale: string, update: LocaleUpdate): void {
  const previous = item.locales.get(locale);
  const isDefault = locale === DEFAULT_LOCALE;
  const next: ModelLocale = previous
    ? { ...previous, meta: mergeMeta(previous.meta, update.meta) }
    : { meta: mergeMeta({}, update.meta) };
  if (!previous) {
    if (item.kind !== 'page' && update.name === undefined) {
      const name = item.locales.get(DEFAULT_LOCALE)?.name;
      if (name !== undefined) next.name = name;
    }
    if (!isDefault)
      next.inheritance = {
        state: update.content === undefined ? 'inherited' : 'customized',
        reviewed: defaultContent(item),
      };
  } else if (update.inherit && next.inheritance?.state !== 'inherited') {
    next.inheritance = { state: 'inherited', reviewed: defaultContent(item) };
  } else if (update.content !== undefined && next.inheritance?.state === 'inherited') {
    next.inheritance = { ...next.inheritance, state: 'customized' };
  }
  if (update.pathname !== undefined && update.pathname !== next.pathname) {
    if (previous?.pathname !== undefined) {
      const history = (previous.previousPathnames ?? []).filter(
        (pathname) => pathname !== update.pathname && pathname !== previous.pathname,
      );
      history.push(previous.pathname);
      next.previousPathnames = history;
    }
    next.pathname = update.pathname;
  }
  if (update.name !== undefined) next.name = update.name;
  if (update.publishAt === null) delete next.publishAt;
  else if (update.publishAt !== undefined) next.publishAt = update.publishAt;
  if (next.inheritance?.state === 'inherited') delete next.content;
  else if (update.content !== undefined)
    next.content = item.type === 'mdx' ? { ...update.content, mdx: update.content.mdx ?? '' } : update.content;
  item.locales.set(locale, next);
}

export function applyTransition(
  item: ModelItem,
  locale: string,
  kind: 'mark-reviewed' | 'break-inheritance' | 'revert-to-inherited',
): void {
  const stored = item.locales.get(locale)!;
  const source = item.locales.get(DEFAULT_LOCALE)!;
  if (kind === 'mark-reviewed') {
    stored.inheritance = { state: 'inherited', reviewed: defaultContent(item) };
  } else if (kind === 'break-inheritance') {
    stored.inheritance = { state: 'customized', reviewed: defaultContent(item) };
    stored.content = source.content ?? {};
  } else {
    stored.inheritance = { state: 'inherited', reviewed: defaultContent(item) };
    delete stored.content;
  }
}

/** Deletes a locale, or the whole item without one; returns false when the item is gone. */
export function applyDelete(item: ModelItem, locale?: string): boolean {
  if (locale === undefined) return false;
  item.locales.delete(locale);
  return item.locales.size > 0;
}

/** What GET /content/:id must answer for the item, reduced to the modelled fields. */
export function expectedView(item: ModelItem): unknown {
  const locales: Record<string, unknown> = {};
  for (const locale of [...item.locales.keys()].sort()) {
    const stored = item.locales.get(locale)!;
    const inherited = stored.inheritance?.state === 'inherited';
    const content = inherited ? (item.locales.get(DEFAULT_LOCALE)?.content ?? {}) : (stored.content ?? {});
    locales[locale] = {
      ...(stored.pathname !== undefined && { pathname: stored.pathname }),
      ...(stored.name !== undefined && { name: stored.name }),
      ...(stored.publishAt !== undefined && { publishAt: stored.publishAt }),
      ...(stored.inheritance && {
        inheritance: {
          state: stored.inheritance.state,
          from: DEFAULT_LOCALE,
          stale: inherited && stored.inheritance.reviewed !== defaultContent(item),
        },
      }),
      ...(stored.previousPathnames?.length && { previousPathnames: stored.previousPathnames }),
      meta: stored.meta,
      content,
    };
  }
  return {
    id: item.id,
    type: item.type,
    kind: item.kind,
    ...(item.site !== undefined && { site: item.site }),
    collection: item.collection,
    locales,
  };
}

/** The same fields picked out of a server ContentEntry. */
export function observedView(entry: Record<string, any>): unknown {
  const locales: Record<string, unknown> = {};
  for (const [locale, record] of Object.entries(entry.locales as Record<string, any>)) {
    locales[locale] = {
      ...(record.pathname !== undefined && { pathname: record.pathname }),
      ...(record.name !== undefined && { name: record.name }),
      ...(record.publishAt !== undefined && { publishAt: record.publishAt }),
      ...(record.inheritance && {
        inheritance: {
          state: record.inheritance.state,
          from: record.inheritance.from,
          stale: record.inheritance.stale,
        },
      }),
      ...(record.previousPathnames !== undefined && { previousPathnames: record.previousPathnames }),
      meta: record.meta,
      content: record.content,
    };
  }
  return {
    id: entry.id,
    type: entry.type,
    kind: entry.kind,
    ...(entry.site !== undefined && { site: entry.site }),
    collection: entry.collection,
    locales,
  };
}
