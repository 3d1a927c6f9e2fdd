import type { PostgresConfig } from '@stratum/contracts'
import type { ServerSettings } from './postgres-server.js'

/** What a compute size sets (statuses.ts COMPUTE_SIZES): the owners' settings may override each. */
export function computeDefaults(size: { max_connections: number; shared_buffers: string; work_mem: string }): ServerSettings {
  return { max_connections: size.max_connections, shared_buffers: size.shared_buffers, work_mem: size.work_mem }
}

/** The Management API's settings as stratum.conf values: booleans as on/off, the rest as written (validated by contracts). */
export function confValues(config: Partial<PostgresConfig>): ServerSettings {
  const settings: ServerSettings = {}
  for (const [name, value] of Object.entries(config)) {
    if (value === undefined) continue
    settings[name] = typeof value === 'boolean' ? (value ? 'on' : 'off') : value
  }
  return settings
}
