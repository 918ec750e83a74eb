import * as v from 'valibot';
import { QuireError } from '../errors.js';

export interface FieldProblem {
  field: string;
  message: string;
}

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);

/** Whether an issue is about a field that is absent (also when a check forwarded to that field found it absent). */
const isMissing = (issue: v.BaseIssue<unknown>) => {
  const last = issue.path?.at(-1);
  return last !== undefined && last.value === undefined;
};

/**
 * Validates one input (a query, a body, the path parameters) against its schema. A required field
 * that is absent gives `missingCode` (MISSING_REQUIRED_FIELD unless told otherwise); anything else
 * that does not fit gives INVALID_REQUEST. `details.fields` names every offending field either way.
 */
export function parseInput<const S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  what = 'request',
  missingCode: 'MISSING_REQUIRED_FIELD' | 'INVALID_REQUEST' = 'MISSING_REQUIRED_FIELD',
): v.InferOutput<S> {
  // valibot's object schemas also take an array (as an object with no keys): a body must be an object.
  if (Array.isArray(input) && OBJECT_TYPES.has(schema.type)) {
    throw new QuireError('INVALID_REQUEST', `Invalid ${what}: expected a JSON object, not an array`, {
      fields: [{ field: '', message: 'Expected a JSON object' }],
    });
  }
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const fields: FieldProblem[] = result.issues.map((issue) => ({
    field: v.getDotPath(issue) ?? '',
    message: isMissing(issue) ? 'Required' : issue.message,
  }));
  const missing = result.issues.filter(isMissing);
  if (missing.length > 0) {
    const names = missing.map((issue) => v.getDotPath(issue));
    const message = `Missing required ${names.length > 1 ? 'fields' : 'field'} in the ${what}: ${names.join(', ')}`;
    throw new QuireError(missingCode, message, { fields });
  }
  const summary = fields.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ');
  throw new QuireError('INVALID_REQUEST', `Invalid ${what}: ${summary}`, { fields });
}

/** A comma-separated list in a query string ('a, b,,c' → ['a','b','c']). */
export const commaList = v.pipe(
  v.string(),
  v.description('A comma-separated list.'),
  v.transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
);
