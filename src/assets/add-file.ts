import fs from 'node:fs/promises';
import path from 'node:path';
import { QuireError } from '../errors.js';
import type { Catalog } from './catalog.js';
import { imageDimensions } from './dimensions.js';
import { sanitizeFilename, uniqueFilename } from './filenames.js';
import { type Folders, pruneRecords, writeStep } from './folders.js';
import type { Manifests } from './manifest.js';
import { parseAssetPath } from './safe-path.js';
import { sniffFile } from './sniff.js';
import type { AssetEntry, AssetRecord } from './types.js';

/** What the uploader said about a file. */
export interface AddInfo {
  folder?: string;
  alt?: string;
  uploadedBy?: string;
  width?: number;
  height?: number;
  tags?: string[];
}

/**
 * Files a received temp file (an upload or a download): format from its bytes (415 when not
 * allowed), size from image-size, then under the folder's lock a free clean name, a rename into
 * place and the manifest entry. A manifest that cannot be written takes the file back out.
 */
export function createFileAdder(deps: {
  folders: Folders;
  manifests: Manifests;
  catalog: Catalog;
  allowedTypes: string[];
}) {
  const allowed = new Set(deps.allowedTypes);

  return async function addFile(
    tempPath: string,
    originalName: string,
    size: number,
    info: AddInfo,
  ): Promise<AssetEntry> {
    const sniffed = await sniffFile(tempPath);
    if (!sniffed || !allowed.has(sniffed.mimeType)) {
      const what = sniffed ? `This file is ${sniffed.mimeType}` : 'The format of this file is not recognised';
      throw new QuireError(
        'ASSET_INVALID_FORMAT',
        `${what}; allowed: ${deps.allowedTypes.join(', ')} (assets.allowedTypes).`,
        { detected: sniffed?.mimeType ?? null, allowed: deps.allowedTypes },
      );
    }
    const measured = sniffed.mimeType.startsWith('image/') ? await imageDimensions(tempPath) : {};
    const width = measured.width ?? info.width;
    const height = measured.height ?? info.height;
    const segments = parseAssetPath(info.folder ?? '/', 'folder', { folder: true });

    return deps.folders.locked([segments], async () => {
      const folder = await deps.folders.ensure(segments, 'folder');
      const records = await deps.manifests.readForUpdate(folder);
      const present = await deps.folders.namesIn(folder);
      const name = uniqueFilename(sanitizeFilename(originalName || 'file', sniffed), (lower) => present.has(lower));
      const record: AssetRecord = {
        originalName: originalName || name,
        mimeType: sniffed.mimeType,
        size,
        ...(width !== undefined && height !== undefined && { width, height }),
        ...(info.alt && { alt: info.alt }),
        ...(info.tags?.length && { tags: [...new Set(info.tags)] }),
        uploadedAt: new Date().toISOString(),
        ...(info.uploadedBy && { uploadedBy: info.uploadedBy }),
      };
      const target = path.join(folder, name);
      await writeStep(`store ${name}`, () => fs.rename(tempPath, target));
      present.add(name.toLowerCase());
      try {
        await deps.manifests.write(folder, pruneRecords(records, present).set(name, record));
      } catch (error) {
        await fs.rm(target, { force: true });
        throw error;
      }
      return deps.catalog.entry(segments, name, await fs.lstat(target));
    });
  };
}
