import { z } from 'zod'
import { DisplayName } from './common.js'
import { OrgRole } from './permissions.js'
export const Plan = z.enum(['free', 'pro'], { error: "Plan must be 'free' or 'pro'" })
export type Plan = z.infer<typeof Plan>

export const Organization = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  plan: Plan,
  role: OrgRole, // the caller's role in it
  created_at: z.string(),
})
export type Organization = z.infer<typeof Organization>

export const CreateOrganizationBody = z.object({ name: DisplayName('Organization name', 100) })
export const UpdateOrganizationBody = z.object({ name: DisplayName('Organization name', 100) })
export const UpdateSubscriptionBody = z.object({ plan: Plan })

export const Member = z.object({
  user_id: z.string(),
  primary_email: z.string(),
  username: z.string(),
  role: OrgRole,
  joined_at: z.string(),
})
export type Member = z.infer<typeof Member>

// Adding a member is an invitation that the invitee accepts: see invitations.ts.

export const UpdateMemberBody = z.object({ role: OrgRole })
