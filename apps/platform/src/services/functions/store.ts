import fs from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { DEFAULT_VERIFY_JWT, type FunctionResponse } from '@stratum/contracts'
import { inTransaction, type Db, type Queryable } from '../../store/db.js'
import { FUNCTION_URL_BASE, type DeployInput } from './deploy-input.js'

/**
 * Edge functions as records: one row per function, its files in
 * <dataDir>/functions/<ref>/<slug>/<version>/ (older versions are removed after a deploy).
 */
export interface FunctionRow {
  id: string
  project_ref: string
  slug: string
  name: string
  version: number
  verify_jwt: boolean
  entrypoint_path: string
  import_map_path: string | null
  files: { name: string; size: number }[]
  /** Who deployed this version (null once that account is gone, or for a branch's copy of its parent's). */
  deployed_by: string | null
  created_at: Date
  updated_at: Date
}

export const toFunction = (row: FunctionRow, status: FunctionResponse['status'] = 'ACTIVE'): FunctionResponse => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  status,
  version: row.version,
  created_at: row.created_at.getTime(),
  updated_at: row.updated_at.getTime(),
  verify_jwt: row.verify_jwt,
  import_map: row.import_map_path !== null,
  entrypoint_path: functionFileUrl(row.slug, row.entrypoint_path),
  ...(row.import_map_path !== null ? { import_map_path: functionFileUrl(row.slug, row.import_map_path) } : {}),
})

/**
 * A function's file as the hosted API names it in answers: a `file://` URL (clients such as the MCP
 * server parse it with `new URL`), under a base that does not change between versions. Stored paths
 * stay relative ('index.ts').
 */
export const functionFileUrl = (slug: string, file: string): string =>
  `${FUNCTION_URL_BASE}/${slug}/${file.split('/').map(encodeURIComponent).join('/')}`

export const functionsDir = (dataDir: string, ref: string) => path.join(dataDir, 'functions', ref)
export const functionDir = (dataDir: string, ref: string, slug: string) => path.join(functionsDir(dataDir, ref), slug)
export const versionDir = (dataDir: string, row: FunctionRow) => path.join(functionDir(dataDir, row.project_ref, row.slug), String(row.version))

export async function listFunctions(db: Queryable, ref: string): Promise<FunctionRow[]> {
  return (await db.query<FunctionRow>('SELECT * FROM edge_functions WHERE project_ref = $1 ORDER BY created_at, slug', [ref])).rows
}

export async function findFunction(db: Queryable, ref: string, slug: string): Promise<FunctionRow | null> {
  const { rows } = await db.query<FunctionRow>('SELECT * FROM edge_functions WHERE project_ref = $1 AND slug = $2', [ref, slug])
  return rows[0] ?? null
}

/**
 * Writes the files to a fresh directory, then in one transaction creates the function or bumps its
 * version and moves the directory into place; a failure leaves the previous version untouched.
 * Metadata left out keeps the previous deploy's value (first deploy: name = slug, verify_jwt true).
 */
export async function deployFunction(db: Db, dataDir: string, ref: string, slug: string, input: DeployInput, userId: string | null): Promise<FunctionRow> {
  const dir = functionDir(dataDir, ref, slug)
  const staging = path.join(dir, `.staging-${randomUUID()}`)
  try {
    for (const file of input.files) {
      const target = path.join(staging, file.name)
      fs.mkdirSync(path.dirname(target), { recursive: true })
      fs.writeFileSync(target, file.content)
    }
    const row = await inTransaction(db, async (tx) => {
      const { rows } = await tx.query<FunctionRow>(
        `INSERT INTO edge_functions (project_ref, slug, name, verify_jwt, entrypoint_path, import_map_path, files, deployed_by)
         VALUES ($1, $2, COALESCE($3, $2), COALESCE($4, $9::boolean), $5, $6, $7, $8)
         ON CONFLICT (project_ref, slug) DO UPDATE SET
           version = edge_functions.version + 1,
           name = COALESCE($3, edge_functions.name),
           verify_jwt = COALESCE($4, edge_functions.verify_jwt),
           entrypoint_path = $5, import_map_path = $6, files = $7, deployed_by = $8, updated_at = now()
         RETURNING *`,
        [
          ref, slug, input.metadata.name ?? null, input.metadata.verify_jwt ?? null, input.entrypoint,
          input.metadata.import_map_path ?? null,
          JSON.stringify(input.files.map((f) => ({ name: f.name, size: f.content.length }))),
          userId, DEFAULT_VERIFY_JWT,
        ],
      )
      const saved = rows[0]!
      // Only left over by a deploy whose commit failed: the row lock makes deploys of one slug take turns.
      fs.rmSync(versionDir(dataDir, saved), { recursive: true, force: true })
      fs.renameSync(staging, versionDir(dataDir, saved))
      return saved
    })
    // Older versions are nobody's now.
    for (const entry of fs.readdirSync(dir)) {
      if (/^\d+$/.test(entry) && Number(entry) < row.version) fs.rmSync(path.join(dir, entry), { recursive: true, force: true })
    }
    return row
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
  }
}

/** The deployed files of a function, in upload order. */
export function readFunctionFiles(dataDir: string, row: FunctionRow): { name: string; content: Buffer }[] {
  const dir = versionDir(dataDir, row)
  return row.files.map((file) => ({ name: file.name, content: fs.readFileSync(path.join(dir, file.name)) }))
}

export async function deleteFunction(db: Queryable, dataDir: string, ref: string, slug: string): Promise<FunctionRow | null> {
  const { rows } = await db.query<FunctionRow>('DELETE FROM edge_functions WHERE project_ref = $1 AND slug = $2 RETURNING *', [ref, slug])
  if (!rows[0]) return null
  fs.rmSync(functionDir(dataDir, ref, slug), { recursive: true, force: true })
  return rows[0]
}
