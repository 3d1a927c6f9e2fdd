/** Plain values of the table editor's CSV import, no zod (see the contracts README). */

/** The largest file one import takes (the body is streamed, never held in memory; this bounds how long one runs). */
export const TABLE_IMPORT_MAX_BYTES = 1024 * 1024 * 1024
