import { afterAll, beforeAll } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, waitForStatus } from './harness.js'
import type { IntegrationProject } from './database-integrations/context.js'
import { cronCases } from './database-integrations/cron.cases.js'
import { squattingCases } from './database-integrations/squatting.cases.js'
import { vaultCases } from './database-integrations/vault.cases.js'
import { webhookCases } from './database-integrations/webhooks.cases.js'

/**
 * Vault, pg_cron's and pg_net's interfaces (issue 29 items 2-4): one platform and one project for all three, each
 * family's cases in its own module (they need nothing but a healthy project and members of each role).
 */
const DB_PASS = 'integrations-password-1'
const project = {} as IntegrationProject

beforeAll(async () => {
  // Webhooks deliver to a receiver on loopback (webhooks.cases.ts): the installation allows private hosts here.
  const t = await startTestPlatform({ STRATUM_NET_ALLOW_PRIVATE_HOSTS: 'true' })
  const cookie = await login(t)
  const orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Integrations', organization_slug: orgSlug, db_pass: DB_PASS })
  if (!created.body?.ref) throw new Error(`project not created: ${created.status} ${JSON.stringify(created.body)}`)
  await waitForStatus(t, created.body.ref, { cookie }, 'ACTIVE_HEALTHY')
  const readOnly = await memberWithRole(t, orgSlug, 'read_only')
  const developer = await memberWithRole(t, orgSlug, 'developer')
  Object.assign(project, {
    t,
    ref: created.body.ref as string,
    orgSlug,
    dbPassword: DB_PASS,
    owner: { cookie },
    developer: { token: developer.token, origin: null },
    readOnly: { token: readOnly.token, origin: null },
  } satisfies IntegrationProject)
}, 180_000)
afterAll(() => project.t?.cleanup())

vaultCases(project)
cronCases(project)
webhookCases(project)
squattingCases(project)
