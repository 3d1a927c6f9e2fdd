import { expect, it, describe } from 'vitest'
import { withAdminClient } from '../../src/control/bootstrap-roles.js'
import { api, login, waitForStatus } from './harness.js'
import { describeTrojans, setTrojanCookie, trojanPlatform } from './privileged-sql-trojans-cases.js'

/**
 * Tenant overloads of catalog functions never run as a superuser (privileged-sql-trojans-cases.ts), on both majors;
 * the major upgrade's share is in the soak tier (privileged-sql-trojans-upgrade.soak.test.ts). And a project made by
 * an earlier version is brought to today's role model.
 */
describeTrojans([
  { major: '15', upgrade: false },
  { major: '17', upgrade: false },
])

describe('a project made by an earlier version', () => {
  it('loses REPLICATION and gets the pinned search_path at the next boot, keeping its data', async () => {
    const { t, orgSlug } = trojanPlatform()
    let { cookie } = trojanPlatform()
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Earlier', organization_slug: orgSlug, db_pass: 'earlier-password-1' })
    const ref = created.body.ref as string
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 120_000)
    const row = (await t.platform.ctx.db.query('SELECT * FROM projects WHERE ref = $1', [ref])).rows[0]
    // What an earlier version left: postgres and a role it made with REPLICATION, the superuser's path unpinned.
    await withAdminClient(t.platform.ctx.projects.adminConnection(row), async (client) => {
      await client.query(`CREATE TABLE public.kept AS SELECT g AS id FROM generate_series(1, 100) g`)
      await client.query(`ALTER ROLE postgres REPLICATION`)
      await client.query(`CREATE ROLE tenant_streamer LOGIN REPLICATION`)
      await client.query(`ALTER ROLE supabase_admin RESET search_path`)
    })
    await t.platform.ctx.db.query('UPDATE projects SET role_model = 1 WHERE ref = $1', [ref])
    await t.platform.close()
    await t.restart()
    cookie = await login(t)
    setTrojanCookie(cookie)
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 120_000)
    const after = (await t.platform.ctx.db.query('SELECT * FROM projects WHERE ref = $1', [ref])).rows[0]
    expect(after.role_model).toBe(2)
    const state = await withAdminClient(t.platform.ctx.projects.adminConnection(after), async (client) => ({
      // Realtime's own login aside (bootstrap-roles.ts).
      replication: (await client.query(`SELECT rolname FROM pg_catalog.pg_roles WHERE rolreplication AND NOT rolsuper AND rolname <> 'supabase_replication_admin' ORDER BY 1`)).rows,
      adminPath: (await client.query(`SELECT s.setconfig FROM pg_catalog.pg_db_role_setting s WHERE s.setrole = 'supabase_admin'::regrole AND s.setdatabase = 0`)).rows[0]?.setconfig,
      kept: (await client.query(`SELECT count(*)::int AS n FROM public.kept`)).rows[0].n,
      sessionPath: (await client.query(`SHOW search_path`)).rows[0].search_path,
    }))
    expect(state).toEqual({ replication: [], adminPath: expect.arrayContaining(['search_path=pg_catalog, pg_temp']), kept: 100, sessionPath: 'pg_catalog,pg_temp' })
  }, 300_000)
})
