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

export const AddMemberBody = z.object({
  email: z.string({ error: 'Email is required' }).trim().toLowerCase().pipe(z.email({ error: 'Enter a valid email address' })),
  role: OrgRole,
})
/** There is no mail server: a new account's one-time password is shown once to the inviter. */
export const AddedMember = z.object({ member: Member, one_time_password: z.string().nullable() })
export type AddedMember = z.infer<typeof AddedMember>

export const UpdateMemberBody = z.object({ role: OrgRole })
