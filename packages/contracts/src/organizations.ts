import { z } from 'zod'
import { DisplayName } from './common.js'
import { AiOptInLevel } from './assistant.js'
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
  /** What the AI assistant may see of the organization's projects. */
  ai_opt_in_level: AiOptInLevel,
  /** Whether this installation lets organizations choose that level (its opt-in feature flag). */
  ai_opt_in_choosable: z.boolean(),
})
export type Organization = z.infer<typeof Organization>

export const CreateOrganizationBody = z.object({ name: DisplayName('Organization name', 100) })
/** A rename, a new assistant opt-in level, or both. */
export const UpdateOrganizationBody = z
  .object({ name: DisplayName('Organization name', 100).optional(), ai_opt_in_level: AiOptInLevel.optional() })
  .refine((body) => body.name !== undefined || body.ai_opt_in_level !== undefined, 'Give a name or an opt-in level to change')
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
