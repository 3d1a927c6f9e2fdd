import { randomInt } from 'node:crypto'
import type { AiOptInLevel, Organization, OrgRole, Plan } from '@stratum/contracts'
import type { Queryable } from '../store/db.js'

export interface OrgRow {
  id: string
  slug: string
  name: string
  plan: Plan
  created_at: Date
  ai_opt_in_level: AiOptInLevel
}

export interface Membership {
  org: OrgRow
  role: OrgRole
}

/** `aiOptInChoosable`: the installation's opt-in feature flag (config.aiOptInChoosable). */
export function toOrganization({ org, role }: Membership, aiOptInChoosable: boolean): Organization {
  return {
    id: Number(org.id),
    slug: org.slug,
    name: org.name,
    plan: org.plan,
    role,
    created_at: org.created_at.toISOString(),
    ai_opt_in_level: org.ai_opt_in_level,
    ai_opt_in_choosable: aiOptInChoosable,
  }
}

/** 'Acme Corp' -> 'acme-corp-kqzmwd': readable, and unique without asking the user. */
export function newOrgSlug(name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'org'
  const suffix = Array.from({ length: 6 }, () => String.fromCharCode(97 + randomInt(26))).join('')
  return `${base}-${suffix}`
}

export async function createOrganization(db: Queryable, name: string, ownerId: string): Promise<Membership> {
  const { rows } = await db.query<OrgRow>('INSERT INTO organizations (slug, name) VALUES ($1, $2) RETURNING *', [newOrgSlug(name), name])
  const org = rows[0]!
  await db.query(`INSERT INTO members (organization_id, user_id, role) VALUES ($1, $2, 'owner')`, [org.id, ownerId])
  return { org, role: 'owner' }
}

export async function listMemberships(db: Queryable, userId: string): Promise<Membership[]> {
  const { rows } = await db.query<OrgRow & { role: OrgRole }>(
    `SELECT o.*, m.role FROM organizations o JOIN members m ON m.organization_id = o.id
     WHERE m.user_id = $1 ORDER BY o.created_at, o.id`,
    [userId],
  )
  return rows.map(({ role, ...org }) => ({ org, role }))
}

export async function findMembership(db: Queryable, userId: string, slug: string): Promise<Membership | null> {
  const { rows } = await db.query<OrgRow & { role: OrgRole }>(
    `SELECT o.*, m.role FROM organizations o JOIN members m ON m.organization_id = o.id
     WHERE m.user_id = $1 AND o.slug = $2`,
    [userId, slug],
  )
  if (!rows[0]) return null
  const { role, ...org } = rows[0]
  return { org, role }
}
