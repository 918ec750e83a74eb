export const KINDS = ['page', 'fragment', 'data'] as const;
export const TYPES = ['visual', 'mdx', 'json'] as const;
export type Kind = (typeof KINDS)[number];
export type ContentType = (typeof TYPES)[number];

export type Meta = Record<string, unknown>;

export interface ContentData {
  visualData?: unknown;
  mdx?: string;
  data?: Record<string, unknown>;
}

export interface Inheritance {
  state: 'inherited' | 'customized';
  from: string;
  inheritedEtag?: string;
}

/** One locale of one item, as kept in its file. */
export interface LocaleFile {
  pathname?: string;
  name?: string;
  publishAt?: string;
  unpublishAt?: string;
  created: string;
  createdBy?: string;
  modified: string;
  modifiedBy?: string;
  inheritance?: Inheritance;
  previousPathnames?: string[];
  meta: Meta;
  /** Absent while the locale inherits its content. */
  content?: ContentData;
}

/** Where an item lives: everything its folder says about it. */
export interface ItemHome {
  kind: Kind;
  /** Set for pages and for site-specific fragments. */
  site?: string;
  collection: string;
}

/** A locale file as the index keeps it: everything but the content, which is read from the file when asked for. */
export type IndexedFile = Omit<LocaleFile, 'content'>;

/** An asset URL in a locale's content, and the field that holds it (see `createReferenceFinder`). */
export interface AssetReference {
  asset: string;
  field: string;
}

export interface StoredLocale {
  file: IndexedFile;
  metaEtag: string;
  /** Hash of the locale's own content; '' while it inherits. */
  contentEtag: string;
  /** The assets its own content refers to, found when it was read (its meta is kept, and looked at when asked). */
  references?: AssetReference[];
  /** Its pathnames that are not paths on the site (see `offSitePathnames`), found when it was read; absent when none are. */
  offSitePathnames?: string[];
  path: string;
  /** lstat signature of the file when it was last read or written. */
  signature: string;
}

export interface Item extends ItemHome {
  id: string;
  type: ContentType;
  locales: Map<string, StoredLocale>;
}

/** A locale record as the API answers it (a ContentEntry's `locales[x]`). */
export interface LocaleRecord {
  locale: string;
  etag: string;
  created: string;
  modified: string;
  createdBy?: string;
  modifiedBy?: string;
  pathname?: string;
  name?: string;
  publishAt?: string;
  unpublishAt?: string;
  inheritance?: Inheritance & { stale: boolean; sourceChanged?: true };
  previousPathnames?: string[];
  meta: Meta;
  content?: ContentData;
}

export interface ContentEntry {
  id: string;
  type: ContentType;
  kind: Kind;
  site?: string;
  collection: string;
  locales: Record<string, LocaleRecord>;
}
