import { createHash } from 'node:crypto';
import type { LocaleFile } from './types.js';

/** JSON with object keys sorted at every depth, so equal data always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((entry) => (entry === undefined ? 'null' : canonicalJson(entry))).join(',')}]`;
  const keys = Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

/** The meta half: everything about a locale but its content and its bookkeeping (times, authors, history). */
export function metaEtagOf(file: LocaleFile): string {
  const { meta, pathname, name, publishAt, unpublishAt, inheritance } = file;
  const lineage = inheritance && { state: inheritance.state, from: inheritance.from, inheritedEtag: inheritance.inheritedEtag };
  return digest(canonicalJson({ meta, pathname, name, publishAt, unpublishAt, inheritance: lineage }));
}

export function contentEtagOf(content: unknown): string {
  return digest(canonicalJson(content ?? {}));
}

export const joinEtag = (metaEtag: string, contentEtag: string) => `${metaEtag}.${contentEtag}`;
