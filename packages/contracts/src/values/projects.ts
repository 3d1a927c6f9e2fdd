/**
 * Projects: the strength hint of a database password.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */

/**
 * A rough strength hint for the New project form: 0 (weak) .. 4 (strong).
 * Length dominates; character variety helps. It is a hint, not a rule: the server only
 * enforces the minimum length.
 */
export function passwordStrength(password: string): { score: 0 | 1 | 2 | 3 | 4; label: string } {
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length
  let score = 0
  if (password.length >= 8) score++
  if (password.length >= 12) score++
  if (password.length >= 16) score++
  if (classes >= 3) score++
  if (password.length < 8) score = 0
  const clamped = Math.min(score, 4) as 0 | 1 | 2 | 3 | 4
  const labels = ['Too short', 'Weak', 'Fair', 'Good', 'Strong'] as const
  return { score: clamped, label: labels[clamped] }
}
