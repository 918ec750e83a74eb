import type git from 'isomorphic-git';

let loading: Promise<typeof git> | undefined;

/**
 * isomorphic-git, loaded by the first git operation instead of with the API: with its dependencies
 * it is a third of the code the API's first request would load (~50 ms holding the event loop),
 * and most requests never touch git.
 */
export const loadGit = (): Promise<typeof git> =>
  (loading ??= import('isomorphic-git').then((module) => module.default));
