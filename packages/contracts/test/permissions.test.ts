import { describe, expect, it } from 'vitest'
import { canAssignRole, ORG_ROLES, roleCan, type OrgRole, type Permission } from '../src/index.js'

/** The docs/ARCHITECTURE.md permission table, row by row: Owner, Administrator, Developer, Read-only. */
const TABLE: Array<[Permission, [boolean, boolean, boolean, boolean]]> = [
  ['projects.read', [true, true, true, true]],
  ['user_content.create', [true, true, true, false]],
  ['sql.write', [true, true, true, false]],
  ['service_api_keys.read', [true, true, false, false]],
  ['secrets.write', [true, true, false, false]],
  ['infrastructure.execute', [true, true, false, false]],
  ['projects.update', [true, true, false, false]],
  ['organizations.update', [true, true, false, false]],
  ['billing.write', [true, false, false, false]],
  // Rows this foundation adds to the table (proposed in the closing note):
  ['projects.create', [true, true, false, false]],
  ['members.write', [true, true, false, false]],
]

describe('role permissions', () => {
  it.each(TABLE)('%s follows the DESIGN.md table', (permission, expected) => {
    expect(ORG_ROLES.map((role) => roleCan(role, permission))).toEqual(expected)
  })

  it('lets only an owner grant or take away the owner role', () => {
    const grants = (actor: OrgRole) => ORG_ROLES.filter((target) => canAssignRole(actor, target))
    expect(grants('owner')).toEqual(['owner', 'administrator', 'developer', 'read_only'])
    expect(grants('administrator')).toEqual(['administrator', 'developer', 'read_only'])
    expect(grants('developer')).toEqual([])
    expect(grants('read_only')).toEqual([])
  })
})
