import * as v from 'valibot';

/** `POST /git/commit`: an empty message means the default one. */
export const CommitBodySchema = v.object({
  message: v.optional(v.pipe(v.string('Expected a string'), v.maxLength(10_000, 'Expected at most 10000 characters'))),
});

/** `POST /git/push` and `/git/pull`: no body, or an object (whose keys mean nothing). */
export const EmptyBodySchema = v.object({});
