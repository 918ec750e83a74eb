import { diffLines, diffWords } from 'diff';
import { canonicalJson } from '../content/etag.js';
import type { ContentData, ContentType, Meta } from '../content/types.js';

/** A run of words: unchanged, or only in the newer text (`added`) or only in the older (`removed`). */
export interface WordPart {
  text: string;
  change?: 'added' | 'removed';
}

/** One value that differs: a meta key, or a field path such as `visualData.blocks[0].text`. */
export interface FieldChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
  /** For a changed text: the word-level difference. */
  words?: WordPart[];
}

/** One line of an MDX source, aligned between the two versions. */
export interface LineChange {
  change: 'same' | 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
  /** For a changed line: the word-level difference. */
  words?: WordPart[];
}

export interface ReviewDiff {
  meta: FieldChange[];
  /** Field by field (for MDX: the content besides its source). */
  content: FieldChange[];
  /** MDX only: the source line by line. */
  lines?: LineChange[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function pathJoin(base: string, key: string): string {
  if (IDENTIFIER.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

/** Every leaf of a value by path; an empty array or object is a leaf of its own. */
function flatten(value: unknown, base: string, into: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value) && value.length > 0) {
    for (const [position, entry] of value.entries()) flatten(entry, `${base}[${position}]`, into);
  } else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [key, entry] of Object.entries(value))
      if (entry !== undefined) flatten(entry, pathJoin(base, key), into);
  } else if (base !== '') {
    into.set(base, value);
  }
  return into;
}

export function wordsOf(before: string, after: string): WordPart[] {
  return diffWords(before, after).map((part) => ({
    text: part.value,
    ...(part.added ? { change: 'added' as const } : part.removed ? { change: 'removed' as const } : {}),
  }));
}

/** The changes between two flattened values, in the newer value's order, then what was removed. */
function fieldChanges(before: Map<string, unknown>, after: Map<string, unknown>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [path, value] of after) {
    if (!before.has(path)) {
      changes.push({ path, change: 'added', after: value });
      continue;
    }
    const old = before.get(path);
    if (canonicalJson(old) === canonicalJson(value)) continue;
    const words = typeof old === 'string' && typeof value === 'string' ? { words: wordsOf(old, value) } : {};
    changes.push({ path, change: 'changed', before: old, after: value, ...words });
  }
  for (const [path, value] of before) if (!after.has(path)) changes.push({ path, change: 'removed', before: value });
  return changes;
}

const splitLines = (text: string) => {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/** Line by line; a block of removed lines followed by added ones is paired line for line as changed lines. */
export function lineChanges(before: string, after: string): LineChange[] {
  const changes: LineChange[] = [];
  let removed: string[] = [];
  const flushRemoved = () => {
    for (const line of removed) changes.push({ change: 'removed', before: line });
    removed = [];
  };
  for (const part of diffLines(before, after)) {
    const lines = splitLines(part.value);
    if (part.removed) {
      removed.push(...lines);
    } else if (part.added) {
      const paired = Math.min(removed.length, lines.length);
      for (let position = 0; position < paired; position++) {
        const old = removed[position]!;
        const line = lines[position]!;
        changes.push({ change: 'changed', before: old, after: line, words: wordsOf(old, line) });
      }
      removed = removed.slice(paired);
      flushRemoved();
      for (const line of lines.slice(paired)) changes.push({ change: 'added', after: line });
    } else {
      flushRemoved();
      for (const line of lines) changes.push({ change: 'same', before: line, after: line });
    }
  }
  flushRemoved();
  return changes;
}

/** What changed from one version of a default locale to another: meta per key, content per field (and per line for MDX). */
export function diffVersions(
  type: ContentType,
  before: { meta: Meta; content: ContentData },
  after: { meta: Meta; content: ContentData },
): ReviewDiff {
  const metaOf = (meta: Meta) => new Map(Object.entries(meta).map(([key, value]) => [pathJoin('', key), value]));
  const meta = fieldChanges(metaOf(before.meta), metaOf(after.meta));
  if (type !== 'mdx') {
    return {
      meta,
      content: fieldChanges(flatten(before.content, '', new Map()), flatten(after.content, '', new Map())),
    };
  }
  const { mdx: oldSource = '', ...oldRest } = before.content;
  const { mdx: newSource = '', ...newRest } = after.content;
  return {
    meta,
    content: fieldChanges(flatten(oldRest, '', new Map()), flatten(newRest, '', new Map())),
    lines: lineChanges(oldSource, newSource),
  };
}
