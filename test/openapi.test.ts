import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../src/errors.js';
import { type AppDependencies, createApp } from '../src/http/app.js';
import { toOpenApiPath } from '../src/http/openapi.js';
import { createSite, type RunningSite } from './support/site.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** An OpenAPI document, walked by the test. */
type Doc = any;

/** `METHOD /path` of every route the app's router serves, in OpenAPI form (middleware `ALL` entries left out). */
function routerOperations(prefix: string): string[] {
  const inert = {} as never;
  const deps: AppDependencies = {
    prefix,
    store: inert,
    reviewer: inert,
    sites: inert,
    git: inert,
    assets: inert,
    events: inert,
    verifyIdentity: async () => ({ identity: null, reason: 'none' }),
    requireIdentity: false,
    allowedOrigins: [],
    loopbackWritesOnly: true,
    limits: { jsonBodyBytes: 1024 },
  };
  return createApp(deps)
    .routes.filter((route) => route.method !== 'ALL')
    .map((route) => {
      expect(route.path.startsWith(prefix), route.path).toBe(true);
      return `${route.method} ${toOpenApiPath(route.path.slice(prefix.length))}`;
    });
}

/** `METHOD /path` of every documented operation; a documented HEAD is the GET beside it (Hono answers HEAD with it). */
function documentOperations(doc: Doc): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) => {
    if ('head' in item) expect(item, `HEAD ${path} without GET`).toHaveProperty('get');
    return Object.keys(item)
      .filter((key) => METHODS.includes(key) && key !== 'head')
      .map((method) => `${method.toUpperCase()} ${path}`);
  });
}

async function fetchDocument(server: RunningSite, prefix: string) {
  const response = await fetch(`${server.url}${prefix}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return {
    doc: JSON.parse(await response.text()) as Doc,
    bytes: await fetch(`${server.url}${prefix}/openapi.json`).then((r) => r.text()),
  };
}

describe('OpenAPI document (dev)', () => {
  let server: RunningSite;
  let doc: Doc;
  let again: string;

  beforeAll(async () => {
    const site = await createSite({ name: 'openapi-dev', config: '{ requireIdentity: false }' });
    server = await site.startDev();
    ({ doc, bytes: again } = await fetchDocument(server, '/__cms/api'));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/__cms/api' })]);
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('has every route the router serves, and nothing else', () => {
    const served = routerOperations('/__cms/api');
    const documented = documentOperations(doc);
    expect(served.length).toBeGreaterThan(50);
    expect(new Set(served).size).toBe(served.length);
    expect([...documented].sort()).toEqual([...served].sort());
  });

  it('gives every operation an ID, a success or documented failure, and error codes at their catalog status', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(ids.has(operation.operationId), where).toBe(false);
        ids.add(operation.operationId);
        const statuses = Object.keys(operation.responses).map(Number);
        if (method === 'head') {
          expect(
            Object.values(operation.responses).every((response: Doc) => response.content === undefined),
            where,
          ).toBe(true);
          continue;
        }
        expect(
          statuses.some((status) => status < 300) || operation.description?.includes('always answers 400'),
          where,
        ).toBe(true);
        expect(statuses, where).toContain(500);
        if (method !== 'get' && method !== 'head') {
          expect(operation.responses['403'].content['text/plain'], `${where} 403 from Astro`).toEqual({
            schema: { type: 'string' },
          });
        }
        for (const status of statuses.filter((s) => s >= 400)) {
          const codes: ErrorCode[] =
            operation.responses[status].content['application/json'].schema.properties.error.properties.code.enum;
          for (const code of codes) expect(ERROR_STATUS[code], `${where} ${status} ${code}`).toBe(status);
        }
        for (const name of path.match(/\{(\w+)\}/g) ?? []) {
          expect(
            operation.parameters.some((p: Doc) => p.in === 'path' && `{${p.name}}` === name),
            `${where} ${name}`,
          ).toBe(true);
        }
      }
    }
  });

  it('is generated from the route schemas: bodies, queries, headers and named shapes', () => {
    const paths = doc.paths;
    expect(paths['/content'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateContentInput',
    });
    expect(paths['/content/{id}'].put.requestBody).toMatchObject({ required: false });
    expect(paths['/content/{id}/{locale}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/LocalizedEntry',
    });
    expect(paths['/content/{id}/{locale}'].get.responses['200'].headers.ETag).toBeDefined();
    expect(paths['/content/{id}'].delete.parameters).toContainEqual(
      expect.objectContaining({ name: 'If-Match', in: 'header', required: true }),
    );
    // Every other etag-guarded write takes If-Match as an alternative to its own `etag`.
    const guarded = [
      paths['/content/{id}'].put,
      paths['/content/{id}'].patch,
      paths['/content/{id}/mark-reviewed'].post,
      paths['/content/{id}/break-inheritance'].post,
      paths['/content/{id}/revert-to-inherited'].post,
      paths['/{site}/move'].post,
    ];
    for (const operation of guarded) {
      expect(operation.parameters, operation.operationId).toContainEqual(
        expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
      );
      expect(operation.responses['412'].description).toContain('STALE_WRITE');
    }
    expect(paths['/git/status'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/GitStatus',
    });
    expect(doc.components.schemas.GitStatus.required).toContain('idClashes');
    expect(paths['/git/pull'].post.responses['200'].content['application/json'].schema.required).toContain('idClashes');
    expect(paths['/content/{id}/{locale}'].get.parameters).toEqual([
      expect.objectContaining({
        name: 'id',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ pattern: expect.any(String) }),
      }),
      expect.objectContaining({
        name: 'locale',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ pattern: expect.any(String) }),
      }),
    ]);
    expect(paths['/assets/meta/{path}'].get.parameters[0].description).toContain('%2F');
    expect(paths['/assets/serve/{path}'].head.responses['200'].content).toBeUndefined();
    expect(Object.keys(paths['/content'].post.responses)).toContain('415');
    const needsReview = paths['/content/needs-review'].get;
    expect(needsReview.parameters).toContainEqual(
      expect.objectContaining({
        name: 'locale',
        in: 'query',
        required: true,
        schema: expect.objectContaining({ pattern: expect.any(String) }),
      }),
    );
    expect(Object.keys(needsReview.responses)).toEqual(['200', '400', '401', '403', '500']);
    expect(needsReview.responses['400'].description).toContain('MISSING_REQUIRED_FIELD');
    expect(needsReview.responses['403'].description).toContain('FORBIDDEN_ORIGIN');
    expect(needsReview.responses['403'].description).not.toContain('FORBIDDEN_CLIENT');
    expect(paths['/git/commit'].post.responses['403'].description).toMatch(
      /FORBIDDEN_ORIGIN.*FORBIDDEN_CLIENT|FORBIDDEN_CLIENT.*FORBIDDEN_ORIGIN/,
    );
    const list = paths['/content'].get.parameters;
    expect(list.find((p: Doc) => p.name === 'published').schema.enum).toEqual(['true', 'false']);
    expect(paths['/content/batch'].post.responses['207']).toBeDefined();
    expect(paths['/assets/upload'].post.requestBody.content['multipart/form-data'].schema.required).toContain('file');
    expect(paths['/git/commit'].post.requestBody.required).toBe(false);
    expect(paths['/auth/user'].get.security).toEqual([]);
    expect(doc.security.length).toBeGreaterThan(0);
    for (const requirement of doc.security)
      expect(doc.components.securitySchemes).toHaveProperty(Object.keys(requirement)[0]!);
    expect(doc.components.securitySchemes.cloudflareAccessCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'CF_Authorization',
    });
    // Free-form objects say so, instead of an intersection generators read as "no keys".
    expect(JSON.stringify(doc)).not.toContain('allOf');
    expect(doc.components.schemas.LocaleUpdateData.properties.meta.additionalProperties).toBe(true);
    expect(paths['/openapi.json'].get.security).toEqual([]);
    expect(doc.components.schemas.FolderTreeNode.properties.children.items).toEqual({
      $ref: '#/components/schemas/FolderTreeNode',
    });
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'ContentEntry',
        'ContentManifest',
        'LocalizedEntry',
        'AssetEntry',
        'FolderTreeNode',
        'SitesConfig',
        'GitStatus',
        'Problem',
        'ErrorEnvelope',
      ]),
    );
  });

  it('is built once and served as the same bytes', () => {
    expect(again).toBe(JSON.stringify(doc));
  });
});

describe('OpenAPI document (production, custom prefix, identity required)', () => {
  let server: RunningSite;

  beforeAll(async () => {
    const site = await createSite({ name: 'openapi-prod', config: "{ prefix: '/cms-api' }", prefix: '/cms-api' });
    server = await site.buildAndStart();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('is public, describes the prefix in use, and matches the router there', async () => {
    const { doc } = await fetchDocument(server, '/cms-api');
    expect(doc.servers[0].url).toBe('/cms-api');
    expect([...documentOperations(doc)].sort()).toEqual([...routerOperations('/cms-api')].sort());
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    const content = await fetch(`${server.url}/cms-api/content`);
    expect(content.status).toBe(401);
    expect((await content.json()).error.code).toBe('UNAUTHORIZED');
  });
});
