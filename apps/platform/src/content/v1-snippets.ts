import type { V1SnippetsQuery } from '@stratum/contracts'
import type { Queryable } from '../store/db.js'
import { keysetPage, pageOf } from './cursor.js'

/**
 * The Management API's view of SQL snippets (GET /v1/snippets, /v1/snippets/{id}): across every
 * project the caller is a member of, their own snippets and those shared with the project (the
 * content store's visibility rule), in the reference's shape with users named by number.
 */

interface SnippetRow {
  id: string
  inserted_at: Date
  updated_at: Date
  visibility: 'user' | 'project' | 'org' | 'public'
  name: string
  description: string
  favorite: boolean
  content: { schema_version?: string; sql?: string }
  project_id: string
  project_name: string
  owner_number: string
  owner_username: string
  updater_number: string | null
  updater_username: string | null
  sort_value?: string
}

const SELECT = `
SELECT c.id, c.inserted_at, c.updated_at, c.visibility, c.name, c.description, c.content,
       EXISTS (SELECT 1 FROM content_favorites f WHERE f.content_id = c.id AND f.user_id = $1) AS favorite,
       p.id AS project_id, p.name AS project_name,
       ou.number AS owner_number, ou.username AS owner_username, uu.number AS updater_number, uu.username AS updater_username
FROM content c
JOIN projects p ON p.id = c.project_id
JOIN members m ON m.organization_id = p.organization_id AND m.user_id = $1
JOIN users ou ON ou.id = c.owner_id
LEFT JOIN users uu ON uu.id = c.last_updated_by
WHERE c.type = 'sql' AND (c.visibility <> 'user' OR c.owner_id = $1)`

function toSummary(row: SnippetRow) {
  const owner = { id: Number(row.owner_number), username: row.owner_username }
  return {
    id: row.id,
    inserted_at: row.inserted_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    type: 'sql' as const,
    visibility: row.visibility,
    name: row.name,
    description: row.description || null,
    project: { id: Number(row.project_id), name: row.project_name },
    owner,
    // A snippet nobody else changed was last updated by its owner.
    updated_by: row.updater_number ? { id: Number(row.updater_number), username: row.updater_username! } : owner,
    favorite: row.favorite,
  }
}

const SORT_COLUMNS = { name: 'c.name', inserted_at: 'c.inserted_at' } as const

export async function listV1Snippets(db: Queryable, userId: string, query: V1SnippetsQuery) {
  const params: unknown[] = [userId]
  const where: string[] = []
  if (query.project_ref) {
    params.push(query.project_ref)
    where.push(`p.ref = $${params.length}`)
  }
  const order = { column: SORT_COLUMNS[query.sort_by], cast: query.sort_by === 'name' ? 'text' : 'timestamptz', direction: query.sort_order === 'asc' ? 'ASC' : 'DESC' } as const
  const tail = keysetPage(order, query.cursor, query.limit, where, params)
  const { rows } = await db.query<SnippetRow>(
    `${SELECT.replace('SELECT c.id,', `SELECT ${order.column}::text AS sort_value, c.id,`)} ${where.map((clause) => `AND ${clause}`).join(' ')} ${tail}`,
    params,
  )
  const { page, cursor } = pageOf(rows, query.limit)
  return { data: page.map(toSummary), ...(cursor ? { cursor } : {}) }
}

/** One snippet with its SQL; null when it does not exist or the caller may not see it (the same answer). */
export async function getV1Snippet(db: Queryable, userId: string, id: string) {
  const { rows } = await db.query<SnippetRow>(`${SELECT} AND c.id = $2`, [userId, id])
  const row = rows[0]
  if (!row) return null
  return { ...toSummary(row), content: { favorite: row.favorite, schema_version: row.content.schema_version ?? '1.0', sql: row.content.sql ?? '' } }
}
