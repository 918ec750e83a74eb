/** A change the server saw, as `GET <prefix>/events` announces it. */
export type QuireEvent =
  | {
      kind: 'content';
      id: string;
      /** null: the whole item. */
      locale: string | null;
      /** The locale's etag after the change; null when it was deleted. */
      etag: string | null;
      /** The verified identity's email for a write through the API; null for a change seen on disk (an edit, a pull). */
      by: string | null;
      action: 'created' | 'updated' | 'deleted';
    }
  | { kind: 'asset'; path: string | null; action: 'uploaded' | 'updated' | 'moved' | 'deleted' | 'folder' }
  | { kind: 'git'; action: 'commit' | 'pull' | 'push' };
