import type { ContentQueries, FragmentWord } from '../../content/queries.js';
import { QuireError } from '../../errors.js';
import type { API } from '../endpoints.js';
import type { AreaHandlers } from '../register.js';

/**
 * `/fragments` and `/blocks`: the same items under two words. Also answers the Sites routes for
 * this scope (`/fragments/collections`, and 400 for pages, pathnames and moves).
 */
export function fragmentHandlers(queries: ContentQueries, word: FragmentWord): AreaHandlers<typeof API.fragments> {
  const scopeMisuse = () => {
    throw new QuireError(
      'INVALID_REQUEST',
      `The ${word}s scope has no pages, pathnames or moves; use a site name instead of "${word}s".`,
    );
  };
  return {
    collections: async (_, c) => c.json({ collections: await queries.collections(['fragment']) }),
    pages: scopeMisuse,
    pathnameAvailable: scopeMisuse,
    move: scopeMisuse,
    nameAvailable: async ({ query: { name, collection, locale, excludeId, site } }, c) => {
      const home = { kind: 'fragment' as const, collection, ...(site !== undefined && { site }) };
      return c.json(await queries.nameAvailability(home, name, { excludeId, locale }));
    },
    list: async ({ query }, c) => c.json(await queries.fragments(word, query)),
    get: async ({ params, query }, c) => c.json(await queries.fragment(word, params.name, query)),
  };
}
