import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './support/images.js';
import { REPO_ROOT } from './support/paths.js';
import { childEnv, runProcess } from './support/process.js';
import { createSite, type RunningSite, type TestSite } from './support/site.js';

const PREFIX = '/__cms/api';
const SITES = { sites: { web: { locales: ['en', 'de'], defaultLocale: 'en' } }, globalLocales: ['en'] };

const bin = (relative: string) => path.join(REPO_ROOT, 'node_modules', relative);

/** Runs a Node CLI of the repository's devDependencies with the Node that runs the tests. */
async function runTool(cli: string, args: string[], cwd: string) {
  const env = childEnv({ REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });
  return runProcess(process.execPath, [cli, ...args], { cwd, env, timeoutMs: 180_000 });
}

/**
 * A program as a user of the document writes it: openapi-typescript's types, openapi-fetch's
 * client, TypeScript's defaults plus `strict`. It creates a page, patches its meta with a key the
 * document does not name, and reads it back.
 */
const program = (baseUrl: string, origin: string) => `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: ${JSON.stringify(baseUrl)}, headers: { origin: ${JSON.stringify(origin)} } });

async function main(): Promise<void> {
  const created = await client.POST('/content', {
    body: {
      kind: 'page', site: 'web', collection: 'pages', type: 'visual',
      locales: { en: { pathname: '/tools', meta: { title: 'Draft' }, content: { visualData: { blocks: [] } } } },
    },
  });
  if (!created.data) throw new Error('create: ' + JSON.stringify(created.error));
  const id = created.data.id;
  const patched = await client.PATCH('/content/{id}', {
    params: { path: { id }, query: { locale: 'en' }, header: { 'If-Match': created.data.etag } },
    body: { meta: { title: 'Tools', 'x-custom': 'kept' }, content: { data: { any: ['shape'] } } },
  });
  if (!patched.data) throw new Error('patch: ' + JSON.stringify(patched.error));
  const read = await client.GET('/content/{id}/{locale}', { params: { path: { id, locale: 'en' } } });
  if (!read.data) throw new Error('read: ' + JSON.stringify(read.error));
  const meta: Record<string, unknown> = read.data.localized.meta;
  const missing = await client.GET('/content/{id}', { params: { path: { id: 'no-such-page' } } });
  console.log(JSON.stringify({
    id, title: read.data.localized.meta.title, custom: meta['x-custom'], etag: patched.data.etag,
    missing: missing.error?.error.code,
  }));
}

main().catch((error: unknown) => {
  console.error(error);
  throw error;
});
`;

describe('the OpenAPI document as other tools read it (dev)', () => {
  let site: TestSite;
  let server: RunningSite;
  let work: string;

  beforeAll(async () => {
    site = await createSite({
      name: 'openapi-tools',
      config: '{ requireIdentity: false }',
      content: { 'sites.json': JSON.stringify(SITES) },
    });
    server = await site.startDev();
    work = path.join(site.dir, 'tools');
    await mkdir(work, { recursive: true });
    const document = await fetch(`${server.url}${PREFIX}/openapi.json`);
    expect(document.status).toBe(200);
    await writeFile(path.join(work, 'openapi.json'), await document.text());
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('passes redocly lint with the recommended rules, without errors', async () => {
    const result = await runTool(bin('@redocly/cli/bin/cli.js'), ['lint', 'openapi.json', '--format=json'], work);
    // The JSON report (pretty, so it ends with a `}` at the start of a line), then redocly's words on stderr.
    const start = result.output.indexOf('{');
    const report = JSON.parse(result.output.slice(start, result.output.indexOf('\n}', start) + 2)) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; severity: string; message: string }>;
    };
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(result.code).toBe(0);
  });

  it('gives openapi-typescript types that a strict program compiles with, and that program works', async () => {
    const generated = await runTool(bin('openapi-typescript/bin/cli.js'), ['openapi.json', '-o', 'api.d.ts'], work);
    expect(generated.code, generated.output).toBe(0);
    await writeFile(path.join(work, 'main.ts'), program(`${server.url}${PREFIX}`, server.url));
    await writeFile(path.join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    // TypeScript's defaults, plus strict: what a new project would start with.
    await writeFile(
      path.join(work, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true }, files: ['main.ts'] }),
    );
    const compiled = await runTool(bin('typescript/bin/tsc'), ['-p', '.'], work);
    expect(compiled.output.trim()).toBe('');
    expect(compiled.code).toBe(0);

    const ran = await runProcess(process.execPath, ['main.js'], { cwd: work, env: childEnv(), timeoutMs: 60_000 });
    expect(ran.code, ran.output).toBe(0);
    const answer = JSON.parse(ran.output.trim().split('\n').at(-1)!);
    expect(answer).toMatchObject({
      id: expect.any(String),
      title: 'Tools',
      custom: 'kept',
      missing: 'CONTENT_NOT_FOUND',
    });
    const stored = await (await fetch(`${server.url}${PREFIX}/content/${answer.id}/en`)).json();
    expect(stored.localized.content).toEqual({ data: { any: ['shape'] } });
    expect(stored.localized.etag).toBe(answer.etag);
  });

  it("answers a JSON endpoint sent another content type with 415 (same origin) or Astro's 403 (another origin)", async () => {
    const body = JSON.stringify({ message: 'x' });
    const sameOrigin = await fetch(`${server.url}${PREFIX}/git/commit`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: server.url },
      body,
    });
    expect(sameOrigin.status).toBe(415);
    expect((await sameOrigin.json()).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const crossSite = await fetch(`${server.url}${PREFIX}/content`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://elsewhere.example' },
      body,
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('content-type') ?? '').not.toMatch(/json/);
    const json = await fetch(`${server.url}${PREFIX}/content/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/merge-patch+json', origin: server.url },
      body: JSON.stringify({ operations: [] }),
    });
    expect(json.status).toBe(200);
  });

  it('takes an asset path encoded as one segment, as documented, and with its slashes', async () => {
    const form = new FormData();
    form.append('folder', 'team');
    form.append('file', new Blob([new Uint8Array(png(2, 2))], { type: 'image/png' }), 'office.png');
    const upload = await fetch(`${server.url}${PREFIX}/assets/upload`, {
      method: 'POST',
      headers: { origin: server.url },
      body: form,
    });
    expect(upload.status).toBe(201);
    for (const form of ['team%2Foffice.png', 'team/office.png']) {
      const meta = await fetch(`${server.url}${PREFIX}/assets/meta/${form}`);
      expect(meta.status, form).toBe(200);
      expect((await meta.json()).path).toBe('team/office.png');
      const head = await fetch(`${server.url}${PREFIX}/assets/serve/${form}`, { method: 'HEAD' });
      expect(head.status, form).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/png');
    }
  });
});
