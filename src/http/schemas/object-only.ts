import * as v from 'valibot';

/** A JSON object, not an array. */
export const JsonObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
  'Expected a JSON object',
);

/**
 * The schema, for a JSON object only: valibot's object and record schemas also take an array
 * (and answer a new object, so a check after them cannot tell). The OpenAPI document shows the
 * schema alone, whose `type: object` already says so.
 */
export const objectOnly = <const S extends v.GenericSchema>(schema: S) => v.intersect([JsonObject, schema]);
