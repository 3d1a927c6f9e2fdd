import { ROLES_HIDDEN_FROM_POLICIES } from '@stratum/sql'
import { describe, expect, it } from 'vitest'
import { ADMIN_ROLE, API_ROLES, PLATFORM_MANAGED_ROLES } from '../../src/control/bootstrap-roles.js'

describe("the table editor's policy roles", () => {
  it("leave out every login the platform manages, and only those: the API roles stay (issue 33, item 11)", () => {
    const hidden = new Set<string>(ROLES_HIDDEN_FROM_POLICIES)
    for (const role of PLATFORM_MANAGED_ROLES.filter((name) => !API_ROLES.includes(name as never))) expect(hidden, role).toContain(role)
    for (const role of API_ROLES) expect(hidden.has(role), role).toBe(false)
    expect(hidden.has(ADMIN_ROLE)).toBe(true)
  })
})
