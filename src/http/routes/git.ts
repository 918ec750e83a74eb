import type { ContentStore } from '../../content/store.js';
import type { GitService } from '../../git/service.js';
import type { StatusFile } from '../../git/status.js';
import type { API } from '../endpoints.js';
import type { AreaHandlers } from '../register.js';

/**
 * Status, commit, push and pull of the repository holding the content root. Status and pull also
 * report what is wrong with the stored files — IDs that files of different items claim, pathnames
 * that are not paths on the site — since a pull is where two clones' content first meets.
 */
export function gitHandlers(git: GitService, store: ContentStore): AreaHandlers<typeof API.git> {
  const findings = async () => ({ idClashes: await store.idClashes(), problems: await store.problems() });
  /** Each changed file named by what it is: the item and locale of a content file, the path of an asset. */
  const named = (files: StatusFile[]) =>
    Promise.all(
      files.map(async ({ path, change, contentFile, asset }) => {
        const item = contentFile === undefined ? undefined : await store.describeFile(contentFile);
        return { path, change, ...(item && { item }), ...(asset !== undefined && { asset }) };
      }),
    );
  return {
    status: async (_, c) => {
      const { files, ...status } = await git.status();
      return c.json({ ...status, files: await named(files), ...(await findings()) });
    },
    commit: async ({ body }, c) => c.json({ success: true, ...(await git.commit(body.message, c.get('identity'))) }),
    push: async (_, c) => c.json({ success: true, ...(await git.push()) }),
    pull: async (_, c) => {
      const pulled = await git.pull(c.get('identity'));
      return c.json({ success: true, ...pulled, ...(await findings()) });
    },
  };
}
