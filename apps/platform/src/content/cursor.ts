import { badRequest } from '../http/errors.js'

/** A listing's position: the sort value of the last item given and its id (ties broken by id). */
export interface Cursor {
  v: string
  id: string
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url')
}

export function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>
    if (typeof value.v === 'string' && typeof value.id === 'string' && /^[0-9a-f-]{36}$/.test(value.id)) return { v: value.v, id: value.id }
  } catch {
    /* answered below */
  }
  throw badRequest('cursor is not valid: pass the cursor of a previous page')
}
