import { z } from 'zod'
import { OrgRole, Permission } from './permissions.js'
import { NEW_PASSWORD_MAX_LENGTH, NEW_PASSWORD_MIN_LENGTH, NEW_PASSWORD_TEXTS } from './values/auth.js'
export * from './values/auth.js'

export const Email = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address' }))

export const NewPassword = z
  .string({ error: NEW_PASSWORD_TEXTS.required })
  .min(NEW_PASSWORD_MIN_LENGTH, NEW_PASSWORD_TEXTS.tooShort)
  .max(NEW_PASSWORD_MAX_LENGTH, NEW_PASSWORD_TEXTS.tooLong)

export const LoginBody = z.object({
  email: Email,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256),
})
export type LoginBody = z.infer<typeof LoginBody>

export const Profile = z.object({
  id: z.string(),
  primary_email: z.string(),
  username: z.string(),
  password_change_required: z.boolean(),
  created_at: z.string(),
})
export type Profile = z.infer<typeof Profile>

export const ChangePasswordBody = z.object({
  current_password: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
  new_password: NewPassword,
})

/** GET /platform/profile/permissions: one entry per organization the user belongs to. */
export const OrgPermissions = z.object({
  organization_id: z.number(),
  organization_slug: z.string(),
  role: OrgRole,
  permissions: z.array(Permission),
})
export type OrgPermissions = z.infer<typeof OrgPermissions>

export const AccessTokenPattern = /^sbp_[0-9a-f]{40}$/

export const AccessToken = z.object({
  id: z.string(),
  name: z.string(),
  token_alias: z.string(), // 'sbp_1234…abcd': enough to recognise, useless to steal
  created_at: z.string(),
  last_used_at: z.string().nullable(),
})
export type AccessToken = z.infer<typeof AccessToken>

export const CreateAccessTokenBody = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name cannot be empty').max(100, 'Name must be at most 100 characters'),
})
/** The token itself is returned once, at creation. */
export const CreatedAccessToken = AccessToken.extend({ token: z.string() })
export type CreatedAccessToken = z.infer<typeof CreatedAccessToken>
