/** Accepts an etag quoted (`"m.c"`), weak (`W/"m.c"`) or bare (`m.c`); absent gives ''. */
export function parseEtag(raw: string | null | undefined): string {
  return (raw ?? '').trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

/** HTTP requires entity tags to be quoted. */
export const quoteEtag = (etag: string): string => `"${etag}"`;
