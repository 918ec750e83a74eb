import type { ContentEntry, LocaleRecord, LocaleUpdateData } from '../../client/index.js';
import { jsonError } from './json-error.js';

/**
 * What the editor edits, as text the inputs hold: the pathname (pages) or name, the publication
 * dates (ISO, '' when unset), meta values (lists as "a, b", other non-strings as JSON) and the
 * body (MDX source, or the JSON of `data` / `visualData`). Conflicts and drafts compare these field by field.
 */
export interface Fields {
  address: string;
  publishAt: string;
  unpublishAt: string;
  meta: Record<string, string>;
  body: string;
}

export type ItemType = ContentEntry['type'];
type MetaKind = 'text' | 'list' | 'json';
const LIST_KEYS = new Set(['tags', 'keywords']);

export const KNOWN_META = ['title', 'description'] as const;

export function metaKind(key: string, value: unknown): MetaKind {
  if (typeof value === 'string') return 'text';
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return 'list';
  if (value === undefined && LIST_KEYS.has(key)) return 'list';
  return value === undefined ? 'text' : 'json';
}

function metaText(value: unknown): string {
  const kind = metaKind('', value);
  if (kind === 'text') return value as string;
  if (kind === 'list') return (value as string[]).join(', ');
  return JSON.stringify(value);
}

export function bodyOf(type: ItemType, content: LocaleRecord['content']): string {
  if (type === 'mdx') return content.mdx ?? '';
  if (type === 'json') return JSON.stringify(content.data ?? {}, null, 2);
  return JSON.stringify(content.visualData ?? { root: { props: {} }, content: [] }, null, 2);
}

export function fieldsOf(type: ItemType, record: LocaleRecord): Fields {
  return {
    address: record.pathname ?? record.name ?? '',
    publishAt: record.publishAt ?? '',
    unpublishAt: record.unpublishAt ?? '',
    meta: Object.fromEntries(Object.entries(record.meta).map(([key, value]) => [key, metaText(value)])),
    body: bodyOf(type, record.content),
  };
}

/** One comparable field: `address`, `publishAt`, `unpublishAt`, `body`, or `meta.<key>` (undefined when the key is absent). */
export type FieldKey = string;

export function fieldValue(fields: Fields, key: FieldKey): string | undefined {
  if (key.startsWith('meta.')) return fields.meta[key.slice(5)];
  return fields[key as Exclude<keyof Fields, 'meta'>];
}

export function fieldKeys(...all: Fields[]): FieldKey[] {
  const meta = new Set(all.flatMap((fields) => Object.keys(fields.meta)));
  return ['address', ...[...meta].map((key) => `meta.${key}`), 'publishAt', 'unpublishAt', 'body'];
}

export function changedKeys(from: Fields, to: Fields): FieldKey[] {
  return fieldKeys(from, to).filter((key) => fieldValue(from, key) !== fieldValue(to, key));
}

export const sameFields = (a: Fields, b: Fields) => changedKeys(a, b).length === 0;

/** `theirs` with every field `mine` changed from `base` put on top (mine wins where both changed). */
export function applyOnTop(base: Fields, mine: Fields, theirs: Fields): Fields {
  const merged: Fields = { ...theirs, meta: { ...theirs.meta } };
  for (const key of changedKeys(base, mine)) {
    const value = fieldValue(mine, key);
    if (key.startsWith('meta.')) {
      if (value === undefined) delete merged.meta[key.slice(5)];
      else merged.meta[key.slice(5)] = value;
    } else {
      (merged as unknown as Record<string, string>)[key] = value ?? '';
    }
  }
  return merged;
}

/** A field the form cannot send as it stands. */
export interface FieldProblem {
  field: FieldKey;
  message: string;
}

/**
 * The update that turns `base` into `draft`: only changed fields, removed meta keys as `null`.
 * A page's pathname is not part of it (that is a move, which keeps a redirect).
 */
export function updateFor(
  kind: ContentEntry['kind'],
  type: ItemType,
  base: Fields,
  draft: Fields,
  baseMeta: Record<string, unknown>,
): { update: LocaleUpdateData; problems: FieldProblem[] } {
  const update: LocaleUpdateData = {};
  const problems: FieldProblem[] = [];
  const changed = changedKeys(base, draft);
  const meta: Record<string, unknown> = {};
  for (const key of changed) {
    if (key === 'address') {
      if (kind !== 'page') update.name = draft.address;
    } else if (key === 'publishAt' || key === 'unpublishAt') {
      update[key] = draft[key] || null;
    } else if (key === 'body') {
      if (type === 'mdx') {
        update.content = { mdx: draft.body };
      } else {
        const problem = jsonError(draft.body);
        if (problem) {
          problems.push({ field: 'body', message: `The JSON is not valid: ${problem}.` });
          continue;
        }
        const parsed = JSON.parse(draft.body) as unknown;
        if (type === 'json') {
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            problems.push({ field: 'body', message: 'The data must be a JSON object ({ … }).' });
            continue;
          }
          update.content = { data: parsed as Record<string, unknown> };
        } else {
          update.content = { visualData: parsed };
        }
      }
    } else {
      const name = key.slice(5);
      const text = draft.meta[name];
      if (text === undefined) {
        meta[name] = null;
        continue;
      }
      const kind = metaKind(name, baseMeta[name]);
      if (kind === 'list')
        meta[name] = text
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean);
      else if (kind === 'json') {
        const problem = jsonError(text);
        if (problem) problems.push({ field: key, message: `“${name}” is not valid JSON: ${problem}.` });
        else meta[name] = JSON.parse(text);
      } else meta[name] = text;
    }
  }
  if (Object.keys(meta).length > 0) update.meta = meta as LocaleUpdateData['meta'];
  return { update, problems };
}

export function fieldLabel(key: FieldKey, kind: ContentEntry['kind']): string {
  if (key === 'address') return kind === 'page' ? 'Pathname' : 'Name';
  if (key === 'publishAt') return 'Publish at';
  if (key === 'unpublishAt') return 'Unpublish at';
  if (key === 'body') return 'Content';
  const name = key.slice(5);
  return name === 'title' ? 'Title' : name === 'description' ? 'Description' : `Meta “${name}”`;
}

/** `2026-01-31T09:00:00.000Z` → the value a datetime-local input shows (local time). */
export function toLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : '');
