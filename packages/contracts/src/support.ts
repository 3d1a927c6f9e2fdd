import { z } from 'zod'
import { SUPPORT_CATEGORIES } from './values/support.js'
export * from './values/support.js'

export const SupportCategory = z.enum(SUPPORT_CATEGORIES, {
  error: `Category must be one of ${SUPPORT_CATEGORIES.join(', ')}`,
})
export type SupportCategory = z.infer<typeof SupportCategory>

export const CreateSupportRequestBody = z.object({
  category: SupportCategory,
  project_ref: z.string().regex(/^[a-z]{20}$/, 'Project ref must be 20 lowercase letters').nullable().optional(),
  subject: z.string({ error: 'Subject is required' }).trim().min(1, 'Subject cannot be empty').max(200, 'Subject must be at most 200 characters'),
  message: z.string({ error: 'Message is required' }).trim().min(1, 'Message cannot be empty').max(10000, 'Message must be at most 10000 characters'),
})

export const SupportRequest = z.object({
  id: z.number(),
  category: SupportCategory,
  project_ref: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  created_at: z.string(),
})
export type SupportRequest = z.infer<typeof SupportRequest>
