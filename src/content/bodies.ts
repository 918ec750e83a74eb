import fs from 'node:fs/promises';
import path from 'node:path';
import { fsErrorCode } from '../errors.js';
import { contentEtagOf } from './etag.js';
import { parseLocaleFile } from './files.js';
import type { ContentData, StoredLocale } from './types.js';
import type { ContentOf } from './views.js';

/**
 * A locale's file no longer holds the content the index has the etag of (changed or deleted by
 * hand, its file event not taken in yet): the index must read the file again.
 */
export class ContentMovedOn extends Error {
  constructor(readonly file: string) {
    super(`${file} changed on disk while it was read`);
  }
}

/** One locale's content, read from its file and checked against the etag the index has for it. */
async function readContent(stored: StoredLocale): Promise<ContentData | undefined> {
  if (stored.contentEtag === '') return undefined;
  let text: string;
  try {
    text = await fs.readFile(stored.path, 'utf8');
  } catch (error) {
    if (fsErrorCode(error) === 'ENOENT') throw new ContentMovedOn(stored.path);
    throw error;
  }
  let content: ContentData | undefined;
  try {
    content = parseLocaleFile(text, path.extname(stored.path) === '.mdx' ? 'mdx' : 'json').file.content;
  } catch {
    throw new ContentMovedOn(stored.path);
  }
  if (!content || contentEtagOf(content) !== stored.contentEtag) throw new ContentMovedOn(stored.path);
  return content;
}

/**
 * The content of these locales, read from their files (the index keeps only etags, so memory
 * grows with the number of items, not with their bodies; the OS page cache keeps the files read
 * often). Throws `ContentMovedOn` for a file that changed since the index read it.
 */
export async function readContents(holders: Iterable<StoredLocale>): Promise<ContentOf> {
  const unique = [...new Set(holders)];
  const contents = await Promise.all(unique.map(readContent));
  const byLocale = new Map(unique.map((stored, position) => [stored, contents[position]]));
  return (stored) => byLocale.get(stored);
}
