/** Base path of a project's saved content (snippets and folders). */
export const contentPath = (ref: string, rest = '') => `/platform/projects/${encodeURIComponent(ref)}/content${rest}`
