export { createQuireClient, type QuireClient, type QuireClientOptions } from './client.js';
export {
  type ApiErrorCode,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  QuireApiError,
  ServerError,
  StaleWriteError,
  UnauthorizedError,
  UnsupportedFormatError,
  ValidationError,
} from './errors.js';
export type * from './types.js';
