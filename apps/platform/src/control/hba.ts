import { ADMIN_ROLE, AUTH_ADMIN_ROLE, CRON_RUNNER_ROLE, EDITOR_ROLE, READONLY_ROLE, REPLICATION_ROLE } from './bootstrap-roles.js'
import type { DatabaseAccess } from './instance-provider.js'

export const OPEN_ACCESS: DatabaseAccess = { allowedCidrs: ['0.0.0.0/0'], allowedCidrsV6: ['::/0'], sslEnforced: false }

/** The logins the platform itself uses (its services, the SQL editor, backups): always allowed from this machine. */
const PLATFORM_LOGINS = [ADMIN_ROLE, EDITOR_ROLE, READONLY_ROLE, AUTH_ADMIN_ROLE, 'authenticator', REPLICATION_ROLE, CRON_RUNNER_ROLE]

/**
 * pg_hba.conf for a project instance. Postgres takes the first line that matches a connection's
 * type, user and address, so the platform's logins come first (loopback only, without TLS: they
 * never leave the machine); every other user (postgres and roles the project creates) then matches
 * the allowed networks, over TLS only when it is enforced. A network not listed gets Postgres's own
 * "no pg_hba.conf entry" refusal. `legacySuperuserLogin`: a project still on the old role model,
 * whose `postgres` the platform uses as its superuser until it moves over.
 */
export function buildHba(access: DatabaseAccess, options: { legacySuperuserLogin?: boolean } = {}): string {
  const platform = [...PLATFORM_LOGINS, ...(options.legacySuperuserLogin ? ['postgres'] : [])].join(',')
  const type = access.sslEnforced ? 'hostssl' : 'host'
  const lines = [
    '# Written by Stratum; edits are overwritten.',
    'local all all scram-sha-256',
    `host all ${platform} 127.0.0.1/32 scram-sha-256`,
    `host all ${platform} ::1/128 scram-sha-256`,
    ...access.allowedCidrs.map((cidr) => `${type} all all ${cidr} scram-sha-256`),
    ...access.allowedCidrsV6.map((cidr) => `${type} all all ${cidr} scram-sha-256`),
  ]
  return lines.join('\n') + '\n'
}
