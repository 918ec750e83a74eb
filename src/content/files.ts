import * as v from 'valibot';
import YAML from 'yaml';
import { StoredInheritanceSchema } from './inheritance-schema.js';
import type { ContentType, LocaleFile } from './types.js';

/** The order fields are written in, so that a file's diff shows only what changed. */
const FIELD_ORDER = [
  'pathname',
  'name',
  'publishAt',
  'unpublishAt',
  'inheritance',
  'previousPathnames',
  'created',
  'createdBy',
  'modified',
  'modifiedBy',
  'meta',
] as const;

function orderedHeader(file: LocaleFile): Record<string, unknown> {
  const header: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) if (file[key] !== undefined) header[key] = file[key];
  return header;
}

/**
 * JSON items are one pretty JSON object per locale; MDX items keep their source as the file's
 * body under YAML front matter, so a translator can open and edit the file itself.
 */
export function serializeLocaleFile(type: ContentType, file: LocaleFile): string {
  if (type !== 'mdx') {
    return `${JSON.stringify({ type, ...orderedHeader(file), ...(file.content ? { content: file.content } : {}) }, null, 2)}\n`;
  }
  const { mdx, ...otherContent } = file.content ?? {};
  const header = { ...orderedHeader(file), ...(Object.keys(otherContent).length ? { content: otherContent } : {}) };
  return `---\n${YAML.stringify(header, { lineWidth: 0 })}---\n${mdx ?? ''}`;
}

const StoredSchema = v.object({
  type: v.optional(v.picklist(['visual', 'json'])),
  pathname: v.optional(v.string()),
  name: v.optional(v.string()),
  publishAt: v.optional(v.string()),
  unpublishAt: v.optional(v.string()),
  inheritance: v.optional(StoredInheritanceSchema),
  previousPathnames: v.optional(v.array(v.string())),
  created: v.optional(v.string()),
  createdBy: v.optional(v.string()),
  modified: v.optional(v.string()),
  modifiedBy: v.optional(v.string()),
  meta: v.optional(v.record(v.string(), v.unknown()), {}),
  content: v.optional(
    v.object({
      visualData: v.optional(v.unknown()),
      mdx: v.optional(v.string()),
      data: v.optional(v.record(v.string(), v.unknown())),
    }),
  ),
});

export interface ParsedLocaleFile {
  type: ContentType;
  /** `created`/`modified` may be missing from a hand-written file; the caller supplies them. */
  file: Omit<LocaleFile, 'created' | 'modified'> & { created?: string; modified?: string };
}

/** Parses a locale file; throws an Error that says what is wrong with it. */
export function parseLocaleFile(text: string, extension: 'json' | 'mdx'): ParsedLocaleFile {
  let raw: unknown;
  let body: string | undefined;
  if (extension === 'json') {
    raw = JSON.parse(text);
  } else {
    const match = /^---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/.exec(text);
    raw = match ? (YAML.parse(match[1]!) ?? {}) : {};
    body = match ? text.slice(match[0].length) : text;
  }
  const parsed = v.safeParse(StoredSchema, raw);
  if (!parsed.success) {
    throw new Error(parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(file)'}: ${issue.message}`).join('; '));
  }
  const { type: storedType, ...file } = parsed.output;
  if (extension === 'mdx' && file.inheritance?.state !== 'inherited') {
    file.content = { ...file.content, mdx: body ?? '' };
  }
  if (file.inheritance?.state === 'inherited') delete file.content;
  return { type: extension === 'mdx' ? 'mdx' : (storedType ?? 'json'), file };
}
