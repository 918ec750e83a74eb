import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsErrorCode, QuireError } from '../errors.js';

/** Hidden folder for files being received: inside the assets folder, so the final rename never crosses file systems. */
export const TEMP_FOLDER = '.quire-tmp';
const STALE_MS = 60 * 60 * 1000;

/**
 * Temporary files of uploads and downloads. The folder ignores itself in git (`.gitignore` of `*`),
 * and leftovers of a crashed process older than an hour are swept the first time it is used.
 */
export function createTempFiles(assetsRoot: string) {
  const folder = path.join(assetsRoot, TEMP_FOLDER);
  let ready: Promise<void> | undefined;

  async function prepare(): Promise<void> {
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, '.gitignore'), '*\n', { flag: 'wx' }).catch((error) => {
      if (fsErrorCode(error) !== 'EEXIST') throw error;
    });
    const now = Date.now();
    for (const name of await fs.readdir(folder)) {
      if (!name.endsWith('.part')) continue;
      const file = path.join(folder, name);
      const stat = await fs.lstat(file).catch(() => undefined);
      if (stat && now - stat.mtimeMs > STALE_MS) await fs.rm(file, { force: true });
    }
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
        throw new QuireError('WRITE_ERROR', `Could not prepare ${folder} for incoming files: ${(error as Error).message}`, { folder }, { cause: error });
      }
      return path.join(folder, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
    },
    remove: (file: string) => fs.rm(file, { force: true }),
  };
}

export type TempFiles = ReturnType<typeof createTempFiles>;
