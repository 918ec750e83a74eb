import { type Signature, stamped } from './author.js';
import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo, resolveOrNull, treeOf } from './repository.js';
import { readIndexEntries } from './stage.js';
import { changedFilesOffThread } from './status-thread.js';
import { TreeEditor } from './tree-editor.js';
import { sameEntry } from './tree-entries.js';

export interface CommitResult {
  /** The new commit's full SHA, or null when there was nothing to commit. */
  commit: string | null;
  summary: string;
}

const LISTED_FILES = 20;

/** The message used when the caller gives none: it carries the date and the files. */
export function defaultMessage(now: Date, files: string[]): string {
  const stamp = `${now.toISOString().slice(0, 10)} ${now.toISOString().slice(11, 16)} UTC`;
  const listed = files.slice(0, LISTED_FILES).map((file) => `- ${file}`);
  if (files.length > LISTED_FILES) listed.push(`- … and ${files.length - LISTED_FILES} more`);
  return `Content update ${stamp}\n\n${listed.join('\n')}\n`;
}

/**
 * Stages every added, modified and deleted file under the content root and the assets dir, and
 * commits exactly those on top of HEAD: the new tree is HEAD's with only these paths replaced, so
 * whatever else the index holds (a file staged by hand elsewhere in the repo) stays out.
 */
export async function commitScope(
  repo: GitRepo,
  options: { message?: string; author: Signature; now?: Date },
): Promise<CommitResult> {
  const git = await loadGit();
  const now = options.now ?? new Date();
  const files = await changedFilesOffThread(repo);
  const paths = files.map((file) => file.path);
  const present = files.filter((file) => file.change !== 'deleted').map((file) => file.path);
  const deleted = files.filter((file) => file.change === 'deleted').map((file) => file.path);
  if (present.length > 0) await git.add({ ...at(repo), filepath: present });
  for (const filepath of deleted) await git.remove({ ...at(repo), filepath });

  const staged = await readIndexEntries(repo, paths);
  const head = await resolveOrNull(repo, 'HEAD');
  const editor = new TreeEditor(repo, await treeOf(repo, head));
  const changed: string[] = [];
  for (const filepath of paths) {
    const after = staged.get(filepath) ?? null;
    if (sameEntry(await editor.get(filepath), after)) continue;
    await editor.set(filepath, after);
    changed.push(filepath);
  }
  if (changed.length === 0) return { commit: null, summary: 'nothing to commit' };

  const signature = stamped(options.author, now);
  const commit = await git.commit({
    ...at(repo),
    message: options.message?.trim() ? options.message : defaultMessage(now, changed),
    author: signature,
    committer: signature,
    tree: await editor.write(),
    parent: head ? [head] : [],
  });
  return { commit, summary: `${changed.length} ${changed.length === 1 ? 'file' : 'files'} changed` };
}
