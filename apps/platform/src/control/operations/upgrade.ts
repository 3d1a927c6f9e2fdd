import type { PostgresMajor } from '@stratum/contracts'
import pg from 'pg'
import { adminConnection, bootstrapClusterRoles, bootstrapDatabaseEssentials, withAdminClient } from '../bootstrap-roles.js'
import { dumpDatabase, restoreDump } from '../logical/index.js'
import type { InstanceSpec } from '../instance-provider.js'
import { databaseSettingsOf, ProjectService } from '../projects.js'
import type { ProjectRow } from '../project-store.js'
import type { OperationContext, OperationDefinition } from './operation.js'
import type { OperationRow } from './operation-store.js'
import { takeLogicalBackup } from '../logical-backups.js'

/**
 * Major-version upgrade, for real: a new instance of the target major is built beside the live
 * one, the data moves by a logical dump and restore (no pg_upgrade binary ships with the embedded
 * Postgres), extensions are updated, ANALYZE runs, then the switch-over. The old data directory is
 * kept until the very end; any failure puts the old instance back online with its data.
 *
 * Progress codes and error codes are the Management API's (contracts/upgrade.ts).
 */
const targetOf = (op: OperationRow) => op.params.target_major as PostgresMajor
const nextSpec = (project: ProjectRow, op: OperationRow): InstanceSpec => ({
  ref: project.ref,
  slot: 'next',
  major: targetOf(op),
  port: op.params.next_port as number,
  computeSize: project.compute_size,
  database: databaseSettingsOf(project),
})

/** The new instance, started again if a restart of the platform (or the machine) stopped it. */
async function runningNext(ctx: OperationContext, project: ProjectRow, op: OperationRow): Promise<InstanceSpec> {
  const next = nextSpec(project, op)
  await ctx.provider.ensureRunning(next)
  return next
}

function withClient<T>(port: number, password: string, database: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  return withAdminClient(adminConnection(port, password, database), fn)
}

/** The project's own databases (not the templates). */
async function userDatabases(port: number, password: string): Promise<string[]> {
  return withClient(port, password, 'postgres', async (client) =>
    (await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE NOT datistemplate ORDER BY datname = 'postgres' DESC, datname`)).rows.map((r) => r.datname),
  )
}

/** Writes stop on the live instance so that nothing written after the dump is lost by the switch. */
async function setLiveReadOnly(port: number, password: string, readOnly: boolean): Promise<void> {
  await withClient(port, password, 'postgres', async (client) => {
    await client.query(readOnly ? 'ALTER SYSTEM SET default_transaction_read_only = on' : 'ALTER SYSTEM RESET default_transaction_read_only')
    await client.query('SELECT pg_reload_conf()')
    if (readOnly) {
      // Sessions that began before the switch keep their old default: end them.
      await client.query(`SELECT pg_catalog.pg_terminate_backend(pid) FROM pg_catalog.pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`)
    }
  })
}

export const upgrade: OperationDefinition = {
  requestedStatus: 'UPGRADING',
  runningStatus: 'UPGRADING',
  steps: [
    { name: 'start', marks: { progress: '1_started' }, run: async () => {} },
    {
      name: 'launch-new-server',
      marks: { progress: '2_launched_upgraded_instance' },
      failureMarks: { error_code: '1_upgraded_instance_launch_failed' },
      async run(ctx, project, op) {
        await ctx.provider.provision(nextSpec(project, op), ctx.projects.credentials(project))
      },
    },
    {
      name: 'pre-upgrade-checks',
      marks: { progress: '3_detached_volume_from_upgraded_instance' },
      failureMarks: { error_code: '2_volume_detachchment_from_upgraded_instance_failed' },
      async run(ctx, project, op) {
        const password = ctx.projects.credentials(project).adminPassword
        for (const database of await userDatabases(project.port, password)) {
          const installed = await withClient(project.port, password, database, async (c) => (await c.query<{ extname: string }>('SELECT extname FROM pg_extension')).rows.map((r) => r.extname))
          const available = await withClient((await runningNext(ctx, project, op)).port, password, 'postgres', async (c) => (await c.query<{ name: string }>('SELECT name FROM pg_available_extensions')).rows.map((r) => r.name))
          const missing = installed.filter((name) => !available.includes(name))
          if (missing.length) throw new Error(`Postgres ${targetOf(op)} lacks the extensions ${missing.join(', ')} used in database ${database}`)
        }
      },
    },
    {
      name: 'stop-writes',
      marks: { progress: '4_attached_volume_to_original_instance' },
      failureMarks: { error_code: '3_volume_attachment_to_original_instance_failed' },
      run: (ctx, project) => setLiveReadOnly(project.port, ctx.projects.credentials(project).adminPassword, true),
    },
    {
      name: 'migrate-data',
      marks: { progress: '6_completed_data_upgrade' },
      failureMarks: { error_code: '5_data_upgrade_completion_failed' },
      async run(ctx, project, op) {
        await ctx.db.query(`UPDATE operations SET params = params || '{"progress":"5_initiated_data_upgrade"}' WHERE id = $1`, [op.id])
        const password = ctx.projects.credentials(project).adminPassword
        const next = await runningNext(ctx, project, op)
        for (const database of await userDatabases(project.port, password)) {
          // Idempotent: a resumed step starts again from an empty database.
          await withClient(next.port, password, database === 'postgres' ? 'template1' : 'postgres', async (client) => {
            await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(database)} WITH (FORCE)`)
            await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`)
          })
          const from = adminConnection(project.port, password, database)
          await restoreDump({ ...from, port: next.port }, dumpDatabase(from))
        }
      },
    },
    {
      name: 'update-extensions',
      marks: { progress: '7_detached_volume_from_original_instance' },
      failureMarks: { error_code: '6_volume_detachchment_from_original_instance_failed' },
      async run(ctx, project, op) {
        const password = ctx.projects.credentials(project).adminPassword
        const next = await runningNext(ctx, project, op)
        // The dump's role preamble copied the old attributes: the target major's role model
        // (e.g. CREATEROLE from 16 on) and the platform's passwords are set again.
        await withClient(next.port, password, 'postgres', (client) => bootstrapClusterRoles(client, { ...ctx.projects.credentials(project), initialUserPassword: null }))
        for (const database of await userDatabases(next.port, password)) {
          await withClient(next.port, password, database, async (client) => {
            await bootstrapDatabaseEssentials(client)
            const { rows } = await client.query<{ extname: string }>(`SELECT extname FROM pg_extension WHERE extname <> 'plpgsql'`)
            for (const { extname } of rows) await client.query(`ALTER EXTENSION ${client.escapeIdentifier(extname)} UPDATE`)
          })
        }
      },
    },
    {
      name: 'optimize',
      marks: { progress: '8_attached_volume_to_upgraded_instance' },
      failureMarks: { error_code: '7_volume_attachment_to_upgraded_instance_failed' },
      async run(ctx, project, op) {
        const password = ctx.projects.credentials(project).adminPassword
        const next = await runningNext(ctx, project, op)
        for (const database of await userDatabases(next.port, password)) {
          await withClient(next.port, password, database, (client) => client.query('ANALYZE'))
        }
      },
    },
    {
      name: 'switch-over',
      marks: { progress: '9_completed_upgrade' },
      failureMarks: { error_code: '8_upgrade_completion_failed' },
      async run(ctx, project, op) {
        // Idempotent: the data on disk says whether the switch already happened.
        if (ctx.provider.liveMajor(project.ref) !== targetOf(op)) await ctx.provider.promoteNext(project.ref)
        await ctx.db.query('UPDATE projects SET postgres_major = $2 WHERE ref = $1', [project.ref, targetOf(op)])
        const live = { ...ProjectService.spec(project), major: targetOf(op) }
        await ctx.provider.ensureRunning(live)
        await setLiveReadOnly(project.port, ctx.projects.credentials(project).adminPassword, false)
        const { rows } = await withClient(project.port, ctx.projects.credentials(project).adminPassword, 'postgres', (c) => c.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
        await ctx.db.query('UPDATE projects SET postgres_version = $2 WHERE ref = $1', [project.ref, rows[0]!.v.split(' ')[0]])
      },
    },
    {
      name: 'post-backup',
      marks: { progress: '10_completed_post_physical_backup' },
      failureMarks: { error_code: '9_post_physical_backup_failed' },
      async run(ctx, project) {
        await takeLogicalBackup(ctx, project)
        await ctx.provider.discardPrevious(project.ref)
      },
    },
  ],
  succeededStatus: 'ACTIVE_HEALTHY',
  async rollBack(ctx, project, op) {
    const password = ctx.projects.credentials(project).adminPassword
    // After the switch-over (the backup failed): the upgraded instance is live and holds all the data.
    if (op.params.progress === '9_completed_upgrade') {
      await ctx.provider.discardPrevious(project.ref).catch(() => {})
      return 'ACTIVE_HEALTHY'
    }
    if (ctx.provider.liveMajor(project.ref) === targetOf(op)) {
      await ctx.provider.demoteToPrevious(project.ref)
      await ctx.db.query('UPDATE projects SET postgres_major = $2 WHERE ref = $1', [project.ref, op.params.source_major])
    }
    await ctx.provider.discardNext(project.ref)
    const live = { ...ProjectService.spec(project), major: op.params.source_major as PostgresMajor }
    await ctx.provider.ensureRunning(live)
    await setLiveReadOnly(project.port, password, false)
    const { rows } = await withClient(project.port, password, 'postgres', (c) => c.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
    await ctx.db.query('UPDATE projects SET postgres_version = $2 WHERE ref = $1', [project.ref, rows[0]!.v.split(' ')[0]])
    return 'ACTIVE_HEALTHY'
  },
}
