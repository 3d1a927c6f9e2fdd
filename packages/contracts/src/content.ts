import { z } from 'zod'
import { CHART_TYPES, CONTENT_LIST_LIMIT, CONTENT_LIST_MAX_LIMIT, CONTENT_NAME_MAX, CONTENT_TYPES, CONTENT_VISIBILITIES, SNIPPET_SQL_MAX } from './values/content.js'
import { ProjectRef } from './common.js'
export * from './values/content.js'

/**
 * Saved SQL snippets and their folders (the SQL editor spec's snippets, folders, rules and limits;
 * the hosted platform's content API shapes). Private snippets (visibility user) are their owner's; shared ones (project, org,
 * public) are every member's. Only private snippets may sit in folders.
 */

export const ContentType = z.enum(CONTENT_TYPES, { error: `type must be one of ${CONTENT_TYPES.join(', ')}` })
export type ContentType = z.infer<typeof ContentType>

export const ContentVisibility = z.enum(CONTENT_VISIBILITIES, { error: `visibility must be one of ${CONTENT_VISIBILITIES.join(', ')}` })
export type ContentVisibility = z.infer<typeof ContentVisibility>

const Id = (what: string) => z.uuid({ error: `${what} must be a UUID` })
export const ContentIdParams = z.object({ ref: ProjectRef, id: Id('id') })

const Name = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(CONTENT_NAME_MAX, `${what} must be at most ${CONTENT_NAME_MAX} characters`)

export const ChartConfig = z
  .object({
    type: z.enum(CHART_TYPES, { error: `chart.type must be one of ${CHART_TYPES.join(', ')}` }).optional(),
    cumulative: z.boolean().optional(),
    xKey: z.string().optional(),
    yKey: z.string().optional(),
    showLabels: z.boolean().optional(),
    showGrid: z.boolean().optional(),
    view: z.enum(['table', 'chart']).optional(),
  })
  .passthrough()

/** The stored content of a snippet. */
export const SnippetContent = z.object({
  schema_version: z.literal('1.0', { error: 'content.schema_version must be 1.0' }).default('1.0'),
  content_id: z.string().max(128).optional(),
  sql: z.string({ error: 'content.sql must be a string' }).max(SNIPPET_SQL_MAX, `content.sql must be at most ${SNIPPET_SQL_MAX} characters`).default(''),
  favorite: z.boolean({ error: 'content.favorite must be true or false' }).optional(),
  chart: ChartConfig.optional(),
  /** Reports (type 'report'): the saved snippets pinned on it, in order, each with its own view and chart settings. */
  layout: z
    .array(
      z.object({ snippet_id: z.string({ error: 'layout[].snippet_id must be a string' }).max(128), chart: ChartConfig.optional() }),
      { error: 'content.layout must be a list' },
    )
    .max(100, 'A report holds at most 100 widgets')
    .optional(),
})
export type SnippetContent = z.output<typeof SnippetContent>

/** POST /platform/projects/{ref}/content (header Version: 2). */
export const CreateContentBody = z.object({
  id: Id('id').optional(),
  /** Missing: 'Untitled query' for a new snippet, unchanged for an existing one. */
  name: Name('name').optional(),
  description: z.string().max(10_000, 'description must be at most 10000 characters').optional(),
  type: ContentType,
  /** Missing: user (private) for a new snippet, unchanged for an existing one. */
  visibility: ContentVisibility.optional(),
  project_id: z.number().optional(),
  owner_id: Id('owner_id').optional(),
  folder_id: Id('folder_id').nullable().optional(),
  favorite: z.boolean({ error: 'favorite must be true or false' }).optional(),
  content: SnippetContent.optional(),
})
export type CreateContentBody = z.output<typeof CreateContentBody>

/** PUT /platform/projects/{ref}/content: an upsert, id and owner_id required. */
export const UpsertContentBody = CreateContentBody.extend({
  id: Id('id'),
  owner_id: Id('owner_id'),
})
export type UpsertContentBody = z.output<typeof UpsertContentBody>

export const ContentUser = z.object({ id: z.string(), username: z.string() })

export const ContentItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  type: ContentType,
  visibility: ContentVisibility,
  project_id: z.number(),
  owner_id: z.string(),
  folder_id: z.string().nullable(),
  favorite: z.boolean(),
  inserted_at: z.string(),
  updated_at: z.string(),
  last_updated_by: z.string().nullable(),
  owner: ContentUser,
  updated_by: ContentUser.nullable(),
  content: SnippetContent,
})
export type ContentItem = z.infer<typeof ContentItem>

export const ContentListItem = ContentItem.omit({ content: true })
export type ContentListItem = z.infer<typeof ContentListItem>

const QueryBoolean = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be true or false` }).transform((value) => value === 'true')

const Limit = z
  .string()
  .regex(/^\d{1,9}$/, 'limit must be a positive integer')
  .transform(Number)
  .pipe(z.number().min(1, 'limit must be a positive integer').max(CONTENT_LIST_MAX_LIMIT, `limit must be at most ${CONTENT_LIST_MAX_LIMIT}`))

/** private/shared are the dashboard's words; user/project the stored values. */
export const VisibilityFilter = z
  .enum(['user', 'project', 'org', 'public', 'private', 'shared'], { error: 'visibility must be private or shared' })
  .transform((value) => (value === 'user' || value === 'private' ? ('private' as const) : ('shared' as const)))

export const ContentListQuery = z.object({
  type: ContentType.optional(),
  visibility: VisibilityFilter.optional(),
  favorite: QueryBoolean('favorite').optional(),
  name: z.string().max(CONTENT_NAME_MAX).optional(),
  /** Snippets whose name or SQL contains this text (case-insensitive). */
  search: z.string().max(CONTENT_NAME_MAX, `search must be at most ${CONTENT_NAME_MAX} characters`).optional(),
  cursor: z.string().max(1000).optional(),
  limit: Limit.default(CONTENT_LIST_LIMIT),
  sort_by: z.enum(['name', 'inserted_at', 'updated_at'], { error: 'sort_by must be name, inserted_at or updated_at' }).default('inserted_at'),
  sort_order: z.enum(['asc', 'desc'], { error: 'sort_order must be asc or desc' }).default('desc'),
})
export type ContentListQuery = z.output<typeof ContentListQuery>

export const ContentListResponse = z.object({ cursor: z.string().optional(), data: z.array(ContentItem) })

export const ContentCountQuery = z.object({ type: ContentType.optional() })
export const ContentCountResponse = z.object({ favorites: z.number(), private: z.number(), shared: z.number() })

/** ?ids=a,b or ?ids=a&ids=b */
export const IdsQuery = z.object({
  ids: z
    .union([z.string(), z.array(z.string())], { error: 'ids is required' })
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(Id('Each id')).min(1, 'ids is required').max(1000, 'At most 1000 ids at once')),
})
export const DeletedIds = z.array(z.object({ id: z.string() }))

export const Folder = z.object({
  id: z.string(),
  name: z.string(),
  owner_id: z.string(),
  parent_id: z.string().nullable(),
  project_id: z.number(),
})
export type Folder = z.infer<typeof Folder>

/** Body of POST and PUT on folders: `parentId` (the dashboard's call) or `parent_id`. */
export const CreateFolderBody = z
  .object({
    name: Name('Folder name'),
    parent_id: Id('parent_id').nullable().optional(),
    parentId: Id('parentId').nullable().optional(),
  })
  .transform(({ name, parent_id, parentId }) => ({ name, parent_id: parent_id !== undefined ? parent_id : parentId }))
export const UpdateFolderBody = z
  .object({
    name: Name('Folder name').optional(),
    parent_id: Id('parent_id').nullable().optional(),
    parentId: Id('parentId').nullable().optional(),
  })
  .transform(({ name, parent_id, parentId }) => ({ name, parent_id: parent_id !== undefined ? parent_id : parentId }))

export const FolderListResponse = z.object({
  cursor: z.string().optional(),
  data: z.object({ folders: z.array(Folder), contents: z.array(ContentListItem) }),
})
