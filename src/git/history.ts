import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo } from './repository.js';

const LOCAL = 1;
const REMOTE = 2;
const BOTH = LOCAL | REMOTE;

/** How a local branch and its remote counterpart relate. */
export interface Divergence {
  /** Commits only the local side has. */
  ahead: number;
  /** Commits only the remote side has. */
  behind: number;
  /** The local commits to replay onto the remote, oldest first: the first-parent chain down to shared history. */
  localChain: string[];
}

interface CommitNode {
  parents: string[];
  time: number;
}

/**
 * Walks both histories newest-first from the two tips, painting each commit with the side(s)
 * that reach it (git's ahead/behind walk); commits reached by both are not followed further, so
 * only the part of history above the merge base is read.
 */
export async function compareHistories(
  repo: GitRepo,
  local: string | null,
  remote: string | null,
): Promise<Divergence> {
  const git = await loadGit();
  const flags = new Map<string, number>();
  const nodes = new Map<string, CommitNode>();
  // Sorted by commit time, oldest first; the newest is popped from the end.
  const queue: string[] = [];

  async function load(oid: string): Promise<CommitNode> {
    let node = nodes.get(oid);
    if (!node) {
      try {
        const { commit } = await git.readCommit({ ...at(repo), oid });
        node = { parents: commit.parent, time: commit.committer.timestamp };
      } catch (error) {
        // A shallow clone's boundary: history beyond it is unknown.
        if ((error as { code?: string }).code !== 'NotFoundError') throw error;
        node = { parents: [], time: 0 };
      }
      nodes.set(oid, node);
    }
    return node;
  }

  async function paint(oid: string, flag: number) {
    const before = flags.get(oid) ?? 0;
    if ((before | flag) === before) return;
    flags.set(oid, before | flag);
    const { time } = await load(oid);
    // Equal times go first-in, first-out, so a child is handled before a parent queued after it.
    let position = queue.length;
    while (position > 0 && nodes.get(queue[position - 1]!)!.time >= time) position--;
    queue.splice(position, 0, oid);
  }

  if (local) await paint(local, LOCAL);
  if (remote) await paint(remote, REMOTE);
  while (queue.length > 0) {
    const oid = queue.pop()!;
    const flag = flags.get(oid)!;
    for (const parent of nodes.get(oid)!.parents) {
      // Shared history is not walked further, except to repaint commits already reached from one
      // side only (commit times are not a reliable order: the same second, clock skew).
      if (flag !== BOTH || (flags.has(parent) && flags.get(parent) !== BOTH)) await paint(parent, flag);
    }
  }

  let ahead = 0;
  let behind = 0;
  for (const flag of flags.values()) {
    if (flag === LOCAL) ahead++;
    else if (flag === REMOTE) behind++;
  }
  const localChain: string[] = [];
  for (let oid = local; oid && flags.get(oid) === LOCAL; oid = nodes.get(oid)!.parents[0] ?? null)
    localChain.unshift(oid);
  return { ahead, behind, localChain };
}
