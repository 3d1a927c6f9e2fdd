/**
 * Which takeover screens a project route shows (spec "Takeover screens"). `route` is the path
 * after /project/{ref}, without a trailing slash: '' for the home page, '/settings/general'...
 */
const DB_CONNECTION_EXEMPT = ['/branches', '/database/backups/scheduled', '/database/backups/pitr', '/settings/addons', '/addons']
const CONNECTING_EXEMPT = [
  '/reports',
  '/settings/general',
  '/database/settings',
  '/infrastructure',
  '/settings/infrastructure',
  '/settings/addons',
  '/settings/compute-and-disk',
]

export const isSettingsRoute = (route: string) => route === '/settings' || route.startsWith('/settings/')
export const isBackupsRoute = (route: string) => route.startsWith('/database/backups')
export const isHomeRoute = (route: string) => route === ''

/** Pages that need the database: restore and setup screens replace them. */
export function needsDatabase(route: string): boolean {
  return (!isSettingsRoute(route) && !DB_CONNECTION_EXEMPT.includes(route)) || route === '/settings/vault'
}

/** Pages that show the 'Connecting to project' screen while the database does not answer. */
export function showsConnecting(route: string): boolean {
  return !CONNECTING_EXEMPT.includes(route)
}

/** A paused project keeps its home and settings pages (with a banner); every other page shows the paused screen. */
export function showsPausedScreen(route: string): boolean {
  return !isHomeRoute(route) && !isSettingsRoute(route)
}

const PAGE_NAMES: Array<[prefix: string, name: string]> = [
  ['/database/backups', 'backups'],
  ['/database', 'database'],
  ['/sql', 'SQL editor'],
  ['/storage', 'storage'],
  ['/reports', 'reports'],
  ['/branches', 'branches'],
  ['/addons', 'add-ons'],
  ['/infrastructure', 'infrastructure'],
]

/** 'database' for /database/tables, for sentences such as 'to access the database page'. */
export function pageName(route: string): string | null {
  return PAGE_NAMES.find(([prefix]) => route === prefix || route.startsWith(`${prefix}/`))?.[1] ?? null
}
