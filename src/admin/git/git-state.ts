import { signal } from '@preact/signals';
import type { GitStatus } from '../../client/index.js';
import { client } from '../state/session.js';

/** The latest git status (the shell's badge and the git panel share it). */
export const gitStatus = signal<GitStatus | undefined>(undefined);
/** Why the status could not be read (not a repository, …). */
export const gitStatusError = signal<unknown>(undefined);

let inFlight: Promise<void> | undefined;
/** Reads the status again; calls made while a read runs share it. */
export function refreshGit(): Promise<void> {
  inFlight ??= client.git
    .status()
    .then(
      (status) => {
        gitStatus.value = status;
        gitStatusError.value = undefined;
      },
      (error) => {
        gitStatusError.value = error;
      },
    )
    .finally(() => {
      inFlight = undefined;
    });
  return inFlight;
}
