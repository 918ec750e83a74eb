import type { APIRoute } from 'astro';
import options from 'virtual:astro-quire/config';
import { getServices } from '../src/services.js';

export const prerender = false;

export const ALL: APIRoute = ({ request }) => getServices(options).app.fetch(request);
