import type { Context } from 'hono';
import type { ContentQueries } from '../../content/queries.js';
import type { BatchOperation, ContentStore } from '../../content/store.js';
import { QuireError } from '../../errors.js';
import type { Reviewer } from '../../review/reviewer.js';
import type { AppEnv } from '../app-env.js';
import type { API } from '../endpoints.js';
import { guardEtag, parseEtag, quoteEtag } from '../etag-header.js';
import { jsonItems, jsonText } from '../json-text.js';
import type { AreaHandlers, Handler } from '../register.js';
import { BatchOperationSchema } from '../schemas/content.js';
import { parseInput } from '../validate.js';

type Ctx = Context<AppEnv>;

const author = (c: Ctx) => c.get('identity')?.email;

/** What can be echoed of an operation that failed validation. */
function describeOperation(operation: unknown): { id: string; locale: string } {
  const record = (typeof operation === 'object' && operation !== null ? operation : {}) as Record<string, unknown>;
  return {
    id: typeof record.id === 'string' ? record.id : '',
    locale: typeof record.locale === 'string' ? record.locale : '',
  };
}

export function contentHandlers(
  store: ContentStore,
  queries: ContentQueries,
  reviewer: Reviewer,
): AreaHandlers<typeof API.content> {
  const write: Handler<typeof API.content.update | typeof API.content.patch> = async (
    { params, query, body, ifMatch },
    c,
  ) => {
    const etag = guardEtag({ ifMatch, given: query.etag, field: 'etag' });
    const result = await store.updateLocale(params.id, query.locale, body, etag, author(c));
    c.header('ETag', quoteEtag(result.etag));
    return c.json({ success: true, etag: result.etag, modified: result.modified });
  };

  const transition =
    (apply: ContentStore['markReviewed']): Handler<typeof API.content.markReviewed> =>
    async ({ params, query, ifMatch }, c) => {
      const etag = guardEtag({ ifMatch, given: query.etag, field: 'etag' }, { required: true });
      const result = await apply(params.id, query.locale, etag, author(c));
      c.header('ETag', quoteEtag(result.etag));
      return c.json({ success: true, etag: result.etag });
    };

  return {
    collections: async (_, c) => c.json({ collections: await queries.collections(['page', 'fragment']) }),
    needsReview: async ({ query }, c) =>
      jsonItems(
        c,
        await store.selection({
          of: 'needs-review',
          locale: query.locale,
          kind: query.kind,
          customized: query.customized ?? false,
        }),
      ),
    list: async ({ query }, c) => jsonItems(c, await store.selection({ of: 'list', filters: query })),
    create: async ({ body }, c) => {
      const created = await store.create(body, author(c));
      c.header('ETag', quoteEtag(created.etag));
      return c.json({ success: true, ...created }, 201);
    },
    batch: async ({ body }, c) => {
      const checked = body.operations.map((operation, position): BatchOperation | QuireError => {
        try {
          const valid = parseInput(BatchOperationSchema, operation, `operation ${position}`);
          return { ...valid, etag: parseEtag(valid.etag) };
        } catch (error) {
          return error as QuireError;
        }
      });
      const results = await store.batch(
        checked.map((entry, position) =>
          entry instanceof QuireError ? { ...describeOperation(body.operations[position]), error: entry } : entry,
        ),
        author(c),
      );
      const failed = results.filter((result) => !result.updated).length;
      const answer = { operations: results, success: failed === 0, failed, updated: results.length - failed };
      return c.json(answer, failed === 0 ? 200 : 207);
    },
    get: async ({ params }, c) => c.json(await store.get(params.id)),
    getLocale: async ({ params }, c) => {
      const { json, etag } = await store.getLocale(params.id, params.locale);
      c.header('ETag', quoteEtag(etag));
      return jsonText(c, json);
    },
    review: async ({ params }, c) => c.json(await reviewer.review(params.id, params.locale)),
    update: write,
    patch: write,
    delete: async ({ params, query, ifMatch }, c) => {
      await store.remove(params.id, query.locale, guardEtag({ ifMatch }, { required: true }), author(c));
      return c.json({ success: true });
    },
    markReviewed: transition(store.markReviewed),
    breakInheritance: transition(store.breakInheritance),
    revertToInherited: transition(store.revertToInherited),
  };
}
