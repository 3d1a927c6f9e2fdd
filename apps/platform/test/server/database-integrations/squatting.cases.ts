import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { withAdminClient } from '../../../src/control/bootstrap-roles.js'
import { findProject } from '../../../src/control/project-store.js'
import { ensureCronSchema } from '../../../src/services/cron/schema.js'
import { ensureNetSchema } from '../../../src/services/net/schema.js'
import type { IntegrationProject } from './context.js'

/**
 * A project made before cron and net existed gets their schemas at its next connection. Its tenant may have made a
 * `cron` or `net` schema first, holding a table whose column default (or trigger) runs its code: the platform must
 * refuse to install there rather than write those tables as its superuser. Tried in a database of its own, so the
 * shared project's scheduler and worker are left alone.
 */
export function squattingCases(project: IntegrationProject): void {
  describe('services installed over a tenant schema of the same name', () => {
    it('refuses to install cron or net where the tenant made the schema first, and runs none of its code', async () => {
      const row = (await findProject(project.t.platform.ctx.db, project.ref))!
      const projects = project.t.platform.ctx.projects
      await withAdminClient(projects.adminConnection(row), (admin) => admin.query('CREATE DATABASE squatted OWNER postgres'))
      const tenant = new pg.Client({ host: '127.0.0.1', port: row.port, user: 'postgres', password: project.dbPassword, database: 'squatted' })
      tenant.on('error', () => {})
      await tenant.connect()
      try {
        await tenant.query(`
          CREATE TABLE public.superuser_calls (who text);
          CREATE FUNCTION public.pwn() RETURNS timestamptz LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO public.superuser_calls SELECT current_user WHERE (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user); RETURN now(); END $$;
          CREATE SCHEMA net;
          CREATE UNLOGGED TABLE net._http_response (id bigint, created timestamptz NOT NULL DEFAULT public.pwn());
          CREATE SCHEMA cron;
          CREATE TABLE cron.job_run_details (runid bigint, status text, created timestamptz DEFAULT public.pwn());`)
        await withAdminClient(projects.adminConnection(row, 'squatted'), async (admin) => {
          await expect(ensureNetSchema(admin)).rejects.toThrow(/The net schema belongs to postgres, not the platform/)
          await expect(ensureCronSchema(admin)).rejects.toThrow(/The cron schema belongs to postgres, not the platform/)
        })
        expect((await tenant.query('SELECT who FROM public.superuser_calls')).rows).toEqual([])
      } finally {
        await tenant.end()
        await withAdminClient(projects.adminConnection(row), (admin) => admin.query('DROP DATABASE squatted WITH (FORCE)'))
      }
    })
  })
}
