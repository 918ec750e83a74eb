import { QuireError } from '../errors.js';
import { type Signature, stamped } from './author.js';
import { compareHistories } from './history.js';
import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo, treeOf } from './repository.js';
import { diffTrees } from './tree-diff.js';
import { TreeEditor } from './tree-editor.js';
import { sameEntry } from './tree-entries.js';

export interface RebasePlan {
  /** The commit the branch should point at afterwards. */
  tip: string;
  kind: 'up-to-date' | 'fast-forward' | 'rebased';
  /** Remote commits that come in. */
  incoming: number;
  /** Local commits replayed onto the remote; `dropped` ones were already there. */
  replayed: number;
  dropped: number;
}

/**
 * Works out the rebase of `local` onto `remote` without touching the branch, the index or the
 * working tree: each local commit (oldest first) is replayed by applying its own file changes
 * (against its first parent) to the tree built so far, starting from the remote's tree. A file the
 * commit changed that the remote side changed differently is a conflict, and nothing is done.
 * Commits whose changes are all upstream already are dropped, as `git rebase` drops them.
 */
export async function planRebase(
  repo: GitRepo,
  local: string | null,
  remote: string,
  committer: Signature,
): Promise<RebasePlan> {
  const git = await loadGit();
  if (!local) return { tip: remote, kind: 'fast-forward', incoming: -1, replayed: 0, dropped: 0 };
  const { ahead, behind, localChain } = await compareHistories(repo, local, remote);
  if (behind === 0) return { tip: local, kind: 'up-to-date', incoming: 0, replayed: 0, dropped: 0 };
  if (ahead === 0) return { tip: remote, kind: 'fast-forward', incoming: behind, replayed: 0, dropped: 0 };

  const editor = new TreeEditor(repo, await treeOf(repo, remote));
  const now = new Date();
  let tip = remote;
  let replayed = 0;
  let dropped = 0;
  for (const oid of localChain) {
    const { commit } = await git.readCommit({ ...at(repo), oid });
    const changes = await diffTrees(repo, await treeOf(repo, commit.parent[0] ?? null), commit.tree);
    const conflicts: string[] = [];
    let applied = 0;
    for (const change of changes) {
      const current = await editor.get(change.path);
      if (sameEntry(current, change.after)) continue;
      if (!sameEntry(current, change.before)) {
        conflicts.push(change.path);
        continue;
      }
      try {
        await editor.set(change.path, change.after);
        applied++;
      } catch {
        // A file where the other side has a folder, or the reverse.
        conflicts.push(change.path);
      }
    }
    if (conflicts.length > 0) {
      const subject = commit.message.split('\n')[0];
      throw new QuireError(
        'GIT_PULL_FAILED',
        `Pull stopped: the remote changed ${conflicts.length === 1 ? 'a file' : 'files'} ` +
          `that your commit "${subject}" (${oid.slice(0, 7)}) also changes (${conflicts.join(', ')}). ` +
          `Nothing was changed here. Resolve it in a git client (pull with rebase, fix the files, push), then try again.`,
        { reason: 'conflict', conflicts, commit: oid },
      );
    }
    if (applied === 0) {
      dropped++;
      continue;
    }
    tip = await git.writeCommit({
      ...at(repo),
      commit: {
        message: commit.message,
        tree: await editor.write(),
        parent: [tip],
        author: commit.author,
        committer: stamped(committer, now),
      },
    });
    replayed++;
  }
  return { tip, kind: 'rebased', incoming: behind, replayed, dropped };
}
