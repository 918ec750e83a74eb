import { Hono, type Context } from 'hono';
import type { BatchOperation, ContentStore } from '../../content/store.js';
import { QuireError } from '../../errors.js';
import type { AppEnv } from '../app-env.js';
import { guardEtag, parseEtag, quoteEtag } from '../etag-header.js';
import { readJsonBody } from '../json-body.js';
import {
  BatchOperationSchema, BatchSchema, CreateContentSchema, DeleteQuerySchema, ListQuerySchema,
  LocaleUpdateSchema, NeedsReviewQuerySchema, PageSiteSchema, TransitionQuerySchema, WriteQuerySchema,
} from '../schemas/content.js';
import { parseInput } from '../validate.js';

type Ctx = Context<AppEnv>;

const author = (c: Ctx) => c.get('identity')?.email;

/** The etag guarding a write: `If-Match` and the `etag` query parameter merged (see guardEtag). */
const queryEtag = (c: Ctx, given: string | undefined, options?: { required?: boolean }) =>
  guardEtag({ ifMatch: c.req.header('if-match'), given, field: 'etag' }, options);

const jsonBody = (c: Ctx, body: string) => c.body(body, 200, {
  'content-type': 'application/json; charset=utf-8',
});

export function contentRoutes(store: ContentStore, limits: { jsonBodyBytes: number }) {
  const body = (c: Ctx) => readJsonBody(c.req.raw, limits.jsonBodyBytes);

  const write = async (c: Ctx) => {
    const { locale, etag } = parseInput(WriteQuerySchema, c.req.query(), 'query');
    const update = parseInput(LocaleUpdateSchema, (await body(c)) ?? {}, 'body');
    const result = await store.updateLocale(c.req.param('id')!, locale, update, queryEtag(c, etag), author(c));
    c.header('ETag', quoteEtag(result.etag));
    return c.json({ success: true, etag: result.etag, modified: result.modified });
  };

  const transition = (apply: ContentStore['markReviewed']) => async (c: Ctx) => {
    const { locale, etag } = parseInput(TransitionQuerySchema, c.req.query(), 'query');
    const result = await apply(c.req.param('id')!, locale, queryEtag(c, etag, { required: true }), author(c));
    c.header('ETag', quoteEtag(result.etag));
    return c.json({ success: true, etag: result.etag });
  };

  return new Hono<AppEnv>()
    .get('/collections', async (c) => c.json({ collections: await store.collections() }))
    .get('/needs-review', async (c) => {
      const { locale, kind } = parseInput(NeedsReviewQuerySchema, c.req.query(), 'query');
      return jsonBody(c, await store.needsReviewJson(locale, kind));
    })
    .get('/', async (c) => jsonBody(c, await store.listJson(parseInput(ListQuerySchema, c.req.query(), 'query'))))
    .post('/', async (c) => {
      const raw = await body(c);
      const input = parseInput(CreateContentSchema, raw, 'body');
      if (input.kind === 'page') parseInput(PageSiteSchema, raw, 'body');
      const created = await store.create(input, author(c));
      c.header('ETag', quoteEtag(created.etag));
      return c.json({ success: true, ...created }, 201);
    })
    .post('/batch', async (c) => {
      const { operations } = parseInput(BatchSchema, await body(c), 'body');
      const checked = operations.map((operation, position): BatchOperation | QuireError => {
        try {
          return parseInput(BatchOperationSchema, operation, `operation ${position}`);
        } catch (error) {
          return error as QuireError;
        }
      });
      const results = await store.batch(checked.map((entry, position) => (entry instanceof QuireError
        ? { ...describeOperation(operations[position]), error: entry }
        : { ...entry, etag: parseEtag(entry.etag) })), author(c));
      const failed = results.filter((result) => !result.updated).length;
      return c.json({ operations: results, success: failed === 0, failed, updated: results.length - failed }, failed === 0 ? 200 : 207);
    })
    .get('/:id', async (c) => c.json(await store.get(c.req.param('id'))))
    .get('/:id/:locale', async (c) => {
      const { entry, etag } = await store.getLocale(c.req.param('id'), c.req.param('locale'));
      c.header('ETag', quoteEtag(etag));
      return c.json(entry);
    })
    .put('/:id', write)
    .patch('/:id', write)
    .delete('/:id', async (c) => {
      const { locale } = parseInput(DeleteQuerySchema, c.req.query(), 'query');
      await store.remove(c.req.param('id'), locale, guardEtag({ ifMatch: c.req.header('if-match') }, { required: true }), author(c));
      return c.json({ success: true });
    })
    .post('/:id/mark-reviewed', transition(store.markReviewed))
    .post('/:id/break-inheritance', transition(store.breakInheritance))
    .post('/:id/revert-to-inherited', transition(store.revertToInherited));
}

/** What can be echoed of an operation that failed validation. */
function describeOperation(operation: unknown): { id: string; locale: string } {
  const record = (typeof operation === 'object' && operation !== null ? operation : {}) as Record<string, unknown>;
  return { id: typeof record.id === 'string' ? record.id : '', locale: typeof record.locale === 'string' ? record.locale : '' };
}
