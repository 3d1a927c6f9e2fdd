import type { SupportCategory } from '@stratum/contracts'

export interface SupportPrefill {
  category?: SupportCategory
  ref?: string
  subject?: string
  message?: string
}

/** /support/new with its form prefilled from the query string (the support page reads it). */
export function supportLink({ category, ref, subject, message }: SupportPrefill = {}): string {
  const params = new URLSearchParams()
  if (category) params.set('category', category)
  if (ref) params.set('ref', ref)
  if (subject) params.set('subject', subject)
  if (message) params.set('message', message)
  const query = params.toString()
  return query ? `/support/new?${query}` : '/support/new'
}
