import type { Token } from './lexer.js'

/**
 * The name an identifier token stands for: unquoted words fold to lower case, "quoted" ones
 * keep their case with doubled quotes undone. Returns undefined for other tokens.
 */
export function identifierName(token: Token | undefined): string | undefined {
  if (!token) return undefined
  if (token.kind === 'word') return token.text.toLowerCase()
  if (token.kind === 'quoted-identifier' && token.text.startsWith('"') && !token.unterminated) {
    return token.text.slice(1, -1).replaceAll('""', '"')
  }
  if (token.kind === 'quoted-identifier') return token.text
  return undefined
}

export function isIdentifierToken(token: Token | undefined): boolean {
  return token?.kind === 'word' || token?.kind === 'quoted-identifier'
}
