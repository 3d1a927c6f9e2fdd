import { AI_DISCLAIMER_COMMENT } from '@stratum/contracts'

/**
 * Pure text work of the inline AI edit: the model's answer cleaned up, the document with the
 * selection replaced by it, and the disclaimer comment (the SQL editor spec's AI constants) put above the generated
 * SQL once, when the document does not carry it yet.
 */

const OPENING_FENCE = /^\s*```[\w-]*[ \t]*(\r?\n|$)/
const CLOSING_FENCE = /\r?\n?[ \t]*`{1,3}\s*$/

/** The SQL of a model answer (possibly still streaming): no Markdown fence, no blank lines around it. */
export function cleanCompletion(raw: string): string {
  let text = raw
  if (OPENING_FENCE.test(text)) text = text.replace(OPENING_FENCE, '').replace(CLOSING_FENCE, '')
  return text.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '')
}

export interface CompletionParts {
  /** The document before the selection (or the cursor). */
  before: string
  /** The selected text; empty when the cursor had no selection. */
  selection: string
  /** The document after the selection. */
  after: string
  /** The model's answer (raw; cleaned here). */
  completion: string
}

export interface AppliedCompletion {
  /** The whole document with the completion in place. */
  text: string
  /** What replaces the selection: the disclaimer line (when added) and the SQL. */
  inserted: string
  /** Offsets of `inserted` in `text`. */
  start: number
  end: number
}

export function applyCompletion({ before, selection, after, completion }: CompletionParts): AppliedCompletion {
  const sql = cleanCompletion(completion)
  if (!sql) return { text: before + selection + after, inserted: selection, start: before.length, end: before.length + selection.length }

  // Keep what followed the selection where it was: its trailing line break, or a new line
  // between inserted SQL and text that went on right after the cursor.
  let tail = /\s*$/.exec(selection)?.[0] ?? ''
  if (!selection && after && !/^\s/.test(after)) tail = '\n'

  let head = ''
  if (!(before + sql + after).includes(AI_DISCLAIMER_COMMENT)) {
    const linePrefix = before.slice(before.lastIndexOf('\n') + 1)
    // On its own line: after the indentation when the selection starts a line, else on a new line
    // (a line comment in the middle of a statement is still valid SQL).
    head = linePrefix.trim() === '' ? `${AI_DISCLAIMER_COMMENT}\n${linePrefix}` : `\n${AI_DISCLAIMER_COMMENT}\n`
  }
  const inserted = head + sql + tail
  return { text: before + inserted + after, inserted, start: before.length, end: before.length + inserted.length }
}

/**
 * The smallest single replacement that turns `from` into `to` (common prefix and suffix kept):
 * streamed text grows the diff view without resetting it.
 */
export function minimalEdit(from: string, to: string): { start: number; end: number; text: string } | null {
  if (from === to) return null
  const max = Math.min(from.length, to.length)
  let prefix = 0
  while (prefix < max && from.charCodeAt(prefix) === to.charCodeAt(prefix)) prefix++
  // Never split a surrogate pair.
  if (prefix > 0 && isHighSurrogate(from.charCodeAt(prefix - 1))) prefix--
  let suffix = 0
  while (suffix < max - prefix && from.charCodeAt(from.length - 1 - suffix) === to.charCodeAt(to.length - 1 - suffix)) suffix++
  if (suffix > 0 && isLowSurrogate(from.charCodeAt(from.length - suffix))) suffix--
  return { start: prefix, end: from.length - suffix, text: to.slice(prefix, to.length - suffix) }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff
