/** A created item's ID: its readable part, `-`, then 12 random lowercase Crockford base32 characters (src/content/ids.ts). */
export const idLike = (readable: string): RegExp => new RegExp(`^${readable}-[0-9a-hjkmnp-tv-z]{12}$`);

/**
 * Names for the IDs a test created, so that assertions about lists can stay readable
 * (`['about-team', 'later']`) although every ID ends in a random suffix.
 */
export function idLabels() {
  const labels = new Map<string, string>();
  return {
    /** Remembers `id` as `label` after checking it is `readable` plus a suffix. */
    name(id: string, label: string, readable = label): string {
      if (!idLike(readable).test(id)) throw new Error(`ID ${id} is not "${readable}" plus a random suffix`);
      labels.set(id, label);
      return id;
    },
    /** The label of an ID, or the ID itself. */
    of: (id: string): string => labels.get(id) ?? id,
    /** The ID named `label`. */
    idOf(label: string): string {
      for (const [id, named] of labels) if (named === label) return id;
      throw new Error(`No ID named ${label}`);
    },
  };
}
