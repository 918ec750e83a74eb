import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type busboy from 'busboy';
import { fsErrorCode, QuireError } from '../errors.js';
import type { TempFiles } from './temp-files.js';

/** A file received into the temp folder, with the form's other fields. */
export interface ReceivedUpload {
  file?: { tempPath: string; originalName: string; size: number };
  fields: Record<string, string>;
}

const FIELD_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 40, files: 1, headerPairs: 100 };
const DISK_ERRORS = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'EIO',
  'EISDIR',
  'ENOTDIR',
  'EMFILE',
  'ENFILE',
]);

/**
 * Streams a `multipart/form-data` body to disk: the part named `file` goes to a temp file, never
 * into memory, and the size limit holds while it streams: past `maxBytes` nothing more is written,
 * the temp file is removed and ASSET_TOO_LARGE is thrown once the body has been read to its end
 * (so the client sees the answer rather than a reset connection). Filenames are read as UTF-8.
 */
export async function receiveMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  options: { maxBytes: number; temp: TempFiles },
): Promise<ReceivedUpload> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType) || !body) {
    throw new QuireError(
      'INVALID_REQUEST',
      'An upload is a multipart/form-data body with the file in a field named "file".',
    );
  }
  // Loaded by the first upload, not with the API.
  const { default: createParser } = await import('busboy');
  let parser: busboy.Busboy;
  try {
    parser = createParser({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { ...FIELD_LIMITS, fileSize: options.maxBytes },
    });
  } catch (error) {
    throw new QuireError('INVALID_REQUEST', `Malformed multipart/form-data header: ${(error as Error).message}`);
  }

  // Named before parsing starts, so the file part is piped the moment it appears and no chunk is missed.
  const tempPath = await options.temp.create();
  const fields: Record<string, string> = {};
  // Set from the parser's callbacks.
  const state: {
    file?: NonNullable<ReceivedUpload['file']>;
    writing?: Promise<void>;
    truncated: boolean;
    overLimit?: string;
  } = { truncated: false };

  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  // busboy drops what is over a limit without a word; a form that has more is refused instead.
  parser.on('partsLimit', () => {
    state.overLimit ??= `more than ${FIELD_LIMITS.parts} parts`;
  });
  parser.on('fieldsLimit', () => {
    state.overLimit ??= `more than ${FIELD_LIMITS.fields} fields`;
  });
  parser.on('filesLimit', () => {
    state.overLimit ??= `more than ${FIELD_LIMITS.files} file`;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== 'file' || state.writing) {
      stream.resume();
      return;
    }
    const received = { tempPath, originalName: info.filename ?? '', size: 0 };
    state.file = received;
    stream.on('data', (chunk: Buffer) => {
      received.size += chunk.length;
    });
    stream.on('limit', () => {
      state.truncated = true;
    });
    state.writing = pipeline(stream, createWriteStream(tempPath, { flags: 'wx' }));
    // Until it is awaited below, a failure is reported there, not as an unhandled rejection.
    state.writing.catch(() => {});
  });

  try {
    await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), parser);
    await state.writing;
  } catch (error) {
    await state.writing?.catch(() => {});
    await options.temp.remove(tempPath);
    if (error instanceof QuireError) throw error;
    const message = (error as Error).message;
    // The disk refused the part (read-only, full, over a size limit): the server's fault, not the upload's.
    if (DISK_ERRORS.has(fsErrorCode(error) ?? '')) {
      throw new QuireError('WRITE_ERROR', `Could not store the upload: ${message}`, undefined, { cause: error });
    }
    const malformed = /multipart|boundary|unexpected end of form|malformed/i.test(message);
    throw new QuireError(
      malformed ? 'INVALID_REQUEST' : 'ASSET_UPLOAD_FAILED',
      `The upload could not be read: ${message}`,
      undefined,
      { cause: error },
    );
  }

  const { file } = state;
  if (state.overLimit) {
    await options.temp.remove(tempPath);
    throw new QuireError(
      'INVALID_REQUEST',
      `The upload has ${state.overLimit}: send one file, in a field named "file", with at most ${FIELD_LIMITS.fields} other fields.`,
      { limit: FIELD_LIMITS },
    );
  }
  if (!file) {
    await options.temp.remove(tempPath);
    return { fields };
  }
  if (state.truncated) {
    await options.temp.remove(tempPath);
    throw new QuireError('ASSET_TOO_LARGE', `The file is larger than ${options.maxBytes} bytes (assets.maxBytes).`, {
      limit: options.maxBytes,
    });
  }
  if (file.originalName === '' && file.size === 0) {
    // What a browser sends for a file input left empty.
    await options.temp.remove(tempPath);
    return { fields };
  }
  return { file, fields };
}
