import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsErrorCode, QuireError } from '../errors.js';
import { removeInterruptedWrites } from '../util/atomic-write.js';
import { MANIFEST_NAME } from './manifest.js';

/** Hidden folder for files being received: inside the assets folder, so the final rename never crosses file systems. */
export const TEMP_FOLDER = '.quire-tmp';

/**
 * Temporary files of uploads and downloads. The folder ignores itself in git (`.gitignore` of `*`).
 * At start-up, what a killed process left is swept before anything new is written: upload parts,
 * manifests it was writing, and a symlink planted where the folder belongs (never followed).
 */
export function createTempFiles(assetsRoot: string) {
  const folder = path.join(assetsRoot, TEMP_FOLDER);
  let ready: Promise<void> | undefined;
  const swept = sweep().catch((error) =>
    console.warn(`[astro-quire] could not sweep ${folder}: ${(error as Error).message}`),
  );

  async function sweep(): Promise<void> {
    const stat = await fs.lstat(folder).catch(() => undefined);
    if (stat && !stat.isDirectory()) {
      await fs.rm(folder, { force: true });
    } else if (stat) {
      for (const name of await fs.readdir(folder))
        if (name.endsWith('.part')) await fs.rm(path.join(folder, name), { force: true });
    }
    await removeInterruptedWrites(
      await manifestLeftovers(assetsRoot),
      (target) => path.basename(target) === MANIFEST_NAME,
    );
  }

  async function prepare(): Promise<void> {
    await swept;
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, '.gitignore'), '*\n', { flag: 'wx' }).catch((error) => {
      if (fsErrorCode(error) !== 'EEXIST') throw error;
    });
  }

  return {
    /** A fresh path in the temp folder (the folder exists once this resolves). */
    async create(): Promise<string> {
      ready ??= prepare().catch((error) => {
        ready = undefined;
        throw error;
      });
      try {
        await ready;
        await fs.mkdir(folder, { recursive: true });
      } catch (error) {
        throw new QuireError(
          'WRITE_ERROR',
          `Could not prepare ${folder} for incoming files: ${(error as Error).message}`,
          { folder },
          { cause: error },
        );
      }
      return path.join(folder, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
    },
    remove: (file: string) => fs.rm(file, { force: true }),
    /** Resolves once the start-up sweep is done: writes wait for it, so it never removes a file of theirs. */
    swept: () => swept,
  };
}

export type TempFiles = ReturnType<typeof createTempFiles>;

/** Every `.quire-assets.json.<n>` below the assets folder (real folders only, hidden ones skipped). */
async function manifestLeftovers(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string): Promise<void> => {
    const entries = await fs.readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('.')) await walk(path.join(current, entry.name));
      else if (entry.isFile() && entry.name.startsWith(`${MANIFEST_NAME}.`)) found.push(path.join(current, entry.name));
    }
  };
  await walk(root);
  return found;
}
