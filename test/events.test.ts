import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuireClient, type QuireClient, type QuireEvent } from '../src/client/index.js';
import { createChangeFeed } from '../src/events/feed.js';
import { changeStream } from '../src/events/sse.js';
import { gitCli } from './support/git-cli.js';
import { type GitServer, startGitServer } from './support/git-server.js';
import { bearer } from './support/http.js';
import { png } from './support/images.js';
import { type JwksServer, startJwksServer } from './support/jwks-server.js';
import { createSite, type RunningSite } from './support/site.js';

// GET /events: every change the store sees (its own writes, with who made them, and files changed
// on disk, with by null), asset and git changes, as Server-Sent Events on real servers.

const SITES_JSON = JSON.stringify({
  sites: { main: { locales: ['en', 'de'], defaultLocale: 'en' } },
  globalLocales: ['en', 'de'],
});
const ALICE = { email: 'alice@example.test', sub: 'user-alice' };
const visual = (text: string) => ({ visualData: { blocks: [{ type: 'text', text }] } });

/** A subscription through the typed client that records what it hears, with a bounded wait for a matching event. */
function listen(client: QuireClient) {
  const events: QuireEvent[] = [];
  const errors: unknown[] = [];
  let opened = 0;
  const controller = new AbortController();
  client.events.subscribe(
    {
      onEvent: (event) => events.push(event),
      onOpen: () => {
        opened += 1;
      },
      onError: (error) => errors.push(error),
    },
    { signal: controller.signal, retryMs: 200 },
  );
  const until = async <T>(what: string, check: () => T | undefined, timeoutMs = 5_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check();
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no ${what} within ${timeoutMs} ms; heard ${JSON.stringify(events)}, errors ${errors.map(String).join('; ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return {
    events,
    errors,
    opened: () => opened,
    until,
    waitOpen: () => until('open stream', () => (opened > 0 ? true : undefined), 15_000),
    waitFor: (what: string, match: (event: QuireEvent) => boolean, timeoutMs?: number) =>
      until(what, () => events.find(match), timeoutMs),
    stop: () => controller.abort(),
  };
}

/** The file of one locale of an item, wherever the content layout puts it. */
async function localeFile(root: string, id: string, locale: string): Promise<string> {
  const files = await readdir(root, { recursive: true });
  const found = files.find((file) => path.basename(file).startsWith(`${id}.${locale}.`));
  if (!found) throw new Error(`no file for ${id} (${locale}) under ${root}`);
  return path.join(root, found);
}

/** Reads a raw event stream for up to `ms`, returning the text. */
async function readRaw(
  url: string,
  headers: Record<string, string>,
  ms: number,
): Promise<{ status: number; type: string | null; text: string }> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let text = '';
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    clearTimeout(timer);
  }
  return { status: response.status, type: response.headers.get('content-type'), text };
}

let jwks: JwksServer;
beforeAll(async () => {
  jwks = await startJwksServer({ issuer: 'https://gateway.test', audience: 'quire-test' });
});
afterAll(async () => {
  await jwks?.close();
});

const authConfig = () =>
  `auth: { type: 'jwt', jwksUrl: '${jwks.jwksUrl}', issuer: 'https://gateway.test', audience: 'quire-test' }`;

const GIT_TOKEN = 'events-token';

describe('/events in astro dev', () => {
  let server: RunningSite;
  let contentRoot: string;
  let client: QuireClient;
  let remotes: string;
  let gitServer: GitServer;

  beforeAll(async () => {
    const site = await createSite({
      name: 'events-dev',
      config: `{ ${authConfig()} }`,
      content: { 'sites.json': SITES_JSON },
    });
    contentRoot = site.contentRoot;
    // The content root is a repository of its own with a remote on a real git server, for the pull test.
    remotes = await mkdtemp(path.join(os.tmpdir(), 'quire-events-'));
    gitServer = await startGitServer({ root: remotes, token: GIT_TOKEN });
    await gitCli(remotes, ['init', '-q', '--bare', '-b', 'main', 'events.git']);
    await gitCli(contentRoot, ['init', '-q', '-b', 'main']);
    await gitCli(contentRoot, ['add', '-A']);
    await gitCli(contentRoot, ['commit', '-q', '-m', 'init']);
    await gitCli(contentRoot, ['remote', 'add', 'origin', gitServer.repoUrl('events.git')]);
    server = await site.startDev({
      GIT_TOKEN,
      GIT_USERNAME: undefined,
      GIT_BRANCH: undefined,
      CONTENT_PATH: undefined,
    });
    const token = await jwks.sign(ALICE);
    client = createQuireClient({ baseUrl: server.url, headers: bearer(token) });
  });
  afterAll(async () => {
    await server?.stop();
    await gitServer?.close();
    if (remotes) await rm(remotes, { recursive: true, force: true });
  });

  it('starts with event: ready and sends a ": ping" heartbeat every 15 s', { timeout: 40_000 }, async () => {
    const { status, type, text } = await readRaw(
      `${server.url}/__cms/api/events`,
      { accept: 'text/event-stream' },
      16_500,
    );
    expect(status).toBe(200);
    expect(type).toBe('text/event-stream; charset=utf-8');
    expect(text).toMatch(/^retry: \d+\nevent: ready\ndata: \{\}\n\n/);
    expect(text).toContain('\n: ping\n\n');
  });

  it('announces an API write with id, locale, etag and the writer, and the inheriting locale whose etag moved with it', async () => {
    const listener = listen(client);
    try {
      await listener.waitOpen();
      const created = await client.content.create({
        kind: 'page',
        site: 'main',
        collection: 'pages',
        type: 'visual',
        locales: {
          en: { pathname: '/about', meta: { title: 'About' }, content: visual('About') },
          de: { pathname: '/ueber', inherit: true },
        },
      });
      const en = await listener.waitFor(
        'created en',
        (event) => event.kind === 'content' && event.id === created.id && event.locale === 'en',
      );
      expect(en).toEqual({
        kind: 'content',
        id: created.id,
        locale: 'en',
        etag: created.etag,
        by: ALICE.email,
        action: 'created',
      });
      await listener.waitFor(
        'created de',
        (event) =>
          event.kind === 'content' && event.id === created.id && event.locale === 'de' && event.action === 'created',
      );

      const updated = await client.content.update(
        created.id,
        'en',
        { content: visual('About us') },
        { etag: created.etag },
      );
      const update = await listener.waitFor(
        'updated en',
        (event) => event.kind === 'content' && event.locale === 'en' && event.action === 'updated',
      );
      expect(update).toEqual({
        kind: 'content',
        id: created.id,
        locale: 'en',
        etag: updated.etag,
        by: ALICE.email,
        action: 'updated',
      });
      // de inherits en's content, so its etag changed too: an editor of de hears of it before a 412.
      const de = await listener.waitFor(
        'inherited de updated',
        (event) => event.kind === 'content' && event.locale === 'de' && event.action === 'updated',
      );
      expect(de).toMatchObject({
        id: created.id,
        by: ALICE.email,
        etag: (await client.content.getLocale(created.id, 'de')).localized.etag,
      });
      expect(listener.errors).toEqual([]);
    } finally {
      listener.stop();
    }
  });

  it('announces a hand edit of a file on disk with by null, without any other request', async () => {
    const created = await client.content.create({
      kind: 'page',
      site: 'main',
      collection: 'pages',
      type: 'visual',
      locales: { en: { pathname: '/by-hand', meta: { title: 'Before' }, content: visual('x') } },
    });
    const listener = listen(client);
    try {
      await listener.waitOpen();
      const file = await localeFile(contentRoot, created.id, 'en');
      await writeFile(file, (await readFile(file, 'utf8')).replace('Before', 'Edited by hand'));
      const event = await listener.waitFor(
        'disk edit',
        (e) => e.kind === 'content' && e.id === created.id && e.action === 'updated',
        3_000,
      );
      expect(event).toMatchObject({ locale: 'en', by: null, etag: expect.any(String) });
      expect(event).not.toHaveProperty('etag', created.etag);
      const read = await client.content.getLocale(created.id, 'en');
      expect(read.localized.etag).toBe((event as { etag: string }).etag);
      expect(read.localized.meta.title).toBe('Edited by hand');
    } finally {
      listener.stop();
    }
  });

  it('announces deletes (one locale, then the whole item), an asset upload and a git commit', async () => {
    const created = await client.content.create({
      kind: 'page',
      site: 'main',
      collection: 'pages',
      type: 'visual',
      locales: { en: { pathname: '/gone', content: visual('x') }, de: { pathname: '/weg', content: visual('y') } },
    });
    const listener = listen(client);
    try {
      await listener.waitOpen();
      await client.content.delete(created.id, {
        locale: 'de',
        etag: (await client.content.getLocale(created.id, 'de')).localized.etag,
      });
      expect(await listener.waitFor('locale deleted', (e) => e.kind === 'content' && e.action === 'deleted')).toEqual({
        kind: 'content',
        id: created.id,
        locale: 'de',
        etag: null,
        by: ALICE.email,
        action: 'deleted',
      });
      await client.content.delete(created.id, {
        etag: (await client.content.getLocale(created.id, 'en')).localized.etag,
      });
      expect(
        await listener.waitFor(
          'item deleted',
          (e) => e.kind === 'content' && e.action === 'deleted' && e.locale === null,
        ),
      ).toEqual({ kind: 'content', id: created.id, locale: null, etag: null, by: ALICE.email, action: 'deleted' });

      const asset = await client.assets.upload(new Blob([new Uint8Array(png(2, 2))], { type: 'image/png' }), {
        filename: 'dot.png',
        folder: '/team',
      });
      expect(await listener.waitFor('upload', (e) => e.kind === 'asset')).toEqual({
        kind: 'asset',
        path: asset.path,
        action: 'uploaded',
      });
      await client.git.commit('events test');
      expect(await listener.waitFor('commit', (e) => e.kind === 'git')).toEqual({ kind: 'git', action: 'commit' });
      expect(listener.errors).toEqual([]);
    } finally {
      listener.stop();
    }
  });

  it('announces what a git pull changed (by null) and the pull itself', async () => {
    const created = await client.content.create({
      kind: 'page',
      site: 'main',
      collection: 'pages',
      type: 'visual',
      locales: { en: { pathname: '/pulled', meta: { title: 'Ours' }, content: visual('x') } },
    });
    await client.git.commit('before the pull');
    await client.git.push();
    // Another editor changes the page in a clone and pushes.
    const other = path.join(remotes, 'other');
    await gitCli(remotes, [
      'clone',
      '-q',
      gitServer.repoUrl('events.git').replace('http://', `http://x:${GIT_TOKEN}@`),
      other,
    ]);
    const file = await localeFile(other, created.id, 'en');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Ours', 'Theirs'));
    await gitCli(other, ['commit', '-q', '-am', 'their edit']);
    await gitCli(other, ['push', '-q', 'origin', 'main']);

    const listener = listen(client);
    try {
      await listener.waitOpen();
      await client.git.pull();
      const changed = await listener.waitFor('pulled change', (e) => e.kind === 'content' && e.id === created.id);
      expect(changed).toMatchObject({
        locale: 'en',
        by: null,
        action: 'updated',
        etag: (await client.content.getLocale(created.id, 'en')).localized.etag,
      });
      await listener.waitFor('pull', (e) => e.kind === 'git' && e.action === 'pull');
      expect(listener.events.filter((e) => e.kind === 'git').map((e) => e.action)).toEqual(['pull']);
    } finally {
      listener.stop();
    }
  });

  it('reconnects after the stream drops, and opens again (so the app refreshes)', async () => {
    let cut = 0;
    // The first stream is cut after its first chunk, as a proxy or a network drop would.
    const droppingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith('/events') || cut > 0) return response;
      cut += 1;
      const reader = response.body!.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value } = await reader.read();
          controller.enqueue(value!);
          controller.error(new Error('connection reset'));
          await reader.cancel();
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const listener = listen(
      createQuireClient({ baseUrl: server.url, headers: bearer(await jwks.sign(ALICE)), fetch: droppingFetch }),
    );
    try {
      await listener.until('a second open', () => (listener.opened() >= 2 ? true : undefined));
      expect(String(listener.errors[0])).toContain('connection reset');
      const created = await client.content.create({
        kind: 'page',
        site: 'main',
        collection: 'pages',
        type: 'visual',
        locales: { en: { pathname: '/again', content: visual('x') } },
      });
      await listener.waitFor('a write after the reconnect', (e) => e.kind === 'content' && e.id === created.id);
    } finally {
      listener.stop();
    }
  });

  it('keeps serving after many clients connect and go away', async () => {
    for (let round = 0; round < 30; round++) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/__cms/api/events`, { signal: controller.signal });
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => undefined);
    }
    const listener = listen(client);
    try {
      await listener.waitOpen();
      await client.content.create({
        kind: 'page',
        site: 'main',
        collection: 'pages',
        type: 'visual',
        locales: { en: { pathname: '/after-many', content: visual('x') } },
      });
      await listener.waitFor('write after many clients', (e) => e.kind === 'content' && e.action === 'created');
    } finally {
      listener.stop();
    }
  });
});

describe('/events in a production build with requireIdentity', () => {
  let server: RunningSite;

  beforeAll(async () => {
    const site = await createSite({
      name: 'events-prod',
      config: `{ ${authConfig()} }`,
      content: { 'sites.json': SITES_JSON },
    });
    server = await site.buildAndStart();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 401 UNAUTHORIZED without a verified identity', async () => {
    for (const headers of [{}, bearer(await jwks.sign(ALICE, { expiresIn: -3600 }))]) {
      const res = await fetch(`${server.url}/__cms/api/events`, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
  });

  it('streams changes to a verified identity', async () => {
    const client = createQuireClient({ baseUrl: server.url, headers: async () => bearer(await jwks.sign(ALICE)) });
    const listener = listen(client);
    try {
      await listener.waitOpen();
      const created = await client.content.create({
        kind: 'page',
        site: 'main',
        collection: 'pages',
        type: 'visual',
        locales: { en: { pathname: '/prod', content: visual('x') } },
      });
      expect(await listener.waitFor('created', (e) => e.kind === 'content' && e.id === created.id)).toEqual({
        kind: 'content',
        id: created.id,
        locale: 'en',
        etag: created.etag,
        by: ALICE.email,
        action: 'created',
      });
    } finally {
      listener.stop();
    }
  });
});

describe('the event stream lets go of its listener (in process)', () => {
  it('when the client disconnects (request aborted) or stops reading (stream cancelled), 100 times each', async () => {
    const feed = createChangeFeed();
    for (let round = 0; round < 100; round++) {
      const aborted = new AbortController();
      const first = changeStream(feed, aborted.signal);
      const cancelled = changeStream(feed, new AbortController().signal);
      expect(feed.listeners).toBe(2);
      const reader = cancelled.body!.getReader();
      await reader.read();
      await reader.cancel();
      aborted.abort();
      expect(feed.listeners).toBe(0);
      // The aborted stream ends after what it had queued.
      const text = await first.text();
      expect(text).toBe('retry: 2000\nevent: ready\ndata: {}\n\n');
    }
  });

  it('drops a client that stopped reading once a megabyte waits for it', () => {
    const feed = createChangeFeed();
    changeStream(feed, new AbortController().signal);
    const event: QuireEvent = {
      kind: 'content',
      id: 'x'.repeat(1000),
      locale: 'en',
      etag: 'e',
      by: null,
      action: 'updated',
    };
    for (let i = 0; i < 2000 && feed.listeners > 0; i++) feed.announce(event);
    expect(feed.listeners).toBe(0);
  });
});
