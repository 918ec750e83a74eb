import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { QuireError } from '../../errors.js';
import { leadsOutside, writeFileAtomic } from '../../util/atomic-write.js';
import { signatureOf } from '../../util/file-signature.js';
import { serializeLocaleFile } from '../files.js';
import { localeFilePath } from '../paths.js';
import { storedLocale } from '../sync.js';
import type { ContentType, Item, ItemHome, LocaleFile, StoredLocale } from '../types.js';
import type { Author, StoreContext } from './context.js';

/** Whether a file the index skipped (unreadable, or a symlink) holds one of these paths: a new item never takes it over. */
export function onDisk(ctx: StoreContext, home: ItemHome, id: string, type: ContentType, locales: string[]): boolean {
  return locales.some((locale) => {
    try {
      fsSync.lstatSync(localeFilePath(ctx.root, home, id, locale, type));
      return true;
    } catch {
      return false;
    }
  });
}

/** Writes one locale's file atomically, then puts it in the index and announces it. */
export async function writeLocale(
  ctx: StoreContext,
  item: ItemHome & { id: string; type: ContentType },
  locale: string,
  file: LocaleFile,
  by: Author,
): Promise<StoredLocale> {
  const filePath = localeFilePath(ctx.root, item, item.id, locale, item.type);
  // A site or collection folder that is a symlink out of the root: the scan never reads there, and no write goes there.
  const folder = path.dirname(filePath);
  let outside = false;
  try {
    outside = leadsOutside(ctx.root, folder);
  } catch {
    // An unreadable folder: the write below fails and says why.
  }
  if (outside) {
    throw new QuireError(
      'INVALID_REQUEST',
      `The folder ${path.relative(ctx.root, folder)} leads outside the content root (through a symlink): content cannot be stored there.`,
      { folder: path.relative(ctx.root, folder) },
    );
  }
  try {
    fsSync.mkdirSync(folder, { recursive: true });
    const written = await writeFileAtomic(filePath, serializeLocaleFile(item.type, file));
    const stored = storedLocale(file, filePath, signatureOf(written), ctx.referencesOf);
    const existed = ctx.index.get(item.id)?.locales.has(locale) ?? false;
    ctx.index.setLocale(item, item.id, item.type, locale, stored);
    ctx.announce(item.id, locale, existed ? 'updated' : 'created', by ?? null);
    return stored;
  } catch (error) {
    throw new QuireError(
      'WRITE_ERROR',
      `Could not write ${filePath}: ${(error as Error).message}`,
      { file: filePath },
      { cause: error },
    );
  }
}

/** Deletes one locale's file, then takes it out of the index (the caller announces it). */
export async function deleteLocale(ctx: StoreContext, item: Item, locale: string): Promise<void> {
  const stored = item.locales.get(locale)!;
  try {
    await fs.rm(stored.path, { force: true });
  } catch (error) {
    throw new QuireError(
      'WRITE_ERROR',
      `Could not delete ${stored.path}: ${(error as Error).message}`,
      { file: stored.path },
      { cause: error },
    );
  }
  ctx.index.removeLocale(item.id, locale);
}
