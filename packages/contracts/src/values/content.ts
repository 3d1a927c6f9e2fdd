/**
 * Saved SQL snippets and folders: their kinds, visibilities, bounds and the spec's texts.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */
export const CONTENT_TYPES = ['sql', 'report', 'log_sql'] as const

export const CONTENT_VISIBILITIES = ['user', 'project', 'org', 'public'] as const

/** Chart kinds of a result: bar is the spec's; line and area draw the same X and Y (issue 15). */
export const CHART_TYPES = ['bar', 'line', 'area'] as const

/** Texts of the SQL editor spec (validation rules, permissions) the server answers with. */
export const CONTENT_TEXTS = {
  folderExistsOnCreate: 'Unable to create new folder: This folder name already exists',
  folderExistsOnUpdate: 'Unable to update folder: This folder name already exists',
  sharedSnippetInFolder: 'Shared snippet cannot be within a folder',
  cannotSave: 'Your queries will not be saved as you do not have sufficient permissions',
  defaultSnippetName: 'Untitled query',
  /** An untitled snippet without SQL is not stored (nothing of the user's would be in it). */
  emptyUntitledSnippet: 'An untitled query without SQL is not saved: type some SQL or give it a name first',
} as const

/** Default and largest page size of the listings (the SQL editor spec's limits). */
export const CONTENT_LIST_LIMIT = 100
export const CONTENT_LIST_MAX_LIMIT = 1000
/** Bounds on what one snippet may hold. */
export const SNIPPET_SQL_MAX = 1_000_000
export const CONTENT_NAME_MAX = 256
