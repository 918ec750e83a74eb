import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitService } from '../src/git/service.js';
import { gitCli } from './support/git-cli.js';
import { type GitServer, startGitServer } from './support/git-server.js';

// Unit tests of src/git against a real git http-backend, for cases the black-box tests
// (test/git.test.ts) do not reach cheaply: other layouts, a configured branch, unborn branches,
// folder/file clashes, dropped commits, a broken index.

const TOKEN = 'unit-token';
let scratch: string;
let remotes: string;
let server: GitServer;
let counter = 0;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'quire-git-unit-'));
  remotes = path.join(scratch, 'remotes');
  await mkdir(remotes);
  server = await startGitServer({ root: remotes, token: TOKEN });
  process.env.GIT_TOKEN = TOKEN;
});

afterAll(async () => {
  delete process.env.GIT_TOKEN;
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const exclusive = <T>(task: () => Promise<T>) => task();

async function write(root: string, files: Record<string, string>) {
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), text);
  }
}

/** A repository with files, a service on its `content/` folder (or `contentDir`), and an empty bare remote. */
async function setup(
  options: {
    files?: Record<string, string>;
    contentDir?: string;
    assetsDir?: string;
    branch?: string;
    init?: boolean;
  } = {},
) {
  const name = `r${++counter}`;
  const repo = path.join(scratch, name);
  await mkdir(repo);
  await write(repo, options.files ?? { 'content/a.json': 'a\n' });
  if (options.init !== false) await gitCli(repo, ['init', '-q', '-b', 'main']);
  await gitCli(remotes, ['init', '-q', '--bare', '-b', 'main', `${name}.git`]);
  const contentRoot = path.join(repo, options.contentDir ?? 'content');
  const announced: string[] = [];
  const service = createGitService({
    contentRoot,
    assetsDir: options.assetsDir ?? path.join(contentRoot, 'assets'),
    branch: options.branch ?? null,
    exclusive,
    announce: (event) => announced.push(event.action),
  });
  const url = server.repoUrl(`${name}.git`);
  const git = (...args: string[]) => gitCli(repo, args);
  const clone = async () => {
    const dir = `${repo}-other-${++counter}`;
    await gitCli(scratch, ['clone', '-q', url.replace('http://', `http://x:${TOKEN}@`), dir]);
    return { dir, git: (...args: string[]) => gitCli(dir, args) };
  };
  return {
    repo,
    service,
    url,
    git,
    clone,
    announced,
    remote: (...args: string[]) => gitCli(path.join(remotes, `${name}.git`), args),
  };
}

async function expectFailure(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toMatchObject({ code });
  return error as { message: string; details: { conflicts?: string[]; reason?: string } };
}

describe('git service', () => {
  it('works when the content root is the repository root', async () => {
    const { service, git, announced } = await setup({
      files: { 'a.json': 'a\n', 'sub/b.json': 'b\n' },
      contentDir: '.',
    });
    expect(await service.status()).toMatchObject({ changedFiles: 2 });
    expect((await service.commit('all', null)).summary).toBe('2 files changed');
    expect(await git('status', '--porcelain')).toBe('');
    // A commit is announced (to /events); a commit with nothing to commit is not.
    expect((await service.commit('again', null)).commit).toBeNull();
    expect(announced).toEqual(['commit']);
  });

  it('leaves a file staged by hand outside the content root out of the commit', async () => {
    const { service, git } = await setup({ files: { 'content/a.json': 'a\n', 'outside.txt': 'x\n' } });
    await git('add', 'outside.txt');
    const { commit } = await service.commit(undefined, null);
    expect(await git('show', '--name-only', '--format=', commit!)).toBe('content/a.json\n');
    expect(await git('status', '--porcelain')).toBe('A  outside.txt\n');
  });

  it('ignores an assets dir outside the repository, and gitignored files', async () => {
    const outside = path.join(scratch, `assets-${++counter}`);
    await write(outside, { 'x.png': 'png' });
    const { service, git } = await setup({
      files: { 'content/a.json': 'a\n', 'content/.gitignore': '*.tmp\n', 'content/junk.tmp': 'junk' },
      assetsDir: outside,
    });
    expect(await service.status()).toMatchObject({ changedFiles: 2 });
    await service.commit(undefined, null);
    expect(await git('ls-files')).toBe('content/.gitignore\ncontent/a.json\n');
  });

  it('answers GIT_NOT_REPO when the repository ignores the content root', async () => {
    const { service } = await setup({ files: { '.gitignore': 'content/\n', 'content/a.json': 'a\n' } });
    const failure = await expectFailure(service.status(), 'GIT_NOT_REPO');
    expect(failure.message).toMatch(/is ignored \(\.gitignore\)/);
  });

  it('answers GIT_STATUS_FAILED when git cannot read the repository', async () => {
    const { service, repo } = await setup();
    await writeFile(path.join(repo, '.git', 'index'), 'not an index');
    await expectFailure(service.status(), 'GIT_STATUS_FAILED');
  });

  it('pushes to and pulls from the configured branch', async () => {
    const { service, git, url, remote, clone } = await setup({ branch: 'content' });
    await git('remote', 'add', 'origin', url);
    await service.commit(undefined, null);
    expect(await service.push()).toEqual({ summary: 'Pushed 1 commit to origin/content' });
    expect((await remote('rev-parse', 'content')).trim()).toBe((await git('rev-parse', 'HEAD')).trim());
    expect(await service.status()).toMatchObject({ branch: 'main', ahead: 0, behind: 0 });

    // The remote's HEAD names `main`, which it does not have: isomorphic-git cannot fetch from it.
    const headless = await expectFailure(service.pull(null), 'GIT_PULL_FAILED');
    expect(headless.message).toMatch(/default branch/);
    expect(await service.status()).toMatchObject({ ahead: 0, behind: 0 });
    // The remote's default branch is the content branch, as a host sets it when that is the only branch.
    await remote('symbolic-ref', 'HEAD', 'refs/heads/content');
    const other = await clone();
    await write(other.dir, { 'content/b.json': 'b\n' });
    await other.git('add', '-A');
    await other.git('commit', '-q', '-m', 'b');
    await other.git('push', '-q', 'origin', 'content');
    expect((await service.pull(null)).summary).toMatch(/Fast-forwarded to origin\/content: 1 new commit/);
    expect((await git('log', '-1', '--format=%s')).trim()).toBe('b');
  });

  it('pulls into an unborn branch, taking identical untracked files and refusing different ones', async () => {
    const source = await setup({ files: { 'content/a.json': 'a\n', 'content/b.json': 'b\n' } });
    await source.git('remote', 'add', 'origin', source.url);
    await source.service.commit(undefined, null);
    await source.service.push();

    const target = await setup({ files: { 'content/a.json': 'a\n', 'content/b.json': 'mine\n' } });
    await target.git('remote', 'add', 'origin', source.url);
    const refused = await expectFailure(target.service.pull(null), 'GIT_PULL_FAILED');
    expect(refused.details).toMatchObject({ reason: 'uncommitted-changes', conflicts: ['content/b.json'] });
    await expect(target.git('rev-parse', '--verify', '-q', 'HEAD')).rejects.toThrow();

    await writeFile(path.join(target.repo, 'content/b.json'), 'b\n');
    expect((await target.service.pull(null)).summary).toMatch(/Fast-forwarded/);
    expect(await target.git('status', '--porcelain')).toBe('');
    expect(await target.service.status()).toMatchObject({ ahead: 0, behind: 0, changedFiles: 0 });
  });

  it('drops a local commit whose change is already upstream, and keeps the others', async () => {
    const { service, git, url, clone, repo } = await setup();
    await git('remote', 'add', 'origin', url);
    await service.commit(undefined, null);
    await service.push();
    const other = await clone();
    await write(other.dir, { 'content/a.json': 'same\n' });
    await other.git('commit', '-q', '-am', 'upstream a');
    await other.git('push', '-q');

    await write(repo, { 'content/a.json': 'same\n' });
    await service.commit('local a (same)', null);
    await write(repo, { 'content/c.json': 'c\n' });
    await service.commit('local c', null);
    const { summary } = await service.pull(null);
    expect(summary).toMatch(/1 local commit replayed on top; 1 commit already there dropped/);
    expect(await git('log', '--format=%s')).toMatch(/^local c\nupstream a\n/);
    expect(await service.status()).toMatchObject({ ahead: 1, behind: 0, changedFiles: 0 });
  });

  it('treats a file against a folder as a conflict, leaving everything as it was', async () => {
    const { service, git, url, clone, repo } = await setup();
    await git('remote', 'add', 'origin', url);
    await service.commit(undefined, null);
    await service.push();
    const other = await clone();
    await write(other.dir, { 'content/x': 'a file\n' });
    await other.git('add', '-A');
    await other.git('commit', '-q', '-m', 'x file');
    await other.git('push', '-q');

    await write(repo, { 'content/x/y.json': 'y\n' });
    await service.commit('x folder', null);
    const before = await git('rev-parse', 'HEAD');
    const failure = await expectFailure(service.pull(null), 'GIT_PULL_FAILED');
    expect(failure.details).toMatchObject({ reason: 'conflict', conflicts: ['content/x/y.json'] });
    expect(await git('rev-parse', 'HEAD')).toBe(before);
    expect(await readFile(path.join(repo, 'content/x/y.json'), 'utf8')).toBe('y\n');
    expect(await git('status', '--porcelain')).toBe('');
  });

  it('refuses a pull that needs a folder where an untracked file stands', async () => {
    const { service, git, url, clone, repo } = await setup();
    await git('remote', 'add', 'origin', url);
    await service.commit(undefined, null);
    await service.push();
    const other = await clone();
    await write(other.dir, { 'content/new/x.json': 'x\n' });
    await other.git('add', '-A');
    await other.git('commit', '-q', '-m', 'new folder');
    await other.git('push', '-q');
    await write(repo, { 'content/new': 'an untracked file\n' });
    const failure = await expectFailure(service.pull(null), 'GIT_PULL_FAILED');
    expect(failure.details).toMatchObject({ reason: 'uncommitted-changes', conflicts: ['content/new/x.json'] });
  });

  it('puts files, index and branch back when writing the pulled files fails half-way', async () => {
    const { service, git, url, clone, repo } = await setup({
      files: { 'content/a.json': 'a\n', 'content/b.json': 'b\n' },
    });
    await git('remote', 'add', 'origin', url);
    await service.commit(undefined, null);
    await service.push();
    // The other side changes a.json and adds a file whose name this file system cannot hold.
    const other = await clone();
    await write(other.dir, { 'content/a.json': 'a, theirs\n' });
    const blob = (await other.git('hash-object', '-w', 'content/a.json')).trim();
    await other.git('update-index', '--add', '--cacheinfo', `100644,${blob},content/${'x'.repeat(300)}.json`);
    await other.git('commit', '-q', '-am', 'a and a long name');
    await other.git('push', '-q');

    await write(repo, { 'content/b.json': 'b, uncommitted\n' });
    const before = {
      head: await git('rev-parse', 'HEAD'),
      index: await git('ls-files', '--stage'),
      status: await git('status', '--porcelain'),
    };
    const failure = await expectFailure(service.pull(null), 'GIT_PULL_FAILED');
    expect(failure.message).toMatch(/ENAMETOOLONG/);
    expect({
      head: await git('rev-parse', 'HEAD'),
      index: await git('ls-files', '--stage'),
      status: await git('status', '--porcelain'),
    }).toEqual(before);
    expect(await readFile(path.join(repo, 'content/a.json'), 'utf8')).toBe('a\n');
    expect(await readFile(path.join(repo, 'content/b.json'), 'utf8')).toBe('b, uncommitted\n');
  });

  it('runs git operations one at a time', async () => {
    const { service } = await setup();
    const order: string[] = [];
    const track = (name: string, promise: Promise<unknown>) =>
      promise.then(
        () => order.push(name),
        () => order.push(`${name}!`),
      );
    await Promise.all([
      track('commit', service.commit(undefined, null)),
      track('status', service.status()),
      track('commit2', service.commit(undefined, null)),
    ]);
    expect(order).toEqual(['commit', 'status', 'commit2']);
  });
});
