import fs from 'node:fs/promises';
import path from 'node:path';
import { fsErrorCode, QuireError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo, treeOf } from './repository.js';
import { readIndexEntries } from './stage.js';
import { diffTrees, type FileChange } from './tree-diff.js';

/** What a path holds in the working tree, as a blob id ('folder' / 'file-above' when something else is in the way). */
async function workingOid(repo: GitRepo, filepath: string): Promise<string | null> {
  const git = await loadGit();
  const full = path.join(repo.dir, filepath);
  const stat = await fs.lstat(full).catch((error: unknown) => {
    if (fsErrorCode(error) === 'ENOTDIR') return 'file-above' as const;
    if (fsErrorCode(error) === 'ENOENT' || fsErrorCode(error) === 'ENAMETOOLONG') return null;
    throw error;
  });
  if (stat === null || stat === 'file-above') return stat;
  if (stat.isDirectory()) return 'folder';
  const object = stat.isSymbolicLink() ? Buffer.from(await fs.readlink(full)) : await fs.readFile(full);
  return (await git.hashBlob({ object })).oid;
}

interface Saved {
  filepath: string;
  bytes: Buffer | null;
  link: string | null;
  mode: number;
}

async function save(repo: GitRepo, filepath: string): Promise<Saved> {
  const full = path.join(repo.dir, filepath);
  const stat = await fs.lstat(full).catch(() => null);
  if (!stat) return { filepath, bytes: null, link: null, mode: 0 };
  if (stat.isSymbolicLink()) return { filepath, bytes: null, link: await fs.readlink(full), mode: stat.mode };
  return { filepath, bytes: await fs.readFile(full), link: null, mode: stat.mode };
}

/** Removes a file and the folders it leaves empty, up to (not including) the protected ones. */
async function removeFile(repo: GitRepo, filepath: string, keep: Set<string>) {
  await fs.rm(path.join(repo.dir, filepath), { force: true });
  for (
    let folder = path.posix.dirname(filepath);
    folder !== '.' && !keep.has(folder);
    folder = path.posix.dirname(folder)
  ) {
    try {
      await fs.rmdir(path.join(repo.dir, folder));
    } catch {
      return; // not empty (or already gone)
    }
  }
}

async function writeFile(
  repo: GitRepo,
  filepath: string,
  content: { bytes?: Uint8Array; link?: string; executable?: boolean },
) {
  const full = path.join(repo.dir, filepath);
  await fs.mkdir(path.dirname(full), { recursive: true });
  // A symlink in the way is replaced, not written through.
  if ((await fs.lstat(full).catch(() => null))?.isSymbolicLink() || content.link !== undefined)
    await fs.rm(full, { force: true });
  if (content.link !== undefined) return fs.symlink(content.link, full);
  await writeFileAtomic(full, Buffer.from(content.bytes ?? new Uint8Array()), {
    mode: content.executable ? 0o755 : 0o644,
  });
}

/** The content root, the assets dir and the folders above them: never removed, even when emptied. */
function protectedFolders(repo: GitRepo): Set<string> {
  const keep = new Set<string>();
  for (const scope of repo.scopes)
    for (let folder = scope; folder !== '.'; folder = path.posix.dirname(folder)) keep.add(folder);
  return keep;
}

/**
 * Moves the branch, the index and the working tree from `from` to `to`, keeping uncommitted work
 * (what `git rebase --autostash` does by stashing it and applying it again afterwards). Every file
 * that differs between the two commits is checked first: one with uncommitted changes (or an
 * untracked file in the way) is left alone only if it already holds the incoming version;
 * otherwise the whole move is refused before anything is written. If writing fails half-way,
 * the files, the index and the branch are put back as they were.
 */
export async function moveBranch(
  repo: GitRepo,
  branchRef: string,
  from: string | null,
  to: string,
): Promise<{ files: number }> {
  const git = await loadGit();
  const changes = await diffTrees(repo, await treeOf(repo, from), await treeOf(repo, to));
  const index = await readIndexEntries(
    repo,
    changes.map((change) => change.path),
  );
  const writes: FileChange[] = [];
  const stageOnly: FileChange[] = [];
  const blocked: string[] = [];
  for (const change of changes) {
    const before = change.before?.oid ?? null;
    const after = change.after?.oid ?? null;
    const working = await workingOid(repo, change.path);
    const staged = index.get(change.path)?.oid ?? null;
    if (working === before && staged === before) writes.push(change);
    else if (working === after) stageOnly.push(change);
    else blocked.push(change.path);
  }
  if (blocked.length > 0) {
    throw new QuireError(
      'GIT_PULL_FAILED',
      `Pull stopped: uncommitted changes to ${blocked.join(', ')} would be overwritten by the pulled version. ` +
        `Nothing was changed here. Commit (and pull again), or undo those changes.`,
      { reason: 'uncommitted-changes', conflicts: blocked },
    );
  }

  const indexFile = path.join(repo.gitdir, 'index');
  const savedIndex = await fs.readFile(indexFile).catch(() => null);
  const savedFiles: Saved[] = [];
  const keep = protectedFolders(repo);
  try {
    for (const change of writes) {
      savedFiles.push(await save(repo, change.path));
      if (!change.after) await removeFile(repo, change.path, keep);
      else if (change.after.mode === '160000') await fs.mkdir(path.join(repo.dir, change.path), { recursive: true });
      else {
        const { blob } = await git.readBlob({ ...at(repo), oid: change.after.oid });
        if (change.after.mode === '120000') await writeFile(repo, change.path, { link: Buffer.from(blob).toString() });
        else await writeFile(repo, change.path, { bytes: blob, executable: change.after.mode === '100755' });
      }
    }
    const all = [...writes, ...stageOnly];
    const added = all.filter((change) => change.after && change.after.mode !== '160000').map((change) => change.path);
    if (added.length > 0) await git.add({ ...at(repo), filepath: added, force: true });
    for (const change of all) {
      if (!change.after) await git.remove({ ...at(repo), filepath: change.path });
      else if (change.after.mode === '160000')
        await git.updateIndex({ ...at(repo), filepath: change.path, oid: change.after.oid, mode: 0o160000, add: true });
    }
    await git.writeRef({ fs: repo.fs, gitdir: repo.gitdir, ref: branchRef, value: to, force: true });
  } catch (error) {
    await restore(repo, { savedFiles, savedIndex, indexFile, branchRef, from, keep });
    throw error;
  }
  return { files: changes.length };
}

/** Puts everything back, step by step: one step that fails does not stop the others. */
async function restore(
  repo: GitRepo,
  saved: {
    savedFiles: Saved[];
    savedIndex: Buffer | null;
    indexFile: string;
    branchRef: string;
    from: string | null;
    keep: Set<string>;
  },
) {
  const git = await loadGit();
  const steps: Array<() => Promise<unknown>> = saved.savedFiles.reverse().map((file) => () => {
    if (file.link !== null) return writeFile(repo, file.filepath, { link: file.link });
    if (file.bytes) return writeFile(repo, file.filepath, { bytes: file.bytes, executable: (file.mode & 0o111) !== 0 });
    return removeFile(repo, file.filepath, saved.keep);
  });
  steps.push(() =>
    saved.savedIndex ? fs.writeFile(saved.indexFile, saved.savedIndex) : fs.rm(saved.indexFile, { force: true }),
  );
  steps.push(() =>
    saved.from
      ? git.writeRef({ fs: repo.fs, gitdir: repo.gitdir, ref: saved.branchRef, value: saved.from, force: true })
      : git.deleteRef({ fs: repo.fs, gitdir: repo.gitdir, ref: saved.branchRef }),
  );
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      // A file that could not be created cannot be removed either.
      if (!['ENOENT', 'ENAMETOOLONG'].includes(fsErrorCode(error) ?? '')) failures.push(error);
    }
  }
  if (failures.length > 0) {
    console.error(
      '[astro-quire] git pull: could not put everything back after a failure; check the repository by hand:',
      failures,
    );
  }
}
