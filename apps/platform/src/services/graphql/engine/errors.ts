/** A request the engine refuses or cannot answer: its message is pg_graphql's where pg_graphql has one. */
export class GraphqlEngineError extends Error {}

/** graphql-js's validation and coercion messages, and pg_graphql's wording of the same refusal. */
const WORDINGS: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/^Cannot query field "aggregate" on type "[^"]+Connection"\./, () => 'enable the aggregate directive to use aggregates'],
  [/^Cannot query field "([^"]+)" on type "([^"]+(?:Sum|Avg|Min|Max)AggregateResult)"\./, (m) => `Unknown or invalid field "${m[1]}" selected on type "${m[2]}"`],
  [/^Cannot query field "[^"]+" on type "[^"]+Connection"\./, () => 'unknown field in connection'],
  [/^Cannot query field "([^"]+)" on type "(Query|Mutation)"\./, (m) => `Unknown field "${m[1]}" on type ${m[2]}`],
  [/^Cannot query field "([^"]+)" on type "([^"]+)"\./, (m) => `Unknown field '${m[1]}' on type '${m[2]}'`],
  [/^Unknown argument "([^"]+)" on field/, (m) => `Input contains extra keys ["${m[1]}"]`],
  [/^Variable "[^"]+" of required type "[^"]+!" was not provided/, () => 'Invalid input for NonNull type'],
  [/^Enum "([^"]+)" cannot represent/, (m) => `Invalid input for ${m[1]} type`],
  [/(?:^|; )(\w+) cannot represent/, (m) => `Invalid input for ${m[1]} type`],
  [/^Fields "([^"]+)" conflict because they have differing arguments/, (m) => `Two fields named \`${m[1]}\` have different arguments`],
  [/"([^"]+)" and "([^"]+)" are different fields/, (m) => `Fields \`${m[2]}\` and \`${m[1]}\` are different`],
  [/^Cannot spread fragment "[^"]+" within itself/, () => 'Found a cycle between fragments'],
  [/Field "([^"]+)" is not defined by type "([^"]+)"\./, (m) => `Input for type ${m[2]} contains extra keys ["${m[1]}"]`],
  [/Value "[^"]*" does not exist in "([^"]+)" enum/, (m) => `Invalid input for ${m[1]} type`],
  [/Expected type "([^"!]+)!?" to be an object/, (m) => `Invalid input for ${m[1]} type`],
  [/^Expected value of type "([^"!\]]+?)!?", found/, (m) => `Invalid input for ${m[1]!.replace(/^\[/, '')} type`],
  [/argument "[^"]+" of type "[^"]+!" is required, but it was not provided/, () => 'Invalid input for NonNull type'],
]

export function pgGraphqlMessage(message: string): string {
  for (const [pattern, wording] of WORDINGS) {
    const match = pattern.exec(message)
    if (match) return wording(match)
  }
  return message
}

/** pg_graphql answers these document-level refusals without a `data` key. */
export const withoutData = (message: string) => /^(Two fields named|Found a cycle between fragments|Operation not found)/.test(message)

/**
 * The statement's own refusals: atMost is checked inside the statement by casting a text to integer,
 * which fails with the text in the message (there is no RAISE in plain SQL); this reads the text back.
 */
export function databaseMessage(message: string): string {
  const tooMany = /"((?:update|delete) impacts too many records) \d+"/.exec(message)
  if (tooMany) return tooMany[1]!
  const tooLong = /^value too long for type character(?: varying)?\((\d+)\)/.exec(message)
  if (tooLong) return `Invalid input for String type. Maximum character length ${tooLong[1]}`
  return message
}
