import type { ErrorCode } from '../errors.js';

/** The API's error codes, or `HTTP_<status>` for an answer without the JSON envelope (a proxy, Astro's 403 for a foreign origin). */
export type ApiErrorCode = ErrorCode | `HTTP_${number}`;

/** An error answer of the API: its status, and the envelope's `code`, `message` and `details`. */
export class QuireApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly details: unknown;

  constructor(status: number, code: ApiErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** 400: a missing or invalid parameter or field (`details.fields` names them), or a request the state does not allow. */
export class ValidationError extends QuireApiError {}
/** 401: no verified identity from the access gateway, and the server requires one. */
export class UnauthorizedError extends QuireApiError {}
/**
 * 403: a page of another origin (FORBIDDEN_ORIGIN), a write from another machine to `astro dev --host`
 * (FORBIDDEN_CLIENT), or refused before the API (Astro's `checkOrigin`, a gateway).
 */
export class ForbiddenError extends QuireApiError {}
/** 404: no such content, site, asset or route. */
export class NotFoundError extends QuireApiError {}
/** 409: the name or pathname is taken. */
export class ConflictError extends QuireApiError {}
/** 412: the etag is outdated; someone changed the locale since it was read. Read it again, then retry. */
export class StaleWriteError extends QuireApiError {}
/** 413: the body or file is over a size limit. */
export class PayloadTooLargeError extends QuireApiError {}
/** 415: the file's format is not allowed, or a body was sent as something other than JSON. */
export class UnsupportedFormatError extends QuireApiError {}
/** 5xx: the server failed (a write, git, or something unexpected; the server log has more). */
export class ServerError extends QuireApiError {}

const BY_STATUS: Record<number, typeof QuireApiError> = {
  400: ValidationError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  412: StaleWriteError,
  413: PayloadTooLargeError,
  415: UnsupportedFormatError,
};

/** The typed error for an error answer (its body already read as text). */
export function errorFromResponse(status: number, text: string): QuireApiError {
  let envelope: { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  try {
    envelope = JSON.parse(text);
  } catch {
    /* not JSON: keep the text as the message */
  }
  const error = envelope?.error;
  const code = typeof error?.code === 'string' ? (error.code as ApiErrorCode) : (`HTTP_${status}` as const);
  const message =
    typeof error?.message === 'string' ? error.message : `HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}`;
  const Class = BY_STATUS[status] ?? (status >= 500 ? ServerError : QuireApiError);
  return new Class(status, code, message, error?.details);
}
