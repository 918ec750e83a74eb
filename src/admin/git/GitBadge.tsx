import './git.css';
import { useEffect } from 'preact/hooks';
import { changeCount } from '../state/live.js';
import { config } from '../state/session.js';
import { gitStatus, refreshGit } from './git-state.js';

/** The number of changed files, after the Git link; refreshed on every change the server announces. */
export function GitBadge() {
  const count = changeCount.value;
  useEffect(() => {
    if (config.git) void refreshGit();
  }, [count]);
  const changed = gitStatus.value?.changedFiles ?? 0;
  if (changed === 0) return null;
  return (
    <span class="badge badge--count">
      {changed}
      <span class="visually-hidden"> changed {changed === 1 ? 'file' : 'files'}</span>
    </span>
  );
}
