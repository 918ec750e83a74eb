import * as v from 'valibot';

/** A JSON object (`v.object` alone would also take an array). The OpenAPI generator documents it as `type: object`. */
export const JsonObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
  'Expected a JSON object',
);

/**
 * `POST /git/commit`: the body may be omitted; an empty message means the default one. An
 * intersection rather than a pipe, so that JSON Schema conversion sees both parts.
 */
export const CommitBodySchema = v.optional(v.intersect([JsonObject, v.object({
  message: v.optional(v.pipe(v.string('Expected a string'), v.maxLength(10_000, 'Expected at most 10000 characters'))),
})]), {});

/** `POST /git/push` and `/git/pull`: no body, or `{}`. */
export const EmptyBodySchema = v.optional(JsonObject, {});
