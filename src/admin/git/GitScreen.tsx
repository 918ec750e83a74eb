import { useEffect, useState } from 'preact/hooks';
import { QuireApiError } from '../../client/index.js';
import { editorHref } from '../state/router.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { changeWord, defaultMessage, describeFile, type StatusFile } from './files.js';
import { gitStatus, gitStatusError, refreshGit } from './git-state.js';

type Operation = 'commit' | 'pull' | 'push';
const RUNNING: Record<Operation, string> = { commit: 'Committing…', pull: 'Pulling…', push: 'Pushing…' };

/** A pull that stopped on a conflict: the paths, and what to do (nothing was changed). */
function PullConflict({ error }: { error: QuireApiError }) {
  const details = error.details as { reason?: string; conflicts?: string[] } | undefined;
  return (
    <div class="notice notice--error" role="alert">
      <p>
        <strong>The pull stopped; nothing was changed here.</strong>
      </p>
      <p>{error.message}</p>
      <p>Files changed both here and on the remote:</p>
      <ul>
        {(details?.conflicts ?? []).map((path) => (
          <li key={path}>
            <code class="code">{path}</code>
          </li>
        ))}
      </ul>
      <p>
        {details?.reason === 'uncommitted-changes'
          ? 'Commit your changes here, then pull again; or undo your changes to those files.'
          : 'Someone with a git client has to combine the two versions (pull with rebase, fix the files, push); then pull again here.'}
      </p>
    </div>
  );
}

function FileRow({ file }: { file: StatusFile }) {
  const { name, what } = describeFile(file);
  const canOpen = file.item && file.change !== 'deleted';
  return (
    <tr>
      <td>
        {canOpen ? <a href={editorHref(file.item!.id, file.item!.locale)}>{name}</a> : <span>{name}</span>}
        <div class="muted">{what}</div>
      </td>
      <td>
        <span class={`change change--${file.change}`}>{changeWord(file)}</span>
      </td>
    </tr>
  );
}

/** `/git`: what changed, named by what it is; commit, pull and push, one at a time. */
export function GitScreen() {
  const status = gitStatus.value;
  const [running, setRunning] = useState<Operation | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState('');
  const [message, setMessage] = useState('');
  const [edited, setEdited] = useState(false);
  const offered = defaultMessage(status?.files ?? []);

  useEffect(() => {
    void refreshGit();
  }, []);
  useEffect(() => {
    if (!edited) setMessage(offered);
  }, [offered, edited]);

  async function run(operation: Operation, task: () => Promise<{ summary: string }>) {
    setRunning(operation);
    setError(undefined);
    setDone('');
    try {
      const result = await task();
      setDone(result.summary);
      if (operation === 'commit') setEdited(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(undefined);
      await refreshGit();
    }
  }

  if (!status) {
    return (
      <section class="screen">
        <h1>Git</h1>
        {gitStatusError.value !== undefined ? (
          <ErrorNotice error={gitStatusError.value} title="The git status could not be read" />
        ) : (
          <p class="loading" role="status">
            Loading…
          </p>
        )}
      </section>
    );
  }

  const busy = running !== undefined;
  const pullConflict =
    error instanceof QuireApiError &&
    error.code === 'GIT_PULL_FAILED' &&
    Array.isArray((error.details as { conflicts?: unknown })?.conflicts);
  return (
    <section class="screen git">
      <h1>Git</h1>
      <dl class="git__facts">
        <div>
          <dt>Branch</dt>
          <dd>
            <code class="code">{status.branch}</code>
          </dd>
        </div>
        <div>
          <dt>Remote</dt>
          <dd>
            {status.remoteConfigured ? (
              <>
                {status.ahead} ahead, {status.behind} behind <span class="muted">(as of the last fetch)</span>
              </>
            ) : (
              'none configured'
            )}
          </dd>
        </div>
        <div>
          <dt>Changed</dt>
          <dd>
            {status.changedFiles} {status.changedFiles === 1 ? 'file' : 'files'}
          </dd>
        </div>
      </dl>

      <div class="actions git__sync">
        <button
          type="button"
          class="button"
          disabled={busy || !status.remoteConfigured}
          onClick={() => void run('pull', client.git.pull)}
        >
          Pull
        </button>
        <button
          type="button"
          class="button"
          disabled={busy || !status.remoteConfigured}
          onClick={() => void run('push', client.git.push)}
        >
          Push{status.ahead > 0 ? ` ${status.ahead} ${status.ahead === 1 ? 'commit' : 'commits'}` : ''}
        </button>
        <span role="status" class="muted">
          {running ? RUNNING[running] : done}
        </span>
      </div>
      {error !== undefined &&
        (pullConflict ? (
          <PullConflict error={error as QuireApiError} />
        ) : (
          <ErrorNotice
            error={error}
            title={`The ${error instanceof QuireApiError && error.code === 'GIT_PUSH_FAILED' ? 'push' : 'operation'} failed`}
            onDismiss={() => setError(undefined)}
          />
        ))}

      <h2>Changes not committed</h2>
      {status.files.length === 0 ? (
        <p class="empty">Nothing to commit: every change is committed.</p>
      ) : (
        <>
          <table class="git__files">
            <caption class="visually-hidden">Changed files</caption>
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {status.files.map((file) => (
                <FileRow key={file.path} file={file} />
              ))}
            </tbody>
          </table>
          <form
            class="git__commit"
            onSubmit={(event) => {
              event.preventDefault();
              void run('commit', async () => {
                const result = await client.git.commit(message.trim() || undefined);
                return { summary: result.commit ? `Committed: ${result.summary}` : result.summary };
              });
            }}
          >
            <div class="field">
              <label for="commit-message">Commit message</label>
              <textarea
                id="commit-message"
                rows={2}
                value={message}
                onInput={(event) => {
                  setMessage(event.currentTarget.value);
                  setEdited(true);
                }}
              />
            </div>
            <button type="submit" class="button button--primary" disabled={busy}>
              Commit {status.changedFiles} {status.changedFiles === 1 ? 'file' : 'files'}
            </button>
          </form>
        </>
      )}
    </section>
  );
}
