import fs from 'node:fs/promises';
import path from 'node:path';
import { QuireError } from '../errors.js';
import type { Catalog } from './catalog.js';
import { type Folders, pruneRecords, writeStep } from './folders.js';
import type { Manifests } from './manifest.js';
import { type PathGuard, parseAssetPath } from './safe-path.js';

export interface MoveResult {
  moved: number;
  skipped: Array<{ filename: string; reason: string }>;
}

/**
 * Moves files between two folders with their manifest entries, under both folders' locks. A name
 * that is missing (or a symlink) or already taken in the target is skipped, not overwritten; the
 * count is what actually moved. A missing target folder is created.
 */
export function createMover(deps: { guard: PathGuard; folders: Folders; manifests: Manifests; catalog: Catalog }) {
  return async function moveFiles(
    filenames: string[],
    sourceFolder: string,
    targetFolder: string,
  ): Promise<MoveResult> {
    const names = [
      ...new Set(
        filenames.map((name) => {
          const segments = parseAssetPath(name, 'filenames', { folder: false });
          if (segments.length !== 1)
            throw new QuireError(
              'INVALID_REQUEST',
              `Invalid filenames: "${name}" is a path; give names of files in sourceFolder.`,
              { field: 'filenames' },
            );
          return segments[0]!;
        }),
      ),
    ];
    const from = parseAssetPath(sourceFolder, 'sourceFolder', { folder: true });
    const to = parseAssetPath(targetFolder, 'targetFolder', { folder: true });

    return deps.folders.locked([from, to], async () => {
      const { real: source } = await deps.guard.resolve(from, 'sourceFolder');
      const isFolder = source ? (await fs.stat(source)).isDirectory() : false;
      if (!source || !isFolder)
        throw new QuireError('INVALID_REQUEST', `Invalid sourceFolder: no folder "/${from.join('/')}".`, {
          field: 'sourceFolder',
        });
      const target = await deps.folders.ensure(to, 'targetFolder');
      if (source === target)
        return { moved: 0, skipped: names.map((filename) => ({ filename, reason: 'already in targetFolder' })) };

      const sourceRecords = await deps.manifests.readForUpdate(source);
      const targetRecords = await deps.manifests.readForUpdate(target);
      const taken = await deps.folders.namesIn(target);
      const skipped: MoveResult['skipped'] = [];
      let moved = 0;
      for (const name of names) {
        const stat = await fs.lstat(path.join(source, name)).catch(() => undefined);
        if (!stat?.isFile()) {
          skipped.push({ filename: name, reason: 'not found' });
          continue;
        }
        if (taken.has(name.toLowerCase())) {
          skipped.push({ filename: name, reason: 'a file of that name is already in targetFolder' });
          continue;
        }
        await writeStep(`move ${name}`, () => fs.rename(path.join(source, name), path.join(target, name)));
        deps.catalog.forget(path.join(source, name));
        taken.add(name.toLowerCase());
        const record = sourceRecords.get(name);
        sourceRecords.delete(name);
        if (record) targetRecords.set(name, record);
        moved++;
      }
      if (moved > 0) {
        await deps.manifests.write(target, pruneRecords(targetRecords, taken));
        await deps.manifests.write(source, pruneRecords(sourceRecords, await deps.folders.namesIn(source)));
      }
      return { moved, skipped };
    });
  };
}
