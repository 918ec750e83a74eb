import options from 'virtual:astro-quire/config';
import type { APIRoute } from 'astro';
import { createAdminHandler } from '../src/admin-server/handler.js';
import { getServices } from '../src/services.js';

export const prerender = false;

// The integration injects this route only when the admin is on.
const handle = createAdminHandler({ ...options, admin: options.admin! });

export const ALL: APIRoute = ({ request }) => {
  const services = getServices(options);
  return handle(request, services.verifyIdentity, services.git.isRepository);
};
