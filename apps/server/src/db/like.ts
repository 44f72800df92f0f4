/** A text for LIKE/ILIKE with its wildcards (`%`, `_`) and the escape character taken literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The ILIKE pattern of "contains this text". */
export const containsPattern = (s: string) => `%${escapeLike(s)}%`;
