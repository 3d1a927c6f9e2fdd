/**
 * The platform's rule for a new account password (sign-up, reset, change): its lengths and texts.
 * Plain values only, no zod: the dashboard's password fields check with it on every page without the schemas (see
 * the contracts README); auth.ts's NewPassword schema is built from the same values.
 */
export const NEW_PASSWORD_MIN_LENGTH = 8
export const NEW_PASSWORD_MAX_LENGTH = 256
export const NEW_PASSWORD_TEXTS = {
  required: 'Password is required',
  tooShort: `Password must be at least ${NEW_PASSWORD_MIN_LENGTH} characters`,
  tooLong: `Password must be at most ${NEW_PASSWORD_MAX_LENGTH} characters`,
} as const

/** What is wrong with a new password by that rule, or undefined when nothing is. */
export function newPasswordProblem(password: string): string | undefined {
  if (password.length < NEW_PASSWORD_MIN_LENGTH) return NEW_PASSWORD_TEXTS.tooShort
  if (password.length > NEW_PASSWORD_MAX_LENGTH) return NEW_PASSWORD_TEXTS.tooLong
  return undefined
}
