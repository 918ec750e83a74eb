import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../errors.js';
import { loadGit } from './isomorphic-git.js';

/** The repository git operations run in, and the folders of it that the API reports and stages. */
export interface GitRepo {
  fs: typeof fs;
  /** The working tree's root. */
  dir: string;
  gitdir: string;
  /** Repository-relative POSIX folders: the content root and the assets dir ('.' when that is the whole tree). */
  scopes: string[];
  /** An isomorphic-git object cache, fresh for each operation (it holds packfile indexes). */
  cache: object;
}

/** Common arguments of isomorphic-git calls. */
export const at = (repo: GitRepo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });

/**
 * Finds the repository that contains the content root by walking up from it, as git does;
 * the content root may be any folder of the site's repository.
 */
export async function openRepository(contentRoot: string, assetsDir: string): Promise<GitRepo> {
  const root = await fs.promises.realpath(contentRoot).catch(() => null);
  if (!root || !(await fs.promises.stat(root)).isDirectory()) {
    throw new QuireError(
      'GIT_NOT_REPO',
      `The content root ${contentRoot} does not exist, so there is no repository to work with.`,
      { contentRoot },
    );
  }
  const found = await findGitDir(root);
  if (!found) {
    throw new QuireError(
      'GIT_NOT_REPO',
      `The content root ${contentRoot} is not inside a git repository: run \`git init\` there or in a folder above it (e.g. the site's root).`,
      { contentRoot },
    );
  }
  const contentScope = relativeInside(found.dir, root)!;
  if (contentScope !== '.' && (await isIgnoredFolder(found, contentScope))) {
    throw new QuireError(
      'GIT_NOT_REPO',
      `The content root ${contentRoot} is ignored (.gitignore) by the repository at ${found.dir}, so git cannot track it: ` +
        `take it out of .gitignore, or make the content root a repository of its own (\`git init\` in it).`,
      { contentRoot, repository: found.dir },
    );
  }
  const candidates = [contentScope, relativeInside(found.dir, await realpathLoose(assetsDir))];
  return {
    fs,
    dir: found.dir,
    gitdir: found.gitdir,
    scopes: outermost(candidates.filter((scope): scope is string => scope !== null)),
    cache: {},
  };
}

/** Whether .gitignore rules exclude a folder (checked with and without the slash: `dir/` rules match only the former). */
async function isIgnoredFolder(repo: { dir: string; gitdir: string }, folder: string): Promise<boolean> {
  const git = await loadGit();
  for (const filepath of [folder, `${folder}/`]) {
    if (await git.isIgnored({ fs, dir: repo.dir, gitdir: repo.gitdir, filepath })) return true;
  }
  return false;
}

async function findGitDir(start: string): Promise<{ dir: string; gitdir: string } | null> {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotgit = path.join(dir, '.git');
    const stat = await fs.promises.stat(dotgit).catch(() => null);
    let gitdir: string | null = null;
    if (stat?.isDirectory()) gitdir = dotgit;
    else if (stat?.isFile()) {
      // A submodule or worktree: `.git` is a file that points at the real git dir.
      const pointer = /^gitdir:\s*(.+)$/m.exec(await fs.promises.readFile(dotgit, 'utf8'));
      if (pointer) gitdir = path.resolve(dir, pointer[1]!.trim());
    }
    if (gitdir && (await fs.promises.stat(path.join(gitdir, 'HEAD')).catch(() => null))) return { dir, gitdir };
    if (path.dirname(dir) === dir) return null;
  }
}

/** `target` relative to `dir` in POSIX form ('.' for `dir` itself), or null when it lies outside. */
export function relativeInside(dir: string, target: string): string | null {
  const relative = path.relative(dir, target);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep).join('/');
}

/** The real path of the nearest existing ancestor, with the rest appended (the assets dir may not exist yet). */
export async function realpathLoose(target: string): Promise<string> {
  const resolved = path.resolve(target);
  const real = await fs.promises.realpath(resolved).catch(() => null);
  if (real) return real;
  const parent = path.dirname(resolved);
  return parent === resolved ? resolved : path.join(await realpathLoose(parent), path.basename(resolved));
}

/** Drops folders that lie inside another one of the list. */
function outermost(scopes: string[]): string[] {
  if (scopes.includes('.')) return ['.'];
  return [...new Set(scopes)].filter(
    (scope, _, all) => !all.some((other) => other !== scope && scope.startsWith(`${other}/`)),
  );
}

/** Whether a repository path lies in one of the scopes. */
export const inScope = (scopes: string[], filepath: string) =>
  scopes.some((scope) => scope === '.' || filepath === scope || filepath.startsWith(`${scope}/`));

/** The commit a ref points at, or null when it does not exist (an unborn branch, no fetch yet). */
export async function resolveOrNull(repo: GitRepo, ref: string): Promise<string | null> {
  const git = await loadGit();
  try {
    return await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return null;
    throw error;
  }
}

export async function treeOf(repo: GitRepo, commit: string | null): Promise<string | null> {
  const git = await loadGit();
  if (!commit) return null;
  return (await git.readCommit({ ...at(repo), oid: commit })).commit.tree;
}

/** The checked-out branch, or null when HEAD is detached. */
export async function currentBranch(repo: GitRepo): Promise<string | null> {
  const git = await loadGit();
  return (await git.currentBranch({ fs: repo.fs, gitdir: repo.gitdir })) ?? null;
}
