import fs from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../../src/errors.js';
import { planRebase } from '../../src/git/rebase.js';
import type { GitRepo } from '../../src/git/repository.js';
import { gitCli } from '../support/git-cli.js';

const ME = { name: 'Quire', email: 'quire@example.test' };

describe('planRebase', () => {
  let dir: string;
  let repo: GitRepo;
  let base: string;

  /** Commits the files (written on top of `parent`'s checkout) on a detached HEAD; returns the commit. */
  async function commitOn(parent: string, files: Record<string, string>, message: string): Promise<string> {
    await gitCli(dir, ['checkout', '-q', '--detach', parent]);
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    await gitCli(dir, ['commit', '-q', '-am', message]);
    return (await gitCli(dir, ['rev-parse', 'HEAD'])).trim();
  }

  const fileAt = async (commit: string, filepath: string) =>
    Buffer.from((await git.readBlob({ fs, dir, oid: commit, filepath })).blob).toString();

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'quire-rebase-'));
    await gitCli(dir, ['init', '-q', '-b', 'main']);
    await writeFile(path.join(dir, 'a.txt'), 'a\n');
    await writeFile(path.join(dir, 'b.txt'), 'b\n');
    await gitCli(dir, ['add', '-A']);
    await gitCli(dir, ['commit', '-q', '-m', 'base']);
    base = (await gitCli(dir, ['rev-parse', 'HEAD'])).trim();
    repo = { fs, dir, gitdir: path.join(dir, '.git'), scopes: ['.'], cache: {} };
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says up to date, or fast-forward, when one side has nothing new', async () => {
    const remote = await commitOn(base, { 'a.txt': 'A\n' }, 'remote');
    expect(await planRebase(repo, remote, base, ME)).toMatchObject({ kind: 'up-to-date', tip: remote });
    expect(await planRebase(repo, base, remote, ME)).toMatchObject({ kind: 'fast-forward', tip: remote, incoming: 1 });
    expect(await planRebase(repo, null, remote, ME)).toMatchObject({ kind: 'fast-forward', tip: remote });
  });

  it('replays local commits onto the remote, keeping both sides', async () => {
    const remote = await commitOn(base, { 'a.txt': 'A\n' }, 'remote');
    const local = await commitOn(base, { 'b.txt': 'B\n' }, 'local');
    const plan = await planRebase(repo, local, remote, ME);
    expect(plan).toMatchObject({ kind: 'rebased', incoming: 1, replayed: 1, dropped: 0 });
    expect([await fileAt(plan.tip, 'a.txt'), await fileAt(plan.tip, 'b.txt')]).toEqual(['A\n', 'B\n']);
    const { commit } = await git.readCommit({ fs, dir, oid: plan.tip });
    expect(commit).toMatchObject({ parent: [remote], message: 'local\n', committer: expect.objectContaining(ME) });
  });

  it('drops a local commit whose change is already upstream', async () => {
    const remote = await commitOn(base, { 'a.txt': 'A\n' }, 'remote');
    const local = await commitOn(base, { 'a.txt': 'A\n' }, 'same change');
    expect(await planRebase(repo, local, remote, ME)).toMatchObject({
      kind: 'rebased',
      tip: remote,
      replayed: 0,
      dropped: 1,
    });
  });

  it('stops on a file both sides changed differently, naming it, and changes nothing', async () => {
    const remote = await commitOn(base, { 'a.txt': 'A\n' }, 'remote');
    const local = await commitOn(base, { 'a.txt': 'mine\n' }, 'local');
    const failure = await planRebase(repo, local, remote, ME).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QuireError);
    expect(failure).toMatchObject({
      code: 'GIT_PULL_FAILED',
      details: { reason: 'conflict', conflicts: ['a.txt'], commit: local },
    });
  });
});
