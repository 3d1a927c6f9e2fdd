/**
 * Markdown code fences around a model's answer. The prompts ask for bare SQL, but models (small
 * local ones above all) often wrap it in ```sql ... ``` anyway; the editor must not receive the
 * fence lines. This works on a stream: text is passed on as soon as it cannot be part of a fence,
 * so only a line that might be a fence is held back, never the whole answer.
 */

const FENCE = '```'

/** True when `text` (without its indentation) could still grow into a fence line: '', '`', '``'. */
function mayBecomeFence(text: string): boolean {
  const line = text.replace(/^[ \t]+/, '')
  return FENCE.startsWith(line)
}

function isFenceLine(text: string): boolean {
  return text.replace(/^[ \t]+/, '').startsWith(FENCE)
}

export interface FenceStripper {
  /** The part of the text received so far that is ready to be passed on. */
  push(chunk: string): string
  /** The rest, once the stream has ended. */
  flush(): string
}

/**
 * A stripper for one answer. When the answer opens with a fence line (after blank space), that line
 * is dropped, and so are the closing fence line and anything after it (a model's explanation).
 * Answers without an opening fence pass through unchanged.
 */
export function createFenceStripper(): FenceStripper {
  let state: 'start' | 'plain' | 'fenced' | 'done' = 'start'
  let pending = ''
  /** Whether pending[0] starts a line (true right after the opening fence line). */
  let lineStart = true

  function fenced(text: string): string {
    pending += text
    // Every line start of the pending text: a closing fence there ends the answer.
    for (let p = 0; p <= pending.length; p++) {
      const startsLine = p === 0 ? lineStart : pending[p - 1] === '\n'
      if (!startsLine) continue
      const rest = pending.slice(p)
      if (isFenceLine(rest)) {
        state = 'done'
        const out = pending.slice(0, p).replace(/\r?\n$/, '')
        pending = ''
        return out
      }
    }
    // Hold back the last line (and the line break before it) while it may still become a fence.
    const lastBreak = pending.lastIndexOf('\n')
    const lastLine = lastBreak === -1 ? pending : pending.slice(lastBreak + 1)
    const lastLineStarts = lastBreak !== -1 || lineStart
    if (lastLineStarts && mayBecomeFence(lastLine)) {
      const keepFrom = lastBreak === -1 ? 0 : pending[lastBreak - 1] === '\r' ? lastBreak - 1 : lastBreak
      const out = pending.slice(0, keepFrom)
      if (keepFrom > 0) lineStart = false
      pending = pending.slice(keepFrom)
      return out
    }
    // A '\r' may be the first half of the line break before a closing fence.
    const keep = pending.endsWith('\r') ? 1 : 0
    const out = pending.slice(0, pending.length - keep)
    pending = pending.slice(pending.length - keep)
    lineStart = false
    return out
  }

  return {
    push(chunk) {
      if (state === 'done') return ''
      if (state === 'plain') return chunk
      if (state === 'fenced') return fenced(chunk)
      pending += chunk
      const lead = pending.replace(/^\s+/, '')
      if (mayBecomeFence(lead)) return ''
      if (!lead.startsWith(FENCE)) {
        state = 'plain'
        const out = pending
        pending = ''
        return out
      }
      const lineEnd = lead.indexOf('\n')
      if (lineEnd === -1) return '' // still inside the opening fence line (```sql...)
      state = 'fenced'
      pending = ''
      lineStart = true
      return fenced(lead.slice(lineEnd + 1))
    },
    flush() {
      const rest = pending
      pending = ''
      if (state === 'start') return rest.replace(/^\s+/, '').startsWith(FENCE) ? '' : rest
      // Fenced: only a line break and a line that never became a fence can be left; plain, done: nothing.
      return ''
    },
  }
}

/** The whole-text form: the answer without its fences. */
export function stripCodeFences(text: string): string {
  const stripper = createFenceStripper()
  return stripper.push(text) + stripper.flush()
}
