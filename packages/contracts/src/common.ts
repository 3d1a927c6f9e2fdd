import { z } from 'zod'

/** Every error body, /platform and /v1 alike. */
export const ErrorBody = z.object({ message: z.string() })
export type ErrorBody = z.infer<typeof ErrorBody>

/** Project refs are 20 lowercase letters (Management API). */
export const ProjectRef = z.string().regex(/^[a-z]{20}$/, 'Project ref must be 20 lowercase letters')
export const OrgSlug = z.string().regex(/^[\w-]+$/, 'Organization slug may only hold letters, digits, - and _').max(64)

export const RefParams = z.object({ ref: ProjectRef })
export const SlugParams = z.object({ slug: OrgSlug })

/** A name a person types: trimmed, not empty, bounded. */
export const DisplayName = (what: string, max = 256) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(max, `${what} must be at most ${max} characters`)
