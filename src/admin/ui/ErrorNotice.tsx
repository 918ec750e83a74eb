import { QuireApiError } from '../../client/index.js';

/** What to do next, for the codes an editor can act on. */
const NEXT_STEP: Partial<Record<string, string>> = {
  STALE_WRITE: 'Someone changed this since you opened it. Reload to see their version.',
  CONTENT_NOT_FOUND: 'It may have been deleted or renamed. Go back to the content list.',
  SITE_NOT_FOUND: 'Choose another site in the header.',
  PATHNAME_TAKEN: 'Choose another pathname.',
  ALREADY_EXISTS: 'Choose another name.',
  UNAUTHORIZED: 'Sign in through your access gateway, then reload.',
  HTTP_403: 'The server refused the request before the API saw it. Reload the page.',
  WRITE_ERROR: 'The server could not write the file. Your changes are still here; try again.',
  INVALID_REQUEST: 'Check the fields named above and try again.',
  MISSING_REQUIRED_FIELD: 'Fill in the fields named above and try again.',
  ASSET_TOO_LARGE: 'Make the file smaller (or ask the site owner to raise the limit), then upload it again.',
  ASSET_INVALID_FORMAT: 'Save it in one of the allowed formats, then upload it again.',
  ASSET_UPLOAD_FAILED:
    'Only files on the public internet can be imported: the server refuses local and private addresses so that it cannot be used to reach machines behind it. Download the file and upload it instead.',
  NETWORK: 'Check that the dev server is running, then try again. Your changes are still here.',
};

export function describeError(error: unknown): { code: string; message: string; fields: string[] } {
  if (error instanceof QuireApiError) {
    const fields = (error.details as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? [];
    return {
      code: error.code,
      message: error.message,
      fields: fields.map((field) => `${field.field}: ${field.message}`),
    };
  }
  if (error instanceof TypeError)
    return { code: 'NETWORK', message: `The server did not answer (${error.message}).`, fields: [] };
  return { code: 'ERROR', message: error instanceof Error ? error.message : String(error), fields: [] };
}

/** An API (or network) error in words, with its code and what to do next; announced to screen readers. */
export function ErrorNotice({
  error,
  title = 'Something went wrong',
  onDismiss,
}: {
  error: unknown;
  title?: string;
  onDismiss?: () => void;
}) {
  const { code, message, fields } = describeError(error);
  return (
    <div class="notice notice--error" role="alert">
      <p>
        <strong>{title}</strong> <code class="code">{code}</code>
      </p>
      <p>{message}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((field) => (
            <li key={field}>{field}</li>
          ))}
        </ul>
      )}
      {NEXT_STEP[code] && <p>{NEXT_STEP[code]}</p>}
      {onDismiss && (
        <button type="button" class="button button--quiet" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}
