import { CONTENT_TEXTS, type ContentListItem, type ContentListQuery, type Folder } from '@stratum/contracts'
import pg from 'pg'
import type { Db } from '../store/db.js'
import { listContent, withoutContent, type ContentActor } from './store.js'
import { notFound, conflict, invalidInput } from '../errors.js'

/**
 * Folders are their owner's (they hold only private snippets): listed, renamed, moved and deleted
 * by their owner alone. Names are unique among the owner's folders of the project (the SQL editor spec's validation rules).
 */

interface FolderRow {
  id: string
  name: string
  owner_id: string
  parent_id: string | null
  project_id: string
}

function toFolder(row: FolderRow): Folder {
  return { id: row.id, name: row.name, owner_id: row.owner_id, parent_id: row.parent_id, project_id: Number(row.project_id) }
}

function isDuplicateName(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.code === '23505' && error.constraint === 'content_folders_name'
}

async function ownFolder(db: Db, actor: ContentActor, id: string): Promise<FolderRow> {
  const { rows } = await db.query<FolderRow>('SELECT * FROM content_folders WHERE id = $1 AND project_id = $2 AND owner_id = $3', [
    id,
    actor.projectId,
    actor.userId,
  ])
  if (!rows[0]) throw notFound(`Folder ${id} not found`)
  return rows[0]
}

export async function getFolder(db: Db, actor: ContentActor, id: string): Promise<Folder> {
  return toFolder(await ownFolder(db, actor, id))
}

/**
 * One level of the tree: the folders under parentId (null: the root) and the snippets in it. With
 * a name, snippets are searched in every folder and folders are those whose name matches.
 */
export async function listFolder(
  db: Db,
  actor: ContentActor,
  parentId: string | null,
  query: ContentListQuery,
): Promise<{ cursor?: string; data: { folders: Folder[]; contents: ContentListItem[] } }> {
  if (parentId) await ownFolder(db, actor, parentId)
  const params: unknown[] = [actor.projectId, actor.userId]
  let where = 'project_id = $1 AND owner_id = $2'
  if (query.name) {
    params.push(`%${query.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    where += ` AND name ILIKE $3`
  } else {
    params.push(parentId)
    where += ' AND parent_id IS NOT DISTINCT FROM $3::uuid'
  }
  // Folders come with the first page only.
  const folders = query.cursor ? { rows: [] as FolderRow[] } : await db.query<FolderRow>(`SELECT * FROM content_folders WHERE ${where} ORDER BY name, id`, params)
  const page = await listContent(db, actor, { ...query, ...(query.name ? {} : { folderId: parentId }) })
  return {
    ...(page.cursor ? { cursor: page.cursor } : {}),
    data: { folders: folders.rows.map(toFolder), contents: page.data.map(withoutContent) },
  }
}

export async function createFolder(db: Db, actor: ContentActor, input: { name: string; parent_id?: string | null }): Promise<Folder> {
  if (input.parent_id) await ownFolder(db, actor, input.parent_id)
  try {
    const { rows } = await db.query<FolderRow>(
      'INSERT INTO content_folders (project_id, owner_id, parent_id, name) VALUES ($1, $2, $3, $4) RETURNING *',
      [actor.projectId, actor.userId, input.parent_id ?? null, input.name],
    )
    return toFolder(rows[0]!)
  } catch (error) {
    if (isDuplicateName(error)) throw conflict(CONTENT_TEXTS.folderExistsOnCreate)
    throw error
  }
}

/** Renames and/or moves a folder; parent_id null moves it to the root. */
export async function updateFolder(db: Db, actor: ContentActor, id: string, input: { name?: string; parent_id?: string | null }): Promise<Folder> {
  const folder = await ownFolder(db, actor, id)
  const parentId = input.parent_id !== undefined ? input.parent_id : folder.parent_id
  if (parentId && parentId !== folder.parent_id) {
    await ownFolder(db, actor, parentId)
    // The new parent must not be the folder itself or one of its subfolders.
    const { rowCount } = await db.query(
      `WITH RECURSIVE up AS (
         SELECT id, parent_id FROM content_folders WHERE id = $1
         UNION SELECT f.id, f.parent_id FROM content_folders f JOIN up ON f.id = up.parent_id)
       SELECT 1 FROM up WHERE id = $2`,
      [parentId, id],
    )
    if (rowCount) throw invalidInput('A folder cannot be moved into itself or one of its subfolders')
  }
  try {
    const { rows } = await db.query<FolderRow>('UPDATE content_folders SET name = $2, parent_id = $3 WHERE id = $1 RETURNING *', [
      id,
      input.name ?? folder.name,
      parentId,
    ])
    return toFolder(rows[0]!)
  } catch (error) {
    if (isDuplicateName(error)) throw conflict(CONTENT_TEXTS.folderExistsOnUpdate)
    throw error
  }
}

/** Deletes folders with their subfolders and the snippets they hold. */
export async function deleteFolders(db: Db, actor: ContentActor, ids: string[]): Promise<{ id: string }[]> {
  for (const id of ids) await ownFolder(db, actor, id)
  const { rows } = await db.query<{ id: string }>(
    'DELETE FROM content_folders WHERE project_id = $1 AND owner_id = $2 AND id = ANY($3::uuid[]) RETURNING id',
    [actor.projectId, actor.userId, ids],
  )
  return rows.map(({ id }) => ({ id }))
}
