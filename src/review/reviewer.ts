import fs from 'node:fs/promises';
import path from 'node:path';
import { contentEtagOf } from '../content/etag.js';
import { parseLocaleFile } from '../content/files.js';
import type { ContentStore } from '../content/store.js';
import type { ContentData, Meta } from '../content/types.js';
import { isQuireError } from '../errors.js';
import { createFileHistory, type FileVersion } from '../git/file-versions.js';
import { type GitRepo, openRepository, resolveOrNull } from '../git/repository.js';
import { diffVersions } from './diff.js';

interface Version {
  meta: Meta;
  content: ContentData;
}

export type FoundIn =
  | { source: 'current' }
  | { source: 'cache' }
  | { source: 'git'; commit: string; date: string; path: string };

export type MissingReason = 'not-recorded' | 'not-found' | 'no-repository' | 'history-unreadable';

/** How many (file, HEAD) walks and parsed blobs are remembered. */
const MAX_WALKS = 1000;
const MAX_BLOBS = 20_000;

function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): V {
  if (map.size >= limit) map.delete(map.keys().next().value as K);
  map.set(key, value);
  return value;
}

const posix = (relative: string) => relative.split(path.sep).join('/');

/** The items of an async iterator, read once and kept: later readers of the same walk go on where it stopped. */
class LazyList<T> {
  private readonly items: T[] = [];
  private done = false;
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly source: AsyncIterator<T>) {}

  /** The item at `index`, reading on as far as needed (reads run one at a time); undefined past the end. */
  async at(index: number): Promise<T | undefined> {
    while (this.items.length <= index && !this.done) {
      this.reading = this.reading.then(async () => {
        if (this.items.length > index || this.done) return;
        const next = await this.source.next();
        if (next.done) this.done = true;
        else this.items.push(next.value);
      });
      await this.reading;
    }
    return this.items[index];
  }
}

/**
 * Answers "what changed in the source since this translation was reviewed": finds the default
 * locale's content behind the etag the translation recorded (its current content, then git
 * history, then the local source cache) and diffs it against the content now. Unusual history or
 * no repository at all makes the reviewed version unknown, never an error.
 */
export function createReviewer(options: { root: string; store: ContentStore }) {
  const { root, store } = options;
  const history = createFileHistory();
  const walks = new Map<string, LazyList<FileVersion>>();
  const blobs = new Map<string, { etag: string; version: Version } | null>();
  // isomorphic-git's object cache (packfile indexes), kept while HEAD stays where it was.
  let objectCache = { head: '', cache: {} as object };

  async function openRepo(): Promise<{ repo: GitRepo; head: string | null } | null> {
    try {
      const repo = await openRepository(root, root);
      const head = await resolveOrNull(repo, 'HEAD');
      if (head !== objectCache.head) objectCache = { head: head ?? '', cache: {} };
      return { repo: { ...repo, cache: objectCache.cache }, head };
    } catch (error) {
      if (isQuireError(error) && error.code === 'GIT_NOT_REPO') return null;
      throw error;
    }
  }

  async function parsedBlob(repo: GitRepo, version: FileVersion) {
    if (blobs.has(version.blob)) return blobs.get(version.blob)!;
    let parsed: { etag: string; version: Version } | null = null;
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(await history.read(repo, version.blob));
      const extension = version.filepath.endsWith('.mdx') ? 'mdx' : 'json';
      const { file } = parseLocaleFile(text, extension);
      if (file.content)
        parsed = { etag: contentEtagOf(file.content), version: { meta: file.meta, content: file.content } };
    } catch {
      // Not text, or not a locale file at that commit: no version to match there.
    }
    return remember(blobs, version.blob, parsed, MAX_BLOBS);
  }

  /** Newest first, stopping at the first version whose content etag is the one wanted. */
  async function fromHistory(sourcePath: string, etag: string) {
    const opened = await openRepo();
    if (!opened) return { reason: 'no-repository' as const };
    const { repo, head } = opened;
    if (!head) return { reason: 'not-found' as const };
    const filepath = posix(path.relative(repo.dir, await fs.realpath(sourcePath)));
    const folder = posix(path.relative(repo.dir, await fs.realpath(root))) || '.';
    const key = `${head}\0${filepath}`;
    let walk = walks.get(key);
    if (!walk) walk = remember(walks, key, new LazyList(history.versions(repo, head, filepath, folder)), MAX_WALKS);
    try {
      for (let position = 0; ; position++) {
        const version = await walk.at(position);
        if (!version) break;
        const parsed = await parsedBlob(repo, version);
        if (parsed?.etag === etag) {
          const foundIn: FoundIn = {
            source: 'git',
            commit: version.commit,
            date: version.date,
            path: version.filepath,
          };
          return { version: parsed.version, foundIn };
        }
      }
    } catch (error) {
      walks.delete(key);
      throw error;
    }
    return { reason: 'not-found' as const };
  }

  type Found = { version: Version; foundIn: FoundIn } | { reason: MissingReason };

  async function findReviewed(sourcePath: string, etag: string): Promise<Found> {
    let gitAnswer: Found;
    try {
      gitAnswer = await fromHistory(sourcePath, etag);
    } catch (error) {
      console.warn(`[astro-quire] could not read the history of ${sourcePath}: ${(error as Error).message}`);
      gitAnswer = { reason: 'history-unreadable' };
    }
    if ('version' in gitAnswer) return gitAnswer;
    const cached = await store.cachedSource(etag);
    if (cached) return { version: cached, foundIn: { source: 'cache' } };
    return gitAnswer;
  }

  const MESSAGES: Record<MissingReason, string> = {
    'not-recorded': 'The translation records no etag of the source it was reviewed against.',
    'not-found':
      'That version of the source is neither in the git history of its file nor in the local source cache (it may have been deleted).',
    'no-repository':
      'The content root is not in a git repository, and that version of the source is not in the local source cache.',
    'history-unreadable':
      'The git history could not be read, and that version of the source is not in the local source cache.',
  };

  return {
    async review(id: string, locale: string) {
      const basis = await store.reviewBasis(id, locale);
      const { source } = basis;
      const current = { etag: source.contentEtag, meta: source.meta, content: source.content };
      const reviewedEtag = basis.inheritance.inheritedEtag;
      const found =
        reviewedEtag === undefined
          ? { reason: 'not-recorded' as const }
          : reviewedEtag === source.contentEtag
            ? { version: { meta: source.meta, content: source.content }, foundIn: { source: 'current' } as const }
            : await findReviewed(source.path, reviewedEtag);
      const reviewed = 'version' in found ? { etag: reviewedEtag!, ...found.version, foundIn: found.foundIn } : null;
      return {
        ...basis.item,
        locale,
        from: basis.inheritance.from,
        state: basis.inheritance.state,
        stale: basis.stale,
        sourceChanged: basis.sourceChanged,
        reviewedEtag: reviewedEtag ?? null,
        reviewed,
        reason: 'reason' in found ? { code: found.reason, message: MESSAGES[found.reason] } : null,
        current,
        translation: basis.translation,
        diff: reviewed ? diffVersions(basis.item.type, reviewed, current) : null,
      };
    },
  };
}

export type Reviewer = ReturnType<typeof createReviewer>;
