import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ELF, png } from '../support/images.js';
import { createSite, type RunningSite, type TestSite } from '../support/site.js';
import { type RawResponse, rawRequest } from './support/counting.js';
import { filesUnder, isTempFile } from './support/files.js';
import { pool } from './support/mode.js';
import { multipart } from './support/multipart.js';
import { isAcceptablePathname, isPlainAssetPath, type Payload, traversalPayloads } from './support/payloads.js';
import { Tally } from './support/tally.js';

// Items 3, 4, 6 and 8 of issue 8 against one production server: path traversal, malformed input,
// SSRF and abusive uploads. Every answer is checked (a 4xx with the JSON envelope, never a 5xx),
// and a canary outside the content root must never show up in an answer nor change.

const SITES = { sites: { web: { locales: ['en', 'de'], defaultLocale: 'en' } }, globalLocales: ['en', 'de'] };
const MAX_BYTES = 64 * 1024;
const TOKEN = `QC${randomBytes(10).toString('hex')}`;
/** JSON.parse error messages quote the first 10 characters of what they could not parse. */
const TOKEN_PREFIX = TOKEN.slice(0, 10);
const SECRET_TEXT = `${TOKEN} — canary outside the content root: never to be served, read into an answer or changed\n`;
const CANARY_PAGE = `${JSON.stringify({ type: 'visual', pathname: '/canary', meta: { title: TOKEN }, content: { visualData: { secret: TOKEN } } }, null, 2)}\n`;
const PAGE = (pathname: string, extra: Record<string, unknown> = {}) => ({
  kind: 'page',
  site: 'web',
  collection: 'pages',
  type: 'visual',
  locales: { en: { pathname, meta: { title: 'T' }, content: { visualData: { root: {} } } } },
  ...extra,
});

let site: TestSite;
let server: RunningSite;
let outside: string;
let assetsDir: string;

/** Every answer any test here saw, checked for the canary at the end. */
const leaks: string[] = [];

function watch<R extends RawResponse>(label: string, response: R): R {
  if (response.text.includes(TOKEN_PREFIX)) leaks.push(`${label}: ${response.text.slice(0, 200)}`);
  return response;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A request with the path sent exactly as given; a body that is not a string or Buffer goes as JSON. */
async function send(
  method: string,
  rawPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse & { requestPath: string }> {
  const raw = body === undefined || typeof body === 'string' || Buffer.isBuffer(body);
  const requestPath = `/__cms/api${rawPath}`;
  const response = await rawRequest(server.url, method, requestPath, {
    body: raw ? (body as string | Buffer | undefined) : JSON.stringify(body),
    headers: { ...(raw ? {} : JSON_HEADERS), ...headers },
  });
  return watch(`${method} ${rawPath}`, { ...response, requestPath });
}

const parse = (response: RawResponse): any => {
  try {
    return JSON.parse(response.text);
  } catch {
    return undefined;
  }
};

/** 4xx with `{ error: { code, message } }`. */
function isEnvelope4xx(response: RawResponse): boolean {
  const body = parse(response);
  return (
    response.status >= 400 &&
    response.status < 500 &&
    typeof body?.error?.code === 'string' &&
    typeof body?.error?.message === 'string'
  );
}

beforeAll(async () => {
  site = await createSite({
    name: 'rel-abuse',
    config: `{ requireIdentity: false, assets: { maxBytes: ${MAX_BYTES} } }`,
    content: {
      'sites.json': JSON.stringify(SITES),
      'pages/web/pages/a.en.json': JSON.stringify({
        type: 'visual',
        pathname: '/a',
        meta: { title: 'A' },
        content: { visualData: {} },
      }),
      'fragments/blocks/frag.en.json': JSON.stringify({
        type: 'visual',
        name: 'frag',
        meta: {},
        content: { visualData: {} },
      }),
    },
  });
  outside = path.join(site.dir, 'outside');
  assetsDir = path.join(site.contentRoot, 'assets');
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), SECRET_TEXT);
  await writeFile(path.join(outside, 'canary.en.json'), CANARY_PAGE);
  // Symlinks planted inside the root that lead out of it, where the service reads and writes.
  const plant = async (link: string, target: string) => {
    await mkdir(path.dirname(path.join(site.contentRoot, link)), { recursive: true });
    await symlink(target, path.join(site.contentRoot, link));
  };
  await plant('pages/web/pages/evil.en.json', path.join(outside, 'canary.en.json'));
  await plant('pages/web/pages/a.de.json', path.join(outside, 'canary.en.json'));
  await plant('pages/web/escape', outside);
  await plant('site-fragments/web', outside);
  await plant('assets/escape', outside);
  await plant('assets/escape.png', path.join(outside, 'secret.txt'));
  await plant('assets/linked/.quire-assets.json', path.join(outside, 'secret.txt'));
  await plant('assets/.quire-tmp', outside);
  server = await site.buildAndStart();
});

afterAll(async () => {
  await server?.stop();
});

async function outsideUnchanged(): Promise<void> {
  expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe(SECRET_TEXT);
  expect(await readFile(path.join(outside, 'canary.en.json'), 'utf8')).toBe(CANARY_PAGE);
  expect(await filesUnder(outside)).toEqual(['canary.en.json', 'secret.txt']);
}

describe('reliability: path traversal (item 3)', () => {
  it('never writes through, or reads from, a symlink planted inside the root', async ({ task }) => {
    const tally = new Tally('3 path traversal', task.meta);
    const attempts: Array<[string, () => Promise<RawResponse>]> = [
      ['a page whose ID would be a symlinked file', () => send('POST', '/content', PAGE('/evil'))],
      [
        'a new locale whose file is a symlink',
        () => send('PUT', '/content/a?locale=de', { pathname: '/a-de', meta: { title: 'overwrite' } }),
      ],
      [
        'a page in a symlinked collection folder',
        () => send('POST', '/content', { ...PAGE('/escaped'), collection: 'escape' }),
      ],
      [
        'a site fragment under a symlinked site folder',
        () =>
          send('POST', '/content', {
            kind: 'fragment',
            site: 'web',
            collection: 'blocks',
            type: 'visual',
            name: 'escaped',
            locales: { en: { content: { visualData: {} } } },
          }),
      ],
      [
        'an upload while the temp folder is a symlink',
        () =>
          send(
            'POST',
            '/assets/upload',
            ...uploadArgs([{ name: 'file', filename: 'x.png', type: 'image/png', data: png(2, 2) }]),
          ),
      ],
      [
        'an upload into a folder whose manifest is a symlink',
        () =>
          send(
            'POST',
            '/assets/upload',
            ...uploadArgs([
              { name: 'folder', value: 'linked' },
              { name: 'file', filename: 'y.png', type: 'image/png', data: png(2, 2) },
            ]),
          ),
      ],
      ['the folder with the symlinked manifest', () => send('GET', '/assets/folders?path=/linked')],
      ['alt text of a file in that folder', () => send('PATCH', '/assets/meta/linked/y.png', { alt: 'x' })],
      ['a symlinked asset', () => send('GET', '/assets/serve/escape.png')],
      ['a file in a symlinked asset folder', () => send('GET', '/assets/serve/escape/secret.txt')],
    ];
    const problems: string[] = [];
    for (const [label, attempt] of attempts) {
      const response = await attempt();
      tally.add('inputs');
      tally.status(response.status);
      if (response.status >= 500) problems.push(`${label}: ${response.status} ${response.text.slice(0, 300)}`);
    }
    // Planted while the server runs: the watcher reports it, and it must not be read either.
    await symlink(path.join(outside, 'canary.en.json'), path.join(site.contentRoot, 'pages/web/pages/late.en.json'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const listing of ['/content', '/content?kind=page', '/web/pages', '/redirects']) {
      const response = await send('GET', listing);
      tally.add('inputs');
      tally.status(response.status);
      expect(response.status, `${listing}: ${response.text.slice(0, 300)}`).toBe(200);
    }
    expect(problems).toEqual([]);
    expect(leaks).toEqual([]);
    await outsideUnchanged();
    // The planted links are where they were or replaced by real files, never followed.
    for (const link of [
      'pages/web/escape',
      'site-fragments/web',
      'assets/escape',
      'assets/escape.png',
      'pages/web/pages/evil.en.json',
      'pages/web/pages/late.en.json',
    ]) {
      expect((await lstat(path.join(site.contentRoot, link))).isSymbolicLink(), link).toBe(true);
    }
  });

  it('answers every payload of the corpus on every endpoint that takes a path-like value with a 4xx, and never touches the canary', {
    timeout: 240_000,
  }, async ({ task }) => {
    const tally = new Tally('3 path traversal', task.meta);
    const payloads = traversalPayloads(path.join(outside, 'secret.txt'));
    expect(payloads.length).toBeGreaterThanOrEqual(200);
    type Field = {
      label: string;
      in: 'path' | 'query' | 'body';
      pathname?: true;
      batch?: true;
      sanitized?: true;
      asset?: 'file' | 'folder';
      send: (value: string) => Promise<RawResponse & { requestPath: string }>;
    };
    const P = (label: string, run: Field['send']): Field => ({ label, in: 'path', send: run });
    const Q = (label: string, run: Field['send']): Field => ({ label, in: 'query', send: run });
    const B = (label: string, run: Field['send']): Field => ({ label, in: 'body', send: run });
    const ifMatch = { 'if-match': '"x.y"' };
    const fields: Field[] = [
      P('GET /content/:id', (v) => send('GET', `/content/${v}`)),
      P('GET /content/:id/:locale (id)', (v) => send('GET', `/content/${v}/en`)),
      P('GET /content/:id/:locale (locale)', (v) => send('GET', `/content/a/${v}`)),
      P('PUT /content/:id', (v) => send('PUT', `/content/${v}?locale=en`, { meta: { x: 1 } })),
      P('PATCH /content/:id', (v) => send('PATCH', `/content/${v}?locale=en`, { meta: { x: 1 } })),
      P('DELETE /content/:id', (v) => send('DELETE', `/content/${v}?locale=de`, undefined, ifMatch)),
      P('POST /content/:id/mark-reviewed', (v) => send('POST', `/content/${v}/mark-reviewed?locale=de&etag=x.y`)),
      Q('PUT /content/:id ?locale', (v) => send('PUT', `/content/a?locale=${v}`, { meta: { x: 1 } })),
      Q('DELETE /content/:id ?locale', (v) => send('DELETE', `/content/a?locale=${v}`, undefined, ifMatch)),
      Q('POST /content/:id/break-inheritance ?locale', (v) =>
        send('POST', `/content/a/break-inheritance?locale=${v}&etag=x.y`),
      ),
      Q('POST /content/:id/revert-to-inherited ?locale', (v) =>
        send('POST', `/content/a/revert-to-inherited?locale=${v}&etag=x.y`),
      ),
      Q('GET /content/needs-review ?locale', (v) => send('GET', `/content/needs-review?locale=${v}`)),
      Q('GET /content ?site', (v) => send('GET', `/content?site=${v}`)),
      Q('GET /content ?collection', (v) => send('GET', `/content?collection=${v}`)),
      Q('GET /content ?locales', (v) => send('GET', `/content?locales=${v}`)),
      Q('GET /content ?missingLocales', (v) => send('GET', `/content?missingLocales=${v}`)),
      B('POST /content site', (v) => send('POST', '/content', PAGE('/x', { site: v }))),
      B('POST /content collection', (v) => send('POST', '/content', PAGE('/x', { collection: v }))),
      B('POST /content locale', (v) =>
        send(
          'POST',
          '/content',
          PAGE('/x', { locales: { en: PAGE('/x').locales.en, [v]: { pathname: '/x', content: {} } } }),
        ),
      ),
      B('POST /content name', (v) =>
        send('POST', '/content', {
          kind: 'fragment',
          collection: 'blocks',
          type: 'visual',
          name: v,
          locales: { en: { content: {} } },
        }),
      ),
      { ...B('POST /content pathname', (v) => send('POST', '/content', PAGE(v))), pathname: true },
      {
        ...B('PUT /content/:id pathname', (v) => send('PUT', '/content/a?locale=en', { pathname: v })),
        pathname: true,
      },
      B('PUT /content/:id name', (v) => send('PUT', '/content/frag?locale=en', { name: v })),
      {
        ...B('POST /content/batch id', (v) =>
          send('POST', '/content/batch', { operations: [{ id: v, locale: 'en', data: { meta: { x: 1 } } }] }),
        ),
        batch: true,
      },
      {
        ...B('POST /content/batch locale', (v) =>
          send('POST', '/content/batch', { operations: [{ id: 'a', locale: v, data: { meta: { x: 1 } } }] }),
        ),
        batch: true,
      },
      P('GET /:site/collections', (v) => send('GET', `/${v}/collections`)),
      P('GET /:site/pages', (v) => send('GET', `/${v}/pages`)),
      Q('GET /:site/pages ?locale', (v) => send('GET', `/web/pages?locale=${v}`)),
      {
        ...Q('GET /:site/pathname-available ?pathname', (v) => send('GET', `/web/pathname-available?pathname=${v}`)),
        pathname: true,
      },
      Q('GET /:site/pathname-available ?locale', (v) => send('GET', `/web/pathname-available?pathname=/x&locale=${v}`)),
      Q('GET /:site/pathname-available ?excludeId', (v) =>
        send('GET', `/web/pathname-available?pathname=/x&excludeId=${v}`),
      ),
      P('POST /:site/move', (v) => send('POST', `/${v}/move`, { id: 'a', pathname: '/m', locale: 'en', etag: 'x.y' })),
      B('POST /:site/move id', (v) => send('POST', '/web/move', { id: v, pathname: '/m', locale: 'en', etag: 'x.y' })),
      B('POST /:site/move locale', (v) =>
        send('POST', '/web/move', { id: 'a', pathname: '/m', locale: v, etag: 'x.y' }),
      ),
      {
        ...B('POST /:site/move pathname', (v) =>
          send('POST', '/web/move', { id: 'a', pathname: v, locale: 'en', etag: 'x.y' }),
        ),
        pathname: true,
      },
      Q('GET /redirects ?site', (v) => send('GET', `/redirects?site=${v}`)),
      Q('GET /redirects ?locale', (v) => send('GET', `/redirects?locale=${v}`)),
      P('GET /untranslated/:locale', (v) => send('GET', `/untranslated/${v}`)),
      Q('GET /untranslated/:locale ?excludeSites', (v) => send('GET', `/untranslated/de?excludeSites=${v}`)),
      Q('GET /data ?collection', (v) => send('GET', `/data?collection=${v}`)),
      Q('GET /data ?locale', (v) => send('GET', `/data?locale=${v}`)),
      P('GET /data/:name', (v) => send('GET', `/data/${v}?collection=settings`)),
      Q('GET /data/:name ?collection', (v) => send('GET', `/data/x?collection=${v}`)),
      Q('GET /data/:name ?locale', (v) => send('GET', `/data/x?collection=settings&locale=${v}`)),
      Q('GET /data/name-available ?name', (v) => send('GET', `/data/name-available?collection=settings&name=${v}`)),
      Q('GET /data/name-available ?collection', (v) => send('GET', `/data/name-available?name=x&collection=${v}`)),
      Q('GET /data/name-available ?excludeId', (v) =>
        send('GET', `/data/name-available?name=x&collection=settings&excludeId=${v}`),
      ),
      Q('GET /fragments ?collection', (v) => send('GET', `/fragments?collection=${v}`)),
      Q('GET /fragments ?locale', (v) => send('GET', `/fragments?locale=${v}`)),
      Q('GET /fragments ?site', (v) => send('GET', `/fragments?site=${v}`)),
      P('GET /fragments/:name', (v) => send('GET', `/fragments/${v}`)),
      Q('GET /fragments/:name ?collection', (v) => send('GET', `/fragments/frag?collection=${v}`)),
      Q('GET /fragments/:name ?locale', (v) => send('GET', `/fragments/frag?collection=blocks&locale=${v}`)),
      Q('GET /fragments/:name ?site', (v) => send('GET', `/fragments/frag?collection=blocks&site=${v}`)),
      Q('GET /fragments/name-available ?name', (v) => send('GET', `/fragments/name-available?name=${v}`)),
      Q('GET /fragments/name-available ?collection', (v) =>
        send('GET', `/fragments/name-available?name=x&collection=${v}`),
      ),
      Q('GET /fragments/name-available ?locale', (v) => send('GET', `/fragments/name-available?name=x&locale=${v}`)),
      Q('GET /fragments/name-available ?site', (v) => send('GET', `/fragments/name-available?name=x&site=${v}`)),
      Q('GET /fragments/name-available ?excludeId', (v) =>
        send('GET', `/fragments/name-available?name=x&excludeId=${v}`),
      ),
      P('GET /blocks/:name', (v) => send('GET', `/blocks/${v}`)),
      Q('GET /blocks ?site', (v) => send('GET', `/blocks?site=${v}`)),
      { ...Q('GET /assets/folders ?path', (v) => send('GET', `/assets/folders?path=${v}`)), asset: 'folder' },
      { ...B('POST /assets/folders path', (v) => send('POST', '/assets/folders', { path: v })), asset: 'folder' },
      { ...P('GET /assets/meta/:path', (v) => send('GET', `/assets/meta/${v}`)), asset: 'file' },
      { ...P('PATCH /assets/meta/:path', (v) => send('PATCH', `/assets/meta/${v}`, { alt: 'pwned' })), asset: 'file' },
      { ...P('DELETE /assets/meta/:path', (v) => send('DELETE', `/assets/meta/${v}`)), asset: 'file' },
      { ...P('GET /assets/usage/:path', (v) => send('GET', `/assets/usage/${v}`)), asset: 'file' },
      { ...P('GET /assets/serve/:path', (v) => send('GET', `/assets/serve/${v}`)), asset: 'file' },
      { ...P('HEAD /assets/serve/:path', (v) => send('HEAD', `/assets/serve/${v}`)), asset: 'file' },
      {
        ...B('POST /assets/upload folder', (v) =>
          send(
            'POST',
            '/assets/upload',
            ...uploadArgs([
              { name: 'folder', value: v },
              { name: 'file', filename: 'intruder.png', type: 'image/png', data: png(2, 2) },
            ]),
          ),
        ),
        asset: 'folder',
      },
      {
        ...B('POST /assets/upload filename', (v) =>
          send(
            'POST',
            '/assets/upload',
            ...uploadArgs([
              { name: 'folder', value: 'up' },
              { name: 'file', filename: v, type: 'image/png', data: png(2, 2) },
            ]),
          ),
        ),
        sanitized: true,
      },
      {
        ...B('POST /assets/import-url folder', (v) =>
          send('POST', '/assets/import-url', { url: 'http://127.0.0.1:9/x.png', folder: v }),
        ),
        asset: 'folder',
      },
      {
        ...B('POST /assets/move filenames', (v) =>
          send('POST', '/assets/move', { filenames: [v], sourceFolder: '/', targetFolder: '/moved' }),
        ),
        asset: 'file',
      },
      {
        ...B('POST /assets/move sourceFolder', (v) =>
          send('POST', '/assets/move', { filenames: ['x.png'], sourceFolder: v, targetFolder: '/moved' }),
        ),
        asset: 'folder',
      },
      {
        ...B('POST /assets/move targetFolder', (v) =>
          send('POST', '/assets/move', { filenames: ['x.png'], sourceFolder: '/', targetFolder: v }),
        ),
        asset: 'folder',
      },
    ];

    const failures: string[] = [];
    const tasks: Array<() => Promise<void>> = [];
    for (const field of fields) {
      for (const payload of payloads) {
        const values = field.in === 'body' ? [...new Set([payload.decoded, payload.wire])] : [payload.wire];
        for (const value of values) {
          tasks.push(async () => {
            const response = await field.send(value);
            tally.add('inputs');
            tally.status(response.status);
            const problem = judge(field, payload, value, response);
            if (problem) failures.push(`${field.label} ← ${payload.label} (${JSON.stringify(value)}): ${problem}`);
          });
        }
      }
    }
    await pool(8, tasks);
    if (failures.length > 0) {
      const byField = new Map<string, string[]>();
      for (const failure of failures)
        byField.set(failure.split(' ← ')[0]!, [...(byField.get(failure.split(' ← ')[0]!) ?? []), failure]);
      console.error(
        `[reliability] traversal failures by endpoint:\n${[...byField]
          .map(
            ([field, list]) =>
              `  ${list.length}\t${field}\n${list
                .slice(0, 3)
                .map((failure) => `\t\t${failure.slice(0, 300)}`)
                .join('\n')}`,
          )
          .join('\n')}`,
      );
    }
    expect(failures.slice(0, 40), `${failures.length} of ${tasks.length} answers were wrong`).toEqual([]);
    expect(leaks).toEqual([]);
    await outsideUnchanged();
    // Uploads with a hostile folder or name stored nothing anywhere but where a clean name puts it.
    const stray = (await filesUnder(site.dir)).filter(
      (file) => file.includes('intruder') && !file.startsWith('content/assets/'),
    );
    expect(stray).toEqual([]);
  });
});

/** Whether an answer to a traversal payload is right; a description of what is wrong otherwise. */
function judge(
  field: { in: string; pathname?: true; batch?: true; sanitized?: true; asset?: 'file' | 'folder'; label: string },
  _payload: Payload,
  value: string,
  response: RawResponse & { requestPath: string },
): string | undefined {
  if (response.status >= 500) return `${response.status} ${response.text.slice(0, 200)}`;
  // Dot segments in the URL path itself are resolved (as every client does) before routing: the
  // request then names another URL, whatever it answers; only a 5xx or the canary would be wrong.
  const target = response.requestPath.split('?')[0]!;
  if (field.in === 'path' && new URL(target, 'http://quire.test').pathname !== target) return undefined;
  if (field.sanitized && response.status === 201) return undefined;
  const server = field.in === 'body' ? value : decodeURIComponentSafe(value);
  // A pathname is a URL path, not a file: a harmless one may be accepted (or be taken, or stale).
  if (field.pathname && isAcceptablePathname(server)) return undefined;
  // An asset path that is a plain name inside the assets folder (`/etc/passwd` as a folder is
  // `<assets>/etc/passwd`) is not a traversal: it may be created, or not be found.
  if (field.asset && isPlainAssetPath(server, field.asset === 'folder')) return undefined;
  if (field.batch && response.status === 207) {
    const operations: Array<{ updated: boolean; error?: { code: string } }> = parse(response)?.operations ?? [];
    const refused =
      operations.length > 0 &&
      operations.every(
        (operation) =>
          !operation.updated &&
          ['INVALID_REQUEST', 'MISSING_REQUIRED_FIELD', 'CONTENT_NOT_FOUND'].includes(operation.error?.code ?? ''),
      );
    return refused ? undefined : `207 with an operation not refused: ${response.text.slice(0, 200)}`;
  }
  if (response.status < 400) return `${response.status}, not a 4xx: ${response.text.slice(0, 200)}`;
  if (field.label.startsWith('HEAD')) return undefined;
  // A plain 404 page or "Bad request." comes from Astro itself, for a path that normalizes out of the
  // API (`..` segments) or cannot be decoded: the request never reached the service. The service's
  // own answers are JSON, and must have the envelope.
  const json = String(response.headers['content-type'] ?? '').includes('application/json');
  if (json && !isEnvelope4xx(response))
    return `a ${response.status} without the JSON error envelope: ${response.text.slice(0, 200)}`;
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function uploadArgs(parts: Parameters<typeof multipart>[0]): [Buffer, Record<string, string>] {
  const { body, contentType } = multipart(parts);
  return [body, { 'content-type': contentType }];
}

describe('reliability: malformed input (item 4)', () => {
  it('answers malformed bodies and query strings with a 4xx and the error envelope, stays up, and leaves Object.prototype alone', {
    timeout: 120_000,
  }, async ({ task }) => {
    const tally = new Tally('4 malformed input', task.meta);
    const MARK = `polluted${randomBytes(4).toString('hex')}`;
    type Case = {
      label: string;
      method: string;
      path: string;
      body?: string | Buffer;
      headers?: Record<string, string>;
    };
    const cases: Case[] = [];
    const json = (label: string, method: string, target: string, body: string | Buffer) =>
      cases.push({ label, method, path: target, body, headers: JSON_HEADERS });
    const query = (label: string, method: string, target: string, headers?: Record<string, string>) =>
      cases.push({ label, method, path: target, ...(headers && { headers }) });

    // Bodies that are no JSON object of the right shape, sent to every endpoint that reads JSON.
    const TARGETS: Array<[string, string]> = [
      ['POST', '/content'],
      ['PUT', '/content/a?locale=en'],
      ['PATCH', '/content/a?locale=en'],
      ['POST', '/content/batch'],
      ['POST', '/web/move'],
      ['POST', '/assets/folders'],
      ['PATCH', '/assets/meta/none.png'],
      ['POST', '/assets/move'],
      ['POST', '/assets/import-url'],
      ['POST', '/git/commit'],
      ['POST', '/git/pull'],
    ];
    const RAW: Array<[string, string | Buffer]> = [
      ['truncated object', '{'],
      ['missing value', '{"a":}'],
      ['truncated array', '[1,2'],
      ['single quotes', "{'a':1}"],
      ['trailing comma', '{"a":1,}'],
      ['NaN', 'NaN'],
      ['undefined', 'undefined'],
      ['two objects', '{"a":1}{"b":2}'],
      ['NUL', '\u0000'],
      ['bad escape', '{"a":"\\x"}'],
      // (A byte-order mark before JSON is allowed by RFC 8259 and accepted: not in this list.)
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['an array of objects', '[{}]'],
      ['a number', '42'],
      ['a string', '"text"'],
      ['true', 'true'],
      ['an array', '[]'],
      ['nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
      ['objects nested 5,000 deep', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`],
      ['__proto__ at the top', `{"__proto__":{"${MARK}":true}}`],
      ['constructor.prototype at the top', `{"constructor":{"prototype":{"${MARK}":true}}}`],
    ];
    for (const [method, target] of TARGETS)
      for (const [label, body] of RAW) json(`${label} → ${method} ${target}`, method, target, body);
    const oversized = Buffer.alloc(10 * 1024 * 1024 + 100, 0x20);
    json('a body over limits.jsonBodyBytes → POST /content', 'POST', '/content', oversized);
    json('a body over limits.jsonBodyBytes → POST /content/batch', 'POST', '/content/batch', oversized);

    // Wrong types, unknown enum values, invalid dates, huge strings and arrays, pollution keys in place.
    const page = (locale: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        kind: 'page',
        site: 'web',
        collection: 'pages',
        type: 'visual',
        locales: { en: { pathname: '/m', content: { visualData: {} }, ...locale } },
        ...extra,
      });
    const INVALID_DATES: unknown[] = [
      '2026-02-30T00:00:00Z',
      '2026-02-29T10:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-01-01T10:00:00+25:00',
      '2026-01-01',
      'yesterday',
      '2026-01-01T10:00:00',
      1767225600000,
      true,
      '0000-00-00T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '2026-W05-1T00:00:00Z',
      ' 2026-01-01T00:00:00Z',
    ];
    for (const date of INVALID_DATES) {
      json(`create with publishAt ${JSON.stringify(date)}`, 'POST', '/content', page({ publishAt: date }));
      json(
        `PUT with unpublishAt ${JSON.stringify(date)}`,
        'PUT',
        '/content/a?locale=en',
        JSON.stringify({ unpublishAt: date }),
      );
    }
    const CREATES: Array<[string, string]> = [
      ['unknown kind', page({}, { kind: 'pagee' })],
      ['kind as a number', page({}, { kind: 1 })],
      ['unknown type', page({}, { type: 'html' })],
      ['locales as an array', page({}, { locales: [] })],
      ['locales as a string', page({}, { locales: 'en' })],
      ['no locales', page({}, { locales: {} })],
      ['a locale as a string', page({}, { locales: { en: 'x' } })],
      ['content as a string', page({ content: 'x' })],
      ['mdx as a number', page({ content: { mdx: 5 } })],
      ['an unknown content key', page({ content: { html: '<p>' } })],
      ['meta as a string', page({ meta: 'x' })],
      ['tags as a string', page({ meta: { tags: 'a' } })],
      ['title as a number', page({ meta: { title: 5 } })],
      ['pathname as a number', page({ pathname: 5 })],
      ['a 10,000-character pathname', page({ pathname: `/${'x'.repeat(10_000)}` })],
      ['a pathname with a newline', page({ pathname: '/a\r\nSet-Cookie: x=y' })],
      ['a pathname with a backslash', page({ pathname: '/\\evil.test' })],
      ['site as a number', page({}, { site: 5 })],
      ['collection with spaces', page({}, { collection: 'A B' })],
      [
        'a 1,000-character name',
        JSON.stringify({
          kind: 'fragment',
          collection: 'b',
          type: 'visual',
          name: 'x'.repeat(1000),
          locales: { en: { content: {} } },
        }),
      ],
      ['meta over 64 KiB', page({ meta: { title: 'x'.repeat(70_000) } })],
      ['meta with 20,000 tags', page({ meta: { tags: Array.from({ length: 20_000 }, (_, i) => `tag-${i}`) } })],
      ['inherit as a string', page({ inherit: 'yes' })],
      ['an upper-case locale', page({}, { locales: { EN: { pathname: '/m', content: {} } } })],
      [
        'a data entry with a site',
        JSON.stringify({ kind: 'data', site: 'web', collection: 'c', type: 'json', locales: { en: { content: {} } } }),
      ],
      ['a site named constructor', page({}, { site: 'constructor' })],
      ['a site named hasownproperty', page({}, { site: 'hasownproperty' })],
      [
        '__proto__ in meta',
        `{"kind":"page","site":"web","collection":"pages","type":"visual",` +
          `"locales":{"en":{"pathname":"/p","meta":{"__proto__":{"${MARK}":true}},"content":{"visualData":{}}}}}`,
      ],
      [
        '__proto__ as a locale',
        `{"kind":"page","site":"web","collection":"pages","type":"visual","locales":{"en":{"pathname":"/p","content":{}},"__proto__":{"${MARK}":true}}}`,
      ],
      [
        'visual data nested 100,000 deep',
        `{"kind":"page","site":"web","collection":"pages","type":"visual",` +
          `"locales":{"en":{"pathname":"/deep","content":{"visualData":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}}`,
      ],
      [
        'data nested 20,000 deep',
        `{"kind":"data","collection":"deep","type":"json","locales":{"en":{"content":{"data":{"x":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}}}}}`,
      ],
      [
        'constructor.prototype in content',
        `{"kind":"page","site":"web","collection":"pages","type":"visual",` +
          `"locales":{"en":{"pathname":"/p","content":{"visualData":{"constructor":{"prototype":{"${MARK}":true}}}}}}}`,
      ],
    ];
    for (const [label, body] of CREATES) json(`create: ${label}`, 'POST', '/content', body);
    const UPDATES: Array<[string, unknown]> = [
      ['meta as a string', { meta: 'x' }],
      ['meta as an array', { meta: [] }],
      ['content as an array', { content: [] }],
      ['an unknown content key', { content: { visualData: 1, extra: 2 } }],
      ['inherit as a string', { inherit: 'true' }],
      ['a double slash pathname', { pathname: '/a//b' }],
      ['a name on a page', { name: 'x' }],
      ['tags of numbers', { meta: { tags: [1, 2] } }],
      ['publishAt as a boolean true', { publishAt: true }],
      ['inherit on the default locale', { inherit: true }],
    ];
    for (const [label, body] of UPDATES) json(`PUT: ${label}`, 'PUT', '/content/a?locale=en', JSON.stringify(body));
    json('PUT: __proto__ in meta', 'PUT', '/content/a?locale=en', `{"meta":{"__proto__":{"${MARK}":true}}}`);
    json(
      'PUT: visual data nested 100,000 deep',
      'PUT',
      '/content/a?locale=en',
      `{"content":{"visualData":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
    );
    json(
      'PUT: meta nested 10,000 deep',
      'PUT',
      '/content/a?locale=en',
      `{"meta":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
    );
    json(
      'PATCH: constructor.prototype in meta',
      'PATCH',
      '/content/a?locale=en',
      `{"meta":{"constructor":{"prototype":{"${MARK}":true}}}}`,
    );
    const OTHERS: Array<[string, string, string, unknown]> = [
      ['batch: operations as an object', 'POST', '/content/batch', { operations: {} }],
      ['batch: operations as a string', 'POST', '/content/batch', { operations: 'x' }],
      [
        'batch: 1,001 operations',
        'POST',
        '/content/batch',
        { operations: Array.from({ length: 1001 }, () => ({ id: 'a', locale: 'en', data: {} })) },
      ],
      ['batch: no operations', 'POST', '/content/batch', {}],
      ['move: id as a number', 'POST', '/web/move', { id: 5, pathname: '/x', locale: 'en', etag: 'e' }],
      ['move: relative pathname', 'POST', '/web/move', { id: 'a', pathname: 'x', locale: 'en', etag: 'e' }],
      ['move: upper-case locale', 'POST', '/web/move', { id: 'a', pathname: '/x', locale: 'EN', etag: 'e' }],
      ['move: empty etag', 'POST', '/web/move', { id: 'a', pathname: '/x', locale: 'en', etag: '' }],
      [
        'move: a site named constructor',
        'POST',
        '/constructor/move',
        { id: 'a', pathname: '/x', locale: 'en', etag: 'e' },
      ],
      ['folders: path as a number', 'POST', '/assets/folders', { path: 5 }],
      ['folders: empty path', 'POST', '/assets/folders', { path: '' }],
      ['folders: path as an array', 'POST', '/assets/folders', { path: ['a'] }],
      ['meta: alt as a number', 'PATCH', '/assets/meta/none.png', { alt: 5 }],
      ['meta: tags as a string', 'PATCH', '/assets/meta/none.png', { tags: 'a' }],
      ['meta: 101 tags', 'PATCH', '/assets/meta/none.png', { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }],
      ['meta: 3,000-character alt', 'PATCH', '/assets/meta/none.png', { alt: 'x'.repeat(3000) }],
      ['meta: unknown key', 'PATCH', '/assets/meta/none.png', { caption: 'x' }],
      [
        'move: filenames as a string',
        'POST',
        '/assets/move',
        { filenames: 'a', sourceFolder: '/', targetFolder: '/b' },
      ],
      ['move: no filenames', 'POST', '/assets/move', { filenames: [], sourceFolder: '/', targetFolder: '/b' }],
      [
        'move: 1,001 filenames',
        'POST',
        '/assets/move',
        { filenames: Array.from({ length: 1001 }, (_, i) => `f${i}.png`), sourceFolder: '/', targetFolder: '/b' },
      ],
      ['import: url as a number', 'POST', '/assets/import-url', { url: 5 }],
      ['import: empty url', 'POST', '/assets/import-url', { url: '' }],
      ['import: javascript: url', 'POST', '/assets/import-url', { url: 'javascript:alert(1)' }],
      ['import: tags as a string', 'POST', '/assets/import-url', { url: 'https://example.test/a.png', tags: 'a' }],
      ['commit: message as a number', 'POST', '/git/commit', { message: 5 }],
      ['commit: a 20,000-character message', 'POST', '/git/commit', { message: 'x'.repeat(20_000) }],
    ];
    for (const [label, method, target, body] of OTHERS) json(label, method, target, JSON.stringify(body));

    const QUERIES: Array<[string, string, string, Record<string, string>?]> = [
      ['unknown kind', 'GET', '/content?kind=pagee'],
      ['unknown type', 'GET', '/content?type=html'],
      ['published=maybe', 'GET', '/content?published=maybe'],
      ['published=TRUE', 'GET', '/content?published=TRUE'],
      ['unknown localization', 'GET', '/content?localization=all'],
      ['a bad locale list', 'GET', '/content?locales=EN_us,de'],
      ['a bad missingLocales', 'GET', '/content?missingLocales=english'],
      ['a site with spaces', 'GET', '/content?site=a%20b'],
      ['needs-review without locale', 'GET', '/content/needs-review'],
      ['needs-review with a bad locale', 'GET', '/content/needs-review?locale=english'],
      ['needs-review with an unknown kind', 'GET', '/content/needs-review?locale=en&kind=x'],
      ['pages of a bad locale', 'GET', '/web/pages?locale=xx_YY'],
      ['pathname-available without pathname', 'GET', '/web/pathname-available'],
      ['pathname-available relative', 'GET', '/web/pathname-available?pathname=relative'],
      ['redirects of a bad locale', 'GET', '/redirects?locale=EN'],
      ['untranslated into a bad locale', 'GET', '/untranslated/english'],
      ['untranslated with a bad excludeSites', 'GET', '/untranslated/de?excludeSites=A%20B'],
      ['untranslated with includeUnpublished=yes', 'GET', '/untranslated/de?includeUnpublished=yes'],
      ['data name-available with an upper-case name', 'GET', '/data/name-available?name=UPPER&collection=c'],
      ['data name-available without collection', 'GET', '/data/name-available?name=x'],
      ['data by name without collection', 'GET', '/data/x'],
      ['fragments name-available with a space', 'GET', '/fragments/name-available?name=a%20b'],
      ['assets folder with NUL', 'GET', '/assets/folders?path=%00'],
      ['PUT with an empty locale', 'PUT', '/content/a?locale='],
      ['PUT without locale', 'PUT', '/content/a'],
      ['DELETE without If-Match', 'DELETE', '/content/a'],
      ['mark-reviewed without etag', 'POST', '/content/a/mark-reviewed?locale=de'],
      ['a stale If-Match', 'DELETE', '/content/a', { 'if-match': '"stale.etag"' }],
      ['site named constructor', 'GET', '/constructor/pages'],
      ['site named __proto__', 'GET', '/__proto__/pages'],
      ['site named toString', 'GET', '/toString/collections'],
      ['site named hasOwnProperty', 'GET', '/hasOwnProperty/pathname-available?pathname=/x'],
      ['fragments of site constructor', 'GET', '/fragments?site=constructor'],
      ['a fragment for site valueOf', 'GET', '/fragments/x?site=valueOf'],
      ['untranslated excluding __proto__', 'GET', '/untranslated/__proto__'],
      ['an unknown route', 'GET', '/nowhere/at/all/x'],
      ['a wrong method', 'DELETE', '/sites'],
    ];
    for (const [label, method, target, headers] of QUERIES) query(`query: ${label}`, method, target, headers);

    const failures: string[] = [];
    await pool(
      4,
      cases.map((entry) => async () => {
        const response = await send(entry.method, entry.path, entry.body, entry.headers ?? {});
        tally.add('inputs');
        tally.status(response.status);
        if (!isEnvelope4xx(response))
          failures.push(`${entry.label}: ${response.status} ${response.text.slice(0, 240)}`);
        if (response.text.includes(MARK) && response.status < 400)
          failures.push(`${entry.label}: accepted a pollution key: ${response.text.slice(0, 200)}`);
      }),
    );

    // Query keys the API does not know are ignored, as usual; these only must not break or pollute anything.
    for (const target of [
      `/content?__proto__[${MARK}]=1`,
      `/content?constructor[prototype][${MARK}]=1`,
      `/sites?__proto__.${MARK}=1`,
      `/content?__proto__=${MARK}`,
    ]) {
      const response = await send('GET', target);
      tally.add('inputs');
      tally.status(response.status);
      if (response.status >= 500) failures.push(`GET ${target}: ${response.status}`);
    }
    expect(failures, `${failures.length} of ${cases.length} answers were wrong`).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(100);

    // Still up, and no object anywhere in the server grew the key: a fresh item, the sites and lists do not show it.
    expect((await send('GET', '/auth/user')).status).toBe(200);
    const fresh = await send('POST', '/content', {
      kind: 'data',
      collection: 'after',
      type: 'json',
      name: 'after-pollution',
      locales: { en: { content: { data: {} } } },
    });
    expect(fresh.status, fresh.text).toBe(201);
    for (const target of [
      `/content/${parse(fresh).id}`,
      '/content',
      '/sites',
      '/data?collection=after',
      '/assets',
      '/content/a/en',
    ]) {
      const response = await send('GET', target);
      expect(response.status, `${target}: ${response.text.slice(0, 200)}`).toBe(200);
      expect(response.text, target).not.toContain(MARK);
    }
    for (const file of await filesUnder(site.contentRoot)) {
      if (!(await lstat(path.join(site.contentRoot, file))).isFile()) continue;
      expect(await readFile(path.join(site.contentRoot, file), 'utf8'), file).not.toContain(MARK);
    }
  });
});

/** A TCP listener that only counts the connections it gets (none may ever arrive). */
async function connectionCounter(
  host: string,
  port = 0,
): Promise<{ port: number; count: () => number; close: () => Promise<void> } | undefined> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.destroy();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
  } catch {
    return undefined;
  }
  return {
    port: (server.address() as AddressInfo).port,
    count: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('reliability: SSRF (item 6)', () => {
  it('refuses import-url to loopback, private, link-local and odd spellings of them, and never connects', async ({
    task,
  }) => {
    const tally = new Tally('6 SSRF', task.meta);
    const v4 = (await connectionCounter('127.0.0.1'))!;
    const v6 = await connectionCounter('::1', v4.port);
    const p = v4.port;
    try {
      const targets = [
        `http://127.0.0.1:${p}/cat.png`,
        `http://localhost:${p}/cat.png`,
        `http://LOCALHOST:${p}/cat.png`,
        `http://localhost.:${p}/cat.png`,
        `http://[::1]:${p}/cat.png`,
        `http://[::ffff:127.0.0.1]:${p}/cat.png`,
        `http://[0:0:0:0:0:ffff:7f00:1]:${p}/cat.png`,
        `http://[::]:${p}/cat.png`,
        `http://0.0.0.0:${p}/cat.png`,
        `http://0:${p}/cat.png`,
        `http://2130706433:${p}/cat.png`,
        `http://0177.0.0.1:${p}/cat.png`,
        `http://0x7f.0.0.1:${p}/cat.png`,
        `http://0x7f000001:${p}/cat.png`,
        `http://127.1:${p}/cat.png`,
        `http://127.000.000.001:${p}/cat.png`,
        `https://127.0.0.1:${p}/cat.png`,
        `http://user:pass@127.0.0.1:${p}/cat.png`,
        `http://example.test@127.0.0.1:${p}/cat.png`,
        'http://10.0.0.1/cat.png',
        `http://10.255.255.254:${p}/cat.png`,
        'http://172.16.0.1/cat.png',
        'http://192.168.1.1/cat.png',
        'http://169.254.169.254/latest/meta-data/',
        'http://[fe80::1]/cat.png',
        'http://[fd00::1]/cat.png',
        'http://100.64.0.1/cat.png',
        'http://224.0.0.1/cat.png',
        'http://255.255.255.255/cat.png',
        'http://[::ffff:10.0.0.1]/cat.png',
        'http://[64:ff9b::127.0.0.1]/cat.png',
        `ftp://127.0.0.1:${p}/cat.png`,
        'file:///etc/passwd',
        'gopher://127.0.0.1:6379/_INFO',
        'data:image/png;base64,iVBORw0KGgo=',
      ];
      const failures: string[] = [];
      for (const url of targets) {
        const response = await send('POST', '/assets/import-url', { url });
        tally.add('inputs');
        tally.status(response.status);
        const body = parse(response);
        if (response.status !== 400 || body?.error?.code !== 'ASSET_UPLOAD_FAILED')
          failures.push(`${url}: ${response.status} ${response.text.slice(0, 200)}`);
      }
      expect(failures).toEqual([]);
      expect(v4.count(), 'connections to the IPv4 loopback listener').toBe(0);
      expect(v6?.count() ?? 0, 'connections to the IPv6 loopback listener').toBe(0);
      expect((await filesUnder(path.join(assetsDir, '.quire-tmp'))).filter(isTempFile)).toEqual([]);
    } finally {
      await v4.close();
      await v6?.close();
    }
  });

  it('refuses a redirect from an allowed URL to a private one before connecting (the packed downloader, with 127.0.0.1 allowed)', async ({
    task,
  }) => {
    // No public address is reachable here, so the real server cannot be handed an allowed first hop.
    // The packed package's own downloader is driven instead, with a policy that treats 127.0.0.1 as
    // public and everything else as the product does: each redirect target must then be refused
    // before a connection, which listeners on 127.0.0.2 and ::1 count.
    const tally = new Tally('6 SSRF', task.meta);
    const packageDir = path.join(inject('quireRunDir'), 'package', 'dist', 'src', 'assets');
    const { downloadToFile } = (await import(
      pathToFileURL(path.join(packageDir, 'download.js')).href
    )) as typeof import('../../src/assets/download.js');
    const { isPublicAddress } = (await import(
      pathToFileURL(path.join(packageDir, 'address-policy.js')).href
    )) as typeof import('../../src/assets/address-policy.js');
    const private4 = await connectionCounter('127.0.0.2');
    const private6 = await connectionCounter('::1');
    let hops = 0;
    const origin = http.createServer((req, res) => {
      hops++;
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/';
      res.writeHead(302, { location: to }).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const originPort = (origin.address() as AddressInfo).port;
    try {
      expect(private4, 'a listener on 127.0.0.2').toBeDefined();
      const q = private4!.port;
      const targets = [
        `http://127.0.0.2:${q}/x.png`,
        `http://0177.0.0.2:${q}/x.png`,
        `http://0x7f000002:${q}/x.png`,
        `http://[::ffff:127.0.0.2]:${q}/x.png`,
        'http://10.0.0.1/x.png',
        'http://169.254.169.254/latest/meta-data/',
        'http://192.168.0.1/x.png',
        'http://[fd00::1]/x.png',
        'file:///etc/passwd',
        ...(private6 ? [`http://[::1]:${private6.port}/x.png`] : []),
      ];
      const failures: string[] = [];
      for (const target of targets) {
        const before = hops;
        const url = `http://127.0.0.1:${originPort}/r?to=${encodeURIComponent(target)}`;
        const outcome = await downloadToFile(url, path.join(site.dir, `download-${randomBytes(4).toString('hex')}`), {
          maxBytes: 1024,
          timeoutMs: 5000,
          maxRedirects: 5,
          isAllowed: (address) => address === '127.0.0.1' || isPublicAddress(address),
        }).then(
          () => 'downloaded',
          (error: { code?: string; details?: { reason?: string } }) => `${error.code}: ${error.details?.reason}`,
        );
        tally.add('inputs');
        if (!outcome.startsWith('ASSET_UPLOAD_FAILED') || hops !== before + 1)
          failures.push(`${target}: ${outcome} (hops to the allowed origin: ${hops - before})`);
      }
      expect(failures).toEqual([]);
      expect(private4!.count(), 'connections to 127.0.0.2').toBe(0);
      expect(private6?.count() ?? 0, 'connections to ::1').toBe(0);
    } finally {
      await private4?.close();
      await private6?.close();
      await new Promise<void>((resolve) => origin.close(() => resolve()));
    }
  });
});

describe('reliability: uploads (item 8)', () => {
  const assetFiles = async () =>
    (await filesUnder(assetsDir)).filter(
      (file) => !file.startsWith('.quire-tmp') && !file.endsWith('.quire-assets.json'),
    );
  const upload = (body: Buffer, contentType: string) =>
    send('POST', '/assets/upload', body, { 'content-type': contentType });

  it('answers abusive uploads with the right 4xx and leaves no partial file', { timeout: 60_000 }, async ({ task }) => {
    const tally = new Tally('8 uploads', task.meta);
    const before = await assetFiles();
    const form = (parts: Parameters<typeof multipart>[0]) => multipart(parts);
    const good = () => ({ name: 'file', filename: 'ok.png', type: 'image/png', data: png(3, 3) });
    const cases: Array<[label: string, status: number, code: string, run: () => Promise<RawResponse>]> = [];
    const add = (label: string, status: number, code: string, run: () => Promise<RawResponse>) =>
      cases.push([label, status, code, run]);

    const over = form([
      { name: 'file', filename: 'big.png', type: 'image/png', data: png(10, 10, { padding: MAX_BYTES + 1 }) },
    ]);
    add('a file one byte over assets.maxBytes', 413, 'ASSET_TOO_LARGE', () => upload(over.body, over.contentType));
    const huge = form([
      { name: 'file', filename: 'huge.png', type: 'image/png', data: png(10, 10, { padding: 5 * 1024 * 1024 }) },
    ]);
    add('a 5 MiB file', 413, 'ASSET_TOO_LARGE', () => upload(huge.body, huge.contentType));

    const whole = form([{ name: 'alt', value: 'cut' }, good()]);
    const closing = Buffer.from(`--${whole.boundary}--\r\n`);
    add('no closing boundary', 400, 'INVALID_REQUEST', () =>
      upload(whole.body.subarray(0, whole.body.length - closing.length), whole.contentType),
    );
    add('cut in the middle of the file', 400, 'INVALID_REQUEST', () =>
      upload(whole.body.subarray(0, whole.body.length - closing.length - 40), whole.contentType),
    );
    add('cut in the middle of part headers', 400, 'INVALID_REQUEST', () =>
      upload(whole.body.subarray(0, whole.body.indexOf('filename=') + 4), whole.contentType),
    );
    add('a boundary the body does not use', 400, 'INVALID_REQUEST', () =>
      upload(whole.body, 'multipart/form-data; boundary=something-else'),
    );

    const fields = form([...Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}`, value: 'x' })), good()]);
    add('a thousand tiny fields before the file', 400, 'INVALID_REQUEST', () =>
      upload(fields.body, fields.contentType),
    );
    const files = form(
      Array.from({ length: 1000 }, (_, i) => ({
        name: 'file',
        filename: `p${i}.png`,
        type: 'image/png',
        data: png(1, 1),
      })),
    );
    add('a thousand tiny files', 400, 'INVALID_REQUEST', () => upload(files.body, files.contentType));
    const empties = form(Array.from({ length: 1000 }, (_, i) => ({ name: `e${i}` })));
    add('a thousand empty parts and no file', 400, 'INVALID_REQUEST', () => upload(empties.body, empties.contentType));

    const plain = form([good()]);
    add('declared application/json', 400, 'INVALID_REQUEST', () => upload(plain.body, 'application/json'));
    add('declared multipart/form-data without a boundary', 400, 'INVALID_REQUEST', () =>
      upload(plain.body, 'multipart/form-data'),
    );
    add('declared multipart/mixed', 400, 'INVALID_REQUEST', () =>
      upload(plain.body, `multipart/mixed; boundary=${plain.boundary}`),
    );
    add('declared text/plain', 400, 'INVALID_REQUEST', () => upload(plain.body, 'text/plain'));
    const elf = form([{ name: 'file', filename: 'tool.png', type: 'image/png', data: ELF }]);
    add('an executable declared image/png', 415, 'ASSET_INVALID_FORMAT', () => upload(elf.body, elf.contentType));
    const text = form([
      { name: 'file', filename: 'notes.jpg', type: 'image/jpeg', data: Buffer.from('just some text, not a picture\n') },
    ]);
    add('text declared image/jpeg', 415, 'ASSET_INVALID_FORMAT', () => upload(text.body, text.contentType));
    const html = form([
      {
        name: 'file',
        filename: 'page.svg',
        type: 'image/svg+xml',
        data: Buffer.from('<html><script>alert(1)</script></html>'),
      },
    ]);
    add('HTML declared image/svg+xml', 415, 'ASSET_INVALID_FORMAT', () => upload(html.body, html.contentType));
    const none = form([{ name: 'alt', value: 'no file' }]);
    add('no file part', 400, 'INVALID_REQUEST', () => upload(none.body, none.contentType));

    const failures: string[] = [];
    for (const [label, status, code, run] of cases) {
      const response = await run();
      tally.add('inputs');
      tally.status(response.status);
      if (response.status !== status || parse(response)?.error?.code !== code)
        failures.push(`${label}: expected ${status} ${code}, got ${response.status} ${response.text.slice(0, 200)}`);
      const parts = (await filesUnder(path.join(assetsDir, '.quire-tmp'))).filter(isTempFile);
      if (parts.length > 0) failures.push(`${label}: left ${parts.join(', ')}`);
    }

    // A client that goes away in the middle of its upload.
    for (let attempt = 0; attempt < 5; attempt++) {
      const big = form([
        { name: 'file', filename: 'gone.png', type: 'image/png', data: png(10, 10, { padding: 40_000 }) },
      ]);
      const url = new URL(server.url);
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(url.port), url.hostname, () => {
          socket.write(
            `POST /__cms/api/assets/upload HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${url.origin}\r\n` +
              `Content-Type: ${big.contentType}\r\nContent-Length: ${big.body.length}\r\n\r\n`,
          );
          socket.write(big.body.subarray(0, 20_000), () =>
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 50),
          );
        });
        socket.on('error', () => resolve());
      });
      tally.add('inputs');
    }
    // The server notices the aborted bodies asynchronously: wait (bounded) for it to clean up.
    for (let wait = 0; wait < 50; wait++) {
      if ((await filesUnder(path.join(assetsDir, '.quire-tmp'))).filter(isTempFile).length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(
      (await filesUnder(path.join(assetsDir, '.quire-tmp'))).filter(isTempFile),
      'parts left by aborted uploads',
    ).toEqual([]);
    expect(failures).toEqual([]);
    expect(await assetFiles(), 'no file was stored by a refused upload').toEqual(before);

    // The declared type never decides: PNG bytes sent as SVG are stored as the PNG they are.
    const truth = form([{ name: 'file', filename: 'really.svg', type: 'image/svg+xml', data: png(4, 4) }]);
    const stored = await upload(truth.body, truth.contentType);
    tally.add('inputs');
    tally.status(stored.status);
    expect(stored.status, stored.text).toBe(201);
    expect(parse(stored)).toMatchObject({ mimeType: 'image/png', width: 4, height: 4 });
    expect((await send('GET', '/auth/user')).status).toBe(200);
  });
});
