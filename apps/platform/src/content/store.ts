import {
  CONTENT_TEXTS,
  type ContentItem,
  type ContentListItem,
  type ContentListQuery,
  type ContentType,
  type ContentVisibility,
  type CreateContentBody,
  type Folder,
  type SnippetContent,
} from '@stratum/contracts'
import { inTransaction, type Db, type Queryable } from '../store/db.js'
import { keysetPage, pageOf } from './cursor.js'
import { notFound, forbidden, conflict, invalidInput } from '../errors.js'

/** Who asks, in which project, whether they may save snippets, and whether their role may change others' shared snippets. */
export interface ContentActor {
  projectId: string
  userId: string
  canUpdateProject: boolean
  /** user_content.create; without it only one's own favorites may change. */
  canSave: boolean
}

interface ContentRow {
  id: string
  project_id: string
  owner_id: string
  last_updated_by: string | null
  folder_id: string | null
  name: string
  description: string
  type: ContentType
  visibility: ContentVisibility
  favorite: boolean
  content: SnippetContent
  inserted_at: Date
  updated_at: Date
  owner_username: string
  updated_by_username: string | null
  sort_value?: string
}

/** Favorites are each member's own (content_favorites); $2 is the caller. */
const IS_FAVORITE = `EXISTS (SELECT 1 FROM content_favorites f WHERE f.content_id = c.id AND f.user_id = $2)`
const SELECT = `SELECT c.*, ${IS_FAVORITE} AS favorite, ou.username AS owner_username, uu.username AS updated_by_username
  FROM content c JOIN users ou ON ou.id = c.owner_id LEFT JOIN users uu ON uu.id = c.last_updated_by`
/** Private snippets are their owner's; shared ones every member's. $1 project, $2 user. */
const VISIBLE = `c.project_id = $1 AND (c.visibility <> 'user' OR c.owner_id = $2)`
const SORT_COLUMNS = { name: 'c.name', inserted_at: 'c.inserted_at', updated_at: 'c.updated_at' } as const

function toItem(row: ContentRow): ContentItem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    visibility: row.visibility,
    project_id: Number(row.project_id),
    owner_id: row.owner_id,
    folder_id: row.folder_id,
    favorite: row.favorite,
    inserted_at: row.inserted_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_updated_by: row.last_updated_by,
    owner: { id: row.owner_id, username: row.owner_username },
    updated_by: row.last_updated_by ? { id: row.last_updated_by, username: row.updated_by_username ?? '' } : null,
    content: { ...row.content, favorite: row.favorite },
  }
}

function withoutContent(item: ContentItem): ContentListItem {
  const { content: _content, ...rest } = item
  return rest
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

export interface ListOptions extends ContentListQuery {
  /** Only snippets in this folder (null: at the root); undefined: anywhere. */
  folderId?: string | null
}

export async function listContent(db: Db, actor: ContentActor, query: ListOptions): Promise<{ cursor?: string; data: ContentItem[] }> {
  const params: unknown[] = [actor.projectId, actor.userId]
  const where = [VISIBLE]
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value)
    where.push(sql(`$${params.length}`))
  }
  if (query.type) add((n) => `c.type = ${n}`, query.type)
  if (query.visibility === 'private') where.push(`c.visibility = 'user' AND c.owner_id = $2`)
  if (query.visibility === 'shared') where.push(`c.visibility <> 'user'`)
  if (query.favorite !== undefined) add((n) => `${IS_FAVORITE} = ${n}`, query.favorite)
  if (query.name) add((n) => `c.name ILIKE ${n}`, likePattern(query.name))
  if (query.search) add((n) => `(c.name ILIKE ${n} OR c.content->>'sql' ILIKE ${n})`, likePattern(query.search))
  if (query.folderId !== undefined) add((n) => `c.folder_id IS NOT DISTINCT FROM ${n}::uuid`, query.folderId)
  const order = { column: SORT_COLUMNS[query.sort_by], cast: query.sort_by === 'name' ? 'text' : 'timestamptz', direction: query.sort_order === 'asc' ? 'ASC' : 'DESC' } as const
  const tail = keysetPage(order, query.cursor, query.limit, where, params)
  const select = SELECT.replace('SELECT c.*,', `SELECT ${order.column}::text AS sort_value, c.*,`)
  const { rows } = await db.query<ContentRow>(`${select} WHERE ${where.join(' AND ')} ${tail}`, params)
  const { page, cursor } = pageOf(rows, query.limit)
  return { ...(cursor ? { cursor } : {}), data: page.map(toItem) }
}

export async function getContent(db: Queryable, actor: ContentActor, id: string): Promise<ContentItem> {
  const { rows } = await db.query<ContentRow>(`${SELECT} WHERE ${VISIBLE} AND c.id = $3`, [actor.projectId, actor.userId, id])
  if (!rows[0]) throw notFound(`Content ${id} not found`)
  return toItem(rows[0])
}

export async function countContent(db: Db, actor: ContentActor, type?: ContentType): Promise<{ favorites: number; private: number; shared: number }> {
  const { rows } = await db.query<{ favorites: number; private: number; shared: number }>(
    `SELECT count(*) FILTER (WHERE ${IS_FAVORITE})::int AS favorites,
            count(*) FILTER (WHERE c.visibility = 'user')::int AS private,
            count(*) FILTER (WHERE c.visibility <> 'user')::int AS shared
     FROM content c WHERE ${VISIBLE} AND ($3::text IS NULL OR c.type = $3)`,
    [actor.projectId, actor.userId, type ?? null],
  )
  return rows[0]!
}

function assertMayChange(actor: ContentActor, row: { owner_id: string; visibility: ContentVisibility }, verb: 'change' | 'delete'): void {
  if (row.owner_id === actor.userId) return
  if (row.visibility !== 'user' && actor.canUpdateProject) return
  throw forbidden(`Only the owner of this snippet can ${verb} it`)
}

async function assertOwnFolder(db: Queryable, actor: ContentActor, folderId: string): Promise<void> {
  const { rowCount } = await db.query('SELECT 1 FROM content_folders WHERE id = $1 AND project_id = $2 AND owner_id = $3', [
    folderId,
    actor.projectId,
    actor.userId,
  ])
  if (!rowCount) throw notFound(`Folder ${folderId} not found`)
}

/**
 * Saves a snippet: creates it (POST, or PUT of an unknown id) or updates it (PUT of a known id,
 * by its owner or, for a shared one, a role that may update the project).
 */
export function saveContent(db: Db, actor: ContentActor, body: CreateContentBody, mode: 'create' | 'upsert'): Promise<ContentItem> {
  // Saves of one snippet are serialised: a rename and a debounced SQL save sent together each merge into
  // the row as the other left it (a rename read before the SQL landed would otherwise write the old SQL back).
  return inTransaction(db, (client) => saveContentLocked(client, actor, body, mode))
}

/** A save that changes nothing but the caller's favorite: any member who sees the snippet may do it. */
function isFavoriteOnly(body: CreateContentBody): boolean {
  const favorite = body.favorite ?? body.content?.favorite
  return favorite !== undefined && [body.name, body.description, body.visibility, body.folder_id, body.content?.sql, body.content?.chart, body.content?.layout].every((v) => v === undefined)
}

async function setFavorite(db: Queryable, actor: ContentActor, id: string, favorite: boolean): Promise<void> {
  if (favorite) await db.query('INSERT INTO content_favorites (content_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, actor.userId])
  else await db.query('DELETE FROM content_favorites WHERE content_id = $1 AND user_id = $2', [id, actor.userId])
}

/** A SQL snippet named Untitled query with no SQL holds nothing of the user's: it is not stored (the editor's drafts used to pile them up). */
function isEmptyUntitled(body: CreateContentBody, name: string, sql: string | undefined): boolean {
  return body.type === 'sql' && name === CONTENT_TEXTS.defaultSnippetName && !(sql ?? '').trim()
}

async function saveContentLocked(db: Queryable, actor: ContentActor, body: CreateContentBody, mode: 'create' | 'upsert'): Promise<ContentItem> {
  const existing = body.id
    ? (await db.query<ContentRow>('SELECT * FROM content c WHERE c.id = $1 FOR UPDATE', [body.id])).rows[0]
    : undefined
  if (existing && (mode === 'create' || existing.project_id !== actor.projectId)) {
    throw conflict(`Content ${body.id} already exists`)
  }
  if (existing && existing.visibility === 'user' && existing.owner_id !== actor.userId) throw notFound(`Content ${body.id} not found`)
  if (existing && isFavoriteOnly(body)) {
    if (body.owner_id && body.owner_id !== existing.owner_id) throw invalidInput('The owner of a snippet cannot be changed')
    await setFavorite(db, actor, existing.id, (body.favorite ?? body.content?.favorite)!)
    return getContent(db, actor, existing.id)
  }
  if (!actor.canSave) throw forbidden(CONTENT_TEXTS.cannotSave)
  if (existing) {
    assertMayChange(actor, existing, 'change')
    if (body.owner_id && body.owner_id !== existing.owner_id) throw invalidInput('The owner of a snippet cannot be changed')
  } else if (body.owner_id && body.owner_id !== actor.userId) {
    throw forbidden('A snippet you save is owned by you: owner_id must be your own user id')
  }

  const visibility = body.visibility ?? existing?.visibility ?? 'user'
  const folderId = body.folder_id !== undefined ? body.folder_id : (existing?.folder_id ?? null)
  if (visibility !== 'user' && folderId) throw invalidInput(CONTENT_TEXTS.sharedSnippetInFolder)
  if (folderId && folderId !== existing?.folder_id) await assertOwnFolder(db, actor, folderId)

  // The caller's own favorite (content_favorites), never a flag stored on the snippet for everyone.
  const favorite = body.favorite ?? body.content?.favorite
  const base = body.content ?? existing?.content
  const values = {
    name: body.name ?? existing?.name ?? CONTENT_TEXTS.defaultSnippetName,
    description: body.description ?? existing?.description ?? '',
    type: body.type,
    visibility,
    folderId,
  }
  if (!existing && isEmptyUntitled(body, values.name, base?.sql)) throw invalidInput(CONTENT_TEXTS.emptyUntitledSnippet)
  const id = body.id ?? crypto.randomUUID()
  const { favorite: _everyone, ...rest } = base ?? { schema_version: '1.0' as const, sql: '' }
  const content: SnippetContent = { ...rest, schema_version: '1.0' }
  content.content_id ??= id

  if (existing) {
    await db.query(
      `UPDATE content SET name = $2, description = $3, type = $4, visibility = $5, folder_id = $6,
         content = $7, last_updated_by = $8, updated_at = now() WHERE id = $1`,
      [id, values.name, values.description, values.type, values.visibility, values.folderId, content, actor.userId],
    )
  } else {
    await db.query(
      `INSERT INTO content (id, project_id, owner_id, last_updated_by, name, description, type, visibility, folder_id, content)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9)`,
      [id, actor.projectId, actor.userId, values.name, values.description, values.type, values.visibility, values.folderId, content],
    )
  }
  if (favorite !== undefined) await setFavorite(db, actor, id, favorite)
  return getContent(db, actor, id)
}

export async function deleteContent(db: Db, actor: ContentActor, ids: string[]): Promise<{ id: string }[]> {
  const { rows } = await db.query<ContentRow>(`SELECT c.* FROM content c WHERE ${VISIBLE} AND c.id = ANY($3::uuid[])`, [
    actor.projectId,
    actor.userId,
    ids,
  ])
  const found = new Map(rows.map((row) => [row.id, row]))
  for (const id of ids) {
    const row = found.get(id)
    if (!row) throw notFound(`Content ${id} not found`)
    assertMayChange(actor, row, 'delete')
  }
  const deleted = await db.query<{ id: string }>('DELETE FROM content WHERE project_id = $1 AND id = ANY($2::uuid[]) RETURNING id', [
    actor.projectId,
    ids,
  ])
  return deleted.rows.map(({ id }) => ({ id }))
}

export { withoutContent }
export type { Folder }
