import type { ContentStore } from '../../content/store.js';
import type { GitService } from '../../git/service.js';
import type { API } from '../endpoints.js';
import type { AreaHandlers } from '../register.js';

/**
 * Status, commit, push and pull of the repository holding the content root. Status and pull also
 * report what is wrong with the stored files — IDs that files of different items claim, pathnames
 * that are not paths on the site — since a pull is where two clones' content first meets.
 */
export function gitHandlers(git: GitService, store: ContentStore): AreaHandlers<typeof API.git> {
  const findings = async () => ({ idClashes: await store.idClashes(), problems: await store.problems() });
  return {
    status: async (_, c) => c.json({ ...(await git.status()), ...(await findings()) }),
    commit: async ({ body }, c) => c.json({ success: true, ...(await git.commit(body.message, c.get('identity'))) }),
    push: async (_, c) => c.json({ success: true, ...(await git.push()) }),
    pull: async (_, c) => {
      const pulled = await git.pull(c.get('identity'));
      return c.json({ success: true, ...pulled, ...(await findings()) });
    },
  };
}
