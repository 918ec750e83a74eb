import * as v from 'valibot';
import { QuireError } from '../errors.js';

export interface FieldProblem { field: string; message: string }

/**
 * Validates one input (a query, a body) against its schema. A required field that is absent gives
 * MISSING_REQUIRED_FIELD; anything else that does not fit gives INVALID_REQUEST. `details.fields`
 * names every offending field either way.
 */
export function parseInput<const S extends v.GenericSchema>(schema: S, input: unknown, what = 'request'): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const isMissing = (issue: v.BaseIssue<unknown>) => issue.input === undefined && Boolean(v.getDotPath(issue));
  const fields: FieldProblem[] = result.issues.map((issue) => ({ field: v.getDotPath(issue) ?? '', message: isMissing(issue) ? 'Required' : issue.message }));
  const missing = result.issues.filter(isMissing);
  if (missing.length > 0) {
    const names = missing.map((issue) => v.getDotPath(issue));
    throw new QuireError('MISSING_REQUIRED_FIELD', `Missing required ${names.length > 1 ? 'fields' : 'field'} in the ${what}: ${names.join(', ')}`, { fields });
  }
  const summary = fields.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ');
  throw new QuireError('INVALID_REQUEST', `Invalid ${what}: ${summary}`, { fields });
}

/** A comma-separated list in a query string ('a, b,,c' → ['a','b','c']). */
export const commaList = v.pipe(
  v.string(),
  v.transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean)),
);
