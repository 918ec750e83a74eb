import fsSync, { type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsErrorCode } from '../errors.js';
import { removeInterruptedWrites, tempFileTarget } from '../util/atomic-write.js';
import { forEachInSlices } from '../util/event-loop-slices.js';
import { signatureOf } from '../util/file-signature.js';
import { contentEtagOf, metaEtagOf } from './etag.js';
import { type ParsedLocaleFile, parseLocaleFile } from './files.js';
import { type ClashNotice, describeClash, type ItemIndex } from './item-index.js';
import { type ParsedContentPath, parseContentPath } from './paths.js';
import { describeOffSitePathname, offSitePathnames } from './problems.js';
import type { AssetReference, ContentData, LocaleFile, StoredLocale } from './types.js';
import { createFolderWatcher } from './watch.js';

/** Finds the asset references in a locale's content (see `createReferenceFinder`). */
export type ReferenceFinder = (content: ContentData) => AssetReference[];

/** A locale as the index keeps it: its header and meta, the etags, and the assets its content refers to; the content stays in the file. */
export function storedLocale(
  file: LocaleFile,
  filePath: string,
  signature: string,
  referencesOf?: ReferenceFinder,
): StoredLocale {
  const { content, ...header } = file;
  const references = content && referencesOf ? referencesOf(content) : [];
  const offSite = offSitePathnames(file);
  return {
    file: header,
    metaEtag: metaEtagOf(file),
    contentEtag: content ? contentEtagOf(content) : '',
    ...(references.length > 0 && { references }),
    ...(offSite.length > 0 && { offSitePathnames: offSite }),
    path: filePath,
    signature,
  };
}

/** A parsed file as the index keeps it; a hand-written file without `created` or `modified` gets the file's mtime. */
function indexedFile(parsed: ParsedLocaleFile, filePath: string, stat: Stats, referencesOf?: ReferenceFinder) {
  const stamp = stat.mtime.toISOString();
  const file: LocaleFile = {
    ...parsed.file,
    created: parsed.file.created ?? stamp,
    modified: parsed.file.modified ?? stamp,
  };
  const stored = storedLocale(file, filePath, signatureOf(stat), referencesOf);
  for (const pathname of stored.offSitePathnames ?? [])
    console.warn(`[astro-quire] ${filePath}: ${describeOffSitePathname(pathname)}.`);
  return { type: parsed.type, stored };
}

/** Reads and parses one locale file whose lstat is `stat`; throws an Error saying what is wrong with the file. */
async function readLocaleFile(
  filePath: string,
  extension: 'json' | 'mdx',
  stat: Stats,
  referencesOf: ReferenceFinder | undefined,
) {
  return indexedFile(parseLocaleFile(await fs.readFile(filePath, 'utf8'), extension), filePath, stat, referencesOf);
}

/** The same with synchronous I/O, for the start-up scan; the fstat of the open file gives the signature. */
function readLocaleFileSync(filePath: string, extension: 'json' | 'mdx', referencesOf: ReferenceFinder | undefined) {
  const descriptor = fsSync.openSync(filePath, 'r');
  try {
    const stat = fsSync.fstatSync(descriptor);
    const parsed = parseLocaleFile(fsSync.readFileSync(descriptor, 'utf8'), extension);
    return indexedFile(parsed, filePath, stat, referencesOf);
  } finally {
    fsSync.closeSync(descriptor);
  }
}

type WithItemLock = <T>(id: string, task: () => Promise<T>) => Promise<T>;

export interface IndexSyncOptions {
  excluded: string[];
  withItemLock: WithItemLock;
  /** A path was reported changed (not yet read). */
  onDirty?: () => void;
  /** The index took in a change made on disk, not through the store (after the start-up scan). */
  onDiskChange?: (id: string, locale: string, action: 'created' | 'updated' | 'deleted') => void;
  /** A reader (the content loader in a build): creates no folder and removes no leftover temp file. */
  readOnly?: boolean;
  /** Finds the asset references of each locale's content as it is read (the content itself is not kept). */
  referencesOf?: ReferenceFinder;
}

const SCAN_CONCURRENCY = 64;

async function inBatches<T>(entries: T[], task: (entry: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < entries.length; start += SCAN_CONCURRENCY) {
    await Promise.all(entries.slice(start, start + SCAN_CONCURRENCY).map(task));
  }
}

/**
 * Keeps the index equal to the files: one full scan at start, then every path a folder watcher
 * reports goes through the same `syncFile`, which skips files whose lstat signature is unchanged
 * (the store's own writes record theirs, so their watcher echoes cost one lstat). The store uses
 * it, and so does the content loader where no store runs (a build, a site without the integration).
 */
export function createIndexSync(root: string, index: ItemIndex, options: IndexSyncOptions) {
  const dirty = new Set<string>();
  // A write's temporary file is never content, and its events would only cost lookups.
  const watcher = createFolderWatcher((changed) => {
    if (tempFileTarget(changed) !== undefined) return;
    dirty.add(changed);
    options.onDirty?.();
  });
  const removed = (id: string, locale: string, filePath?: string) => {
    if (index.removeLocale(id, locale, filePath)) options.onDiskChange?.(id, locale, 'deleted');
  };
  // Hidden folders and node_modules below the root hold no content; the root itself may be hidden (.content).
  const isExcluded = (folder: string) =>
    options.excluded.some((excluded) => folder === excluded || folder.startsWith(excluded + path.sep)) ||
    (folder !== root && (path.basename(folder).startsWith('.') || path.basename(folder) === 'node_modules'));
  let draining: Promise<void> | null = null;
  /** Every content folder seen, so that a vanished path is known to have been a folder. */
  const folders = new Set<string>();

  const warnOfClash = (clash: ClashNotice | null) => {
    if (clash) console.warn(`[astro-quire] ${describeClash(clash, root)}`);
  };

  const isIndexed = (where: ParsedContentPath, filePath: string, stat: Stats) => {
    return index.storedAt(where.id, where.locale, filePath)?.signature === signatureOf(stat);
  };

  async function syncFile(filePath: string, where: ParsedContentPath): Promise<void> {
    await options.withItemLock(where.id, async () => {
      // Synchronous, like syncChangedFile's: this is where the echo of a store write lands when it was
      // looked at between the rename and the index update, and every request's `fresh` waits for it.
      const stat = fsSync.lstatSync(filePath, { throwIfNoEntry: false });
      if (!stat) {
        removed(where.id, where.locale, filePath);
        return;
      }
      if (!stat.isFile() || isIndexed(where, filePath, stat)) return;
      let read: Awaited<ReturnType<typeof readLocaleFile>>;
      try {
        read = await readLocaleFile(filePath, where.extension, stat, options.referencesOf);
      } catch (error) {
        console.warn(`[astro-quire] skipping ${filePath}: ${(error as Error).message}`);
        removed(where.id, where.locale, filePath);
        return;
      }
      const existed = index.get(where.id)?.locales.has(where.locale) ?? false;
      warnOfClash(index.setLocale(where, where.id, read.type, where.locale, read.stored));
      // A file another item's claim keeps hidden changes nothing anyone sees.
      if (index.get(where.id)?.locales.get(where.locale)?.path === filePath)
        options.onDiskChange?.(where.id, where.locale, existed ? 'updated' : 'created');
    });
  }

  /**
   * A reported change to a content file. The store's own writes are reported too; their file
   * already has the indexed signature, so one lstat settles them without waiting for the item's lock.
   */
  async function syncChangedFile(filePath: string, where: ParsedContentPath): Promise<void> {
    // Synchronous: microseconds, where an async lstat would queue behind the writes' fsyncs.
    const stat = fsSync.lstatSync(filePath, { throwIfNoEntry: false });
    if (stat?.isFile() && isIndexed(where, filePath, stat)) return;
    await syncFile(filePath, where);
  }

  /**
   * The start-up scan: nothing else touches the index until it is ready, so files are read with
   * synchronous calls (open, fstat, read, close: the fstat gives the signature for free) in slices
   * of a few milliseconds that yield to the event loop between them — far less overhead per file than promises.
   * Temporary files that a killed process left beside content files are set aside on the way and
   * removed before the index is ready (no write runs before that).
   */
  async function loadAll(): Promise<void> {
    const listed = await listFolder(root);
    const temporary: string[] = [];
    await forEachInSlices(listed, (filePath) => {
      const where = parseContentPath(path.relative(root, filePath));
      if (!where) {
        if (tempFileTarget(filePath) !== undefined) temporary.push(filePath);
        return;
      }
      try {
        const { type, stored } = readLocaleFileSync(filePath, where.extension, options.referencesOf);
        warnOfClash(index.setLocale(where, where.id, type, where.locale, stored));
      } catch (error) {
        if (fsErrorCode(error) !== 'ENOENT')
          console.warn(`[astro-quire] skipping ${filePath}: ${(error as Error).message}`);
      }
    });
    // A reader (the content loader in a build) leaves the files as they are.
    if (!options.readOnly)
      await removeInterruptedWrites(temporary, (target) => parseContentPath(path.relative(root, target)) !== null);
  }

  /** Every file below `folder` (watching each folder on the way). */
  async function listFolder(folder: string): Promise<string[]> {
    const files: string[] = [];
    const walk = async (current: string): Promise<void> => {
      if (isExcluded(current)) return;
      folders.add(current);
      watcher.add(current);
      const subfolders: string[] = [];
      try {
        // In batches, not a whole folder at once: a folder of 100k files read in one go holds the event loop for ~0.5 s.
        for await (const entry of await fs.opendir(current, { bufferSize: 256 })) {
          const full = path.join(current, entry.name);
          if (entry.isDirectory()) subfolders.push(full);
          else if (entry.isFile()) files.push(full);
        }
      } catch {
        // A folder that vanished or cannot be read holds nothing to index.
      }
      await Promise.all(subfolders.map(walk));
    };
    await walk(folder);
    return files;
  }

  /** Syncs every file under `folder`; returns the paths it found. */
  async function scanFolder(folder: string): Promise<Set<string>> {
    const files = await listFolder(folder);
    const contentFiles = files.flatMap((file) => {
      const where = parseContentPath(path.relative(root, file));
      return where ? [{ file, where }] : [];
    });
    await inBatches(contentFiles, ({ file, where }) => syncFile(file, where));
    return new Set(files);
  }

  async function syncPath(changed: string): Promise<void> {
    const where = parseContentPath(path.relative(root, changed));
    if (where) return syncChangedFile(changed, where);
    const stat = await fs.lstat(changed).catch(() => null);
    if (stat?.isDirectory()) {
      await scanFolder(changed);
    } else if (!stat && folders.has(changed)) {
      // A vanished folder takes its files with it without a per-file event.
      for (const folder of [...folders])
        if (folder === changed || folder.startsWith(changed + path.sep)) folders.delete(folder);
      watcher.removeTree(changed);
      for (const [id, locale, file] of [...index.files()]) {
        if (file.startsWith(changed + path.sep)) await options.withItemLock(id, async () => removed(id, locale, file));
      }
    }
  }

  async function drain(): Promise<void> {
    while (dirty.size > 0) {
      const batch = [...dirty];
      dirty.clear();
      await inBatches(batch, (changed) =>
        syncPath(changed).catch((error) => {
          console.warn(`[astro-quire] could not read ${changed}: ${(error as Error).message}`);
        }),
      );
    }
  }

  const ready = (options.readOnly ? Promise.resolve() : fs.mkdir(root, { recursive: true }).then(() => undefined)).then(
    loadAll,
  );

  async function fresh(): Promise<void> {
    await ready;
    // Let file events that are already queued reach the dirty set before looking at it.
    await new Promise((resolve) => setImmediate(resolve));
    while (dirty.size > 0 || draining) {
      draining ??= drain().finally(() => {
        draining = null;
      });
      await draining;
    }
  }

  return {
    ready,
    /** Resolves once every change reported so far is in the index. */
    fresh,
    /** Reads one file again as if its event had come (a read found it changed before its event did). */
    async recheck(filePath: string): Promise<void> {
      dirty.add(filePath);
      await fresh();
    },
    /**
     * Compares the whole tree with the index, without trusting file events: for after a task that
     * rewrote many files at once (a pull), where the kernel may have dropped events.
     */
    async rescan(): Promise<void> {
      await ready;
      const seen = await scanFolder(root);
      for (const [id, locale, file] of [...index.files()]) {
        if (!seen.has(file)) await options.withItemLock(id, async () => removed(id, locale, file));
      }
    },
    close: () => watcher.closeAll(),
  };
}
