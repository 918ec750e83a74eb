/** Where an entry with this key is, or would go, in `sorted` (ordered by `keyOf`, ascending): a binary search. */
export function insertionPoint<T>(sorted: readonly T[], key: string, keyOf: (entry: T) => string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyOf(sorted[middle]!) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}
