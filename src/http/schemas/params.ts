import * as v from 'valibot';
import { ContentId, LocaleCode, SiteName } from '../../content/codes.js';

/** The path parameters: each `:name` of a route path has its schema here. */

const Id = v.pipe(ContentId, v.description('Content ID.'));
const Locale = v.pipe(LocaleCode, v.description('Locale code, e.g. `en` or `pt-BR`.'));

export const IdParams = v.object({ id: Id });
export const LocaleParams = v.object({ id: Id, locale: Locale });
export const SiteParams = v.object({ site: v.pipe(SiteName, v.description('Site name from `sites.json`.')) });
// Names are looked up as stored (a hand-written file may carry any name), so no pattern here.
export const NameParams = v.object({
  name: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Name of the fragment, block or data entry within its collection.'),
  ),
});
export const TargetLocaleParams = v.object({
  targetLocale: v.pipe(LocaleCode, v.description('The locale that is missing.')),
});
export const AssetPathParams = v.object({
  path: v.pipe(
    v.string(),
    v.minLength(1),
    v.description(
      'Path of the asset under the assets folder, as one URL-encoded segment: `photos%2F2024%2Fcat.png` for `photos/2024/cat.png`. ' +
        'The unencoded form with `/` is answered too.',
    ),
  ),
});
