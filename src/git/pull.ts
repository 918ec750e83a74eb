import { QuireError } from '../errors.js';
import type { Signature } from './author.js';
import { planRebase, type RebasePlan } from './rebase.js';
import { describeRemoteFailure, fetchBranch, REMOTE, remoteUrl, unusableRemote } from './remote.js';
import { currentBranch, type GitRepo, resolveOrNull } from './repository.js';
import { moveBranch } from './worktree.js';

const failed = (message: string, details?: unknown) => new QuireError('GIT_PULL_FAILED', message, details);

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export interface PullTarget {
  branch: string;
  remoteBranch: string;
  remoteTip: string | null;
}

/** The network half of a pull: fetches the remote branch (no working file changes, so content writes may go on). */
export async function fetchForPull(repo: GitRepo, configuredBranch: string | null): Promise<PullTarget> {
  const branch = await currentBranch(repo);
  if (!branch) throw failed('HEAD is detached: check out a branch in the repository, then pull again.');
  const url = await remoteUrl(repo);
  if (!url)
    throw failed(
      `No remote named "${REMOTE}" is configured: add one with \`git remote add ${REMOTE} https://<host>/<owner>/<repo>.git\`, then pull again.`,
      { reason: 'no-remote' },
    );
  const unusable = unusableRemote(url);
  if (unusable) throw failed(unusable, { reason: 'unsupported-remote' });
  const remoteBranch = configuredBranch ?? branch;
  try {
    return { branch, remoteBranch, remoteTip: await fetchBranch(repo, branch, remoteBranch) };
  } catch (error) {
    throw failed(describeRemoteFailure(error, url), { reason: 'remote' });
  }
}

/**
 * The local half, run while content writes are held: rebase the branch's own commits onto the
 * fetched remote branch, then move branch, index and working tree there, keeping uncommitted work.
 * A conflict at either step leaves everything as it was.
 */
export async function rebaseOntoFetched(
  repo: GitRepo,
  target: PullTarget,
  committer: Signature,
): Promise<{ summary: string }> {
  const { branch, remoteBranch, remoteTip } = target;
  const source = `${REMOTE}/${remoteBranch}`;
  if (!remoteTip)
    return { summary: `The remote has no branch ${remoteBranch} yet: nothing to pull (push to create it).` };
  const branchRef = `refs/heads/${branch}`;
  const local = await resolveOrNull(repo, branchRef);
  const plan = await planRebase(repo, local, remoteTip, committer);
  if (plan.tip === local) return { summary: `Already up to date with ${source}.` };
  const { files } = await moveBranch(repo, branchRef, local, plan.tip);
  return { summary: describe(plan, source, files) };
}

function describe(plan: RebasePlan, source: string, files: number): string {
  const incoming = plan.incoming >= 0 ? `: ${plural(plan.incoming, 'new commit')}` : '';
  const changed = `(${plural(files, 'file')} changed)`;
  if (plan.kind === 'fast-forward') return `Fast-forwarded to ${source}${incoming} ${changed}.`;
  const dropped = plan.dropped > 0 ? `; ${plural(plan.dropped, 'commit')} already there dropped` : '';
  return `Rebased onto ${source}${incoming}, ${plural(plan.replayed, 'local commit')} replayed on top${dropped} ${changed}.`;
}
