import path from 'node:path';
import { isValidPathname } from './codes.js';
import type { Item, LocaleFile } from './types.js';

/** Something wrong with the stored content that the API works around and an editor should fix. */
export interface ContentProblem {
  /** The file, relative to the content root, with `/` separators. */
  path: string;
  /** A stable code for the kind of problem. */
  reason: 'off-site-pathname';
  message: string;
}

/**
 * The pathnames of a locale file that are not paths on the site (an absolute URL, `//host`, a
 * backslash, a control character, a dot segment), checked with the same rule as a write: a file
 * that came by `git pull` or a hand edit is never trusted more than a request.
 */
export function offSitePathnames(file: Pick<LocaleFile, 'pathname' | 'previousPathnames'>): string[] {
  const all = [...(file.pathname === undefined ? [] : [file.pathname]), ...(file.previousPathnames ?? [])];
  return all.filter((pathname) => !isValidPathname(pathname));
}

export function describeOffSitePathname(pathname: string): string {
  return `the pathname ${JSON.stringify(pathname)} is not a path on the site, so nothing redirects to or from it: change it in the file to one such as /about`;
}

/**
 * Every problem of the indexed files, in file order. Each file was checked when it was read, so
 * this is a look at each record (a status call asks after every write: checking 285,000 files
 * again took 400 ms of the event loop).
 */
export function computeProblems(root: string, items: Iterable<Item>): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const item of items) {
    for (const stored of item.locales.values()) {
      if (!stored.offSitePathnames) continue;
      const where = path.relative(root, stored.path).split(path.sep).join('/');
      for (const pathname of stored.offSitePathnames) {
        problems.push({ path: where, reason: 'off-site-pathname', message: describeOffSitePathname(pathname) });
      }
    }
  }
  return problems.sort((a, b) => a.path.localeCompare(b.path));
}
