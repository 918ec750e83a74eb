import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli } from './support/git-cli.js';
import { type GitServer, startGitServer } from './support/git-server.js';
import { type ApiClient, api, bearer } from './support/http.js';
import { idLike } from './support/ids.js';
import { type JwksServer, startJwksServer } from './support/jwks-server.js';
import { createSite, freePort, type RunningSite } from './support/site.js';

// Issue 6: git status, commit, push and pull of the repository that holds the content root, against
// a real `git http-backend` on loopback (Basic auth with a token), in `astro dev` and a production
// build. The repositories live in the OS temp folder, outside any other repository, so that "not a
// repository" can be tested; the site's content root is a subfolder of a bigger "site repository"
// (with files outside the content root), and the assets dir is a sibling folder (`media/`).
// The scenarios build on each other in order: one server per mode, started once.

const TOKEN = 'test-token-123';
const SHA = /^[0-9a-f]{40}$/;
const ADA = { email: 'ada@example.test', sub: 'user-ada', name: 'Ada Lovelace' };
const BOB = { email: 'bob@example.test', sub: 'user-bob' };

let scratch: string;
let remotes: string;
let gitServer: GitServer;
let jwks: JwksServer;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'quire-git-'));
  remotes = path.join(scratch, 'remotes');
  await mkdir(remotes);
  [gitServer, jwks] = await Promise.all([startGitServer({ root: remotes, token: TOKEN }), startJwksServer()]);
});

afterAll(async () => {
  await Promise.all([gitServer?.close(), jwks?.close()]);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A data entry file as another editor would write it by hand. */
const dataFile = (name: string, data: Record<string, unknown>) =>
  `${JSON.stringify({ type: 'json', name, meta: { title: name }, content: { data } }, null, 2)}\n`;

describe.each(['dev', 'production'] as const)('git API (%s)', (mode) => {
  let base: string;
  let repo: string;
  let other: string;
  let server: RunningSite;
  let client: ApiClient;
  let remoteUrl: string;
  const bare = `${mode}.git`;
  /** The data entry `site`, created through the API (its ID ends in a random suffix). */
  let siteId: string;
  const siteFile = () => `content/data/settings/${siteId}.en.json`;

  const git = (...args: string[]) => gitCli(repo, args);
  const otherGit = (...args: string[]) => gitCli(other, args);
  const remoteHead = async () => (await gitCli(path.join(remotes, bare), ['rev-parse', 'main'])).trim();
  const head = async () => (await git('rev-parse', 'HEAD')).trim();
  const read = (relative: string) => readFile(path.join(repo, relative), 'utf8');

  async function status() {
    const response = await client.get('/git/status');
    expect(response.status, response.text).toBe(200);
    return response.json as {
      isRepo: boolean;
      hasChanges: boolean;
      changedFiles: number;
      ahead: number;
      behind: number;
      branch: string;
      remoteConfigured: boolean;
      files: Array<{ path: string; change: string; item?: Record<string, string>; asset?: string }>;
      problems: Array<{ path: string; reason: string; message: string }>;
    };
  }

  async function expectAheadBehind(ahead: number, behind: number) {
    const current = await status();
    expect({ ahead: current.ahead, behind: current.behind }).toEqual({ ahead, behind });
  }

  /** What native git counts as changed under the content root and assets dir (untracked files one by one). */
  async function nativeChangedFiles() {
    return (await git('status', '--porcelain', '-uall', '--', 'content', 'media')).split('\n').filter(Boolean).length;
  }

  async function commit(body?: unknown, headers?: Record<string, string>) {
    const response = await client.post('/git/commit', { body, headers });
    expect(response.status, response.text).toBe(200);
    return response.json as { success: true; commit: string | null; summary: string };
  }

  async function updateData(id: string, data: Record<string, unknown>, headers?: Record<string, string>) {
    const response = await client.put(`/content/${id}`, {
      query: { locale: 'en' },
      body: { content: { data } },
      headers,
    });
    expect(response.status, response.text).toBe(200);
  }

  /** The other editor changes files in their clone, commits and pushes with the git binary. */
  async function otherPushes(files: Record<string, string>, message: string) {
    await otherGit('pull', '-q', '--rebase');
    for (const [relative, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(other, relative)), { recursive: true });
      await writeFile(path.join(other, relative), text);
    }
    await otherGit('add', '-A');
    await otherGit('commit', '-q', '-m', message);
    await otherGit('push', '-q', 'origin', 'main');
    return (await otherGit('rev-parse', 'HEAD')).trim();
  }

  beforeAll(async () => {
    base = path.join(scratch, mode);
    repo = path.join(base, 'site-repo');
    other = path.join(base, 'other');
    const files: Record<string, string> = {
      'content/sites.json': `${JSON.stringify({ sites: {}, globalLocales: ['en'] }, null, 2)}\n`,
      'media/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
      'README.md': '# The site\n',
      'notes/todo.txt': 'not content\n',
    };
    for (const [relative, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(repo, relative)), { recursive: true });
      await writeFile(path.join(repo, relative), text);
    }
    await gitCli(remotes, ['init', '-q', '--bare', '-b', 'main', bare]);
    remoteUrl = gitServer.repoUrl(bare);

    const site = await createSite({
      name: `git-${mode}`,
      config: `{
        contentRoot: ${JSON.stringify(path.join(repo, 'content'))},
        assets: { dir: ${JSON.stringify(path.join(repo, 'media'))} },
        requireIdentity: false,
        auth: { type: 'jwt', jwksUrl: '${jwks.jwksUrl}', issuer: '${jwks.issuer}', audience: '${jwks.audience}' },
      }`,
    });
    const env = { GIT_TOKEN: TOKEN, GIT_USERNAME: undefined, GIT_BRANCH: undefined, CONTENT_PATH: undefined };
    server = mode === 'dev' ? await site.startDev(env) : await site.buildAndStart(env);
    client = api(server.url);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers 400 GIT_NOT_REPO while the content root is in no repository', async () => {
    await expect(gitCli(repo, ['rev-parse', '--git-dir'])).rejects.toThrow();
    for (const response of [
      await client.get('/git/status'),
      await client.post('/git/commit'),
      await client.post('/git/push'),
      await client.post('/git/pull'),
    ]) {
      expect(response.status, response.text).toBe(400);
      expect(response.json.error.code).toBe('GIT_NOT_REPO');
    }
  });

  it('reports a fresh repository: unborn branch, content and assets untracked, nothing outside counted', async () => {
    await git('init', '-q', '-b', 'main');
    expect(await status()).toEqual({
      isRepo: true,
      hasChanges: true,
      changedFiles: 2,
      ahead: 0,
      behind: 0,
      branch: 'main',
      remoteConfigured: false,
      files: [
        { path: 'content/sites.json', change: 'added' },
        { path: 'media/logo.svg', change: 'added', asset: 'logo.svg' },
      ],
      idClashes: [],
      problems: [],
    });
  });

  it('counts changes made through the content API', async () => {
    const created = await client.post('/content', {
      body: {
        kind: 'data',
        collection: 'settings',
        type: 'json',
        name: 'site',
        locales: { en: { content: { data: { title: 'Hello' } } } },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.id).toMatch(idLike('site'));
    siteId = created.json.id;
    const current = await status();
    expect(current).toMatchObject({ hasChanges: true, changedFiles: 3 });
    expect(current.changedFiles).toBe(await nativeChangedFiles());
    // Named by what it is, for an editor: the item, its kind and locale, and its title.
    expect(current.files.find((file) => file.path === siteFile())).toEqual({
      path: siteFile(),
      change: 'added',
      item: { id: siteId, kind: 'data', collection: 'settings', locale: 'en' },
    });
  });

  it('commits without a message: the first commit, dated default message, default author, only content and assets', async () => {
    const result = await commit();
    expect(result).toMatchObject({ success: true, summary: '3 files changed' });
    expect(result.commit).toMatch(SHA);
    expect(await head()).toBe(result.commit);
    const [parents, author, subject] = (await git('log', '-1', '--format=%P%n%an <%ae>%n%s')).split('\n');
    expect(parents).toBe('');
    expect(author).toBe('Quire <quire@localhost>');
    expect(subject).toContain(new Date().toISOString().slice(0, 10));
    expect((await git('ls-files')).split('\n').filter(Boolean).sort()).toEqual([
      siteFile(),
      'content/sites.json',
      'media/logo.svg',
    ]);
    // Files outside the content root and the assets dir are left untracked and unstaged.
    expect(await git('status', '--porcelain', '-uall')).toBe('?? README.md\n?? notes/todo.txt\n');
    expect(await status()).toMatchObject({ hasChanges: false, changedFiles: 0, ahead: 0, behind: 0 });
  });

  it("commits with a message as the repository's configured user; outside edits stay unstaged; deletions are committed", async () => {
    // The site owner commits README.md by hand, then edits it again: a tracked file outside the content root.
    await git('add', 'README.md');
    await git('-c', 'user.name=Owner', '-c', 'user.email=owner@example.test', 'commit', '-q', '-m', 'Add README');
    await writeFile(path.join(repo, 'README.md'), '# The site, edited\n');
    await git('config', 'user.name', 'Site Owner');
    await git('config', 'user.email', 'owner@example.test');

    await updateData(siteId, { title: 'Hello again' });
    await unlink(path.join(repo, 'media/logo.svg'));
    expect(await status()).toMatchObject({
      hasChanges: true,
      changedFiles: 2,
      files: [
        {
          path: siteFile(),
          change: 'modified',
          item: { id: siteId, kind: 'data', collection: 'settings', locale: 'en' },
        },
        { path: 'media/logo.svg', change: 'deleted', asset: 'logo.svg' },
      ],
    });

    const result = await commit({ message: 'Edit the site settings' });
    expect(result).toMatchObject({ success: true, summary: '2 files changed' });
    expect(result.commit).toMatch(SHA);
    expect(await git('log', '-1', '--format=%an <%ae>|%s')).toBe(
      'Site Owner <owner@example.test>|Edit the site settings\n',
    );
    expect(await git('show', '--name-status', '--format=', 'HEAD')).toBe(`M\t${siteFile()}\nD\tmedia/logo.svg\n`);
    expect(await git('status', '--porcelain', '-uall')).toBe(' M README.md\n?? notes/todo.txt\n');
  });

  it("takes the author from a signed JWT: name claim, else the e-mail's local part", async () => {
    await updateData(siteId, { title: 'By Ada' }, bearer(await jwks.sign(ADA)));
    await commit({ message: 'Ada edits' }, bearer(await jwks.sign(ADA)));
    expect(await git('log', '-1', '--format=%an <%ae>')).toBe('Ada Lovelace <ada@example.test>\n');

    await updateData(siteId, { title: 'By Bob' });
    await commit({}, bearer(await jwks.sign(BOB)));
    expect(await git('log', '-1', '--format=%an <%ae>|%cn <%ce>')).toBe(
      'bob <bob@example.test>|bob <bob@example.test>\n',
    );
  });

  it('answers a clear 200 when there is nothing to commit, and 400 for a bad body', async () => {
    const before = await head();
    expect(await commit({})).toEqual({ success: true, commit: null, summary: 'nothing to commit' });
    expect(await head()).toBe(before);
    const bad = await client.post('/git/commit', { body: { message: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'INVALID_REQUEST', details: { fields: [{ field: 'message' }] } });
    const badPull = await client.post('/git/pull', { body: [] });
    expect(badPull.status).toBe(400);
  });

  it('refuses to push without a remote (500 GIT_PUSH_FAILED saying how to add one)', async () => {
    expect(await status()).toMatchObject({ remoteConfigured: false, ahead: 0, behind: 0 });
    const response = await client.post('/git/push');
    expect(response.status).toBe(500);
    expect(response.json.error.code).toBe('GIT_PUSH_FAILED');
    expect(response.json.error.message).toContain('git remote add origin');
  });

  it('pushes to the HTTPS remote with GIT_TOKEN', async () => {
    await git('remote', 'add', 'origin', remoteUrl);
    // Never fetched: every local commit is ahead.
    expect(await status()).toMatchObject({ remoteConfigured: true, ahead: 5, behind: 0 });
    const response = await client.post('/git/push', { body: {} });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ success: true });
    expect(await remoteHead()).toBe(await head());
    await expectAheadBehind(0, 0);
    await gitCli(base, ['clone', '-q', remoteUrl.replace('http://', `http://x-access-token:${TOKEN}@`), 'other']);
  });

  it('fails push and pull with a clear message for a wrong token, an SSH remote and an unreachable host', async () => {
    gitServer.setToken('rotated-token');
    try {
      for (const [route, code] of [
        ['/git/push', 'GIT_PUSH_FAILED'],
        ['/git/pull', 'GIT_PULL_FAILED'],
      ] as const) {
        const response = await client.post(route);
        expect(response.status, response.text).toBe(500);
        expect(response.json.error.code).toBe(code);
        expect(response.json.error.message).toMatch(/rejected the credentials \(HTTP 401\).*GIT_TOKEN/);
        expect(response.text).not.toContain(TOKEN);
      }
    } finally {
      gitServer.setToken(TOKEN);
    }

    await git('remote', 'set-url', 'origin', 'git@github.com:owner/site.git');
    const ssh = await client.post('/git/push');
    expect(ssh.status).toBe(500);
    expect(ssh.json.error).toMatchObject({ code: 'GIT_PUSH_FAILED' });
    expect(ssh.json.error.message).toContain('use an HTTPS remote');

    await git('remote', 'set-url', 'origin', `http://127.0.0.1:${await freePort()}/nobody.git`);
    const unreachable = await client.post('/git/push');
    expect(unreachable.status).toBe(500);
    expect(unreachable.json.error.message).toMatch(/Could not reach the remote/);

    await git('remote', 'set-url', 'origin', remoteUrl);
    await expectAheadBehind(0, 0);
  });

  it('leaves no secret of any remote URL form in an answer or a log line', async () => {
    const secrets = [
      'ssh-secret',
      'scp-secret',
      'query-secret',
      'userinfo-secret',
      'fragment-secret',
      'other-scheme-secret',
    ];
    const port = await freePort();
    const forms = [
      'ssh://deploy:ssh-secret@git.example.test/owner/site.git',
      'deploy:scp-secret@git.example.test:owner/site.git',
      `http://127.0.0.1:${port}/site.git?access_token=query-secret`,
      `https://user:userinfo-secret@127.0.0.1:${port}/site.git#fragment-secret`,
      'ftp://user:other-scheme-secret@git.example.test/site.git',
    ];
    for (const url of forms) {
      await git('remote', 'set-url', 'origin', url);
      for (const route of ['/git/push', '/git/pull']) {
        const response = await client.post(route);
        expect(response.status, `${route} ${url}`).toBe(500);
        for (const secret of secrets) expect(response.text, `${route} ${url}`).not.toContain(secret);
      }
    }
    expect((await status()).remoteConfigured).toBe(true);
    for (const secret of secrets) expect(server.logs()).not.toContain(secret);
    await git('remote', 'set-url', 'origin', remoteUrl);
  });

  it('refuses to send the token over plain HTTP to a host that is not this machine', async () => {
    await git('remote', 'set-url', 'origin', 'http://git.example.test/owner/site.git');
    for (const [route, code] of [
      ['/git/push', 'GIT_PUSH_FAILED'],
      ['/git/pull', 'GIT_PULL_FAILED'],
    ] as const) {
      const response = await client.post(route);
      expect(response.status, response.text).toBe(500);
      expect(response.json.error).toMatchObject({ code, details: { reason: 'unsupported-remote' } });
      expect(response.json.error.message).toMatch(
        /plain HTTP, so the token would cross the network unencrypted: use an https:\/\/ remote/,
      );
    }
    await git('remote', 'set-url', 'origin', remoteUrl);
  });

  it('pulls a fast-forward, and the content API lists the pulled entry on the next request', async () => {
    const pushed = await otherPushes(
      { 'content/data/settings/pulled.en.json': dataFile('pulled', { from: 'other' }) },
      'Other adds pulled',
    );
    // Status compares with the last fetch: not behind until the next pull fetches.
    await expectAheadBehind(0, 0);
    const response = await client.post('/git/pull');
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ success: true });
    expect(response.json.summary).toMatch(/^Fast-forwarded to origin\/main: 1 new commit/);
    expect(await head()).toBe(pushed);
    const list = await client.get('/content', { query: { kind: 'data' } });
    expect(list.json.items.map((item: { id: string }) => item.id).sort()).toEqual(['pulled', siteId].sort());
    expect((await client.get('/content/pulled/en')).json.localized.content).toEqual({ data: { from: 'other' } });
    await expectAheadBehind(0, 0);
    expect(await status()).toMatchObject({ hasChanges: false });
  });

  it('reports a pulled page whose pathname is not a path on the site, and never redirects to it', async () => {
    const offSite = {
      type: 'json',
      pathname: 'https://evil.example/',
      previousPathnames: ['/legacy-evil'],
      meta: { title: 'Evil' },
    };
    await otherPushes(
      { 'content/pages/main/pages/evil.en.json': `${JSON.stringify(offSite, null, 2)}\n` },
      'Other adds an off-site pathname',
    );
    const pulled = await client.post('/git/pull');
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.json.problems).toEqual([
      {
        path: 'pages/main/pages/evil.en.json',
        reason: 'off-site-pathname',
        message: expect.stringContaining('"https://evil.example/" is not a path on the site'),
      },
    ]);
    expect((await status()).problems).toEqual(pulled.json.problems);
    const legacy = await fetch(`${server.url}/legacy-evil`, { redirect: 'manual' });
    expect(legacy.status).not.toBe(301);
    expect(legacy.headers.get('location')).toBeNull();
    expect(server.logs()).toContain('"https://evil.example/" is not a path on the site');

    await otherPushes(
      { 'content/pages/main/pages/evil.en.json': `${JSON.stringify({ ...offSite, pathname: '/fixed' }, null, 2)}\n` },
      'Other fixes the pathname',
    );
    const fixed = await client.post('/git/pull');
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.json.problems).toEqual([]);
    expect((await fetch(`${server.url}/legacy-evil`, { redirect: 'manual' })).headers.get('location')).toBe('/fixed');
  });

  it('rejects a push when the remote moved on, then pulls with a rebase that keeps history linear', async () => {
    const theirs = await otherPushes(
      { 'content/data/settings/theirs.en.json': dataFile('theirs', { n: 1 }) },
      'Other adds theirs',
    );
    await updateData(siteId, { title: 'Local edit' });
    const local = await commit({ message: 'Local edit of site' });

    const rejected = await client.post('/git/push');
    expect(rejected.status).toBe(500);
    expect(rejected.json.error).toMatchObject({ code: 'GIT_PUSH_FAILED', details: { reason: 'non-fast-forward' } });
    expect(rejected.json.error.message).toMatch(/pull first/);
    expect(await remoteHead()).toBe(theirs);
    // The rejected push fetched, so status knows how far behind it is.
    await expectAheadBehind(1, 1);

    const pulled = await client.post('/git/pull', { body: {} });
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.json.summary).toMatch(/^Rebased onto origin\/main: 1 new commit, 1 local commit replayed on top/);
    // Linear: no commit has two parents, the local commit sits on top of theirs, with its author and message.
    for (const line of (await git('rev-list', '--parents', 'HEAD')).trim().split('\n'))
      expect(line.split(' ').length).toBeLessThanOrEqual(2);
    expect((await git('rev-parse', 'HEAD^')).trim()).toBe(theirs);
    expect(await head()).not.toBe(local.commit);
    expect(await git('log', '-1', '--format=%an|%s')).toBe('Site Owner|Local edit of site\n');
    expect(JSON.parse(await read(siteFile())).content.data).toEqual({ title: 'Local edit' });
    expect((await client.get('/content/theirs/en')).status).toBe(200);
    expect(await git('status', '--porcelain', '-uall')).toBe(' M README.md\n?? notes/todo.txt\n');
    await expectAheadBehind(1, 0);

    const pushed = await client.post('/git/push');
    expect(pushed.status, pushed.text).toBe(200);
    expect(await remoteHead()).toBe(await head());
    await expectAheadBehind(0, 0);
  });

  it('pulls with uncommitted edits and keeps them (autostash)', async () => {
    const theirs = await otherPushes(
      { 'content/data/settings/theirs.en.json': dataFile('theirs', { n: 2 }) },
      'Other edits theirs',
    );
    await updateData(siteId, { title: 'Uncommitted' });
    const created = await client.post('/content', {
      body: {
        kind: 'data',
        collection: 'settings',
        type: 'json',
        name: 'draft',
        locales: { en: { content: { data: { wip: true } } } },
      },
    });
    expect(created.status, created.text).toBe(201);
    const draftFile = `content/data/settings/${created.json.id}.en.json`;
    const siteBytes = await read(siteFile());
    const draftBytes = await read(draftFile);

    const response = await client.post('/git/pull');
    expect(response.status, response.text).toBe(200);
    expect(await head()).toBe(theirs);
    expect(await read(siteFile())).toBe(siteBytes);
    expect(await read(draftFile)).toBe(draftBytes);
    expect((await client.get('/content/theirs/en')).json.localized.content).toEqual({ data: { n: 2 } });
    expect(await git('status', '--porcelain', '-uall')).toBe(
      ` M README.md\n M ${siteFile()}\n?? ${draftFile}\n?? notes/todo.txt\n`,
    );
    expect(await status()).toMatchObject({ hasChanges: true, changedFiles: 2, ahead: 0, behind: 0 });

    // An uncommitted edit to a file the pull would change is a conflict too: refused, nothing touched.
    await otherPushes({ [siteFile()]: dataFile('site', { title: 'Theirs' }) }, 'Other edits site');
    const before = await head();
    const refused = await client.post('/git/pull');
    expect(refused.status, refused.text).toBe(500);
    expect(refused.json.error).toMatchObject({
      code: 'GIT_PULL_FAILED',
      details: { reason: 'uncommitted-changes', conflicts: [siteFile()] },
    });
    expect(await head()).toBe(before);
    expect(await read(siteFile())).toBe(siteBytes);
    await expectAheadBehind(0, 1);

    // Commit the draft, drop the local site edit, and catch up.
    await git('checkout', '--', siteFile());
    await commit({ message: 'Add draft' });
    const caughtUp = await client.post('/git/pull');
    expect(caughtUp.status, caughtUp.text).toBe(200);
    expect((await client.get(`/content/${siteId}/en`)).json.localized.content).toEqual({ data: { title: 'Theirs' } });
    expect((await client.post('/git/push')).status).toBe(200);
    await expectAheadBehind(0, 0);
  });

  it('refuses a conflicting pull with 500 GIT_PULL_FAILED naming the paths, and changes nothing', async () => {
    const conflicted = 'content/data/settings/pulled.en.json';
    await updateData('pulled', { from: 'local' });
    await commit({ message: 'Local edit of pulled' });
    await otherPushes({ [conflicted]: dataFile('pulled', { from: 'remote' }) }, 'Other edits pulled');
    // An uncommitted edit elsewhere and a staged file outside the content root must survive as they are.
    await updateData('theirs', { n: 'uncommitted' });
    await git('add', 'README.md');

    const snapshot = async () => ({
      head: await head(),
      branch: (await git('symbolic-ref', 'HEAD')).trim(),
      porcelain: await git('status', '--porcelain', '-uall'),
      index: await git('ls-files', '--stage'),
      files: await Promise.all([conflicted, 'content/data/settings/theirs.en.json', siteFile(), 'README.md'].map(read)),
    });
    const before = await snapshot();

    const response = await client.post('/git/pull');
    expect(response.status, response.text).toBe(500);
    expect(response.json.error).toMatchObject({
      code: 'GIT_PULL_FAILED',
      details: { reason: 'conflict', conflicts: [conflicted] },
    });
    expect(response.json.error.message).toContain(conflicted);
    expect(await snapshot()).toEqual(before);
    expect((await client.get('/content/pulled/en')).json.localized.content).toEqual({ data: { from: 'local' } });
    await expectAheadBehind(1, 1);
  });

  it('serializes content writes with a commit: none is lost or committed half-written', async () => {
    const file = siteFile();
    const writes = Array.from({ length: 8 }, (_, n) =>
      client.put(`/content/${siteId}`, { query: { locale: 'en' }, body: { content: { data: { n } } } }),
    );
    const [answers, committed] = await Promise.all([
      Promise.all(writes),
      client.post('/git/commit', { body: { message: 'During writes' } }),
    ]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(committed.status, committed.text).toBe(200);
    // What the commit took is one whole version of the file.
    const taken = await git('show', `HEAD:${file}`);
    expect(() => JSON.parse(taken)).not.toThrow();
    const onDisk = await read(file);
    expect((await client.get(`/content/${siteId}/en`)).json.localized.content).toEqual(JSON.parse(onDisk).content);
    // Whatever came after the commit is still there, and a second commit takes it.
    await commit({ message: 'After writes' });
    expect(await git('show', `HEAD:${file}`)).toBe(onDisk);
    expect(await status()).toMatchObject({ hasChanges: false, changedFiles: 0 });
  });
});
