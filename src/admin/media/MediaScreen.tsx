import { href, navigate } from '../state/router.js';
import { MediaLibrary } from './MediaLibrary.js';

/** `/media?folder=/photos`: the folder is in the URL, so a reload or a shared link opens it. */
export function MediaScreen({ folder }: { folder: string }) {
  return (
    <section class="screen">
      <h1>Media</h1>
      <MediaLibrary
        folder={folder}
        onFolder={(path) => navigate(href('/media', { folder: path === '/' ? undefined : path }))}
      />
    </section>
  );
}
