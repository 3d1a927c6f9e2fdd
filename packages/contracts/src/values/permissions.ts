/**
 * Roles and permissions as plain values: what each role may do, and the texts of missing permissions.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */
export const ORG_ROLES = ['owner', 'administrator', 'developer', 'read_only'] as const
export type OrgRole = (typeof ORG_ROLES)[number]

export const ROLE_LABELS: Record<OrgRole, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  developer: 'Developer',
  read_only: 'Read-only',
}

/** One name per row of the docs/ARCHITECTURE.md permission table, plus the organization-management rows. */
export const PERMISSIONS = [
  'projects.read', // read project, tables, docs, snippets shared with the project; docs sections
  'user_content.create', // save snippets and report charts owned by the user
  'sql.write', // run SQL with the full (write) connection
  'service_api_keys.read', // see the service key, JWT secret, database password
  'secrets.write', // legacy keys on/off, JWT secret rotation
  'infrastructure.execute', // restore, restart, resize, upgrade, pause
  'projects.update', // delete project, project settings
  'projects.create', // create a project in the organization
  'organizations.update', // rename the organization, assistant opt-in level
  'members.write', // add, re-role and remove members
  'billing.write', // plan, add-ons
] as const
export type Permission = (typeof PERMISSIONS)[number]

const ALL = PERMISSIONS
const ADMIN = PERMISSIONS.filter((p) => p !== 'billing.write')
const DEVELOPER: readonly Permission[] = ['projects.read', 'user_content.create', 'sql.write']
const READ_ONLY: readonly Permission[] = ['projects.read']

export const ROLE_PERMISSIONS: Record<OrgRole, readonly Permission[]> = {
  owner: ALL,
  administrator: ADMIN,
  developer: DEVELOPER,
  read_only: READ_ONLY,
}

export function roleCan(role: OrgRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission)
}

/** Who may grant which role: only an owner may make (or unmake) another owner. */
export function canAssignRole(actor: OrgRole, target: OrgRole): boolean {
  if (!roleCan(actor, 'members.write')) return false
  return target !== 'owner' || actor === 'owner'
}

/** Texts the dashboard shows when a permission is missing (spec wording where the spec has one). */
export const PERMISSION_TEXTS = {
  deleteProject: 'You need additional permissions to delete this project',
  viewApiKeys: 'You need additional permissions to view API keys',
  saveQueries: 'Your queries will not be saved as you do not have sufficient permissions',
  createProject: 'You need additional permissions to create a project in this organization',
  manageMembers: 'You need additional permissions to manage members of this organization',
  updateOrganization: 'You need additional permissions to update this organization',
  renameProject: 'You need additional permissions to rename this project',
  changePlan: 'Only an owner can change the plan of this organization',
  changeOwner: 'Only an owner can change or remove an owner',
  viewPassword: 'You need additional permissions to view the database password',
  changeDatabase: 'Your role can browse the database but not change it',
} as const
