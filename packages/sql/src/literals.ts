/** Quoting values into SQL text. */

/**
 * A string literal for any value. Quotes are doubled; a value holding backslashes becomes an
 * E'' literal with doubled backslashes, which reads the same whether standard_conforming_strings
 * is on or off.
 */
export function quoteLiteral(value: string): string {
  const quoted = value.replaceAll("'", "''")
  return value.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`
}

/** A quoted identifier: `"my ""table"""`. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
