import fs from 'node:fs/promises';
import path from 'node:path';
import { fsErrorCode, QuireError } from '../errors.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { checkNewFolderName } from './filenames.js';
import type { Records } from './manifest.js';
import type { PathGuard } from './safe-path.js';

/** Runs a file-system write, turning its failure into WRITE_ERROR. */
export async function writeStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof QuireError) throw error;
    throw new QuireError('WRITE_ERROR', `Could not ${what}: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/**
 * Folders of the assets root: creating them safely, and one lock per folder under which every
 * change to its files and manifest runs (several folders are locked in a fixed order, so two moves
 * in opposite directions never wait on each other).
 */
export function createFolders(root: string, guard: PathGuard) {
  const locks = new KeyedLock();

  return {
    /** Runs `task` holding the locks of the folders given by their segments. */
    locked<T>(folders: string[][], task: () => Promise<T>): Promise<T> {
      const keys = [...new Set(folders.map((segments) => path.join(root, ...segments)))].sort();
      const run = (index: number): Promise<T> =>
        index === keys.length ? task() : locks.run(keys[index]!, () => run(index + 1));
      return run(0);
    },

    /** Makes sure a folder exists inside the root, creating what is missing with names every file system accepts; returns its real path. */
    async ensure(segments: string[], field: string): Promise<string> {
      await guard.resolve(segments, field);
      let current = root;
      await writeStep(`create ${root}`, () => fs.mkdir(root, { recursive: true }));
      for (const segment of segments) {
        current = path.join(current, segment);
        const stat = await fs.stat(current).catch((error) => {
          if (fsErrorCode(error) === 'ENOENT') return undefined;
          throw error;
        });
        if (stat?.isDirectory()) continue;
        if (stat)
          throw new QuireError('INVALID_REQUEST', `Invalid ${field}: "${segment}" is a file, not a folder.`, { field });
        checkNewFolderName(segment, field);
        await writeStep(`create the folder ${current}`, () =>
          fs.mkdir(current).catch((error) => {
            if (fsErrorCode(error) !== 'EEXIST') throw error;
          }),
        );
      }
      // Checked again now that it exists: a symlink put in its way meanwhile must not lead out.
      const { real } = await guard.resolve(segments, field);
      return real ?? current;
    },

    /** Lowercased names in a folder (for collision checks that hold on case-insensitive file systems too). */
    async namesIn(folder: string): Promise<Set<string>> {
      return new Set((await fs.readdir(folder)).map((name) => name.toLowerCase()));
    },
  };
}

export type Folders = ReturnType<typeof createFolders>;

/** Only the records whose files exist: a file deleted by hand loses its stale entry at the folder's next write. */
export const pruneRecords = (records: Records, present: Set<string>): Records =>
  new Map([...records].filter(([name]) => present.has(name.toLowerCase())));
