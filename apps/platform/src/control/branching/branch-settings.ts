import type { Db } from '../../store/db.js'
import { protectFunctionCode } from '../../services/functions/sandbox.js'
import { deployFunction, listFunctions, readFunctionFiles } from '../../services/functions/store.js'

/**
 * What a branch takes from its parent besides the database (issue 29 item 5): the edge functions as deployed
 * (their files, name, verify_jwt, entrypoint and import map), their secrets and the auth settings. Secrets and
 * the SMTP password are copied sealed: one data-dir key seals every project's. Idempotent, as a resumed step
 * needs: settings and secrets are upserted, a function already on the branch with the parent's files is kept.
 */
export async function copyParentSettings(db: Db, dataDir: string, parentRef: string, branchRef: string): Promise<void> {
  await db.query(
    `INSERT INTO function_secrets (project_ref, name, value_sealed, value_sha256, updated_at)
     SELECT $2, name, value_sealed, value_sha256, updated_at FROM function_secrets WHERE project_ref = $1
     ON CONFLICT (project_ref, name) DO UPDATE SET value_sealed = EXCLUDED.value_sealed, value_sha256 = EXCLUDED.value_sha256, updated_at = EXCLUDED.updated_at`,
    [parentRef, branchRef],
  )
  await db.query(
    `INSERT INTO project_auth_config (project_ref, settings, updated_at)
     SELECT $2, settings, updated_at FROM project_auth_config WHERE project_ref = $1
     ON CONFLICT (project_ref) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
    [parentRef, branchRef],
  )
  const onBranch = new Map((await listFunctions(db, branchRef)).map((row) => [row.slug, row]))
  const parentFunctions = await listFunctions(db, parentRef)
  if (parentFunctions.length) protectFunctionCode(dataDir, branchRef)
  for (const row of parentFunctions) {
    const files = readFunctionFiles(dataDir, row)
    const existing = onBranch.get(row.slug)
    if (existing && JSON.stringify(existing.files) === JSON.stringify(row.files) && existing.entrypoint_path === row.entrypoint_path) continue
    const metadata = { name: row.name, verify_jwt: row.verify_jwt, ...(row.import_map_path ? { import_map_path: row.import_map_path } : {}) }
    await deployFunction(db, dataDir, branchRef, row.slug, { metadata, entrypoint: row.entrypoint_path, files }, row.deployed_by)
  }
}
