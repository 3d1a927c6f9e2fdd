import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, userNotFound, validationFailed } from '../errors.js'
import { checkedPassword, Metadata, normalEmail } from '../input.js'
import { issueEmailToken } from '../one-time.js'
import type { EmailKind } from '../outbox.js'
import { hashPassword } from '../passwords.js'
import { parseBody, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { findUserByEmail, insertUser, updateUser, userJson, type UserRow } from '../users.js'
import { requireAdmin } from './admin.js'

const GenerateLinkBody = z.object({
  type: z.enum(['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new']),
  email: z.string(),
  password: z.unknown().optional(),
  data: Metadata.optional(),
  new_email: z.string().optional(),
  redirect_to: z.string().optional(),
})

const taken = () => new AuthError(422, 'email_exists', 'A user with this email address has already been registered')

/**
 * POST /admin/generate_link (service key): the link and code an email would carry, answered instead of
 * sent, for apps that deliver their own emails. Creates the user for signup, invite and a new
 * address's magic link, as GoTrue does.
 */
export async function generateLink(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  const body = parseBody(GenerateLinkBody, request.body)
  const email = normalEmail(body.email)
  if (body.type === 'email_change_current' && !request.settings.mailer_secure_email_change_enabled) {
    throw validationFailed('Enable secure email change to generate link for current email')
  }
  const passwordHash = body.type === 'signup' ? await hashPassword(checkedPassword(body.password, request.settings)) : null
  return deps.databases.transaction(request.project.ref, async (db) => {
    let user = await findUserByEmail(db, email)
    let kind: EmailKind
    let to = email
    const fresh = (invited: boolean) =>
      insertUser(db, { email, phone: null, passwordHash, userMetadata: body.data ?? {}, emailConfirmed: false, phoneConfirmed: false, invited })
    switch (body.type) {
      case 'signup':
        if (user?.email_confirmed_at) throw taken()
        user = user ? await updateUser(db, user.id, { encrypted_password: passwordHash }) : await fresh(false)
        kind = 'confirmation'
        break
      case 'invite':
        if (user?.email_confirmed_at) throw taken()
        user ??= await fresh(true)
        kind = 'invite'
        break
      case 'magiclink':
        user ??= await fresh(false)
        kind = user.email_confirmed_at ? 'magic_link' : 'confirmation'
        break
      case 'recovery':
        if (!user) throw userNotFound()
        kind = 'recovery'
        break
      default: {
        if (!user) throw userNotFound()
        to = normalEmail(body.new_email)
        const other = await findUserByEmail(db, to)
        if (other && other.id !== user.id) throw taken()
        user = await updateUser(db, user.id, { email_change: to, email_change_confirm_status: 0 })
        // email_change_current: the link for the current address (secure email change); the new one's is email_change_new.
        if (body.type === 'email_change_current') {
          to = email
          kind = 'email_change_current'
        } else {
          kind = 'email_change'
        }
      }
    }
    const issued = await issueEmailToken(db, request, user as UserRow, kind, to)
    await audit(db, kind === 'invite' ? 'user_invited' : 'user_confirmation_requested', issued.user, request.ip, { by: 'admin', generated_link: body.type })
    return {
      status: 200,
      body: {
        ...(await userJson(db, issued.user)),
        action_link: issued.link,
        email_otp: issued.code,
        hashed_token: issued.hash,
        redirect_to: issued.redirectTo,
        verification_type: issued.linkType,
      },
    }
  })
}
