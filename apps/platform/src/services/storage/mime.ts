import { invalidMimeType } from './errors.js'

/** storage-api's fallback when an upload names no type. */
export const DEFAULT_MIME_TYPE = 'application/octet-stream'

/** The media type without parameters, lower-cased: 'text/plain;charset=UTF-8' -> 'text/plain'. */
export const baseMimeType = (contentType: string): string => contentType.split(';')[0]!.trim().toLowerCase()

/**
 * A bucket's `allowed_mime_types`: null allows every type, an empty list none, and entries may end in
 * a wildcard subtype ('image/*').
 */
export function checkMimeType(contentType: string, allowed: string[] | null): void {
  if (allowed === null) return
  const type = baseMimeType(contentType)
  const [main] = type.split('/')
  const ok = allowed.some((entry) => {
    const rule = entry.toLowerCase()
    return rule === type || (rule.endsWith('/*') && rule.slice(0, -2) === main)
  })
  if (!ok) throw invalidMimeType(type)
}
