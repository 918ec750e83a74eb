import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isAlive, runProcess } from './processes.mjs';
import { log } from './progress.mjs';

/**
 * Generated content is cached between runs by size, seed and the code that shapes it: the
 * generator's own modules and the package's serializer and etag (a change to either changes the
 * files). A cache is built in a folder of its own and renamed into place after its marker is
 * written, so a run cut off half way never leaves a cache that looks whole.
 */
const MARKER = 'complete.json';
const SHAPING = ['generate.mjs', 'content-shapes.mjs', 'text.mjs', 'png.mjs', 'git.mjs', 'review-history.mjs'];
const PACKAGE_SHAPING = ['dist/src/content/files.js', 'dist/src/content/etag.js'];

async function shapingKey(packageDir) {
  const hash = createHash('sha256');
  for (const file of SHAPING) hash.update(await fs.readFile(path.join(import.meta.dirname, file)));
  for (const file of PACKAGE_SHAPING) hash.update(await fs.readFile(path.join(packageDir, file)));
  return hash.digest('hex').slice(0, 12);
}

/**
 * The cache of `size` items from `seed`: `{ contentDir, decapDir, catalog, reviewId, buildSeconds,
 * fromCache }`. When none is complete, `build({ contentDir, decapDir })` makes one (it returns
 * `{ catalog, reviewId }`); earlier caches of the same size and seed, made by other code, are removed.
 */
export async function cachedContent({ cacheRoot, size, seed, packageDir, fresh, build }) {
  const prefix = `${size}-${seed}-`;
  const name = `${prefix}${await shapingKey(packageDir)}`;
  const folder = path.join(cacheRoot, name);
  const marker = path.join(folder, MARKER);
  if (fresh) await fs.rm(folder, { recursive: true, force: true });
  if (existsSync(marker)) {
    const { catalog, reviewId, buildSeconds } = JSON.parse(await fs.readFile(marker, 'utf8'));
    log(`   from the cache ${path.basename(folder)} (generating it took ${buildSeconds} s)`);
    return { ...parts(folder), catalog, reviewId, buildSeconds, fromCache: true };
  }
  await fs.mkdir(cacheRoot, { recursive: true });
  for (const entry of await fs.readdir(cacheRoot)) {
    const partial = /\.partial-(\d+)$/.exec(entry);
    const stale = entry.startsWith(prefix) && entry !== name;
    if (stale || (partial && !isAlive(Number(partial[1]))))
      await fs.rm(path.join(cacheRoot, entry), { recursive: true, force: true });
  }
  // Without its marker the folder is not a cache (builds happen under .partial names): out of the way.
  await fs.rm(folder, { recursive: true, force: true });
  const building = `${folder}.partial-${process.pid}`;
  await fs.rm(building, { recursive: true, force: true });
  const started = performance.now();
  const { catalog, reviewId } = await build({
    ...parts(building),
  });
  const buildSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  await fs.writeFile(path.join(building, MARKER), JSON.stringify({ size, seed, buildSeconds, reviewId, catalog }));
  try {
    await fs.rename(building, folder);
  } catch (error) {
    // Another run built the same cache meanwhile: theirs is as good.
    if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || !existsSync(marker)) throw error;
    await fs.rm(building, { recursive: true, force: true });
  }
  return { ...parts(folder), catalog, reviewId, buildSeconds, fromCache: false };
}

const parts = (folder) => ({ contentDir: path.join(folder, 'content'), decapDir: path.join(folder, 'decap') });

/**
 * The cached content root as the run's own, in seconds rather than a copy of every byte: its files
 * hard-linked (every write Quire and the bench make replaces a file by rename, so the cached
 * inode is never written), git's objects hard-linked too (immutable), and the rest of .git (index,
 * refs, HEAD, config: files git and isomorphic-git rewrite in place) copied.
 */
export async function linkContent(cachedDir, runDir) {
  await fs.mkdir(runDir, { recursive: true });
  for (const entry of await fs.readdir(cachedDir)) {
    if (entry === '.git') continue;
    await cp(['-al', path.join(cachedDir, entry), runDir]);
  }
  const git = path.join(runDir, '.git');
  await fs.mkdir(git);
  for (const entry of await fs.readdir(path.join(cachedDir, '.git')))
    await cp([entry === 'objects' ? '-al' : '-a', path.join(cachedDir, '.git', entry), git]);
}

/** A folder of the cache (never written) as the run's own, hard-linked: another run may replace the cache meanwhile. */
export const linkFolder = (cachedDir, runDir) => cp(['-al', cachedDir, runDir]);

async function cp(args) {
  const result = await runProcess('cp', args, { timeoutMs: 1_800_000 });
  if (result.code !== 0) throw new Error(`cp ${args.join(' ')} failed: ${result.output.slice(-1_000)}`);
}
