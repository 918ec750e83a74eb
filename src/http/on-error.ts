import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ERROR_STATUS, type ErrorCode, isQuireError } from '../errors.js';

/** The envelope every error answer has: `{ error: { code, message, details? } }`. */
export function errorResponse(
  code: ErrorCode,
  message: string,
  details?: unknown,
  headers?: Record<string, string>,
): Response {
  const body = JSON.stringify({ error: details === undefined ? { code, message } : { code, message, details } });
  return new Response(body, {
    status: ERROR_STATUS[code],
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The only place an error becomes a response; unexpected errors are logged, never shown. */
export function onError(error: Error, c: Context): Response {
  if (isQuireError(error)) return errorResponse(error.code, error.message, error.details);
  if (error instanceof HTTPException && error.status < 500) {
    return errorResponse('INVALID_REQUEST', error.message || 'Invalid request.');
  }
  console.error(`[astro-quire] ${c.req.method} ${new URL(c.req.url).pathname} failed:`, error);
  return errorResponse('INTERNAL_ERROR', 'An unexpected error occurred; the server log has the details.');
}
