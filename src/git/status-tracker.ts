import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { createFolderWatcher } from '../content/watch.js';
import { at, type GitRepo, inScope } from './repository.js';
import { type ChangedFile, headFiles, type IndexSnapshot, readIndex, workingOid } from './worktree-status.js';

/**
 * What a call compares the working files with. A change of the repository, the scopes or HEAD
 * (a commit, a pull) means walking again; the index only tells whether a file whose stat it
 * matches can skip hashing, so a changed index (`git status` in a terminal rewrites it) leaves
 * earlier answers true.
 */
interface Basis {
  dir: string;
  scopes: string;
  headFiles: ReadonlyMap<string, string>;
  index: IndexSnapshot;
}

/**
 * The working-tree status of one repository, kept up to date between calls: one full walk (every
 * file lstat'ed, as `git status` does), then only the paths a folder watcher reported since. A
 * walk happens again when HEAD changed (a commit, a pull), when a `.gitignore` changed, or when a
 * watcher failed. It runs in the status worker, whose event loop
 * is idle between calls, so the watcher's events are in before the next call is looked at.
 */
export function createStatusTracker() {
  let basis: Basis | null = null;
  /** Every working file under the scopes, repository-relative. */
  let working = new Set<string>();
  /** The files that differ from HEAD, and how. */
  let changed = new Map<string, ChangedFile['change']>();
  /** Repository-relative paths the watcher reported since the last call. */
  const dirty = new Set<string>();
  let walkAgain = false;
  let root = '';
  const watcher = createFolderWatcher(
    (absolute) => {
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      const names = relative.split('/');
      // Git's own folder is never walked; a changed .gitignore (or the root itself) may change any path's answer.
      if (names.includes('.git')) return;
      if (relative === '' || names.at(-1) === '.gitignore') walkAgain = true;
      else dirty.add(relative);
    },
    () => {
      walkAgain = true;
    },
  );

  /** The files below `folder` (repository-relative; '' for the root), watching each folder on the way; nested repositories are left out. */
  function collect(folder: string, into: string[]): void {
    const absolute = folder ? `${root}/${folder}` : root;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absolute, { withFileTypes: true });
    } catch {
      return; // Gone meanwhile, or the assets folder not made yet.
    }
    watcher.add(absolute);
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const filepath = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!fs.existsSync(`${root}/${filepath}/.git`)) collect(filepath, into);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        into.push(filepath);
      }
    }
  }

  async function settle(repo: GitRepo, filepath: string, current: Basis): Promise<void> {
    const headOid = current.headFiles.get(filepath);
    if (!working.has(filepath)) {
      if (headOid === undefined) changed.delete(filepath);
      else changed.set(filepath, 'deleted');
      return;
    }
    let workOid: string;
    try {
      workOid = workingOid(root, filepath, current.index);
    } catch {
      // Gone between the listing and the read: the next call sees its event.
      working.delete(filepath);
      return settle(repo, filepath, current);
    }
    if (headOid === workOid) changed.delete(filepath);
    else if (headOid === undefined && (await git.isIgnored({ ...at(repo), filepath }))) changed.delete(filepath);
    else changed.set(filepath, headOid === undefined ? 'added' : 'modified');
  }

  async function walk(repo: GitRepo, current: Basis): Promise<void> {
    watcher.closeAll();
    dirty.clear();
    walkAgain = false;
    const files: string[] = [];
    for (const scope of repo.scopes) collect(scope === '.' ? '' : scope, files);
    working = new Set(files);
    changed = new Map();
    for (const filepath of files) await settle(repo, filepath, current);
    for (const filepath of current.headFiles.keys()) if (!working.has(filepath)) changed.set(filepath, 'deleted');
  }

  /** Brings a reported path up to date: a file, a folder that appeared (its files), or a path that went (with whatever was below it). */
  async function update(repo: GitRepo, reported: string, current: Basis): Promise<void> {
    if (!inScope(repo.scopes, reported) && !repo.scopes.some((scope) => scope.startsWith(`${reported}/`))) return;
    const stat = fs.lstatSync(`${root}/${reported}`, { throwIfNoEntry: false });
    const below = `${reported}/`;
    const affected = new Set<string>([reported]);
    if (!stat?.isDirectory()) {
      // A known file has nothing below it; anything else may have been a folder.
      if (!working.has(reported)) {
        for (const filepath of working) if (filepath.startsWith(below)) affected.add(filepath);
        for (const filepath of current.headFiles.keys()) if (filepath.startsWith(below)) affected.add(filepath);
      }
      for (const filepath of affected) working.delete(filepath);
      if (stat && inScope(repo.scopes, reported)) working.add(reported);
      else watcher.removeTree(`${root}/${reported}`);
    } else if (!fs.existsSync(`${root}/${reported}/.git`)) {
      working.delete(reported);
      const files: string[] = [];
      collect(reported, files);
      for (const filepath of files) {
        working.add(filepath);
        affected.add(filepath);
      }
    }
    for (const filepath of affected) if (inScope(repo.scopes, filepath)) await settle(repo, filepath, current);
  }

  async function changedFiles(repo: GitRepo): Promise<ChangedFile[]> {
    // File events already queued reach `dirty` before it is looked at.
    await new Promise((resolve) => setImmediate(resolve));
    const current: Basis = {
      dir: repo.dir,
      scopes: repo.scopes.join('\0'),
      headFiles: await headFiles(repo),
      index: readIndex(repo),
    };
    const same =
      basis !== null &&
      basis.dir === current.dir &&
      basis.scopes === current.scopes &&
      basis.headFiles === current.headFiles;
    root = repo.dir;
    if (!same || walkAgain) {
      await walk(repo, current);
    } else {
      const reported = [...dirty];
      dirty.clear();
      for (const filepath of reported) await update(repo, filepath, current);
    }
    basis = current;
    return [...changed]
      .map(([filepath, change]) => ({ path: filepath, change }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  let queue: Promise<unknown> = Promise.resolve();
  return {
    /** The files under the repository's scopes that differ from HEAD, sorted by path; calls run one at a time. */
    changedFiles(repo: GitRepo): Promise<ChangedFile[]> {
      const answer = queue.then(() => changedFiles(repo));
      queue = answer.catch(() => {});
      return answer;
    },
  };
}
