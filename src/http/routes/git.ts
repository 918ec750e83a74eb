import type { GitService } from '../../git/service.js';
import type { API } from '../endpoints.js';
import type { AreaHandlers } from '../register.js';

/** Status, commit, push and pull of the repository holding the content root. */
export function gitHandlers(git: GitService): AreaHandlers<typeof API.git> {
  return {
    status: async (_, c) => c.json(await git.status()),
    commit: async ({ body }, c) => c.json({ success: true, ...(await git.commit(body.message, c.get('identity'))) }),
    push: async (_, c) => c.json({ success: true, ...(await git.push()) }),
    pull: async (_, c) => c.json({ success: true, ...(await git.pull(c.get('identity'))) }),
  };
}
