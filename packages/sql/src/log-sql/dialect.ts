/**
 * Log queries are written in BigQuery's SQL (the Logs Explorer) or ClickHouse's (the newer unified `logs`
 * table); the Postgres parser reads them once their lexical differences are rewritten here, token by
 * token: "..." is a string and `...` an identifier in BigQuery, `#` starts a comment, `interval 1 hour`
 * has an unquoted count and `current_timestamp()` takes parentheses. Nothing is rewritten inside strings
 * or comments, because the tokens say where those are.
 */
import { tokenize, type Token } from '../lexer.js'

function quoteString(body: string): string {
  return `'${body.replace(/'/g, "''")}'`
}

/** A "..." or '...' string's value: backslash escapes as BigQuery reads them, a doubled quote as the lexer reads it. */
function stringValue(text: string): string {
  const quote = text[0]!
  const body = text.slice(1, -1).replaceAll(quote + quote, quote)
  return body.replace(/\\(.)/g, (_, ch: string) => ({ n: '\n', t: '\t', r: '\r', '0': '\0' })[ch] ?? ch)
}

/** The query rewritten into the Postgres grammar; throws on an unterminated string, identifier or comment. */
export function bigQueryToPostgres(sql: string): string {
  const tokens = tokenize(sql, { dialect: 'bigquery' })
  const out: string[] = []
  const significant = (from: number, step: 1 | -1): Token | undefined => {
    for (let i = from; i >= 0 && i < tokens.length; i += step) {
      const kind = tokens[i]!.kind
      if (kind !== 'whitespace' && kind !== 'line-comment' && kind !== 'block-comment') return tokens[i]
    }
    return undefined
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.unterminated) throw new Error('The query has an unterminated string, identifier or comment')
    switch (token.kind) {
      case 'line-comment':
      case 'block-comment':
        out.push(' ')
        break
      case 'string':
        out.push(quoteString(token.text.startsWith('"') || token.text.startsWith("'") ? stringValue(token.text) : token.text))
        break
      case 'quoted-identifier':
        // `name` -> "name"; a double quote inside becomes two.
        out.push(token.text.startsWith('`') ? `"${token.text.slice(1, -1).replace(/"/g, '""')}"` : token.text)
        break
      case 'number': {
        // BigQuery's `interval 1 hour`: Postgres wants the quantity and unit as one string.
        const before = significant(i - 1, -1)
        const after = significant(i + 1, 1)
        if (before?.kind === 'word' && before.text.toLowerCase() === 'interval' && after?.kind === 'word') {
          out.push(quoteString(`${token.text} ${after.text}`))
          i = tokens.indexOf(after)
        } else out.push(token.text)
        break
      }
      case 'word': {
        // current_timestamp() / current_date(): the parentheses are BigQuery's, Postgres refuses them.
        const next = significant(i + 1, 1)
        const close = next ? significant(tokens.indexOf(next) + 1, 1) : undefined
        if (/^current_(timestamp|date)$/i.test(token.text) && next?.text === '(' && close?.text === ')') {
          out.push(token.text)
          i = tokens.indexOf(close)
        } else out.push(token.text)
        break
      }
      default:
        out.push(token.text)
    }
  }
  return out.join('')
}
