import { ASSISTANT_LINK_SCHEMES } from '@stratum/contracts'

export type LinkKind = 'relative' | 'external' | 'refused'

/**
 * How a link in an assistant message is shown: relative links navigate in the dashboard, links with
 * a permitted scheme open after the verify dialog, anything else (javascript:, data:, file:, vbscript:...)
 * is plain text. Model output can be steered by text in the user's own data: treat it as untrusted.
 */
export function classifyLink(href: string | undefined | null): LinkKind {
  const value = (href ?? '').trim()
  if (!value) return 'refused'
  // Browsers drop tabs and newlines inside a scheme ("java\tscript:"): judge what they would see.
  // eslint-disable-next-line no-control-regex
  const cleaned = value.replace(/[\u0000-\u001f\u007f]/g, '')
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)
  if (!scheme) return cleaned.startsWith('//') ? 'refused' : 'relative'
  return (ASSISTANT_LINK_SCHEMES as readonly string[]).includes(scheme[1]!.toLowerCase()) ? 'external' : 'refused'
}
