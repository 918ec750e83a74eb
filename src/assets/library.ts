import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Derivation } from '../content/store.js';
import { QuireError } from '../errors.js';
import type { QuireEvent } from '../events/types.js';
import { isActiveContent } from './active-content.js';
import { type AddInfo, createFileAdder } from './add-file.js';
import { isPublicAddress } from './address-policy.js';
import { createCatalog } from './catalog.js';
import { downloadToFile } from './download.js';
import { createFolders, pruneRecords, writeStep } from './folders.js';
import { createManifests } from './manifest.js';
import { createMover } from './move-files.js';
import { type ReceivedUpload, receiveMultipart } from './multipart.js';
import { createPathGuard, parseAssetPath } from './safe-path.js';
import { createTempFiles } from './temp-files.js';
import type { AssetEntry, AssetRecord } from './types.js';
import { createUsageScanner, servePrefixOf } from './usage.js';

export interface AssetLibraryOptions {
  /** The assets folder in force. */
  dir: string;
  maxBytes: number;
  /** MIME types accepted, as sniffed from the bytes. */
  allowedTypes: string[];
  /** The API prefix: serve URLs are `${prefix}/assets/serve/<path>`. */
  prefix: string;
  allowPrivateNetworks: boolean;
  /**
   * The content store: usage is a value derived from all items (kept until the content changes),
   * and every change to the library runs as one of its shared writes, so a git commit or pull waits for it.
   */
  content: {
    derived<T>(derivation: Derivation<T>): Promise<T>;
    shared<T>(task: () => Promise<T>): Promise<T>;
  };
  /** @default 30000 */
  importTimeoutMs?: number;
  /** Told of each change to the library. */
  announce: (event: QuireEvent & { kind: 'asset' }) => void;
}

const MAX_REDIRECTS = 5;

/**
 * The media library: files under `dir` in folders, their metadata in one manifest per folder.
 * Every path a caller gives is checked to stay inside `dir`; every change to a folder runs under
 * that folder's lock, so concurrent uploads each get their own name and manifest entry.
 */
export function createAssetLibrary(options: AssetLibraryOptions) {
  const root = path.resolve(options.dir);
  const guard = createPathGuard(root);
  const manifests = createManifests();
  const temp = createTempFiles(root);
  const folders = createFolders(root, guard);
  const servePrefix = servePrefixOf(options.prefix);
  const urlOf = (assetPath: string) => servePrefix + assetPath.split('/').map(encodeURIComponent).join('/');
  const catalog = createCatalog(root, manifests, urlOf);
  const addFile = createFileAdder({ folders, manifests, catalog, allowedTypes: options.allowedTypes });
  const moveFiles = createMover({ guard, folders, manifests, catalog });
  const computeUsage = createUsageScanner(servePrefix);
  // One asset's usage at a time: the map of every asset's outgrows the derived-values budget at 100k items, and
  // a value over it is computed again on every request.
  const usageOf = (asset: string): Derivation<string> => ({
    name: `asset-usage\0${asset}`,
    compute: (items) => JSON.stringify({ usage: computeUsage(items, asset).get(asset) ?? [] }),
  });

  const write = <T>(task: () => Promise<T>) =>
    options.content.shared(async () => {
      await temp.swept();
      return task();
    });
  /** Announces a change that went through, passing its result on. */
  const announced = <T>(action: (QuireEvent & { kind: 'asset' })['action'], path: string | null, result: T): T => {
    options.announce({ kind: 'asset', path, action });
    return result;
  };
  const notFound = (assetPath: string) =>
    new QuireError('ASSET_NOT_FOUND', `No asset at "${assetPath}".`, { path: assetPath });

  /** An existing asset file: its checked segments, real path and lstat. */
  async function existingFile(input: string) {
    const segments = parseAssetPath(input, 'path', { folder: false });
    const { absolute, real } = await guard.resolve(segments, 'path');
    // A symlink is not an asset (listings skip them too), even one that stays inside the folder.
    const stat = real ? await fs.lstat(absolute).catch(() => undefined) : undefined;
    if (!real || !stat?.isFile()) throw notFound(segments.join('/'));
    return { segments, folder: segments.slice(0, -1), name: segments.at(-1)!, real, stat };
  }

  /** Applies a change to an asset's manifest record (made from the file itself if it has none). */
  async function changeRecord(input: string, change: (record: AssetRecord) => AssetRecord): Promise<AssetEntry> {
    const segments = parseAssetPath(input, 'path', { folder: false });
    return write(() =>
      folders.locked([segments.slice(0, -1)], async () => {
        const file = await existingFile(input);
        const folder = path.dirname(file.real);
        const records = await manifests.readForUpdate(folder);
        const {
          filename: _filename,
          folder: _folder,
          path: _path,
          url: _url,
          ...record
        } = await catalog.entry(file.folder, file.name, file.stat);
        records.set(file.name, change(record));
        await manifests.write(folder, pruneRecords(records, await folders.namesIn(folder)));
        return catalog.entry(file.folder, file.name, file.stat);
      }),
    );
  }

  async function importFrom(url: string, info: AddInfo): Promise<AssetEntry> {
    // The folder is checked before anything is downloaded (and again when the file is filed).
    await guard.resolve(parseAssetPath(info.folder ?? '/', 'folder', { folder: true }), 'folder');
    const tempPath = await temp.create();
    try {
      const { size, finalUrl } = await downloadToFile(url, tempPath, {
        maxBytes: options.maxBytes,
        timeoutMs: options.importTimeoutMs ?? 30_000,
        maxRedirects: MAX_REDIRECTS,
        isAllowed: options.allowPrivateNetworks ? () => true : isPublicAddress,
      });
      const entry = await write(() => addFile(tempPath, nameFromUrl(finalUrl), size, info));
      return announced('uploaded', entry.path, entry);
    } finally {
      await temp.remove(tempPath);
    }
  }

  return {
    list: (): Promise<AssetEntry[]> => catalog.all(),

    /** A folder's assets and subfolders (the root always exists, even before the first upload). */
    async folder(input: string) {
      const segments = parseAssetPath(input, 'path', { folder: true });
      await guard.resolve(segments, 'path');
      const found = await catalog.folder(segments);
      if (found) return found;
      if (segments.length === 0) return { assets: [], folders: [] };
      throw new QuireError('ASSET_NOT_FOUND', `No folder "/${segments.join('/')}".`, {
        path: `/${segments.join('/')}`,
      });
    },

    folderTree: () => catalog.tree(),

    async meta(input: string): Promise<AssetEntry> {
      const file = await existingFile(input);
      return catalog.entry(file.folder, file.name, file.stat);
    },

    /** Sets or (with null or empty) removes alt text and tags. */
    async updateMeta(input: string, change: { alt?: string | null; tags?: string[] | null }): Promise<AssetEntry> {
      const entry = await changeRecord(input, (record) => {
        const next = { ...record };
        if (change.alt === null || change.alt === '') delete next.alt;
        else if (change.alt !== undefined) next.alt = change.alt;
        if (change.tags === null || change.tags?.length === 0) delete next.tags;
        else if (change.tags !== undefined) next.tags = [...new Set(change.tags)];
        return next;
      });
      return announced('updated', entry.path, entry);
    },

    /** Deletes the file and its metadata. */
    async remove(input: string): Promise<void> {
      const segments = parseAssetPath(input, 'path', { folder: false });
      await write(() =>
        folders.locked([segments.slice(0, -1)], async () => {
          const file = await existingFile(input);
          const folder = path.dirname(file.real);
          const records = await manifests.readForUpdate(folder);
          await writeStep(`delete ${file.segments.join('/')}`, () => fs.rm(file.real));
          catalog.forget(file.real);
          if (records.delete(file.name))
            await manifests.write(folder, pruneRecords(records, await folders.namesIn(folder)));
        }),
      );
      announced('deleted', segments.join('/'), undefined);
    },

    /** `{ usage }`, where content refers to the asset, as JSON: kept as text until the content changes (a popular image's answer is large). */
    async usageJson(input: string): Promise<string> {
      const segments = parseAssetPath(input, 'path', { folder: false });
      await guard.resolve(segments, 'path');
      return options.content.derived(usageOf(segments.join('/')));
    },

    /** The file to serve: its type and size, and (unless `withBody` is false, for HEAD) a stream of its bytes. */
    async open(input: string, withBody: boolean) {
      const file = await existingFile(input);
      const handle = await fs.open(file.real, 'r').catch(() => {
        throw notFound(file.segments.join('/'));
      });
      let stat: Stats;
      try {
        stat = await handle.stat();
        if (!stat.isFile()) throw notFound(file.segments.join('/'));
      } catch (error) {
        await handle.close();
        throw error;
      }
      const { mimeType } = await catalog.entry(file.folder, file.name, stat);
      if (!withBody) await handle.close();
      const body = withBody ? (Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>) : undefined;
      return { mimeType, size: stat.size, active: isActiveContent(mimeType), body };
    },

    /** Streams a multipart body to a temp file; the caller checks the fields, then calls `addUpload` and always `discard`. */
    receiveUpload: (
      body: ReadableStream<Uint8Array> | null,
      contentType: string | undefined,
    ): Promise<ReceivedUpload> => receiveMultipart(body, contentType, { maxBytes: options.maxBytes, temp }),

    async addUpload(received: ReceivedUpload, info: AddInfo): Promise<AssetEntry> {
      if (!received.file)
        throw new QuireError('INVALID_REQUEST', 'No file in the upload: send it in a multipart field named "file".', {
          field: 'file',
        });
      const { tempPath, originalName, size } = received.file;
      const entry = await write(() => addFile(tempPath, originalName, size, info));
      return announced('uploaded', entry.path, entry);
    },

    /** Removes the upload's temp file if it is still there. */
    async discard(received: ReceivedUpload): Promise<void> {
      if (received.file) await temp.remove(received.file.tempPath);
    },

    /**
     * Downloads a public http(s) URL and adds it like an upload. The interface gives import-url one
     * failure answer, so a file too large or of a refused format is ASSET_UPLOAD_FAILED with that reason.
     */
    async importUrl(url: string, info: AddInfo): Promise<AssetEntry> {
      try {
        return await importFrom(url, info);
      } catch (error) {
        if (
          !(error instanceof QuireError) ||
          (error.code !== 'ASSET_TOO_LARGE' && error.code !== 'ASSET_INVALID_FORMAT')
        )
          throw error;
        const reason = error.code === 'ASSET_TOO_LARGE' ? 'too-large' : 'invalid-format';
        throw new QuireError(
          'ASSET_UPLOAD_FAILED',
          `Could not import ${url}: ${error.message}`,
          { ...(error.details as object), url, reason },
          { cause: error },
        );
      }
    },

    /** Moves files between folders; `moved` counts what actually moved. */
    move: async (...args: Parameters<typeof moveFiles>) =>
      announced('moved', null, await write(() => moveFiles(...args))),

    /** Creates a folder (and its missing parents); refuses one that exists. It gets an empty manifest, so git keeps it. */
    async createFolder(input: string): Promise<{ path: string }> {
      const segments = parseAssetPath(input, 'path', { folder: true });
      const label = `/${segments.join('/')}`;
      if (segments.length === 0)
        throw new QuireError('INVALID_REQUEST', 'Invalid path: the root folder always exists.', { field: 'path' });
      await write(() =>
        folders.locked([segments], async () => {
          const { real } = await guard.resolve(segments, 'path');
          if (real)
            throw new QuireError('INVALID_REQUEST', `The folder "${label}" already exists.`, {
              field: 'path',
              path: label,
            });
          await manifests.write(await folders.ensure(segments, 'path'), new Map());
        }),
      );
      return announced('folder', segments.join('/'), { path: label });
    },
  };
}

/** The last path segment of a URL, decoded, as the file's original name. */
function nameFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last) || 'download';
  } catch {
    return last || 'download';
  }
}

export type AssetLibrary = ReturnType<typeof createAssetLibrary>;
