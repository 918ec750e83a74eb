import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeClash, ItemIndex } from '../content/item-index.js';
import { parseContentPath, TOP_FOLDERS } from '../content/paths.js';
import { readLocaleFile } from '../content/sync.js';
import type { Kind } from '../content/types.js';
import { signatureOf } from '../util/file-signature.js';

const FOLDERS_OF: Record<Kind, string[]> = {
  page: [TOP_FOLDERS.pages],
  fragment: [TOP_FOLDERS.fragments, TOP_FOLDERS.siteFragments],
  data: [TOP_FOLDERS.data],
};

const READ_CONCURRENCY = 64;

type Warn = (message: string) => void;

/**
 * The loader's own in-memory index of one kind's files, built and kept fresh with the store's
 * modules (path layout, file parser, ItemIndex), so it reads exactly what the API serves. Only the
 * kind's top folders are read: an item's locales always live side by side, so nothing else matters.
 */
export function createContentIndex(root: string, kind: Kind, warn: Warn) {
  const index = new ItemIndex();
  const folders = FOLDERS_OF[kind].map((folder) => path.join(root, folder));

  const inScope = (filePath: string) => folders.some((folder) => filePath.startsWith(folder + path.sep));

  /** Brings one path's locale into the index; true when the index changed. */
  async function syncFile(filePath: string): Promise<boolean> {
    if (!inScope(filePath)) return false;
    const where = parseContentPath(path.relative(root, filePath));
    if (!where || where.kind !== kind) return false;
    const stat = await fs.lstat(filePath).catch(() => null);
    const known = index.storedAt(where.id, where.locale, filePath);
    if (!stat?.isFile()) {
      if (!known) return false;
      index.removeLocale(where.id, where.locale, filePath);
      return true;
    }
    if (known?.signature === signatureOf(stat)) return false;
    try {
      const { type, stored } = await readLocaleFile(filePath, where.extension, stat);
      const clash = index.setLocale(where, where.id, type, where.locale, stored);
      if (clash) warn(describeClash(clash, root));
    } catch (error) {
      warn(`skipping ${filePath}: ${(error as Error).message}`);
      if (known) index.removeLocale(where.id, where.locale, filePath);
    }
    return true;
  }

  /** Every content file under `folder` (hidden folders and node_modules skipped, as the store does). */
  async function filesUnder(folder: string): Promise<string[]> {
    const files: string[] = [];
    const walk = async (current: string): Promise<void> => {
      const entries: Dirent[] = await fs.readdir(current, { withFileTypes: true }).catch(() => []);
      const subfolders: string[] = [];
      for (const entry of entries) {
        const full = path.join(current, entry.name);
        if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') subfolders.push(full);
        else if (entry.isFile()) files.push(full);
      }
      await Promise.all(subfolders.map(walk));
    };
    await walk(folder);
    return files;
  }

  async function syncAll(files: string[]): Promise<boolean> {
    let changed = false;
    for (let start = 0; start < files.length; start += READ_CONCURRENCY) {
      const results = await Promise.all(files.slice(start, start + READ_CONCURRENCY).map(syncFile));
      changed = results.includes(true) || changed;
    }
    return changed;
  }

  return {
    index,
    /** Reads every file of the kind. */
    async scan(): Promise<void> {
      await syncAll((await Promise.all(folders.map(filesUnder))).flat());
    },
    /**
     * Brings a path a watcher reported into the index: a file, a new folder (read whole) or a
     * removed folder (its locales dropped). True when the index changed.
     */
    async syncPath(changed: string): Promise<boolean> {
      const stat = await fs.lstat(changed).catch(() => null);
      if (stat?.isDirectory()) {
        const related = folders.some(
          (folder) =>
            folder === changed || folder.startsWith(changed + path.sep) || changed.startsWith(folder + path.sep),
        );
        return related ? syncAll(await filesUnder(changed)) : false;
      }
      if (!stat) {
        const gone = [...index.files()].filter(([, , file]) => file.startsWith(changed + path.sep));
        for (const [id, locale, file] of gone) index.removeLocale(id, locale, file);
        if (gone.length > 0) return true;
      }
      return syncFile(changed);
    },
  };
}
