/**
 * The one keyset cursor of the site's lists (leads, contact messages): the last row's time (ms)
 * and id, written `<time>.<id>` in URLs. Each list names its time column; `decode` tells a missing
 * cursor (null) from one no list gave out ("invalid"), which an API refuses and a page ignores.
 */
export function keysetCursor<K extends string>(timeKey: K) {
  type Cursor = Record<K, number> & { id: number };
  return {
    encode: (cursor: Cursor): string => `${cursor[timeKey]}.${cursor.id}`,
    decode(value: string | null | undefined): Cursor | null | "invalid" {
      if (value === null || value === undefined || value === "") return null;
      const match = value.match(/^(\d{1,15})\.(\d{1,15})$/);
      return match ? ({ [timeKey]: Number(match[1]), id: Number(match[2]) } as Cursor) : "invalid";
    },
  };
}
