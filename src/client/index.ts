export { createQuireClient, type QuireClient, type QuireClientOptions } from './client.js';
export {
  ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError, QuireApiError, ServerError, StaleWriteError,
  UnauthorizedError, UnsupportedFormatError, ValidationError, type ApiErrorCode,
} from './errors.js';
export type * from './types.js';
