// The playground's content collections, all read by Quire's loader from the content root
// (CONTENT_PATH, which scripts/playground.mjs points at playground/.content).
import { defineCollection } from 'astro:content';
import { quireLoader } from 'astro-quire/loader';

export const collections = {
  // Every page of both sites, one entry per page and locale. In `astro dev` scheduled posts show
  // too (with a "draft" badge), so editors can preview them; `astro build` leaves them out.
  pages: defineCollection({ loader: quireLoader({ kind: 'page', includeDrafts: true }) }),
  // Global and site-specific fragments (the header and footer).
  fragments: defineCollection({ loader: quireLoader({ kind: 'fragment' }) }),
  // Data entries, one collection each.
  settings: defineCollection({ loader: quireLoader({ kind: 'data', collection: 'settings' }) }),
  authors: defineCollection({ loader: quireLoader({ kind: 'data', collection: 'authors' }) }),
};
