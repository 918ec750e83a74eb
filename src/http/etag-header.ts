import { QuireError } from '../errors.js';

/** Accepts an etag quoted (`"m.c"`), weak (`W/"m.c"`) or bare (`m.c`); absent gives ''. */
export function parseEtag(raw: string | null | undefined): string {
  return (raw ?? '')
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}

/** HTTP requires entity tags to be quoted. */
export const quoteEtag = (etag: string): string => `"${etag}"`;

export interface EtagSources {
  /** The request's `If-Match` header. */
  ifMatch: string | undefined;
  /** The etag the request carries itself (the `etag` query parameter or body field), if the operation has one. */
  given?: string | undefined;
  /** That field's name, for the error when an etag is required and neither is given. */
  field?: string;
}

/**
 * The etag a write is guarded by, taken from both places a client may put it (docs/interface.md, "Etags and writes"): the
 * `If-Match` header, which HTTP clients send back from a read's `ETag`, and the operation's own
 * `etag` field. When both are given both must match; two different ones cannot both match, so that
 * is 412 at once and nothing is written. Neither gives '' (no conflict check) unless `required`.
 */
export function guardEtag({ ifMatch, given, field }: EtagSources, options: { required?: boolean } = {}): string {
  const [header, own] = [parseEtag(ifMatch), parseEtag(given)];
  if (header && own && header !== own) {
    throw new QuireError(
      'STALE_WRITE',
      `The If-Match header (${header}) and the ${field ?? 'etag'} (${own}) name different versions: at most one of them is current. Send the current etag.`,
      { ifMatch: header, [field ?? 'etag']: own },
    );
  }
  const etag = header || own;
  if (!etag && options.required) {
    const fields = [
      field ? { field, message: 'Required (or an If-Match header)' } : { field: 'If-Match', message: 'Required' },
    ];
    throw new QuireError(
      'MISSING_REQUIRED_FIELD',
      `This write needs the current etag: ${field ? `\`${field}\` or ` : ''}an If-Match header.`,
      { fields },
    );
  }
  return etag;
}
