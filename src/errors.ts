/** Every error code the API can answer with, and its HTTP status (docs/interface.md, "Errors and status codes"). */
export const ERROR_STATUS = {
  CONTENT_NOT_FOUND: 404,
  STALE_WRITE: 412,
  MISSING_REQUIRED_FIELD: 400,
  ALREADY_EXISTS: 409,
  PATHNAME_TAKEN: 409,
  METADATA_TOO_LARGE: 400,
  WRITE_ERROR: 500,
  INTERNAL_ERROR: 500,
  INVALID_REQUEST: 400,
  SITE_NOT_FOUND: 404,
  ASSET_NOT_FOUND: 404,
  ASSET_UPLOAD_FAILED: 400,
  ASSET_INVALID_FORMAT: 415,
  ASSET_TOO_LARGE: 413,
  GIT_NOT_REPO: 400,
  GIT_STATUS_FAILED: 500,
  GIT_COMMIT_FAILED: 500,
  GIT_PUSH_FAILED: 500,
  GIT_PULL_FAILED: 500,
  UNAUTHORIZED: 401,
  FORBIDDEN_ORIGIN: 403,
  FORBIDDEN_CLIENT: 403,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A domain error: code and structured details, never an HTTP status (the catalog above owns those). */
export class QuireError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QuireError';
    this.code = code;
    this.details = details;
  }
}

export const isQuireError = (error: unknown): error is QuireError => error instanceof QuireError;

/** Node's fs error codes, when a caught value is one. */
export function fsErrorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
