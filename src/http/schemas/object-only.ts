import * as v from 'valibot';

/**
 * valibot's object and record schemas also take an array (as an object with index keys): this
 * refuses one. JSON Schema's `type: object` already says so, so the document leaves it out.
 */
export const objectOnly = v.check<Record<string, unknown>, 'Expected a JSON object'>(
  (input) => !Array.isArray(input),
  'Expected a JSON object',
);
