import { Hono } from 'hono';
import type { ContentStore } from '../../content/store.js';
import type { GitService } from '../../git/service.js';
import type { AppEnv } from '../app-env.js';
import { readJsonBody } from '../json-body.js';
import { CommitBodySchema, EmptyBodySchema } from '../schemas/git.js';
import { parseInput } from '../validate.js';

/**
 * The Git table of the interface: status, commit, push and pull of the repository holding the
 * content root. Status and pull also report what is wrong with the stored files — IDs that files of
 * different items claim, pathnames that are not paths on the site — since a pull is where two
 * clones' content first meets.
 */
export function gitRoutes(git: GitService, store: ContentStore, limits: { jsonBodyBytes: number }) {
  const body = (request: Request) => readJsonBody(request, limits.jsonBodyBytes);
  const findings = async () => ({ idClashes: await store.idClashes(), problems: await store.problems() });

  return new Hono<AppEnv>()
    .get('/status', async (c) => c.json({ ...(await git.status()), ...(await findings()) }))
    .post('/commit', async (c) => {
      const { message } = parseInput(CommitBodySchema, await body(c.req.raw), 'body');
      const result = await git.commit(message, c.get('identity'));
      return c.json({ success: true, ...result });
    })
    .post('/push', async (c) => {
      parseInput(EmptyBodySchema, await body(c.req.raw), 'body');
      return c.json({ success: true, ...(await git.push()) });
    })
    .post('/pull', async (c) => {
      parseInput(EmptyBodySchema, await body(c.req.raw), 'body');
      const pulled = await git.pull(c.get('identity'));
      return c.json({ success: true, ...pulled, ...(await findings()) });
    });
}
