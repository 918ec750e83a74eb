import * as v from 'valibot';

/** A locale's inheritance as stored (its `stale` flag is computed, never stored). */
export const StoredInheritanceSchema = v.object({
  state: v.picklist(['inherited', 'customized']),
  from: v.string(),
  inheritedEtag: v.optional(v.string()),
});
