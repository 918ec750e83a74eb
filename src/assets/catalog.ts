import type { Dirent, Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime';
import { fsErrorCode } from '../errors.js';
import { signatureOf } from '../util/file-signature.js';
import { imageDimensions } from './dimensions.js';
import type { Manifests } from './manifest.js';
import { isAddressableName } from './safe-path.js';
import { sniffFile } from './sniff.js';
import type { AssetEntry, AssetRecord, FileFacts, FolderTreeNode } from './types.js';

export const folderLabel = (segments: string[]) => (segments.length === 0 ? '/' : `/${segments.join('/')}`);

/** What a folder holds on disk: regular files and folders the API can address (no hidden names, no symlinks). */
interface Listing {
  files: Array<{ name: string; stat: Stats }>;
  folders: string[];
}

/**
 * Answers every read from the files on disk, reconciled with the folder manifests: a file added by
 * hand (or by a git pull) is listed with what its bytes say, a manifest entry whose file is gone is
 * not listed, and a file whose size no longer matches its entry is measured again.
 */
export function createCatalog(root: string, manifests: Manifests, urlOf: (assetPath: string) => string) {
  const factsCache = new Map<string, { signature: string; facts: FileFacts }>();

  /** Type and size of a file from its bytes, cached until the file changes. */
  async function factsOf(file: string, stat: Stats): Promise<FileFacts> {
    const signature = signatureOf(stat);
    const cached = factsCache.get(file);
    if (cached?.signature === signature) return cached.facts;
    const sniffed = await sniffFile(file).catch(() => undefined);
    const mimeType = sniffed?.mimeType ?? mime.getType(file) ?? 'application/octet-stream';
    const facts: FileFacts = { mimeType, ...(mimeType.startsWith('image/') ? await imageDimensions(file) : {}) };
    factsCache.set(file, { signature, facts });
    return facts;
  }

  async function entryOf(
    segments: string[],
    name: string,
    stat: Stats,
    record: AssetRecord | undefined,
  ): Promise<AssetEntry> {
    const assetPath = [...segments, name].join('/');
    const current = record && record.size === stat.size;
    const facts = current
      ? { mimeType: record.mimeType, width: record.width, height: record.height }
      : await factsOf(path.join(root, ...segments, name), stat);
    const entry: AssetEntry = {
      filename: name,
      originalName: record?.originalName ?? name,
      mimeType: facts.mimeType,
      size: stat.size,
      ...(facts.width !== undefined && { width: facts.width, height: facts.height }),
      ...(record?.alt !== undefined && { alt: record.alt }),
      uploadedAt: record?.uploadedAt ?? stat.mtime.toISOString(),
      ...(record?.uploadedBy !== undefined && { uploadedBy: record.uploadedBy }),
      folder: folderLabel(segments),
      ...(record?.tags !== undefined && { tags: record.tags }),
      path: assetPath,
      url: urlOf(assetPath),
    };
    return entry;
  }

  /** The folder's listing, or undefined when it does not exist (or is not a folder). */
  async function listing(segments: string[]): Promise<Listing | undefined> {
    const folder = path.join(root, ...segments);
    let dirents: Dirent[];
    try {
      dirents = await fs.readdir(folder, { withFileTypes: true });
    } catch (error) {
      const code = fsErrorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    const visible = dirents.filter((dirent) => isAddressableName(dirent.name));
    const files = await Promise.all(
      visible
        .filter((dirent) => dirent.isFile())
        .map(async (dirent) => {
          const stat = await fs.lstat(path.join(folder, dirent.name)).catch(() => undefined);
          return stat?.isFile() ? { name: dirent.name, stat } : undefined;
        }),
    );
    return {
      files: files.filter((file) => file !== undefined).sort((a, b) => (a.name < b.name ? -1 : 1)),
      folders: visible
        .filter((dirent) => dirent.isDirectory())
        .map((dirent) => dirent.name)
        .sort(),
    };
  }

  async function entriesIn(segments: string[], found: Listing): Promise<AssetEntry[]> {
    const records = await manifests.read(path.join(root, ...segments));
    return Promise.all(found.files.map(({ name, stat }) => entryOf(segments, name, stat, records.get(name))));
  }

  return {
    listing,

    /** One file's entry; `stat` is the file's own. */
    async entry(segments: string[], name: string, stat: Stats): Promise<AssetEntry> {
      const records = await manifests.read(path.join(root, ...segments));
      return entryOf(segments, name, stat, records.get(name));
    },

    /** A folder's assets and subfolders, or undefined when it does not exist. */
    async folder(segments: string[]) {
      const found = await listing(segments);
      if (!found) return undefined;
      return {
        assets: await entriesIn(segments, found),
        folders: found.folders.map((name) => ({ name, path: folderLabel([...segments, name]) })),
      };
    },

    /** Every asset of every folder, folder by folder. */
    async all(): Promise<AssetEntry[]> {
      const assets: AssetEntry[] = [];
      const walk = async (segments: string[]): Promise<void> => {
        const found = await listing(segments);
        if (!found) return;
        assets.push(...(await entriesIn(segments, found)));
        for (const name of found.folders) await walk([...segments, name]);
      };
      await walk([]);
      return assets;
    },

    /** The folders under the root, each with the number of assets directly in it. */
    async tree(): Promise<FolderTreeNode[]> {
      const nodesUnder = async (segments: string[], names: string[]): Promise<FolderTreeNode[]> =>
        Promise.all(
          names.map(async (name) => {
            const here = [...segments, name];
            const found = await listing(here);
            return {
              name,
              path: folderLabel(here),
              assetCount: found?.files.length ?? 0,
              children: found ? await nodesUnder(here, found.folders) : [],
            };
          }),
        );
      const top = await listing([]);
      return top ? nodesUnder([], top.folders) : [];
    },

    forget(file: string) {
      factsCache.delete(file);
    },
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
