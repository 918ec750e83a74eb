import { ErrorNotice } from '../ui/ErrorNotice.js';
import { formatBytes } from './AssetThumb.js';
import { clearFinished, uploads } from './uploads.js';

/** Each file of the uploads with its own progress bar, and its own error in words. */
export function UploadQueue() {
  const list = uploads.value;
  if (list.length === 0) return null;
  return (
    <section class="uploads" aria-label="Uploads">
      <ul class="uploads__list">
        {list.map((upload) => (
          <li key={upload.key} class={`upload upload--${upload.state}`} data-upload={upload.name}>
            <div class="upload__line">
              <span class="upload__name">{upload.name}</span>
              <span class="muted">
                {upload.state === 'done'
                  ? 'uploaded'
                  : upload.state === 'failed'
                    ? 'not uploaded'
                    : `${formatBytes(upload.sent)} of ${formatBytes(upload.size)}`}
              </span>
            </div>
            <progress
              max={upload.size || 1}
              value={upload.state === 'failed' ? 0 : upload.sent}
              aria-label={`Upload of ${upload.name}`}
            />
            {upload.state === 'failed' && <ErrorNotice error={upload.error} title={`${upload.name} was refused`} />}
          </li>
        ))}
      </ul>
      {list.some((upload) => upload.state !== 'sending') && (
        <button type="button" class="button button--quiet button--small" onClick={clearFinished}>
          Clear finished
        </button>
      )}
    </section>
  );
}
