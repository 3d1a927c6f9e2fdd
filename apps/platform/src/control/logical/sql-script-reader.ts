import { StringDecoder } from 'node:string_decoder'

/**
 * What a psql script (such as a plain pg_dump) is made of, in order:
 * - `statement`: one SQL statement with its terminating semicolon, leading comments dropped;
 * - `meta`: a psql backslash command on its own line (`\connect db`, `\restrict key`, ...);
 * - after a statement with `copyFromStdin`, its rows as `copy-data` pieces (text COPY format,
 *   whole lines) and a `copy-end` where the `\.` line was.
 * `line` is the 1-based line of the script where the item starts, for error messages.
 */
export type ScriptItem =
  | { kind: 'statement'; sql: string; line: number; copyFromStdin: boolean }
  | { kind: 'meta'; command: string; argument: string; line: number }
  | { kind: 'copy-data'; data: string }
  | { kind: 'copy-end'; line: number }

type Mode =
  | { name: 'code' }
  | { name: 'single-quote'; backslashEscapes: boolean }
  | { name: 'double-quote' }
  | { name: 'dollar-quote'; tag: string }
  | { name: 'line-comment' }
  | { name: 'block-comment'; depth: number }

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c)
const DOLLAR_TAG = /^\$(?:[\p{L}_][\p{L}\p{N}_]*)?\$/u
const COPY_FROM_STDIN = /^COPY\b[\s\S]*\bFROM\s+STDIN\b/i
const firstOf = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : Math.min(a, b))

/**
 * Splits a psql script into statements as psql does, reading the input as it arrives (so a dump of
 * any size passes through a bounded buffer). It follows every place a semicolon does not end a
 * statement: 'strings' (with '' and, in E'...', backslash escapes), "identifiers", $tag$ dollar
 * quotes $tag$, -- comments and nested /* comments *\/. Assumes standard_conforming_strings = on,
 * which pg_dump sets at the top of every dump and is the default since Postgres 9.1.
 */
export async function* readSqlScript(input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<ScriptItem> {
  const decoder = new StringDecoder('utf8')
  const chunks = (async function* () {
    yield* input
  })()
  let buf = ''
  let eof = false
  let line = 1 // line of buf[pos]
  let pos = 0
  let mode: Mode = { name: 'code' }
  let start = -1 // where the current statement starts in buf, -1 before its first token
  let startLine = 0
  let inCopy: { line: number } | undefined

  /** Appends the next input piece; false at the end of the input. */
  const more = async (): Promise<boolean> => {
    if (eof) return false
    const next = await chunks.next()
    if (next.done) {
      // One more pass: what waited for a following character is decided now.
      eof = true
      buf += decoder.end()
      return true
    }
    // Drop what was consumed, so the buffer only ever holds the current statement and a chunk.
    const keep = start >= 0 ? start : pos
    buf = buf.slice(keep) + (typeof next.value === 'string' ? next.value : decoder.write(next.value))
    pos -= keep
    if (start >= 0) start = 0
    return true
  }
  const advanceTo = (to: number) => {
    for (let at = buf.indexOf('\n', pos); at >= 0 && at < to; at = buf.indexOf('\n', at + 1)) line++
    pos = to
  }

  try {
    yield* items()
  } finally {
    // Stopped early (an error, or the consumer gave up): release the input, e.g. close its file.
    await chunks.return(undefined)
  }

  async function* items(): AsyncGenerator<ScriptItem> {
    for (;;) {
      if (inCopy) {
        // Rows, line by line, up to a line that is exactly "\." (a row cannot be: a backslash in
        // data is written \\). Whole lines only, so the marker is never split between two pieces.
        if (/^\\\.\r?\n/.test(buf.slice(pos, pos + 4)) || (eof && buf.slice(pos) === '\\.')) {
          yield { kind: 'copy-end', line }
          advanceTo(Math.min(buf.length, buf.indexOf('\n', pos) + 1 || buf.length))
          inCopy = undefined
          continue
        }
        const marker = firstOf(buf.indexOf('\n\\.\n', pos), buf.indexOf('\n\\.\r\n', pos))
        const lastNewline = marker >= 0 ? marker : buf.lastIndexOf('\n')
        if (lastNewline >= pos) {
          const data = buf.slice(pos, lastNewline + 1)
          advanceTo(lastNewline + 1)
          yield { kind: 'copy-data', data }
          continue
        }
        if (await more()) continue
        if (buf.length > pos) throw new Error(`COPY data starting at line ${inCopy.line} ends without a newline and "\\."`)
        throw new Error(`COPY data starting at line ${inCopy.line} has no end marker "\\." (the dump is truncated)`)
      }

      const step = scan()
      if (step === 'more') {
        if (await more()) continue
        if (mode.name !== 'code' && mode.name !== 'line-comment') {
          throw new Error(`The script ends inside a ${mode.name.replace('-', ' ')} opened in the statement at line ${startLine} (the dump is truncated)`)
        }
        if (start >= 0) yield finishStatement(buf.trimEnd().length) // psql runs a last statement without ';' too
        return
      }
      if (step) {
        yield step
        if (step.kind === 'statement' && step.copyFromStdin) {
          // Rows start on the next line; pg_dump ends the COPY line right after its semicolon.
          while (buf.indexOf('\n', pos) < 0 && (await more()));
          const end = buf.indexOf('\n', pos)
          if (buf.slice(pos, end < 0 ? buf.length : end).trim() !== '') {
            throw new Error(`Unexpected text after the COPY statement at line ${step.line}`)
          }
          advanceTo(end < 0 ? buf.length : end + 1)
          inCopy = { line }
        }
      }
    }
  }

  function finishStatement(end: number): ScriptItem {
    const sql = buf.slice(start, end)
    start = -1
    const bare = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\//g, ' ')
    return { kind: 'statement', sql, line: startLine, copyFromStdin: COPY_FROM_STDIN.test(bare) }
  }

  /** Advances through buf; returns an item, null to go on, or 'more' when it needs more input. */
  function scan(): ScriptItem | null | 'more' {
    const next = (offset = 1): string | undefined => buf[pos + offset]
    // A character looked at past the end of the buffer may still be on its way.
    const unsure = (offset = 1) => pos + offset >= buf.length && !eof
    switch (mode.name) {
      case 'line-comment': {
        const end = buf.indexOf('\n', pos)
        if (end < 0) {
          advanceTo(buf.length)
          return 'more'
        }
        advanceTo(end)
        mode = { name: 'code' }
        return null
      }
      case 'block-comment': {
        const open = buf.indexOf('/*', pos)
        const close = buf.indexOf('*/', pos)
        if (open >= 0 && (close < 0 || open < close)) {
          mode.depth++
          advanceTo(open + 2)
          return null
        }
        if (close < 0) {
          advanceTo(Math.max(pos, buf.length - 1)) // keep a last '*' or '/' for the next piece
          return 'more'
        }
        mode.depth--
        advanceTo(close + 2)
        if (mode.depth === 0) mode = { name: 'code' }
        return null
      }
      case 'dollar-quote': {
        const end = buf.indexOf(mode.tag, pos)
        if (end < 0) {
          advanceTo(Math.max(pos, buf.length - mode.tag.length + 1))
          return 'more'
        }
        advanceTo(end + mode.tag.length)
        mode = { name: 'code' }
        return null
      }
      case 'double-quote': {
        const end = buf.indexOf('"', pos)
        if (end < 0 || (end + 1 >= buf.length && !eof)) {
          advanceTo(end < 0 ? buf.length : end)
          return 'more'
        }
        advanceTo(end + 1)
        if (buf[end + 1] === '"') advanceTo(end + 2)
        else mode = { name: 'code' }
        return null
      }
      case 'single-quote': {
        let at = pos
        for (;;) {
          const quote = buf.indexOf("'", at)
          const backslash = mode.backslashEscapes ? buf.indexOf('\\', at) : -1
          if (backslash >= 0 && (quote < 0 || backslash < quote)) {
            if (backslash + 1 >= buf.length && !eof) break
            at = backslash + 2
            continue
          }
          if (quote < 0 || (quote + 1 >= buf.length && !eof)) {
            at = quote < 0 ? buf.length : quote
            break
          }
          if (buf[quote + 1] === "'") {
            at = quote + 2
            continue
          }
          advanceTo(quote + 1)
          mode = { name: 'code' }
          return null
        }
        advanceTo(at)
        return 'more'
      }
      case 'code':
        break
    }

    while (pos < buf.length) {
      const c = buf[pos]!
      if (c === '-' || c === '/') {
        if (unsure()) return 'more'
        if (c === '-' && next() === '-') {
          mode = { name: 'line-comment' }
          return null
        }
        if (c === '/' && next() === '*') {
          mode = { name: 'block-comment', depth: 1 }
          advanceTo(pos + 2)
          return null
        }
      }
      if (start < 0) {
        if (/\s/.test(c)) {
          advanceTo(pos + 1)
          continue
        }
        if (c === '\\') return metaCommand()
        start = pos
        startLine = line
      }
      if (c === ';') {
        advanceTo(pos + 1)
        return finishStatement(pos)
      }
      if (c === "'") {
        const prefix = buf[pos - 1]
        const escapes = (prefix === 'E' || prefix === 'e') && pos - 1 >= start && !isWordChar(pos - 2 >= start ? buf[pos - 2] : undefined)
        mode = { name: 'single-quote', backslashEscapes: escapes }
        advanceTo(pos + 1)
        return null
      }
      if (c === '"') {
        mode = { name: 'double-quote' }
        advanceTo(pos + 1)
        return null
      }
      if (c === '$' && !(pos > start && isWordChar(buf[pos - 1]))) {
        // $tag$ opens a dollar quote; $1 is a parameter. Look far enough to tell which.
        const window = buf.slice(pos, pos + 256)
        const tag = DOLLAR_TAG.exec(window)
        if (tag) {
          mode = { name: 'dollar-quote', tag: tag[0] }
          advanceTo(pos + tag[0].length)
          return null
        }
        if (!eof && /^\$(?:[\p{L}_][\p{L}\p{N}_]*)?$/u.test(window)) return 'more'
      }
      if (c === '\\') {
        throw new Error(`A psql backslash command inside the statement at line ${startLine} is not supported (line ${line})`)
      }
      advanceTo(pos + 1)
    }
    return 'more'
  }

  /** A backslash command: the rest of its line (pg_dump writes them on lines of their own). */
  function metaCommand(): ScriptItem | 'more' {
    const end = buf.indexOf('\n', pos)
    if (end < 0 && !eof) return 'more'
    const text = buf.slice(pos + 1, end < 0 ? buf.length : end).replace(/\r$/, '')
    const item: ScriptItem = { kind: 'meta', command: text.split(/\s/, 1)[0]!, argument: text.replace(/^\S*\s*/, '').trim(), line }
    advanceTo(end < 0 ? buf.length : end + 1)
    return item
  }
}
